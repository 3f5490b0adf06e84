//===- Devices.cpp - The devices a context may open -----------------------===//

#include "tilec/JIT/Context.h"
#include "tilec/Runtime/Device.h"

namespace tilec::jit {

Expected<std::vector<DeviceInfo>> listDevices(Backend backend) {
  Expected<DeviceList> devices = tilec::listDevices(backend);
  if (!devices)
    return devices.error();
  std::vector<DeviceInfo> infos;
  for (const tilec::DeviceInfo &device : devices->devices)
    infos.push_back(
        {device.index, device.origin, device.profile, device.isDefault});
  return infos;
}

} // namespace tilec::jit
