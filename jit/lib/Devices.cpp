//===- Devices.cpp - The devices and backends a context may open ----------===//

#include "DeviceSession.h"
#include "RuntimeFailure.h"

#include "tilec/Runtime/OpenCL.h"

namespace tilec::jit {

/// The error of asking for a backend this build does not have.
static Error unavailableBackend(Backend backend) {
  return Error(ErrorKind::NoDevice, std::string("the ") + backendName(backend) +
                                        " backend is not available in this "
                                        "build of tilec (available: opencl)");
}

Expected<std::shared_ptr<DeviceSession>>
openDeviceSession(const ContextOptions &options) {
  switch (options.backend) {
  case Backend::OpenCL:
    return openOpenCLSession(options);
  case Backend::Vulkan:
    break;
  }
  return unavailableBackend(options.backend);
}

Expected<std::vector<DeviceInfo>> listDevices(Backend backend) {
  if (backend != Backend::OpenCL)
    return unavailableBackend(backend);
  tilec::Expected<std::vector<opencl::DeviceDescriptor>> devices =
      opencl::enumerateDevices();
  if (!devices)
    return fromRuntimeError(devices.error(), ErrorKind::Device);
  std::optional<unsigned> defaultIndex;
  if (tilec::Expected<opencl::DeviceDescriptor> chosen =
          opencl::selectDevice(*devices, "");
      chosen)
    defaultIndex = chosen->index;
  std::vector<DeviceInfo> infos;
  for (const opencl::DeviceDescriptor &device : *devices)
    infos.push_back({device.index, device.platformName, device.profile,
                     defaultIndex == device.index});
  return infos;
}

} // namespace tilec::jit
