//===- CacheEntry.cpp - The file form of a disk cache entry ---------------===//

#include "CacheEntry.h"

#include <xxhash.h>

#include <cstring>

namespace tilec::jit {

static constexpr char kMagic[8] = {'T', 'I', 'L', 'E', 'C', 'K', 'C', '\0'};
/// Magic, version, three lengths and the checksum.
static constexpr size_t kHeaderBytes = 8 + 4 + 3 * 8 + 8;

static void appendLittleEndian(std::string &out, uint64_t value,
                               unsigned bytes) {
  for (unsigned i = 0; i < bytes; ++i)
    out += static_cast<char>((value >> (8 * i)) & 0xFF);
}

static uint64_t readLittleEndian(std::string_view bytes, size_t offset,
                                 unsigned count) {
  uint64_t value = 0;
  for (unsigned i = 0; i < count; ++i)
    value |= uint64_t(static_cast<unsigned char>(bytes[offset + i])) << (8 * i);
  return value;
}

std::string encodeCacheEntry(const std::string &keyText,
                             const CacheEntry &entry) {
  std::string payload = keyText + entry.bundleJson;
  payload.append(entry.binary.begin(), entry.binary.end());
  std::string file(kMagic, sizeof(kMagic));
  appendLittleEndian(file, kCacheEntryFormatVersion, 4);
  appendLittleEndian(file, keyText.size(), 8);
  appendLittleEndian(file, entry.bundleJson.size(), 8);
  appendLittleEndian(file, entry.binary.size(), 8);
  appendLittleEndian(file, XXH3_64bits(payload.data(), payload.size()), 8);
  return file + payload;
}

std::optional<CacheEntry> decodeCacheEntry(std::string_view bytes,
                                           const std::string &keyText,
                                           std::string &whyRejected) {
  auto reject = [&](const char *why) -> std::optional<CacheEntry> {
    whyRejected = why;
    return std::nullopt;
  };
  if (bytes.size() < kHeaderBytes ||
      std::memcmp(bytes.data(), kMagic, sizeof(kMagic)) != 0)
    return reject("not a tilec cache entry");
  if (readLittleEndian(bytes, 8, 4) != kCacheEntryFormatVersion)
    return reject("another entry format version");
  uint64_t keyBytes = readLittleEndian(bytes, 12, 8);
  uint64_t bundleBytes = readLittleEndian(bytes, 20, 8);
  uint64_t binaryBytes = readLittleEndian(bytes, 28, 8);
  uint64_t checksum = readLittleEndian(bytes, 36, 8);
  std::string_view payload = bytes.substr(kHeaderBytes);
  // Compared one by one, so that huge lengths cannot overflow a sum.
  if (keyBytes > payload.size() || bundleBytes > payload.size() - keyBytes ||
      binaryBytes != payload.size() - keyBytes - bundleBytes)
    return reject("truncated, or lengths that do not match the file's size");
  if (XXH3_64bits(payload.data(), payload.size()) != checksum)
    return reject("checksum mismatch");
  if (payload.substr(0, keyBytes) != keyText)
    return reject("the entry holds another key");
  CacheEntry entry;
  entry.bundleJson = std::string(payload.substr(keyBytes, bundleBytes));
  std::string_view binary = payload.substr(keyBytes + bundleBytes);
  entry.binary.assign(binary.begin(), binary.end());
  return entry;
}

} // namespace tilec::jit
