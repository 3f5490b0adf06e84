//===- VulkanExecutor.cpp - Running a bundle on a Vulkan device -----------===//

#include "Vulkan/VulkanExecutor.h"

#include "Failure.h"

#include "../StoragePlan.h"
#include "../StoredTensor.h"

#include <algorithm>
#include <cstring>
#include <variant>

using namespace tilec;
using namespace tilec::vulkan;

using VulkanDeviceTensor = StoredTensor<Backend::Vulkan, Device, Buffer>;

VulkanExecutor::VulkanExecutor(Device &device, Bundle bundle, std::string name)
    : device(device), program(std::move(bundle)), label(std::move(name)),
      plan(std::make_unique<StoragePlan>(program)) {}

VulkanExecutor::~VulkanExecutor() = default;

Error VulkanExecutor::fail(const std::string &message, int driverCode) const {
  return Error(label + ": " + message, driverCode);
}

Error VulkanExecutor::fail(const Error &error) const {
  return fail(error.message(), error.driverCode());
}

Expected<std::unique_ptr<VulkanExecutor>>
VulkanExecutor::create(Device &device, Bundle bundle, std::string name) {
  // A bundle built in memory (the JIT's) is checked as a file is.
  if (Status valid = validateBundle(bundle); !valid)
    return Error(name + ": " + valid.error().message());
  std::unique_ptr<VulkanExecutor> executor(
      new VulkanExecutor(device, std::move(bundle), std::move(name)));
  if (Status status = executor->createPipelines(); !status)
    return status.error();
  if (Status status = executor->allocateBuffers(); !status)
    return status.error();
  return executor;
}

