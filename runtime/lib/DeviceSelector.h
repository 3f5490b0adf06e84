//===- DeviceSelector.h - What `--device SEL` matches -----------*- C++ -*-===//
//
// Internal to the runtime: the rule by which every backend picks a device
// from its list, so that `--device` means the same on OpenCL and Vulkan.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_LIB_DEVICESELECTOR_H
#define TILEC_RUNTIME_LIB_DEVICESELECTOR_H

#include "tilec/Runtime/Device.h"
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
/// "#index: name (<describe(device)>)"; both are ErrorKind::NoDevice.
template <class Descriptor, class Describe>
Expected<Descriptor>
pickDevice(const std::vector<Descriptor> &devices, std::string_view selector,
           std::optional<size_t> defaultIndex, std::string_view api,
           const char *noDevice, Describe describe) {
  if (devices.empty())
    return Error(ErrorKind::NoDevice, noDevice);
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
  return Error(ErrorKind::NoDevice,
               describeUnmatchedSelector(api, selector, listing));
}

/// The device that `select` picks from `devices` by `request.selector`,
/// with the request's profile file, then its overrides, over its profile. A
/// failed enumeration and select's errors pass through; a profile that cannot
/// be applied is ErrorKind::InvalidArgument.
template <class Descriptor, class Select>
Expected<Descriptor> chooseForRequest(Expected<std::vector<Descriptor>> devices,
                                      Select select,
                                      const DeviceRequest &request) {
  if (!devices)
    return devices.error();
  Expected<Descriptor> chosen = select(*devices, request.selector);
  if (!chosen)
    return chosen.error();
  auto invalid = [](const Status &status) {
    return Error(ErrorKind::InvalidArgument, status.error().message());
  };
  if (!request.profilePath.empty())
    if (Status status = applyProfileFile(chosen->profile, request.profilePath);
        !status)
      return invalid(status);
  if (!request.profileOverrides.empty())
    if (Status status = applyProfileOverrides(
            chosen->profile, request.profileOverrides, "profile overrides");
        !status)
      return invalid(status);
  return chosen;
}

/// `devices` (a backend's enumeration) as a DeviceList: the one `select`
/// picks for "" marked as the default, `originOf` saying where each comes
/// from and `format` making the listing.
template <class Descriptor, class Select, class OriginOf, class Format>
Expected<DeviceList> listDescriptors(Expected<std::vector<Descriptor>> devices,
                                     Select select, OriginOf originOf,
                                     Format format) {
  if (!devices)
    return devices.error();
  std::optional<unsigned> defaultIndex;
  if (Expected<Descriptor> chosen = select(*devices, ""); chosen)
    defaultIndex = chosen->index;
  DeviceList list;
  for (const Descriptor &device : *devices)
    list.devices.push_back({device.index, originOf(device), device.profile,
                            defaultIndex == device.index});
  list.listing = format(*devices);
  return list;
}

} // namespace tilec

#endif // TILEC_RUNTIME_LIB_DEVICESELECTOR_H
