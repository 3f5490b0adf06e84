//===- HostMemory.cpp - The memory the reference may allocate -------------===//

#include "HostMemory.h"

#include "tilec/Runtime/HostMemory.h"

using namespace tilec;
using namespace tilec::interp;

std::optional<std::string> interp::checkHostMemory(uint64_t bytes) {
  uint64_t available = availableHostMemory();
  if (bytes <= available)
    return std::nullopt;
  return "needs " + std::to_string(bytes) + " bytes, more than the " +
         std::to_string(available) + " bytes of memory available on this host";
}
