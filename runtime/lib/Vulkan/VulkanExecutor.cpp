//===- VulkanExecutor.cpp - Running a bundle on a Vulkan device -----------===//

#include "Vulkan/VulkanExecutor.h"

#include "Failure.h"

#include "../RunSkeleton.h"

#include <algorithm>
#include <cstring>

using namespace tilec;
using namespace tilec::vulkan;

/// The run skeleton with Vulkan's steps, which are recorded: `synchronise`
/// records them into one command buffer, submits it and waits on its fence.
/// Transfers go through host-visible staging buffers.
class VulkanExecutor::Runner final
    : public RunSkeleton<Backend::Vulkan, Device, Buffer> {
public:
  Runner(Device &device, Bundle bundle, std::string name)
      : RunSkeleton(device, std::move(bundle), std::move(name)) {}

  using RunSkeleton::checkBundle;
  /// Creates a pipeline per launched kernel, checks every launch, and
  /// allocates a descriptor set and a pair of timestamp queries per launch
  /// with work-items.
  Status createPipelines();
  /// Allocates the storage (RunSkeleton::allocateStorage), then staging for
  /// the parts that cross to and from the host.
  Status allocateBuffers();

private:
  /// A copy between a staging buffer and a bundle buffer's storage.
  struct Copy {
    const Buffer *staging;
    unsigned part;
  };
  /// What one submission does, in order: `uploads`, the filling of
  /// `filled` (bundle buffers), active launches `launches` (indexes of
  /// `activeLaunches`), then `readbacks`.
  struct Submission {
    std::vector<Copy> uploads;
    std::vector<unsigned> filled;
    std::vector<size_t> launches;
    std::vector<Copy> readbacks;
  };

  Expected<std::shared_ptr<const Buffer>> allocate(unsigned part) override;
  void beginRun(bool timed) override;
  Status write(const Storage &bound, unsigned part,
               const uint8_t *data) override;
  Status fill(const Storage &bound, unsigned part) override;
  Status launch(const Storage &bound, size_t index) override;
  Status read(const Storage &bound, unsigned part, uint8_t *data) override;
  Status synchronise(const Storage &bound) override;
  Expected<std::vector<uint64_t>> launchTimes() override;

  /// Checks launch `index` against its pipeline and the device.
  Status checkLaunch(unsigned index) const;
  /// Records `work` on `bound`, submits it and waits for it.
  Status submit(const Storage &bound, const Submission &work);

  /// Host-visible copies of the inputs' and outputs' parts, by bundle
  /// buffer (null for the others).
  std::vector<std::unique_ptr<Buffer>> staging;
  /// One per kernel; unset for a kernel that no launch runs.
  std::vector<std::optional<ComputePipeline>> pipelines;
  /// The launches with work-items, and a descriptor set and a pair of
  /// timestamp queries for each.
  std::vector<unsigned> activeLaunches;
  std::optional<DescriptorSets> descriptorSets;
  std::optional<TimestampQueries> timestamps;
  /// Whether the run records timestamps around its launches.
  bool timedRun = true;
  /// The steps recorded since the last submission, and where each of its
  /// readbacks goes in host memory.
  Submission pending;
  std::vector<uint8_t *> readbackTargets;
};

Expected<std::unique_ptr<VulkanExecutor>>
VulkanExecutor::create(Device &device, Bundle bundle, std::string name) {
  if (Status valid = Runner::checkBundle(bundle, name); !valid)
    return valid.error();
  auto runner =
      std::make_unique<Runner>(device, std::move(bundle), std::move(name));
  if (Status status = runner->createPipelines(); !status)
    return status.error();
  if (Status status = runner->allocateBuffers(); !status)
    return status.error();
  return std::unique_ptr<VulkanExecutor>(new VulkanExecutor(std::move(runner)));
}

VulkanExecutor::VulkanExecutor(std::unique_ptr<Runner> runner)
    : runner(std::move(runner)) {}

VulkanExecutor::~VulkanExecutor() = default;

const Bundle &VulkanExecutor::bundle() const { return runner->bundle(); }

