//===- OpenedDevice.cpp - A device of either backend, for the tools -------===//

#include "tilec/Runtime/DeviceChoice.h"
#include "tilec/Runtime/OpenCLExecutor.h"
#include "tilec/Runtime/Vulkan.h"
#include "tilec/Runtime/VulkanExecutor.h"

using namespace tilec;

namespace {

class OpenedOpenCLDevice final : public OpenedDevice {
public:
  OpenedOpenCLDevice(std::unique_ptr<opencl::Device> device,
                     std::string platform)
      : device(std::move(device)), platform(std::move(platform)) {}

  Backend backend() const override { return Backend::OpenCL; }
  const DeviceProfile &profile() const override { return device->profile(); }
  std::string origin() const override { return platform; }
  Expected<std::unique_ptr<Executor>> prepare(Bundle bundle,
                                              std::string name) override {
    Expected<std::unique_ptr<OpenCLExecutor>> executor =
        OpenCLExecutor::create(*device, std::move(bundle), std::move(name));
    if (!executor)
      return executor.error();
    return std::unique_ptr<Executor>(std::move(*executor));
  }

private:
  std::unique_ptr<opencl::Device> device;
  std::string platform;
};

class OpenedVulkanDevice final : public OpenedDevice {
public:
  explicit OpenedVulkanDevice(std::unique_ptr<vulkan::Device> device)
      : device(std::move(device)) {}

  Backend backend() const override { return Backend::Vulkan; }
  const DeviceProfile &profile() const override { return device->profile(); }
  std::string origin() const override {
    return "Vulkan " + device->descriptor().apiVersion;
  }
  Expected<std::unique_ptr<Executor>> prepare(Bundle bundle,
                                              std::string name) override {
    Expected<std::unique_ptr<VulkanExecutor>> executor =
        VulkanExecutor::create(*device, std::move(bundle), std::move(name));
    if (!executor)
      return executor.error();
    return std::unique_ptr<Executor>(std::move(*executor));
  }

private:
  std::unique_ptr<vulkan::Device> device;
};

} // namespace

Expected<DeviceProfile>
tilec::chooseDeviceProfile(Backend backend, std::string_view selector,
                           const std::string &profilePath) {
  if (backend == Backend::Vulkan) {
    Expected<vulkan::DeviceDescriptor> chosen =
        vulkan::chooseDevice(selector, profilePath);
    if (!chosen)
      return chosen.error();
    return chosen->profile;
  }
  Expected<opencl::DeviceDescriptor> chosen =
      chooseDevice(selector, profilePath);
  if (!chosen)
    return chosen.error();
  return chosen->profile;
}

Expected<std::unique_ptr<OpenedDevice>>
tilec::openDevice(Backend backend, std::string_view selector,
                  const std::string &profilePath) {
  if (backend == Backend::Vulkan) {
    Expected<vulkan::DeviceDescriptor> chosen =
        vulkan::chooseDevice(selector, profilePath);
    if (!chosen)
      return chosen.error();
    Expected<std::unique_ptr<vulkan::Device>> device =
        vulkan::Device::open(*chosen);
    if (!device)
      return device.error();
    return std::unique_ptr<OpenedDevice>(
        std::make_unique<OpenedVulkanDevice>(std::move(*device)));
  }
  Expected<opencl::DeviceDescriptor> chosen =
      chooseDevice(selector, profilePath);
  if (!chosen)
    return chosen.error();
  Expected<std::unique_ptr<opencl::Device>> device =
      opencl::Device::open(*chosen);
  if (!device)
    return device.error();
  return std::unique_ptr<OpenedDevice>(std::make_unique<OpenedOpenCLDevice>(
      std::move(*device), chosen->platformName));
}
