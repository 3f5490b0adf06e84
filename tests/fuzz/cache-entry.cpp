//===- cache-entry.cpp - libFuzzer target: the JIT's cache-entry reader ---===//
//
// Any bytes as the file of the entry of key "fuzz-key": decodeCacheEntry
// returns an entry or a rejection, never a crash or undefined behaviour; an
// entry it accepts encodes back to the same bytes, and its bundle goes
// through parseBundle as the JIT's disk hit does.
//
//===----------------------------------------------------------------------===//

#include "CacheEntry.h"

#include "tilec/Runtime/Bundle.h"

#include <cstdint>
#include <cstdlib>
#include <string>

using namespace tilec;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char *>(data), size);
  const std::string key = "fuzz-key";
  std::string whyRejected;
  std::optional<jit::CacheEntry> entry =
      jit::decodeCacheEntry(bytes, key, whyRejected);
  if (!entry)
    return 0;
  if (jit::encodeCacheEntry(key, *entry) != bytes)
    std::abort();
  (void)parseBundle(entry->bundleJson, "entry");
  return 0;
}
