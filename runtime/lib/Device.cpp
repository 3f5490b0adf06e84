//===- Device.cpp - A device of either backend ----------------------------===//

#include "tilec/Runtime/Device.h"

#include "Backends.h"

using namespace tilec;

/// The error of a request for a backend that this runtime does not have.
static Error unknownBackend() {
  return Error(ErrorKind::NoDevice, "unknown backend");
}

Expected<DeviceList> tilec::listDevices(Backend backend) {
  switch (backend) {
  case Backend::OpenCL:
    return opencl::listDevices();
  case Backend::Vulkan:
    return vulkan::listDevices();
  }
  return unknownBackend();
}

Expected<DeviceProfile>
tilec::chooseDeviceProfile(const DeviceRequest &request) {
  switch (request.backend) {
  case Backend::OpenCL:
    return opencl::chooseDeviceProfile(request);
  case Backend::Vulkan:
    return vulkan::chooseDeviceProfile(request);
  }
  return unknownBackend();
}

Expected<std::unique_ptr<Device>> Device::open(const DeviceRequest &request) {
  switch (request.backend) {
  case Backend::OpenCL:
    return opencl::openDevice(request);
  case Backend::Vulkan:
    return vulkan::openDevice(request);
  }
  return unknownBackend();
}
