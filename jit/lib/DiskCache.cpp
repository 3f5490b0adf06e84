//===- DiskCache.cpp - Compiled programs in a directory -------------------===//

#include "DiskCache.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

namespace fs = std::filesystem;

namespace tilec::jit {

static constexpr const char *kEntrySuffix = ".tkc";

/// The value of environment variable `name`, or "" when unset.
static std::string getEnvironment(const char *name) {
  const char *value = std::getenv(name);
  return value ? value : "";
}

/// Whether `directory` exists (creating it if needed) and this process may
/// create files in it; otherwise says why in `why`.
static bool prepareDirectory(const std::string &directory, std::string &why) {
  std::error_code error;
  fs::create_directories(directory, error);
  if (error) {
    why = "cannot create it: " + error.message();
    return false;
  }
  if (!fs::is_directory(directory, error)) {
    why = "it is not a directory";
    return false;
  }
  if (access(directory.c_str(), W_OK | X_OK) != 0) {
    why = "it is not writable";
    return false;
  }
  return true;
}

Expected<std::optional<DiskCache>>
DiskCache::open(const CacheOptions &options) {
  if (!options.diskEnabled)
    return std::optional<DiskCache>();
  std::string directory = options.directory;
  const char *origin = "CacheOptions::directory";
  if (directory.empty()) {
    directory = getEnvironment("TILEC_CACHE_DIR");
    origin = "TILEC_CACHE_DIR";
  }
  bool explicitlyNamed = !directory.empty();
  if (!explicitlyNamed) {
    std::string base = getEnvironment("XDG_CACHE_HOME");
    if (base.empty() && !getEnvironment("HOME").empty())
      base = getEnvironment("HOME") + "/.cache";
    if (base.empty())
      return std::optional<DiskCache>();
    directory = base + "/tilec";
  }
  std::string why;
  if (!prepareDirectory(directory, why)) {
    if (!explicitlyNamed)
      return std::optional<DiskCache>();
    return Error(ErrorKind::Cache, "the kernel cache directory '" + directory +
                                       "' (from " + origin +
                                       ") is unusable: " + why +
                                       "; name another, or disable the disk "
                                       "cache (CacheOptions::diskEnabled)");
  }
  return std::optional<DiskCache>(DiskCache(directory, options.maxDiskBytes));
}

std::string DiskCache::entryPath(const CacheKey &key) const {
  return path + "/" + key.hash + kEntrySuffix;
}

/// Removes whatever is at `file`: an entry, or a directory in its place.
static void removeEntryFile(const std::string &file) {
  std::error_code ignored;
  fs::remove_all(file, ignored);
}

/// The bytes of the regular file `file`, or nullopt when it is missing or
/// anything else: a directory, a FIFO (opened without blocking), a symbolic
/// link (to a device, say), or unreadable.
static std::optional<std::string> readEntryFile(const std::string &file) {
  int fd = ::open(file.c_str(), O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0)
    return std::nullopt;
  struct stat info;
  std::optional<std::string> bytes;
  if (::fstat(fd, &info) == 0 && S_ISREG(info.st_mode)) {
    bytes.emplace();
    char chunk[1 << 16];
    ssize_t got;
    while ((got = ::read(fd, chunk, sizeof chunk)) != 0) {
      if (got < 0 && errno == EINTR)
        continue;
      if (got < 0) {
        bytes.reset();
        break;
      }
      bytes->append(chunk, size_t(got));
    }
  }
  ::close(fd);
  return bytes;
}

DiskCache::LoadOutcome DiskCache::load(const CacheKey &key,
                                       CacheEntry &entry) const {
  std::string file = entryPath(key);
  // Whatever is in the file's place, the application gets a hit or a miss:
  // this library is built without exceptions, so nothing here may throw
  // (no streams, std::filesystem only with error codes).
  std::error_code error;
  fs::file_status status = fs::symlink_status(file, error);
  if (error || !fs::exists(status))
    return LoadOutcome::Miss;
  std::optional<std::string> bytes =
      fs::is_regular_file(status) ? readEntryFile(file) : std::nullopt;
  std::string whyRejected;
  std::optional<CacheEntry> decoded =
      bytes ? decodeCacheEntry(*bytes, key.text, whyRejected) : std::nullopt;
  if (!decoded) {
    // Rejected entries are removed, so that the next store rewrites them.
    removeEntryFile(file);
    return LoadOutcome::Rejected;
  }
  // The modification time is the entry's last use, for eviction.
  fs::last_write_time(file, fs::file_time_type::clock::now(), error);
  entry = std::move(*decoded);
  return LoadOutcome::Hit;
}

/// A name for a temporary file in the cache directory that no other thread
/// or process uses: the process id and a per-process counter.
static std::string temporaryName(const std::string &hash) {
  static std::atomic<uint64_t> counter{0};
  std::ostringstream name;
  name << "." << hash << "." << getpid() << "." << counter++ << ".tmp";
  return name.str();
}

DiskCache::StoreOutcome DiskCache::store(const CacheKey &key,
                                         const CacheEntry &entry) const {
  StoreOutcome outcome;
  std::string temporary = path + "/" + temporaryName(key.hash);
  std::string bytes = encodeCacheEntry(key.text, entry);
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) {
      std::error_code ignored;
      fs::remove(temporary, ignored);
      return outcome;
    }
  }
  std::error_code error;
  fs::rename(temporary, entryPath(key), error);
  if (error) {
    // Something that is not an entry (a directory) may hold the name.
    removeEntryFile(entryPath(key));
    fs::rename(temporary, entryPath(key), error);
  }
  if (error) {
    fs::remove(temporary, error);
    return outcome;
  }
  outcome.stored = true;
  outcome.evictions = evict();
  return outcome;
}

void DiskCache::remove(const CacheKey &key) const {
  std::error_code ignored;
  fs::remove(entryPath(key), ignored);
}

unsigned DiskCache::evict() const {
  struct Entry {
    fs::path file;
    fs::file_time_type lastUse;
    uint64_t bytes;
  };
  std::vector<Entry> entries;
  uint64_t total = 0;
  std::error_code error;
  for (fs::directory_iterator it(path, error), end; !error && it != end;
       it.increment(error)) {
    if (it->path().extension() != kEntrySuffix)
      continue;
    std::error_code statError;
    uint64_t bytes = it->file_size(statError);
    fs::file_time_type lastUse = it->last_write_time(statError);
    // Another process may have deleted it meanwhile.
    if (statError)
      continue;
    entries.push_back({it->path(), lastUse, bytes});
    total += bytes;
  }
  std::sort(entries.begin(), entries.end(), [](const Entry &a, const Entry &b) {
    return a.lastUse < b.lastUse;
  });
  unsigned evicted = 0;
  for (const Entry &entry : entries) {
    if (total <= maxBytes)
      break;
    std::error_code removeError;
    if (fs::remove(entry.file, removeError))
      ++evicted;
    total -= entry.bytes;
  }
  return evicted;
}

} // namespace tilec::jit
