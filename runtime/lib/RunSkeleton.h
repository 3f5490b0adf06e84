//===- RunSkeleton.h - One run of a bundle, for every backend ---*- C++ -*-===//
//
// Internal to the runtime: the sequence of a run that every executor
// follows, so that the backends cannot drift apart. It checks the inputs,
// decides whether the bundle fits the device whole or streams through it,
// uploads the inputs, poisons the outputs and temporaries (zeroes the zeroed
// ones), launches in order (skipping launches without work-items), reads the
// outputs back, binds device-resident inputs and wraps device-resident
// outputs, and, for a streamed run, allocates and releases storage launch by
// launch (StoragePlan::planResidency). A backend implements only the steps:
// allocate a buffer, write it, fill it, launch, read, synchronise, and the
// launches' times.
//
// The steps may be deferred (Vulkan records them into a command buffer):
// only after `synchronise` has the work asked for so far completed, with the
// bytes read back in host memory. The skeleton synchronises before it
// releases storage and at the end of a run.
//
// A device-resident run of a bundle that fits whole is the loop of a
// training step, run thousands of times, so it asks for no more than it
// needs: its launches are not timed (nobody reads their times), its
// outputs reuse storage that no device tensor holds any longer, and only
// storage that no complete run has written yet is filled.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_LIB_RUNSKELETON_H
#define TILEC_RUNTIME_LIB_RUNSKELETON_H

#include "StoragePlan.h"
#include "StoredTensor.h"

#include "tilec/Runtime/Executor.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <string>
#include <variant>
#include <vector>

