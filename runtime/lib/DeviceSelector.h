//===- DeviceSelector.h - What `--device SEL` matches -----------*- C++ -*-===//
//
// Internal to the runtime: the rule by which every backend picks a device
// from its list, so that `--device` means the same on OpenCL and Vulkan.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_LIB_DEVICESELECTOR_H
#define TILEC_RUNTIME_LIB_DEVICESELECTOR_H

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilec {

/// The position in `names` of the device that the non-empty `selector`
/// picks: a decimal number picks by position, anything else the first name
/// that contains it, ignoring case. Nullopt when none matches.
std::optional<size_t> matchDeviceSelector(const std::vector<std::string> &names,
                                          std::string_view selector);

/// "no <api> device has index '7'; the devices are:" or "... name contains
/// 'x' ...", followed by `listing` (one "\n  #i: ..." line per device).
std::string describeUnmatchedSelector(std::string_view api,
                                      std::string_view selector,
                                      const std::string &listing);

} // namespace tilec

#endif // TILEC_RUNTIME_LIB_DEVICESELECTOR_H
