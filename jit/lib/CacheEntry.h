//===- CacheEntry.h - The file form of a disk cache entry -------*- C++ -*-===//
//
// Internal to the JIT library. An entry file is a fixed header, then the
// key's text, the bundle's JSON and the driver's program binary:
//
//   magic "TILECKC\0" (8 bytes), format version (u32), key length,
//   bundle length, binary length (u64 each), the XXH3 64-bit checksum of
//   everything after the header (u64); all integers little-endian.
//
// Decoding trusts nothing: another magic or version, lengths that do not add
// up to the file's size, another key (a hash collision, or a file renamed)
// or a checksum mismatch (a corrupt or truncated file) reject the entry.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_JIT_LIB_CACHEENTRY_H
#define TILEC_JIT_LIB_CACHEENTRY_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilec::jit {

/// The version of the entry format; entries of another are rejected.
inline constexpr uint32_t kCacheEntryFormatVersion = 1;

/// What the disk cache stores of a compiled program.
struct CacheEntry {
  /// The bundle in its JSON file form.
  std::string bundleJson;
  /// The driver's binary of the bundle's program; empty for a backend
  /// without one.
  std::vector<unsigned char> binary;
};

/// The file form of `entry` under `keyText`.
std::string encodeCacheEntry(const std::string &keyText,
                             const CacheEntry &entry);

/// Decodes the file form in `bytes`, which must hold `keyText`; otherwise
/// returns nullopt and says why in `whyRejected`.
std::optional<CacheEntry> decodeCacheEntry(std::string_view bytes,
                                           const std::string &keyText,
                                           std::string &whyRejected);

} // namespace tilec::jit

#endif // TILEC_JIT_LIB_CACHEENTRY_H
