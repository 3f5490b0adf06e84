//===- Backends.h - Each backend's half of Device.h -------------*- C++ -*-===//
//
// Internal to the runtime: what listDevices, chooseDeviceProfile and
// Device::open call for the backend a request names
// (OpenCL/OpenedDevice.cpp, Vulkan/OpenedDevice.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_LIB_BACKENDS_H
#define TILEC_RUNTIME_LIB_BACKENDS_H

#include "tilec/Runtime/Device.h"

#include <memory>

namespace tilec {

namespace opencl {
Expected<DeviceList> listDevices();
Expected<DeviceProfile> chooseDeviceProfile(const DeviceRequest &request);
Expected<std::unique_ptr<tilec::Device>>
openDevice(const DeviceRequest &request);
} // namespace opencl

namespace vulkan {
Expected<DeviceList> listDevices();
Expected<DeviceProfile> chooseDeviceProfile(const DeviceRequest &request);
Expected<std::unique_ptr<tilec::Device>>
openDevice(const DeviceRequest &request);
} // namespace vulkan

} // namespace tilec

#endif // TILEC_RUNTIME_LIB_BACKENDS_H