namespace tilec {

/// Whether `launch` has work-items: a launch without is skipped and takes
/// 0 ns.
inline bool hasWorkItems(const BundleLaunch &launch) {
  for (unsigned dim = 0; dim < launch.dims; ++dim)
    if (launch.globalSize[dim] == 0)
      return false;
  return true;
}

/// The runs of a bundle on a `DeviceT` of backend `kBackend`, whose storage
/// is shared `BufferT`s; a backend derives from it and implements the steps.
template <Backend kBackend, class DeviceT, class BufferT> class RunSkeleton {
public:
  /// The storage a run uses, one entry per bundle buffer: null for aliases,
  /// which use their target's, and for tensors stored as pieces, which use
  /// their pieces'. Shared, so that outputs kept on the device outlive the
  /// run and inputs can come from other executors.
  using Storage = std::vector<std::shared_ptr<const BufferT>>;

  virtual ~RunSkeleton() = default;
  RunSkeleton(const RunSkeleton &) = delete;
  RunSkeleton &operator=(const RunSkeleton &) = delete;

  const Bundle &bundle() const { return preparedBundle; }

  /// Executor::run.
  Expected<BundleRun> run(const std::vector<HostTensor> &inputs);
  /// Executor::runOnDevice.
  Expected<std::vector<std::shared_ptr<DeviceTensor>>>
  runOnDevice(const std::vector<RunInput> &inputs);
  /// Executor::setProgress.
  void setProgress(RunProgress callback) { progress = std::move(callback); }

protected:
  /// `bundle` must have passed validateBundle (checkBundle).
  RunSkeleton(DeviceT &device, Bundle bundle, std::string name)
      : device(device), preparedBundle(std::move(bundle)),
        label(std::move(name)) {
    // In the body: the plan refers to the bundle, a member declared later.
    plan = std::make_unique<StoragePlan>(preparedBundle);
  }

  /// What `create` checks first: a bundle built in memory (the JIT's) is
  /// checked as a file is. The error is prefixed with `name`.
  static Status checkBundle(const Bundle &bundle, const std::string &name);

  /// Checks that the buffers fit the device's profile, whole or streamed,
  /// and, when they fit whole, allocates the storage that `run` uses.
  Status allocateStorage();

  /// `message` prefixed with the bundle's name, keeping the driver code.
  Error fail(const std::string &message, int driverCode = 0) const {
    return Error(label + ": " + message, driverCode);
  }
  Error fail(const Error &error) const {
    return fail(error.message(), error.driverCode());
  }

  // The steps, which each backend implements.

  /// Allocates the storage of bundle buffer `part`, which owns storage.
  virtual Expected<std::shared_ptr<const BufferT>> allocate(unsigned part) = 0;
  /// Starts a run, forgetting any work asked for by a run that failed
  /// before synchronising. `timed`: whether launchTimes will be asked for
  /// the run's launches (a device-resident run's are not timed).
  virtual void beginRun(bool /*timed*/) {}
  /// Writes `data`, the bytes of bundle buffer `part` (which owns storage),
  /// into its storage in `bound`.
  virtual Status write(const Storage &bound, unsigned part,
                       const uint8_t *data) = 0;
  /// Fills the storage of bundle buffer `part` in `bound` with bytes of
  /// plan->fillByte(part): poison, or zeros for a zeroed temporary.
  virtual Status fill(const Storage &bound, unsigned part) = 0;
  /// Launch `index` of the bundle, which has work-items, on `bound`.
  virtual Status launch(const Storage &bound, size_t index) = 0;
  /// Reads the bytes of `part` (an output or one of its pieces) from its
  /// storage owner's storage in `bound` into `data`.
  virtual Status read(const Storage &bound, unsigned part, uint8_t *data) = 0;
  /// Waits until the work asked for on `bound` so far has completed.
  virtual Status synchronise(const Storage &bound) = 0;
  /// The device time of each launch of the last run, 0 for those skipped.
  virtual Expected<std::vector<uint64_t>> launchTimes() = 0;

  DeviceT &device;
  /// Aliases, pieces, filling: decided as on every backend.
  std::unique_ptr<StoragePlan> plan;

private:
  using StoredTensorT = StoredTensor<kBackend, DeviceT, BufferT>;

  /// Runs the bundle on `bound`, which holds its storage: uploads the host
  /// inputs (null for those on the device), fills the storage that
  /// `filled` marks (StoragePlan::fillByte), launches and, unless
  /// `deviceResident`, reads the outputs back and times the launches.
  Expected<BundleRun>
  runWhole(const Storage &bound,
           const std::vector<const HostTensor *> &hostInputs,
           const std::vector<bool> &filled, bool deviceResident);
  /// Storage for `part`, one of StoragePlan::freshParts, for a
  /// device-resident run: a buffer of the part's pool that no device tensor
  /// holds any longer, else a new one. Sets `written` to whether a complete
  /// run has written it (a new one is not).
  Expected<std::shared_ptr<const BufferT>> reuseOrAllocate(unsigned part,
                                                           bool &written);
  /// Runs the bundle streamed through the device: `bound` holds the storage
  /// bound before (inputs on the device) and keeps the parts resident to
  /// the end; a device-resident run keeps its inputs and outputs throughout.
  Expected<BundleRun>
  runStreamed(Storage &bound, const std::vector<const HostTensor *> &hostInputs,
              bool deviceResident, bool readOutputs);
  /// The host tensor whose bytes each bundle buffer holds, given the host
  /// inputs (null for those on the device): an input's parts have their
  /// input's, the others none.
  std::vector<const HostTensor *>
  hostSources(const std::vector<const HostTensor *> &hostInputs) const;
  /// Writes part `part` from `source`, when it has a host tensor.
  Status upload(const Storage &bound, unsigned part,
                const std::vector<const HostTensor *> &source);
  /// Host tensors of the outputs' dtypes and shapes, to read back into.
  std::vector<HostTensor> hostOutputs() const;
  /// Reads back into `outputs` the parts of the outputs whose storage
  /// owner `done` holds.
  Status readBack(const Storage &bound, const std::vector<bool> &done,
                  std::vector<HostTensor> &outputs);

  Bundle preparedBundle;
  std::string label;
  /// The executor's own storage, which `run` uses; empty when the bundle
  /// streams, allocating storage per run.
  Storage storage;
  /// Whether a complete run has written each part of `storage`: a
  /// device-resident run fills only storage that none has.
  std::vector<bool> storageWritten;
  /// A buffer that device-resident runs of a bundle that fits whole give
  /// their outputs, and whether a complete run has written it.
  struct PooledBuffer {
    std::shared_ptr<const BufferT> buffer;
    bool written = false;
  };
  /// Per bundle buffer (StoragePlan::freshParts), the buffers that
  /// device-resident runs have given that part: a run reuses one that only
  /// the pool holds, so that a loop feeding each run's outputs to the next
  /// allocates nothing after its second run.
  std::vector<std::vector<PooledBuffer>> outputPool;
  /// Whether the bundle's buffers do not fit the device together.
  bool streamed = false;
  /// Told of a streamed run's launches as they complete.
  RunProgress progress;
};

template <Backend kBackend, class DeviceT, class BufferT>
Status
RunSkeleton<kBackend, DeviceT, BufferT>::checkBundle(const Bundle &bundle,
                                                     const std::string &name) {
  if (Status valid = validateBundle(bundle); !valid)
    return Error(name + ": " + valid.error().message());
  return Status::success();
}

template <Backend kBackend, class DeviceT, class BufferT>
Status RunSkeleton<kBackend, DeviceT, BufferT>::allocateStorage() {
  if (Status status = plan->checkFootprint(device.profile(), false); !status)
    return fail(status.error().message());
  storage.resize(preparedBundle.buffers.size());
  storageWritten.assign(preparedBundle.buffers.size(), false);
  outputPool.resize(preparedBundle.buffers.size());
  streamed = !plan->fitsWhole(device.profile());
  if (streamed)
    return Status::success();
  for (unsigned i = 0; i < preparedBundle.buffers.size(); ++i) {
    if (!plan->ownsStorage(i))
      continue;
    Expected<std::shared_ptr<const BufferT>> allocated = allocate(i);
    if (!allocated)
      return allocated.error();
    storage[i] = std::move(*allocated);
  }
  return Status::success();
}

template <Backend kBackend, class DeviceT, class BufferT>
std::vector<const HostTensor *>
RunSkeleton<kBackend, DeviceT, BufferT>::hostSources(
    const std::vector<const HostTensor *> &hostInputs) const {
  std::vector<const HostTensor *> source(preparedBundle.buffers.size(),
                                         nullptr);
  for (unsigned i = 0; i < hostInputs.size(); ++i)
    for (unsigned part : plan->partsOf(preparedBundle.inputs[i]))
      source[part] = hostInputs[i];
  return source;
}

template <Backend kBackend, class DeviceT, class BufferT>
Status RunSkeleton<kBackend, DeviceT, BufferT>::upload(
    const Storage &bound, unsigned part,
    const std::vector<const HostTensor *> &source) {
  // An input that nothing reads has no storage to fill.
  if (!source[part] || !plan->ownsStorage(part))
    return Status::success();
  return write(bound, part, source[part]->data() + plan->partOffset(part));
}

template <Backend kBackend, class DeviceT, class BufferT>
std::vector<HostTensor>
RunSkeleton<kBackend, DeviceT, BufferT>::hostOutputs() const {
  std::vector<HostTensor> outputs;
  for (unsigned output : preparedBundle.outputs)
    outputs.emplace_back(preparedBundle.buffers[output].dtype,
                         preparedBundle.buffers[output].shape);
  return outputs;
}

template <Backend kBackend, class DeviceT, class BufferT>
Status RunSkeleton<kBackend, DeviceT, BufferT>::readBack(
    const Storage &bound, const std::vector<bool> &done,
    std::vector<HostTensor> &outputs) {
  for (unsigned o = 0; o < preparedBundle.outputs.size(); ++o)
    for (unsigned part : plan->partsOf(preparedBundle.outputs[o]))
      if (done[plan->storageOwner(part)])
        if (Status status =
                read(bound, part, outputs[o].data() + plan->partOffset(part));
            !status)
          return status;
  return Status::success();
}

template <Backend kBackend, class DeviceT, class BufferT>
Expected<BundleRun> RunSkeleton<kBackend, DeviceT, BufferT>::runWhole(
    const Storage &bound, const std::vector<const HostTensor *> &hostInputs,
    const std::vector<bool> &filled, bool deviceResident) {
  const Bundle &bundle = preparedBundle;
  beginRun(/*timed=*/!deviceResident);
  std::vector<const HostTensor *> source = hostSources(hostInputs);
  for (unsigned i = 0; i < bundle.buffers.size(); ++i)
    if (Status status = upload(bound, i, source); !status)
      return status.error();
  for (unsigned i = 0; i < bundle.buffers.size(); ++i)
    if (filled[i])
      if (Status status = fill(bound, i); !status)
        return status.error();
  for (size_t l = 0; l < bundle.launches.size(); ++l)
    if (hasWorkItems(bundle.launches[l]))
      if (Status status = launch(bound, l); !status)
        return status.error();
  BundleRun result;
  result.peakDeviceBytes = plan->totalBytes();
  if (!deviceResident) {
    result.outputs = hostOutputs();
    std::vector<bool> all(bundle.buffers.size(), true);
    if (Status status = readBack(bound, all, result.outputs); !status)
      return status.error();
  }
  if (Status status = synchronise(bound); !status)
    return status.error();
  if (deviceResident)
    return result;
  Expected<std::vector<uint64_t>> launchNs = launchTimes();
  if (!launchNs)
    return launchNs.error();
  result.launchNs = std::move(*launchNs);
  return result;
}

template <Backend kBackend, class DeviceT, class BufferT>
Expected<BundleRun> RunSkeleton<kBackend, DeviceT, BufferT>::runStreamed(
    Storage &bound, const std::vector<const HostTensor *> &hostInputs,
    bool deviceResident, bool readOutputs) {
  const Bundle &bundle = preparedBundle;
  beginRun(/*timed=*/true);
  Residency residency = plan->planResidency(deviceResident);
  std::vector<const HostTensor *> source = hostSources(hostInputs);
  BundleRun result;
  if (readOutputs)
    result.outputs = hostOutputs();
  uint64_t held = 0;
  size_t end = bundle.launches.size();
  for (size_t step = 0; step <= end; ++step) {
    for (unsigned part : residency.allocated[step]) {
      held += residency.ranges[part].bytes;
      result.peakDeviceBytes = std::max(result.peakDeviceBytes, held);
      if (bound[part])
        continue;
      Expected<std::shared_ptr<const BufferT>> allocated = allocate(part);
      if (!allocated)
        return allocated.error();
      bound[part] = std::move(*allocated);
      if (Status status = upload(bound, part, source); !status)
        return status.error();
      if (plan->isFilled(part))
        if (Status status = fill(bound, part); !status)
          return status.error();
    }
    if (step < end && hasWorkItems(bundle.launches[step]))
      if (Status status = launch(bound, step); !status)
        return status.error();
    const std::vector<unsigned> &released = residency.released[step];
    if (released.empty() && step < end)
      continue;
    if (readOutputs) {
      std::vector<bool> done(bundle.buffers.size(), false);
      for (unsigned part : released)
        done[part] = true;
      if (Status status = readBack(bound, done, result.outputs); !status)
        return status.error();
    }
    // Storage is released only once the work that uses it is done, so that
    // the next allocation finds the memory free.
    if (Status status = synchronise(bound); !status)
      return status.error();
    if (progress)
      progress(std::min(step + 1, end), end);
    for (unsigned part : released) {
      held -= residency.ranges[part].bytes;
      // What stays to the end of a device-resident run is its result.
      if (step < end)
        bound[part].reset();
    }
  }
  Expected<std::vector<uint64_t>> launchNs = launchTimes();
  if (!launchNs)
    return launchNs.error();
  result.launchNs = std::move(*launchNs);
  return result;
}

template <Backend kBackend, class DeviceT, class BufferT>
Expected<BundleRun> RunSkeleton<kBackend, DeviceT, BufferT>::run(
    const std::vector<HostTensor> &inputs) {
  if (Status status = checkBundleInputs(preparedBundle, inputs); !status)
    return fail(status.error().message());
  std::vector<const HostTensor *> hostInputs;
  for (const HostTensor &input : inputs)
    hostInputs.push_back(&input);
  if (!streamed) {
    std::vector<bool> filled(preparedBundle.buffers.size());
    for (unsigned i = 0; i < filled.size(); ++i)
      filled[i] = plan->isFilled(i);
    Expected<BundleRun> done = runWhole(storage, hostInputs, filled,
                                        /*deviceResident=*/false);
    if (done)
      storageWritten.assign(storageWritten.size(), true);
    return done;
  }
  Storage bound(preparedBundle.buffers.size());
  return runStreamed(bound, hostInputs, /*deviceResident=*/false,
                     /*readOutputs=*/true);
}

template <Backend kBackend, class DeviceT, class BufferT>
Expected<std::vector<std::shared_ptr<DeviceTensor>>>
RunSkeleton<kBackend, DeviceT, BufferT>::runOnDevice(
    const std::vector<RunInput> &inputs) {
  if (Status status = plan->checkInputCount(inputs.size()); !status)
    return fail(status.error().message());
  if (streamed)
    if (Status status = plan->checkFootprint(device.profile(), true); !status)
      return fail(status.error().message());
  Storage bound = storage;
  std::vector<const HostTensor *> hostInputs(inputs.size(), nullptr);
  for (unsigned i = 0; i < inputs.size(); ++i) {
    if (const auto *onDevice =
            std::get_if<std::shared_ptr<const DeviceTensor>>(&inputs[i])) {
      if (Status status = StoredTensorT::bindInput(*plan, preparedBundle, i,
                                                   *onDevice, device, bound);
          !status)
        return fail(status.error().message());
      continue;
    }
    const HostTensor *host = std::get<const HostTensor *>(inputs[i]);
    if (Status status = plan->checkHostInput(i, host); !status)
      return fail(status.error().message());
    hostInputs[i] = host;
  }
  if (streamed) {
    if (Expected<BundleRun> done =
            runStreamed(bound, hostInputs, /*deviceResident=*/true,
                        /*readOutputs=*/false);
        !done)
      return done.error();
    return StoredTensorT::wrapOutputs(*plan, preparedBundle, device, bound);
  }
  // Storage of their own for the outputs, which the returned tensors keep:
  // none that an earlier run's tensors still hold. An output that is
  // another buffer under a new shape keeps that buffer's. So an input
  // given from the host that an output is (a reshape of an input) is
  // uploaded into pooled storage too, not into the executor's own, which
  // the next run's upload would overwrite under the returned tensor: the
  // upload happens anyway, so this costs no device copy, and a loop that
  // drops its outputs allocates nothing after its second run. Storage that
  // a complete run has written is not filled again: unwritten elements
  // show as poison in the first run that uses it.
  std::vector<bool> fromHost(inputs.size());
  for (unsigned i = 0; i < inputs.size(); ++i)
    fromHost[i] = hostInputs[i] != nullptr;
  std::vector<unsigned> fresh = plan->freshParts(fromHost);
  std::vector<bool> filled(preparedBundle.buffers.size());
  for (unsigned i = 0; i < filled.size(); ++i)
    filled[i] = plan->isFilled(i) && !storageWritten[i];
  for (unsigned part : fresh) {
    bool written = false;
    Expected<std::shared_ptr<const BufferT>> buffer =
        reuseOrAllocate(part, written);
    if (!buffer)
      return buffer.error();
    bound[part] = std::move(*buffer);
    filled[part] = plan->isFilled(part) && !written;
  }
  if (Expected<BundleRun> done = runWhole(bound, hostInputs, filled,
                                          /*deviceResident=*/true);
      !done)
    return done.error();
  for (unsigned i = 0; i < storageWritten.size(); ++i)
    if (bound[i] == storage[i])
      storageWritten[i] = true;
  for (unsigned part : fresh)
    for (PooledBuffer &pooled : outputPool[part])
      if (pooled.buffer == bound[part])
        pooled.written = true;
  return StoredTensorT::wrapOutputs(*plan, preparedBundle, device, bound);
}

template <Backend kBackend, class DeviceT, class BufferT>
Expected<std::shared_ptr<const BufferT>>
RunSkeleton<kBackend, DeviceT, BufferT>::reuseOrAllocate(unsigned part,
                                                         bool &written) {
  std::vector<PooledBuffer> &pool = outputPool[part];
  // Only the pool holds a buffer whose count is 1: no device tensor (nor
  // another thread) can take it back. The fence orders this run's use
  // after the releasing thread's last use of it.
  auto unheld = [](const PooledBuffer &pooled) {
    return pooled.buffer.use_count() == 1;
  };
  auto free = std::find_if(pool.begin(), pool.end(), unheld);
  if (free != pool.end()) {
    std::atomic_thread_fence(std::memory_order_acquire);
    std::swap(*free, pool.front());
    // Keep one spare at most, so that runs whose outputs were all dropped
    // leave no more storage behind than a loop needs.
    auto spare = std::find_if(pool.begin() + 1, pool.end(), unheld);
    if (spare != pool.end())
      pool.erase(std::remove_if(spare + 1, pool.end(), unheld), pool.end());
    written = pool.front().written;
    return pool.front().buffer;
  }
  Expected<std::shared_ptr<const BufferT>> allocated = allocate(part);
  if (!allocated)
    return allocated.error();
  pool.push_back({*allocated, false});
  written = false;
  return std::move(*allocated);
}

} // namespace tilec

#endif // TILEC_RUNTIME_LIB_RUNSKELETON_H
