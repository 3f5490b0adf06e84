//===- npy.cpp - libFuzzer target: the .npy reader ------------------------===//
//
// Any bytes: parseNpy returns a tensor or an error, never a crash, undefined
// behaviour or an allocation beyond the input's size. A tensor it accepts
// writes as a file that reads back equal.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/Npy.h"

#include <cstdint>
#include <cstdlib>
#include <string>

using namespace tilec;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string error;
  std::optional<HostTensor> tensor = parseNpy(data, size, "fuzz.npy", error);
  if (!tensor)
    return 0;
  std::string image = serializeNpy(*tensor);
  std::optional<HostTensor> again =
      parseNpy(reinterpret_cast<const uint8_t *>(image.data()), image.size(),
               "again.npy", error);
  if (!again || !(*again == *tensor))
    std::abort();
  return 0;
}
