//===- Devices.cpp - `tilec devices` --------------------------------------===//

#include "Driver.h"

#include "tilec/Runtime/Device.h"

#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace tilec {

int runDevices(const DevicesOptions &options) {
  if (options.json) {
    std::optional<Backend> backend =
        parseDeviceBackend(options.backend, "opencl, vulkan");
    if (!backend)
      return ExitUsageError;
    Expected<DeviceProfile> profile =
        chooseDeviceProfile({*backend, options.device, options.profile});
    if (!profile) {
      reportError(profile.error().message());
      return ExitDeviceError;
    }
    outs() << profileToJson(*profile);
    return ExitSuccess;
  }
  Expected<DeviceList> openclDevices = listDevices(Backend::OpenCL);
  if (!openclDevices) {
    reportError(openclDevices.error().message());
    return ExitDeviceError;
  }
  Expected<DeviceList> vulkanDevices = listDevices(Backend::Vulkan);
  if (!vulkanDevices) {
    reportError(vulkanDevices.error().message());
    return ExitDeviceError;
  }
  // Each listing says why it is empty and what to install.
  const std::string &openclList = openclDevices->listing;
  const std::string &vulkanList = vulkanDevices->listing;
  if (openclDevices->devices.empty() && vulkanDevices->devices.empty()) {
    reportError(StringRef(openclList + vulkanList).rtrim());
    return ExitDeviceError;
  }
  outs() << "OpenCL (--backend opencl):\n" << openclList;
  outs() << "Vulkan (--backend vulkan):\n" << vulkanList;
  return ExitSuccess;
}

} // namespace tilec
