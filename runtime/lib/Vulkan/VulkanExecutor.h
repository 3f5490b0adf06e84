//===- VulkanExecutor.h - Running a bundle on a Vulkan device ---*- C++ -*-===//
//
// Runs a Bundle on an opened Vulkan device, as OpenCLExecutor does on
// OpenCL: prepares the bundle's SPIR-V (`Bundle::spirv`: a pipeline per
// launched kernel, through the device's pipeline cache), allocates its
// buffers (aliases share their target's storage; a tensor stored as pieces
// is one allocation per piece) with staging buffers for the host's inputs
// and outputs, then, for each run, records one command buffer: the uploads,
// the poisoning of the outputs and temporaries with 0xFF bytes, every launch
// in order with a barrier after each and a timestamp around each, and the
// readbacks; it submits it and waits on a fence. A bundle larger than the
// device's memory streams instead (Executor.h): one command buffer for the
// launches up to each release of storage, waited for before the storage it
// used is destroyed.
//
// Kernel argument i is the storage buffer at descriptor set 0, binding i;
// each launch has a descriptor set of its own. Failures name the kernel and
// its .tile location.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_LIB_VULKAN_VULKANEXECUTOR_H
#define TILEC_RUNTIME_LIB_VULKAN_VULKANEXECUTOR_H

#include "tilec/Runtime/Executor.h"
#include "tilec/Runtime/Status.h"
#include "Vulkan/Vulkan.h"

#include <memory>
#include <string>
#include <vector>

namespace tilec {

class VulkanExecutor final : public Executor {
public:
  /// Prepares `bundle` on `device`, which must outlive the executor: checks
  /// that the bundle has a SPIR-V module per kernel with its entry point, that
  /// its buffers fit the device's profile (each allocation and their total) and
  /// that every launch's geometry fits the module and the device; allocates
  /// the buffers and creates the pipelines. `name` (the bundle's file, say)
  /// prefixes every message.
  static Expected<std::unique_ptr<VulkanExecutor>>
  create(vulkan::Device &device, Bundle bundle, std::string name);

  ~VulkanExecutor() override;
  VulkanExecutor(const VulkanExecutor &) = delete;
  VulkanExecutor &operator=(const VulkanExecutor &) = delete;

  Backend backend() const override { return Backend::Vulkan; }
  const Bundle &bundle() const override;
  Expected<BundleRun> run(const std::vector<HostTensor> &inputs) override;
  Expected<std::vector<std::shared_ptr<DeviceTensor>>>
  runOnDevice(const std::vector<RunInput> &inputs) override;
  void setProgress(RunProgress progress) override;

private:
  /// The bundle, its storage, staging buffers and pipelines, and the Vulkan
  /// steps of the run skeleton that every backend shares
  /// (runtime/lib/RunSkeleton.h).
  class Runner;

  explicit VulkanExecutor(std::unique_ptr<Runner> runner);

  std::unique_ptr<Runner> runner;
};

} // namespace tilec

#endif // TILEC_RUNTIME_LIB_VULKAN_VULKANEXECUTOR_H
