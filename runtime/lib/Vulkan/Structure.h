//===- Structure.h - Zero-initialised Vulkan structures ---------*- C++ -*-===//
//
// Internal to the runtime's Vulkan layer.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_LIB_VULKAN_STRUCTURE_H
#define TILEC_RUNTIME_LIB_VULKAN_STRUCTURE_H

#include <vulkan/vulkan.h>

namespace tilec::vulkan {

/// A Vulkan structure of `type` with every other member zero: what
/// `T x = {type};` means, without a warning per member left out.
template <class T> T makeStructure(VkStructureType type) {
  T value = {};
  value.sType = type;
  return value;
}

} // namespace tilec::vulkan

#endif // TILEC_RUNTIME_LIB_VULKAN_STRUCTURE_H
