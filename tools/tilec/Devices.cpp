//===- Devices.cpp - `tilec devices` --------------------------------------===//

#include "Driver.h"

#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace tilec {

int runDevices(const DevicesOptions &options) {
  if (options.json) {
    std::optional<opencl::DeviceDescriptor> chosen =
        chooseRunDevice(options.device, options.profile);
    if (!chosen)
      return ExitDeviceError;
    outs() << profileToJson(chosen->profile);
    return ExitSuccess;
  }
  Expected<std::vector<opencl::DeviceDescriptor>> devices =
      opencl::enumerateDevices();
  if (!devices) {
    reportError(devices.error().message());
    return ExitDeviceError;
  }
  if (devices->empty()) {
    // formatDeviceList says why and what to install.
    reportError(StringRef(opencl::formatDeviceList(*devices)).rtrim());
    return ExitDeviceError;
  }
  outs() << opencl::formatDeviceList(*devices);
  return ExitSuccess;
}

} // namespace tilec
