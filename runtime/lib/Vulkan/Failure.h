//===- Failure.h - Errors from VkResults ------------------------*- C++ -*-===//
//
// Internal to the runtime's Vulkan layer.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_LIB_VULKAN_FAILURE_H
#define TILEC_RUNTIME_LIB_VULKAN_FAILURE_H

#include "Vulkan/Vulkan.h"

#include <string>
#include <string_view>

namespace tilec::vulkan {

/// "<what>: VK_ERROR_OUT_OF_DEVICE_MEMORY (-2)", carrying the VkResult as
/// the driver code. `what` says what was being done.
Error driverFailure(VkResult result, const std::string &what);

/// `name` in single quotes, for messages: 'vadd'.
inline std::string quoted(std::string_view name) {
  return "'" + std::string(name) + "'";
}

} // namespace tilec::vulkan

#endif // TILEC_RUNTIME_LIB_VULKAN_FAILURE_H
