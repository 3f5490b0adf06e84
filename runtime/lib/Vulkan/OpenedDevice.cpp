//===- OpenedDevice.cpp - A Vulkan device as a tilec::Device --------------===//

#include "../Backends.h"
#include "../DeviceSelector.h"
#include "Vulkan/Vulkan.h"
#include "Vulkan/VulkanExecutor.h"

namespace tilec::vulkan {

namespace {

/// An opened Vulkan device. Bundles carry SPIR-V; it keeps no driver binary
/// (Vulkan's pipeline cache is the device's, in memory).
class OpenedDevice final : public tilec::Device {
public:
  explicit OpenedDevice(std::unique_ptr<vulkan::Device> device)
      : device(std::move(device)) {}

  Backend backend() const override { return Backend::Vulkan; }
  const DeviceProfile &profile() const override { return device->profile(); }
  std::string origin() const override {
    return "Vulkan " + device->descriptor().apiVersion;
  }

  Expected<std::vector<unsigned char>>
  driverBinary(const Bundle &, const std::string &) override {
    return std::vector<unsigned char>();
  }

private:
  Expected<std::unique_ptr<Executor>>
  prepareBundle(Bundle bundle, std::string name,
                const std::vector<unsigned char> *binary) override {
    if (binary)
      return Error(ErrorKind::InvalidArgument,
                   "cannot prepare '" + name +
                       "' from a driver binary: the Vulkan backend keeps none");
    Expected<std::unique_ptr<VulkanExecutor>> executor =
        VulkanExecutor::create(*device, std::move(bundle), std::move(name));
    if (!executor)
      return executor.error();
    return std::unique_ptr<Executor>(std::move(*executor));
  }

  std::unique_ptr<vulkan::Device> device;
};

/// The device that `request` picks.
Expected<DeviceDescriptor> chooseDevice(const DeviceRequest &request) {
  return chooseForRequest(enumerateDevices(), selectDevice, request);
}

} // namespace

Expected<DeviceList> listDevices() {
  return listDescriptors(
      enumerateDevices(), selectDevice,
      [](const DeviceDescriptor &device) {
        return "Vulkan " + device.apiVersion;
      },
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
  Expected<std::unique_ptr<vulkan::Device>> device =
      vulkan::Device::open(*chosen, request.optimizeDeviceCode);
  if (!device)
    return device.error();
  return std::unique_ptr<tilec::Device>(
      std::make_unique<OpenedDevice>(std::move(*device)));
}

} // namespace tilec::vulkan
