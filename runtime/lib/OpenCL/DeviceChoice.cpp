//===- DeviceChoice.cpp - The device a command line asks for --------------===//

#include "tilec/Runtime/DeviceChoice.h"

#include "../DeviceSelector.h"

using namespace tilec;
using namespace tilec::opencl;

Expected<DeviceDescriptor> tilec::chooseDevice(std::string_view selector,
                                               const std::string &profilePath) {
  return chooseWithProfile(enumerateDevices(), opencl::selectDevice, selector,
                           profilePath);
}

Expected<std::unique_ptr<Device>>
tilec::openChosenDevice(std::string_view selector,
                        const std::string &profilePath) {
  Expected<DeviceDescriptor> chosen = chooseDevice(selector, profilePath);
  if (!chosen)
    return chosen.error();
  return Device::open(*chosen);
}
