//===- OpenedDevice.cpp - An OpenCL device as a tilec::Device -------------===//

#include "../Backends.h"
#include "../DeviceSelector.h"
#include "OpenCL/OpenCL.h"
#include "OpenCL/OpenCLExecutor.h"

namespace tilec::opencl {

namespace {

/// An opened OpenCL device; its program cache keeps what prepare() built,
/// which driverBinary() then reads.
class OpenedDevice final : public tilec::Device {
public:
  OpenedDevice(std::unique_ptr<opencl::Device> device, std::string platform)
      : device(std::move(device)), platform(std::move(platform)) {}

  Backend backend() const override { return Backend::OpenCL; }
  const DeviceProfile &profile() const override { return device->profile(); }
  std::string origin() const override { return platform; }

  Expected<std::vector<unsigned char>>
  driverBinary(const Bundle &bundle, const std::string &name) override {
    Expected<std::shared_ptr<const Program>> built = device->buildProgram(
        bundle.openclSource, getBundleBuildOptions(*device), name);
    if (!built)
      return built.error();
    Expected<std::vector<unsigned char>> binary =
        device->programBinary(**built);
    // A driver that offers no binary only costs a cache its binary: a hit
    // builds from source then.
    if (!binary)
      return std::vector<unsigned char>();
    return binary;
  }

private:
  Expected<std::unique_ptr<Executor>>
  prepareBundle(Bundle bundle, std::string name,
                const std::vector<unsigned char> *binary) override {
    // The executor builds the bundle's source through the device's program
    // cache: a program loaded from the binary under the same source and
    // options is what it finds there.
    if (binary) {
      Expected<std::shared_ptr<const Program>> loaded =
          device->buildProgramFromBinary(bundle.openclSource,
                                         getBundleBuildOptions(*device),
                                         *binary, name);
      if (!loaded)
        return loaded.error();
    }
    Expected<std::unique_ptr<OpenCLExecutor>> executor =
        OpenCLExecutor::create(*device, std::move(bundle), std::move(name));
    if (!executor)
      return executor.error();
    return std::unique_ptr<Executor>(std::move(*executor));
  }

  std::unique_ptr<opencl::Device> device;
  std::string platform;
};

/// The device that `request` picks.
Expected<DeviceDescriptor> chooseDevice(const DeviceRequest &request) {
  return chooseForRequest(enumerateDevices(), selectDevice, request);
}

} // namespace

Expected<DeviceList> listDevices() {
  return listDescriptors(
      enumerateDevices(), selectDevice,
      [](const DeviceDescriptor &device) { return device.platformName; },
      formatDeviceList);
}

Expected<DeviceProfile> chooseDeviceProfile(const DeviceRequest &request) {
  Expected<DeviceDescriptor> chosen = chooseDevice(request);
  if (!chosen)
    return chosen.error();
  return chosen->profile;
}

Expected<std::unique_ptr<tilec::Device>>
openDevice(const DeviceRequest &request) {
  Expected<DeviceDescriptor> chosen = chooseDevice(request);
  if (!chosen)
    return chosen.error();
  Expected<std::unique_ptr<opencl::Device>> device =
      opencl::Device::open(*chosen, request.optimizeDeviceCode);
  if (!device)
    return device.error();
  return std::unique_ptr<tilec::Device>(
      std::make_unique<OpenedDevice>(std::move(*device), chosen->platformName));
}

} // namespace tilec::opencl