Expected<BundleRun> VulkanExecutor::run(const std::vector<HostTensor> &inputs) {
  return runner->run(inputs);
}

void VulkanExecutor::setProgress(RunProgress progress) {
  runner->setProgress(std::move(progress));
}

Expected<std::vector<std::shared_ptr<DeviceTensor>>>
VulkanExecutor::runOnDevice(const std::vector<RunInput> &inputs) {
  return runner->runOnDevice(inputs);
}

Status VulkanExecutor::Runner::createPipelines() {
  // The parser has checked that every kernel has a module or none has.
  if (!bundle().kernels.empty() && bundle().kernels[0].spirv.empty())
    return fail("the bundle of " + quoted(bundle().function) +
                " has no SPIR-V: it was compiled without the spirv target");
  pipelines.resize(bundle().kernels.size());
  for (unsigned k = 0; k < bundle().kernels.size(); ++k) {
    const std::string &entry = bundle().kernels[k].name;
    Expected<std::shared_ptr<const ShaderModule>> module =
        device.createShaderModule(bundle().kernels[k].spirv, entry);
    if (!module)
      return fail(plan->describeKernel(k) + ": " + module.error().message(),
                  module.error().driverCode());
    // The first launch of the kernel says how many buffers it takes.
    const BundleLaunch *first = nullptr;
    for (const BundleLaunch &launch : bundle().launches)
      if (launch.kernel == k) {
        first = &launch;
        break;
      }
    if (!first) {
      if (!(*module)->findEntryPoint(entry))
        return fail(plan->describeKernel(k) + ": the SPIR-V has no entry "
                                              "point of that name");
      continue;
    }
    Expected<ComputePipeline> pipeline = device.createPipeline(
        **module, entry, static_cast<uint32_t>(first->args.size()));
    if (!pipeline)
      return fail(plan->describeKernel(k) + ": " + pipeline.error().message(),
                  pipeline.error().driverCode());
    // Validation messages then say which kernel they are about.
    device.nameObject(VK_OBJECT_TYPE_PIPELINE,
                      reinterpret_cast<uint64_t>(pipeline->handle()),
                      plan->describeKernel(k));
    pipelines[k] = std::move(*pipeline);
  }

  std::vector<const ComputePipeline *> uses;
  for (unsigned l = 0; l < bundle().launches.size(); ++l) {
    if (Status status = checkLaunch(l); !status)
      return status;
    const BundleLaunch &launch = bundle().launches[l];
    if (!hasWorkItems(launch))
      continue;
    activeLaunches.push_back(l);
    uses.push_back(&*pipelines[launch.kernel]);
  }
  Expected<DescriptorSets> sets = device.allocateDescriptorSets(uses);
  if (!sets)
    return fail(sets.error());
  descriptorSets = std::move(*sets);
  Expected<TimestampQueries> queries = device.createTimestampQueries(
      2 * static_cast<uint32_t>(activeLaunches.size()));
  if (!queries)
    return fail(queries.error());
  timestamps = std::move(*queries);
  return Status::success();
}

