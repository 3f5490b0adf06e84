//===- VulkanSession.cpp - A device of the Vulkan backend -----------------===//

#include "DeviceSession.h"
#include "RuntimeFailure.h"

#include "tilec/Runtime/Vulkan.h"
#include "tilec/Runtime/VulkanExecutor.h"

namespace tilec::jit {

namespace {

/// Bundles carry SPIR-V; the disk cache stores no driver binary (Vulkan's
/// pipeline cache is the device's, in memory), so a disk hit skips the MLIR
/// pipeline and still creates the pipelines.
class VulkanSession final : public DeviceSession {
public:
  explicit VulkanSession(std::unique_ptr<vulkan::Device> device)
      : device(std::move(device)) {}

  Backend backend() const override { return Backend::Vulkan; }
  const DeviceProfile &profile() const override { return device->profile(); }
  CompileTargets targets() const override {
    CompileTargets targets;
    targets.openCL = false;
    targets.spirv = true;
    return targets;
  }

  Expected<PreparedBundle> prepare(const Bundle &bundle,
                                   const std::vector<unsigned char> *,
                                   const std::string &name) override {
    tilec::Expected<std::unique_ptr<VulkanExecutor>> executor =
        VulkanExecutor::create(*device, bundle, name);
    if (!executor)
      return fromRuntimeError(executor.error(), ErrorKind::Device);
    PreparedBundle prepared;
    prepared.executor = std::move(*executor);
    return prepared;
  }

private:
  std::unique_ptr<vulkan::Device> device;
};

} // namespace

Expected<std::shared_ptr<DeviceSession>>
openVulkanSession(const ContextOptions &options) {
  Expected<vulkan::DeviceDescriptor> chosen = chooseDescriptor(
      vulkan::enumerateDevices(), vulkan::selectDevice, options);
  if (!chosen)
    return chosen.error();
  tilec::Expected<std::unique_ptr<vulkan::Device>> device =
      vulkan::Device::open(*chosen);
  if (!device)
    return fromRuntimeError(device.error(), ErrorKind::Device);
  return std::shared_ptr<DeviceSession>(
      std::make_shared<VulkanSession>(std::move(*device)));
}

} // namespace tilec::jit
