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
// device's memory streams instead (Executor.h): one command buffer per
// launch, each waited for before the storage it used is destroyed.
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
#include <optional>
#include <string>
#include <vector>

namespace tilec {

class StoragePlan;

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
  const Bundle &bundle() const override { return program; }
  Expected<BundleRun> run(const std::vector<HostTensor> &inputs) override;
  Expected<std::vector<std::shared_ptr<DeviceTensor>>>
  runOnDevice(const std::vector<RunInput> &inputs) override;

private:
  /// The storage a run uses, one entry per bundle buffer: null for aliases
  /// and for tensors stored as pieces. Shared, so that outputs kept on the
  /// device outlive the run and inputs can come from other executors.
  using Storage = std::vector<std::shared_ptr<const vulkan::Buffer>>;
  /// A copy between a staging buffer and a bundle buffer's storage.
  struct Copy {
    const vulkan::Buffer *staging;
    unsigned part;
  };

  VulkanExecutor(vulkan::Device &device, Bundle bundle, std::string name);

  /// Allocates the storage of bundle buffer `index`, which owns storage.
  Expected<std::shared_ptr<const vulkan::Buffer>> allocate(unsigned index);
  Status allocateBuffers();
  Status createPipelines();
  /// Checks launch `index` against its pipeline and the device.
  Status checkLaunch(unsigned index) const;
  /// Copies `tensor` into the staging buffers of bundle buffer `index`, and
  /// adds their uploads to `uploads`.
  void stageInput(unsigned index, const HostTensor &tensor,
                  std::vector<Copy> &uploads) const;
  /// What one submission does, in order: `uploads`, the poisoning of
  /// `poisoned` (bundle buffers), active launches `launches` (indexes of
  /// `activeLaunches`), then `readbacks`.
  struct Submission {
    std::vector<Copy> uploads;
    std::vector<unsigned> poisoned;
    std::vector<size_t> launches;
    std::vector<Copy> readbacks;
  };
  /// Records `work` on `bound`, submits it and waits for it.
  Status submit(const Storage &bound, const Submission &work);
  /// The device time of each launch, from the timestamps of the last run.
  Expected<std::vector<uint64_t>> timeLaunches();
  /// Records and submits one run on `bound`: `uploads`, the poisoning, the
  /// launches and `readbacks`; returns each launch's device time.
  Expected<std::vector<uint64_t>> execute(const Storage &bound,
                                          const std::vector<Copy> &uploads,
                                          const std::vector<Copy> &readbacks);
  /// Runs the bundle streamed through the device (StoragePlan::
  /// planResidency), one submission per launch, waiting before it
  /// releases storage: `bound` holds the storage bound before (inputs on
  /// the device) and keeps the parts resident to the end.
  Expected<BundleRun> executeStreamed(Storage &bound,
                                      const std::vector<Copy> &uploads,
                                      const std::vector<Copy> &readbacks,
                                      bool deviceResident);
  /// `message` prefixed with the bundle's name, keeping the driver code.
  Error fail(const std::string &message, int driverCode = 0) const;
  Error fail(const Error &error) const;

  vulkan::Device &device;
  Bundle program;
  std::string label;
  /// Aliases, pieces, poisoning: decided as on every backend.
  std::unique_ptr<StoragePlan> plan;
  /// The executor's own storage, which `run` uses; empty when the bundle
  /// streams, allocating storage per run.
  Storage storage;
  /// Whether the bundle's buffers do not fit the device together.
  bool streamed = false;
  /// Host-visible copies of the inputs' and outputs' parts, by bundle
  /// buffer (null for the others).
  std::vector<std::unique_ptr<vulkan::Buffer>> staging;
  /// One per kernel; unset for a kernel that no launch runs.
  std::vector<std::optional<vulkan::ComputePipeline>> pipelines;
  /// The launches with work-items, and a descriptor set and a pair of
  /// timestamp queries for each.
  std::vector<unsigned> activeLaunches;
  std::optional<vulkan::DescriptorSets> descriptorSets;
  std::optional<vulkan::TimestampQueries> timestamps;
};

} // namespace tilec

#endif // TILEC_RUNTIME_LIB_VULKAN_VULKANEXECUTOR_H
