//===- DeviceSelector.h - What `--device SEL` matches -----------*- C++ -*-===//
//
// Internal to the runtime: the rule by which every backend picks a device
// from its list, so that `--device` means the same on OpenCL and Vulkan.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_LIB_DEVICESELECTOR_H
#define TILEC_RUNTIME_LIB_DEVICESELECTOR_H

#include "tilec/Runtime/DeviceProfile.h"
#include "tilec/Runtime/Status.h"

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

/// The device of `devices` (descriptors with an `index` and a `profile`)
/// that `selector` picks: "" picks the one at `defaultIndex`, anything else
/// follows matchDeviceSelector. An empty list is the error `noDevice`; a
/// selector that matches nothing is an error listing every device as
/// "#index: name (<describe(device)>)".
template <class Descriptor, class Describe>
Expected<Descriptor>
pickDevice(const std::vector<Descriptor> &devices, std::string_view selector,
           std::optional<size_t> defaultIndex, std::string_view api,
           const char *noDevice, Describe describe) {
  if (devices.empty())
    return Error(noDevice);
  if (selector.empty())
    return devices[*defaultIndex];
  std::vector<std::string> names;
  for (const Descriptor &descriptor : devices)
    names.push_back(descriptor.profile.name);
  if (std::optional<size_t> match = matchDeviceSelector(names, selector))
    return devices[*match];

  std::string listing;
  for (const Descriptor &descriptor : devices)
    listing += "\n  #" + std::to_string(descriptor.index) + ": " +
               descriptor.profile.name + " (" + describe(descriptor) + ")";
  return Error(describeUnmatchedSelector(api, selector, listing));
}

/// The device that `select` picks from `devices` by `selector`, its profile
/// overridden by the file at `profilePath` when one is named.
template <class Descriptor, class Select>
Expected<Descriptor>
chooseWithProfile(Expected<std::vector<Descriptor>> devices, Select select,
                  std::string_view selector, const std::string &profilePath) {
  if (!devices)
    return devices.error();
  Expected<Descriptor> chosen = select(*devices, selector);
  if (!chosen)
    return chosen.error();
  if (!profilePath.empty())
    if (Status status = applyProfileFile(chosen->profile, profilePath); !status)
      return status.error();
  return chosen;
}

} // namespace tilec

#endif // TILEC_RUNTIME_LIB_DEVICESELECTOR_H
