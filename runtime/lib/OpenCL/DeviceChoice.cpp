//===- DeviceChoice.cpp - The device a command line asks for --------------===//

#include "tilec/Runtime/DeviceChoice.h"

using namespace tilec;
using namespace tilec::opencl;

Expected<DeviceDescriptor> tilec::chooseDevice(std::string_view selector,
                                               const std::string &profilePath) {
  Expected<std::vector<DeviceDescriptor>> devices = enumerateDevices();
  if (!devices)
    return devices.error();
  Expected<DeviceDescriptor> chosen = selectDevice(*devices, selector);
  if (!chosen)
    return chosen.error();
  if (!profilePath.empty())
    if (Status status = applyProfileFile(chosen->profile, profilePath); !status)
      return status.error();
  return chosen;
}

Expected<std::unique_ptr<Device>>
tilec::openChosenDevice(std::string_view selector,
                        const std::string &profilePath) {
  Expected<DeviceDescriptor> chosen = chooseDevice(selector, profilePath);
  if (!chosen)
    return chosen.error();
  return Device::open(*chosen);
}