Status VulkanExecutor::createPipelines() {
  // The parser has checked that every kernel has a module or none has.
  if (!program.kernels.empty() && program.kernels[0].spirv.empty())
    return fail("the bundle of " + quoted(program.function) +
                " has no SPIR-V: it was compiled without the spirv target");
  pipelines.resize(program.kernels.size());
  for (unsigned k = 0; k < program.kernels.size(); ++k) {
    const std::string &entry = program.kernels[k].name;
    Expected<std::shared_ptr<const ShaderModule>> module =
        device.createShaderModule(program.kernels[k].spirv, entry);
    if (!module)
      return fail(plan->describeKernel(k) + ": " + module.error().message(),
                  module.error().driverCode());
    // The first launch of the kernel says how many buffers it takes.
    const BundleLaunch *first = nullptr;
    for (const BundleLaunch &launch : program.launches)
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
  for (unsigned l = 0; l < program.launches.size(); ++l) {
    if (Status status = checkLaunch(l); !status)
      return status;
    const BundleLaunch &launch = program.launches[l];
    bool hasWork = true;
    for (unsigned dim = 0; dim < launch.dims; ++dim)
      hasWork &= launch.globalSize[dim] != 0;
    if (!hasWork)
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

Status VulkanExecutor::checkLaunch(unsigned index) const {
  const BundleLaunch &launch = program.launches[index];
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
VulkanExecutor::allocate(unsigned index) {
  const BundleBuffer &buffer = program.buffers[index];
  Expected<Buffer> allocated =
      device.allocate(bufferBytes(buffer), buffer.name);
  if (!allocated)
    return fail(allocated.error());
  device.nameObject(VK_OBJECT_TYPE_BUFFER,
                    reinterpret_cast<uint64_t>(allocated->handle()),
                    "buffer " + quoted(buffer.name));
  return std::make_shared<const Buffer>(std::move(*allocated));
}

Status VulkanExecutor::allocateBuffers() {
  if (Status status = plan->checkFootprint(device.profile(), false); !status)
    return fail(status.error().message());
  storage.resize(program.buffers.size());
  streamed = !plan->fitsWhole(device.profile());
  for (unsigned i = 0; i < program.buffers.size(); ++i) {
    if (streamed || !plan->ownsStorage(i))
      continue;
    Expected<std::shared_ptr<const Buffer>> allocated = allocate(i);
    if (!allocated)
      return allocated.error();
    storage[i] = std::move(*allocated);
  }
  // Staging for the parts that cross to and from the host.
  staging.resize(program.buffers.size());
  std::vector<unsigned> hostFacing = program.inputs;
  hostFacing.insert(hostFacing.end(), program.outputs.begin(),
                    program.outputs.end());
  for (unsigned index : hostFacing)
    for (unsigned part : plan->partsOf(index)) {
      if (staging[part])
        continue;
      const BundleBuffer &buffer = program.buffers[part];
      Expected<Buffer> allocated = device.allocate(
          bufferBytes(buffer), buffer.name, Buffer::Memory::Staging);
      if (!allocated)
        return fail(allocated.error());
      staging[part] = std::make_unique<Buffer>(std::move(*allocated));
    }
  return Status::success();
}

void VulkanExecutor::stageInput(unsigned index, const HostTensor &tensor,
                                std::vector<Copy> &uploads) const {
  for (unsigned part : plan->partsOf(index)) {
    const Buffer &buffer = *staging[part];
    std::memcpy(buffer.mapped(), tensor.data() + plan->partOffset(part),
                buffer.size());
    uploads.push_back({&buffer, part});
  }
}

Status VulkanExecutor::submit(const Storage &bound, const Submission &work) {
  auto storageOf = [&](unsigned index) -> const Buffer & {
    return *bound[plan->storageOwner(index)];
  };
  // The descriptor sets point at this run's storage (no submission is in
  // flight: every submission is waited for).
  for (size_t a : work.launches) {
    std::vector<const Buffer *> args;
    for (unsigned arg : program.launches[activeLaunches[a]].args)
      args.push_back(&storageOf(arg));
    device.bindBuffers((*descriptorSets)[a], args);
  }

  VkQueryPool queries = timestamps->handle();
  bool timed = timestamps->count() != 0;
  auto record = [&](VkCommandBuffer commands) {
    for (const Copy &copy : work.uploads)
      if (copy.staging->size() != 0) {
        VkBufferCopy region = {0, 0, copy.staging->size()};
        vkCmdCopyBuffer(commands, copy.staging->handle(),
                        storageOf(copy.part).handle(), 1, &region);
      }
    for (unsigned i : work.poisoned)
      if (plan->isPoisoned(i))
        vkCmdFillBuffer(commands, bound[i]->handle(), 0, VK_WHOLE_SIZE,
                        0xFFFFFFFFu);
    recordMemoryBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT,
                        VK_ACCESS_TRANSFER_WRITE_BIT,
                        VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                        VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    for (size_t a : work.launches) {
      const BundleLaunch &launch = program.launches[activeLaunches[a]];
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
                                                quoted(program.function));
      !status)
    return fail(status.error());
  return Status::success();
}

Expected<std::vector<uint64_t>> VulkanExecutor::timeLaunches() {
  Expected<std::vector<uint64_t>> durations =
      device.readTimestampPairs(*timestamps);
  if (!durations)
    return fail(durations.error());
  std::vector<uint64_t> launchNs(program.launches.size(), 0);
  for (size_t a = 0; a < durations->size(); ++a)
    launchNs[activeLaunches[a]] = (*durations)[a];
  return launchNs;
}

Expected<std::vector<uint64_t>>
VulkanExecutor::execute(const Storage &bound, const std::vector<Copy> &uploads,
                        const std::vector<Copy> &readbacks) {
  Submission work{uploads, {}, {}, readbacks};
  for (unsigned i = 0; i < program.buffers.size(); ++i)
    work.poisoned.push_back(i);
  for (size_t a = 0; a < activeLaunches.size(); ++a)
    work.launches.push_back(a);
  if (Status status = submit(bound, work); !status)
    return status.error();
  return timeLaunches();
}

Expected<BundleRun> VulkanExecutor::executeStreamed(
    Storage &bound, const std::vector<Copy> &uploads,
    const std::vector<Copy> &readbacks, bool deviceResident) {
  Residency residency = plan->planResidency(deviceResident);
  size_t end = program.launches.size();
  BundleRun result;
  uint64_t held = 0;
  size_t active = 0;
  for (size_t step = 0; step <= end; ++step) {
    Submission work;
    for (unsigned part : residency.allocated[step]) {
      held += residency.ranges[part].bytes;
      result.peakDeviceBytes = std::max(result.peakDeviceBytes, held);
      if (bound[part])
        continue;
      Expected<std::shared_ptr<const Buffer>> allocated = allocate(part);
      if (!allocated)
        return allocated.error();
      bound[part] = std::move(*allocated);
      work.poisoned.push_back(part);
      for (const Copy &copy : uploads)
        if (copy.part == part)
          work.uploads.push_back(copy);
    }
    if (active < activeLaunches.size() && activeLaunches[active] == step)
      work.launches.push_back(active++);
    for (unsigned part : residency.released[step])
      for (const Copy &copy : readbacks)
        if (plan->storageOwner(copy.part) == part)
          work.readbacks.push_back(copy);
    // The submission is waited for: the storage it used may go.
    if (Status status = submit(bound, work); !status)
      return status.error();
    for (unsigned part : residency.released[step]) {
      held -= residency.ranges[part].bytes;
      // What stays to the end of a device-resident run is its result.
      if (step < end)
        bound[part].reset();
    }
  }
  Expected<std::vector<uint64_t>> launchNs = timeLaunches();
  if (!launchNs)
    return launchNs.error();
  result.launchNs = std::move(*launchNs);
  return result;
}

Expected<BundleRun> VulkanExecutor::run(const std::vector<HostTensor> &inputs) {
  if (Status status = checkBundleInputs(program, inputs); !status)
    return fail(status.error().message());
  std::vector<Copy> uploads, readbacks;
  for (size_t i = 0; i < inputs.size(); ++i)
    stageInput(program.inputs[i], inputs[i], uploads);
  for (unsigned output : program.outputs)
    for (unsigned part : plan->partsOf(output))
      readbacks.push_back({staging[part].get(), part});
  BundleRun result;
  if (streamed) {
    Storage bound(program.buffers.size());
    Expected<BundleRun> done =
        executeStreamed(bound, uploads, readbacks, /*deviceResident=*/false);
    if (!done)
      return done.error();
    result = std::move(*done);
  } else {
    Expected<std::vector<uint64_t>> launchNs =
        execute(storage, uploads, readbacks);
    if (!launchNs)
      return launchNs.error();
    result.launchNs = std::move(*launchNs);
    result.peakDeviceBytes = plan->totalBytes();
  }
  for (unsigned output : program.outputs) {
    const BundleBuffer &buffer = program.buffers[output];
    HostTensor tensor(buffer.dtype, buffer.shape);
    for (unsigned part : plan->partsOf(output))
      std::memcpy(tensor.data() + plan->partOffset(part),
                  staging[part]->mapped(), staging[part]->size());
    result.outputs.push_back(std::move(tensor));
  }
  return result;
}

Expected<std::vector<std::shared_ptr<DeviceTensor>>>
VulkanExecutor::runOnDevice(const std::vector<RunInput> &inputs) {
  if (Status status = plan->checkInputCount(inputs.size()); !status)
    return fail(status.error().message());
  if (streamed)
    if (Status status = plan->checkFootprint(device.profile(), true); !status)
      return fail(status.error().message());
  Storage bound = storage;
  std::vector<Copy> uploads;
  for (unsigned i = 0; i < inputs.size(); ++i) {
    if (const auto *onDevice =
            std::get_if<std::shared_ptr<const DeviceTensor>>(&inputs[i])) {
      if (Status status = VulkanDeviceTensor::bindInput(
              *plan, program, i, *onDevice, device, bound);
          !status)
        return fail(status.error().message());
      continue;
    }
    const HostTensor *host = std::get<const HostTensor *>(inputs[i]);
    if (Status status = plan->checkHostInput(i, host); !status)
      return fail(status.error().message());
    stageInput(program.inputs[i], *host, uploads);
  }
  if (streamed) {
    if (Expected<BundleRun> done =
            executeStreamed(bound, uploads, {}, /*deviceResident=*/true);
        !done)
      return done.error();
    return VulkanDeviceTensor::wrapOutputs(*plan, program, device, bound);
  }
  // Fresh storage for every output, which the returned tensors keep.
  for (unsigned part : plan->freshParts()) {
    Expected<std::shared_ptr<const Buffer>> allocated = allocate(part);
    if (!allocated)
      return allocated.error();
    bound[part] = std::move(*allocated);
  }
  if (Expected<std::vector<uint64_t>> launchNs = execute(bound, uploads, {});
      !launchNs)
    return launchNs.error();

  return VulkanDeviceTensor::wrapOutputs(*plan, program, device, bound);
}
