//===- Devices.cpp - `tilec devices` --------------------------------------===//

#include "Driver.h"

#include "tilec/Runtime/Vulkan.h"

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
        chooseDeviceProfile(*backend, options.device, options.profile);
    if (!profile) {
      reportError(profile.error().message());
      return ExitDeviceError;
    }
    outs() << profileToJson(*profile);
    return ExitSuccess;
  }
  Expected<std::vector<opencl::DeviceDescriptor>> openclDevices =
      opencl::enumerateDevices();
  if (!openclDevices) {
    reportError(openclDevices.error().message());
    return ExitDeviceError;
  }
  Expected<std::vector<vulkan::DeviceDescriptor>> vulkanDevices =
      vulkan::enumerateDevices();
  if (!vulkanDevices) {
    reportError(vulkanDevices.error().message());
    return ExitDeviceError;
  }
  // Each list says why it is empty and what to install.
  std::string openclList = opencl::formatDeviceList(*openclDevices);
  std::string vulkanList = vulkan::formatDeviceList(*vulkanDevices);
  if (openclDevices->empty() && vulkanDevices->empty()) {
    reportError(StringRef(openclList + vulkanList).rtrim());
    return ExitDeviceError;
  }
  outs() << "OpenCL (--backend opencl):\n" << openclList;
  outs() << "Vulkan (--backend vulkan):\n" << vulkanList;
  return ExitSuccess;
}

} // namespace tilec
