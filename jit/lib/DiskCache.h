//===- DiskCache.h - Compiled programs in a directory -----------*- C++ -*-===//
//
// Internal to the JIT library. One file per entry, named by the key's hash
// (`<hash>.tkc`), in the form of CacheEntry.h. Many processes may share the
// directory: an entry is written to a temporary file and renamed into place,
// so readers see whole entries or none, and a reader checks everything it
// reads anyway. A hit refreshes the entry's modification time, which is
// its last use: when a store makes the entries exceed the size bound, the
// least recently used are deleted.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_JIT_LIB_DISKCACHE_H
#define TILEC_JIT_LIB_DISKCACHE_H

#include "CacheEntry.h"
#include "CacheKey.h"

#include "tilec/JIT/Context.h"
#include "tilec/JIT/Error.h"

#include <cstdint>
#include <optional>
#include <string>

namespace tilec::jit {

class DiskCache {
public:
  /// The directory `options` name: CacheOptions::directory, else
  /// $TILEC_CACHE_DIR, else $XDG_CACHE_HOME/tilec, else ~/.cache/tilec,
  /// created if missing. Returns nullopt when the disk cache is disabled, or
  /// when the default directory is unusable (or there is no home to put it
  /// in); a directory named explicitly that cannot be created or written is
  /// an ErrorKind::Cache error.
  static Expected<std::optional<DiskCache>> open(const CacheOptions &options);

  const std::string &directory() const { return path; }

  enum class LoadOutcome { Hit, Miss, Rejected };
  /// Reads the entry of `key` into `entry`. A file that fails to decode, or
  /// anything else in its place (a directory, a FIFO, a symbolic link: never
  /// followed, opened without blocking), is deleted (Rejected), so that the
  /// next store rewrites it.
  LoadOutcome load(const CacheKey &key, CacheEntry &entry) const;

  struct StoreOutcome {
    bool stored = false;
    /// Entries deleted to respect the size bound.
    unsigned evictions = 0;
  };
  /// Writes the entry of `key` atomically, then evicts the least recently
  /// used entries while all of them exceed the size bound.
  StoreOutcome store(const CacheKey &key, const CacheEntry &entry) const;

  /// Deletes the entry of `key`: one whose content the device rejected.
  void remove(const CacheKey &key) const;

private:
  DiskCache(std::string directory, uint64_t maxBytes)
      : path(std::move(directory)), maxBytes(maxBytes) {}

  std::string entryPath(const CacheKey &key) const;
  /// Deletes least recently used entries until they take at most maxBytes;
  /// returns how many it deleted.
  unsigned evict() const;

  std::string path;
  uint64_t maxBytes;
};

} // namespace tilec::jit

#endif // TILEC_JIT_LIB_DISKCACHE_H
