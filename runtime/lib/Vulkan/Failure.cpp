//===- Failure.cpp - Names of VkResults -----------------------------------===//

#include "Failure.h"

using namespace tilec;
using namespace tilec::vulkan;

const char *vulkan::resultName(VkResult result) {
  switch (result) {
#define RESULT(code)                                                           \
  case code:                                                                   \
    return #code;
    RESULT(VK_SUCCESS)
    RESULT(VK_NOT_READY)
    RESULT(VK_TIMEOUT)
    RESULT(VK_INCOMPLETE)
    RESULT(VK_ERROR_OUT_OF_HOST_MEMORY)
    RESULT(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    RESULT(VK_ERROR_INITIALIZATION_FAILED)
    RESULT(VK_ERROR_DEVICE_LOST)
    RESULT(VK_ERROR_MEMORY_MAP_FAILED)
    RESULT(VK_ERROR_LAYER_NOT_PRESENT)
    RESULT(VK_ERROR_EXTENSION_NOT_PRESENT)
    RESULT(VK_ERROR_FEATURE_NOT_PRESENT)
    RESULT(VK_ERROR_INCOMPATIBLE_DRIVER)
    RESULT(VK_ERROR_TOO_MANY_OBJECTS)
    RESULT(VK_ERROR_FORMAT_NOT_SUPPORTED)
    RESULT(VK_ERROR_FRAGMENTED_POOL)
    RESULT(VK_ERROR_UNKNOWN)
    RESULT(VK_ERROR_OUT_OF_POOL_MEMORY)
    RESULT(VK_ERROR_INVALID_EXTERNAL_HANDLE)
    RESULT(VK_ERROR_FRAGMENTATION)
    RESULT(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS)
    RESULT(VK_PIPELINE_COMPILE_REQUIRED)
    RESULT(VK_ERROR_INVALID_SHADER_NV)
#undef RESULT
  default:
    return "VK_UNKNOWN_RESULT";
  }
}

Error vulkan::driverFailure(VkResult result, const std::string &what) {
  return Error(what + ": " + resultName(result) + " (" +
                   std::to_string(static_cast<int>(result)) + ")",
               static_cast<int>(result));
}