Status VulkanExecutor::Runner::checkLaunch(unsigned index) const {
  const BundleLaunch &launch = bundle().launches[index];
  const ComputePipeline &pipeline = *pipelines[launch.kernel];
  const DeviceProfile &profile = device.profile();
  std::string what = plan->describeKernel(launch.kernel) + ", launch #" +
                     std::to_string(index) + ": ";
  // validateBundle has checked the dimensions, that the local sizes divide
  // the global ones, and that every launch of a kernel passes as many
  // buffers as its signature (and so as its first launch) has.
  uint64_t groupItems = 1;
  for (unsigned dim = 0; dim < 3; ++dim) {
    uint64_t global = dim < launch.dims ? launch.globalSize[dim] : 1;
    uint64_t local = dim < launch.dims ? launch.localSize[dim] : 1;
    std::string where = " in dimension " + std::to_string(dim);
    if (local != pipeline.localSize()[dim]) {
      const std::array<uint32_t, 3> &fixed = pipeline.localSize();
      return fail(what + "the local size " + std::to_string(local) + where +
                  " differs from the work-group size fixed in the SPIR-V, " +
                  std::to_string(fixed[0]) + "x" + std::to_string(fixed[1]) +
                  "x" + std::to_string(fixed[2]));
    }
    if (local > profile.maxWorkItemSizes[dim])
      return fail(what + "the local size exceeds the device's " +
                  std::to_string(profile.maxWorkItemSizes[dim]) +
                  " work-items" + where);
    if (global / local > device.descriptor().maxGroupCount[dim])
      return fail(what + std::to_string(global / local) + " work-groups" +
                  where + " exceed the device's maximum, " +
                  std::to_string(device.descriptor().maxGroupCount[dim]));
    groupItems *= local;
  }
  if (groupItems > profile.maxWorkGroupSize)
    return fail(what + "the work-group of " + std::to_string(groupItems) +
                " work-items exceeds the device's maximum, " +
                std::to_string(profile.maxWorkGroupSize));
  return Status::success();
}

Expected<std::shared_ptr<const Buffer>>
VulkanExecutor::Runner::allocate(unsigned part) {
  const BundleBuffer &buffer = bundle().buffers[part];
  Expected<Buffer> allocated =
      device.allocate(bufferBytes(buffer), buffer.name);
  if (!allocated)
    return fail(allocated.error());
  device.nameObject(VK_OBJECT_TYPE_BUFFER,
                    reinterpret_cast<uint64_t>(allocated->handle()),
                    "buffer " + quoted(buffer.name));
  return std::make_shared<const Buffer>(std::move(*allocated));
}

Status VulkanExecutor::Runner::allocateBuffers() {
  if (Status status = allocateStorage(); !status)
    return status;
  const Bundle &bundle = this->bundle();
  staging.resize(bundle.buffers.size());
  std::vector<unsigned> hostFacing = bundle.inputs;
  hostFacing.insert(hostFacing.end(), bundle.outputs.begin(),
                    bundle.outputs.end());
  for (unsigned index : hostFacing)
    for (unsigned part : plan->partsOf(index)) {
      if (staging[part])
        continue;
      const BundleBuffer &buffer = bundle.buffers[part];
      Expected<Buffer> allocated = device.allocate(
          bufferBytes(buffer), buffer.name, Buffer::Memory::Staging);
      if (!allocated)
        return fail(allocated.error());
      staging[part] = std::make_unique<Buffer>(std::move(*allocated));
    }
  return Status::success();
}

void VulkanExecutor::Runner::beginRun(bool timed) {
  timedRun = timed;
  pending = Submission();
  readbackTargets.clear();
}

Status VulkanExecutor::Runner::write(const Storage &, unsigned part,
                                     const uint8_t *data) {
  const Buffer &buffer = *staging[part];
  std::memcpy(buffer.mapped(), data, buffer.size());
  pending.uploads.push_back({&buffer, part});
  return Status::success();
}

Status VulkanExecutor::Runner::fill(const Storage &, unsigned part) {
  pending.filled.push_back(part);
  return Status::success();
}

Status VulkanExecutor::Runner::launch(const Storage &, size_t index) {
  size_t active =
      std::lower_bound(activeLaunches.begin(), activeLaunches.end(), index) -
      activeLaunches.begin();
  pending.launches.push_back(active);
  return Status::success();
}

Status VulkanExecutor::Runner::read(const Storage &, unsigned part,
                                    uint8_t *data) {
  pending.readbacks.push_back({staging[part].get(), part});
  readbackTargets.push_back(data);
  return Status::success();
}

Status VulkanExecutor::Runner::synchronise(const Storage &bound) {
  Submission work = std::move(pending);
  std::vector<uint8_t *> targets = std::move(readbackTargets);
  pending = Submission();
  readbackTargets.clear();
  if (Status status = submit(bound, work); !status)
    return status;
  for (size_t r = 0; r < work.readbacks.size(); ++r)
    std::memcpy(targets[r], work.readbacks[r].staging->mapped(),
                work.readbacks[r].staging->size());
  return Status::success();
}

