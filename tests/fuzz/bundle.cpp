//===- bundle.cpp - libFuzzer target: the bundle reader -------------------===//
//
// Any bytes: parseBundle returns a bundle or an error, never an exception,
// a crash or undefined behaviour. A bundle it accepts serialises to text
// that it accepts again unchanged.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/Bundle.h"

#include <cstdint>
#include <cstdlib>
#include <string>

using namespace tilec;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  Expected<Bundle> bundle = parseBundle(text, "fuzz.json");
  if (!bundle)
    return 0;
  std::string written = serializeBundle(*bundle);
  Expected<Bundle> again = parseBundle(written, "again.json");
  if (!again || serializeBundle(*again) != written)
    std::abort();
  return 0;
}
