//===- Devices.cpp - The devices and backends a context may open ----------===//

#include "DeviceSession.h"
#include "RuntimeFailure.h"

#include "tilec/Runtime/OpenCL.h"
#include "tilec/Runtime/Vulkan.h"

namespace tilec::jit {

Expected<std::shared_ptr<DeviceSession>>
openDeviceSession(const ContextOptions &options) {
  switch (options.backend) {
  case Backend::OpenCL:
    return openOpenCLSession(options);
  case Backend::Vulkan:
    return openVulkanSession(options);
  }
  return Error(ErrorKind::NoDevice, "unknown backend");
}

/// `devices` of a backend as DeviceInfos, the one `select` picks for ""
/// marked as the default; `platformOf` names where each comes from.
template <class Descriptor, class Select, class PlatformOf>
static Expected<std::vector<DeviceInfo>>
describeDevices(const tilec::Expected<std::vector<Descriptor>> &devices,
                Select select, PlatformOf platformOf) {
  if (!devices)
    return fromRuntimeError(devices.error(), ErrorKind::Device);
  std::optional<unsigned> defaultIndex;
  if (tilec::Expected<Descriptor> chosen = select(*devices, ""); chosen)
    defaultIndex = chosen->index;
  std::vector<DeviceInfo> infos;
  for (const Descriptor &device : *devices)
    infos.push_back({device.index, platformOf(device), device.profile,
                     defaultIndex == device.index});
  return infos;
}

Expected<std::vector<DeviceInfo>> listDevices(Backend backend) {
  switch (backend) {
  case Backend::OpenCL:
    return describeDevices(opencl::enumerateDevices(), opencl::selectDevice,
                           [](const opencl::DeviceDescriptor &device) {
                             return device.platformName;
                           });
  case Backend::Vulkan:
    return describeDevices(vulkan::enumerateDevices(), vulkan::selectDevice,
                           [](const vulkan::DeviceDescriptor &device) {
                             return "Vulkan " + device.apiVersion;
                           });
  }
  return Error(ErrorKind::NoDevice, "unknown backend");
}

} // namespace tilec::jit