Status VulkanExecutor::Runner::submit(const Storage &bound,
                                      const Submission &work) {
  auto storageOf = [&](unsigned index) -> const Buffer & {
    return *bound[plan->storageOwner(index)];
  };
  // The descriptor sets point at this run's storage (no submission is in
  // flight: every submission is waited for).
  for (size_t a : work.launches) {
    std::vector<const Buffer *> args;
    for (unsigned arg : bundle().launches[activeLaunches[a]].args)
      args.push_back(&storageOf(arg));
    device.bindBuffers((*descriptorSets)[a], args);
  }

  VkQueryPool queries = timestamps->handle();
  bool timed = timedRun && timestamps->count() != 0;
  auto record = [&](VkCommandBuffer commands) {
    for (const Copy &copy : work.uploads)
      if (copy.staging->size() != 0) {
        VkBufferCopy region = {0, 0, copy.staging->size()};
        vkCmdCopyBuffer(commands, copy.staging->handle(),
                        storageOf(copy.part).handle(), 1, &region);
      }
    for (unsigned i : work.filled)
      vkCmdFillBuffer(commands, bound[i]->handle(), 0, VK_WHOLE_SIZE,
                      plan->fillByte(i) * 0x01010101u);
    recordMemoryBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT,
                        VK_ACCESS_TRANSFER_WRITE_BIT,
                        VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                        VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    for (size_t a : work.launches) {
      const BundleLaunch &launch = bundle().launches[activeLaunches[a]];
      const ComputePipeline &pipeline = *pipelines[launch.kernel];
      if (timed)
        vkCmdResetQueryPool(commands, queries, static_cast<uint32_t>(2 * a), 2);
      vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE,
                        pipeline.handle());
      VkDescriptorSet set = (*descriptorSets)[a];
      vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE,
                              pipeline.pipelineLayout(), 0, 1, &set, 0,
                              nullptr);
      // Each timestamp is written once the work before it has passed the
      // compute stage: the previous launch for the first, this one for the
      // second.
      if (timed)
        vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                            queries, static_cast<uint32_t>(2 * a));
      uint32_t groups[3] = {1, 1, 1};
      for (unsigned dim = 0; dim < launch.dims; ++dim)
        groups[dim] = static_cast<uint32_t>(launch.globalSize[dim] /
                                            launch.localSize[dim]);
      vkCmdDispatch(commands, groups[0], groups[1], groups[2]);
      if (timed)
        vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                            queries, static_cast<uint32_t>(2 * a + 1));
      // A launch reads what the launches before it wrote.
      recordMemoryBarrier(
          commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
          VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
          VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    }
    recordMemoryBarrier(commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                        VK_ACCESS_SHADER_WRITE_BIT,
                        VK_PIPELINE_STAGE_TRANSFER_BIT,
                        VK_ACCESS_TRANSFER_READ_BIT);
    for (const Copy &copy : work.readbacks)
      if (copy.staging->size() != 0) {
        VkBufferCopy region = {0, 0, copy.staging->size()};
        vkCmdCopyBuffer(commands, storageOf(copy.part).handle(),
                        copy.staging->handle(), 1, &region);
      }
    recordMemoryBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT,
                        VK_ACCESS_TRANSFER_WRITE_BIT,
                        VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
  };
  if (Status status = device.submit(record, "running the kernels of " +
                                                quoted(bundle().function));
      !status)
    return fail(status.error());
  return Status::success();
}

Expected<std::vector<uint64_t>> VulkanExecutor::Runner::launchTimes() {
  Expected<std::vector<uint64_t>> durations =
      device.readTimestampPairs(*timestamps);
  if (!durations)
    return fail(durations.error());
  std::vector<uint64_t> launchNs(bundle().launches.size(), 0);
  for (size_t a = 0; a < durations->size(); ++a)
    launchNs[activeLaunches[a]] = (*durations)[a];
  return launchNs;
}
