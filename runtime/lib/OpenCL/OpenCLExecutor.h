//===- OpenCLExecutor.h - Running a bundle on an OpenCL device --*- C++ -*-===//
//
// Runs a Bundle on an opened OpenCL device: allocates its buffers (aliases
// share their target's storage; a tensor stored as pieces is one allocation
// per piece, and transfers go piece by piece), builds its program, then, for
// each run, uploads the inputs, poisons the outputs and temporaries so that
// elements no kernel writes stand out, launches the kernels in order and reads
// the outputs back, with each launch's device time from its event. A bundle
// larger than the device's memory streams instead (Executor.h): storage is
// allocated per run, launch by launch, and released after a clFinish.
//
// An executor is prepared once and may run many times (`tilec bench`); the
// device's program cache makes a second executor of the same bundle cheap.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_LIB_OPENCL_OPENCLEXECUTOR_H
#define TILEC_RUNTIME_LIB_OPENCL_OPENCLEXECUTOR_H

#include "tilec/Runtime/Executor.h"
#include "OpenCL/OpenCL.h"
#include "tilec/Runtime/Status.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tilec {

class StoragePlan;

/// The options a bundle's OpenCL C is built with on `device`: OpenCL C 1.2,
/// no relaxed math, and correctly rounded f32 division and square root where
/// the device offers them (OpenCL 1.2 otherwise allows 2.5 and 3 ulp).
std::string getBundleBuildOptions(const opencl::Device &device);

class OpenCLExecutor final : public Executor {
public:
  /// Prepares `bundle` on `device`, which must outlive the executor: checks
  /// that its buffers fit the device's profile (each allocation and their
  /// total), allocates them, builds the program and creates the kernels.
  /// `name` (the bundle's file, say) prefixes every message.
  static Expected<std::unique_ptr<OpenCLExecutor>>
  create(opencl::Device &device, Bundle bundle, std::string name);

  Backend backend() const override { return Backend::OpenCL; }
  const Bundle &bundle() const override { return program; }
  Expected<BundleRun> run(const std::vector<HostTensor> &inputs) override;
  Expected<std::vector<std::shared_ptr<DeviceTensor>>>
  runOnDevice(const std::vector<RunInput> &inputs) override;

  ~OpenCLExecutor() override;
  OpenCLExecutor(const OpenCLExecutor &) = delete;
  OpenCLExecutor &operator=(const OpenCLExecutor &) = delete;

private:
  /// The storage a run uses, one entry per bundle buffer: null for aliases,
  /// which use their target's, and for tensors stored as pieces, which use
  /// their pieces'. Shared, so that outputs kept on the device outlive the
  /// run and inputs can come from other executors.
  using Storage = std::vector<std::shared_ptr<const opencl::Buffer>>;

  OpenCLExecutor(opencl::Device &device, Bundle bundle, std::string name);

  /// Allocates the storage of bundle buffer `index`, which owns storage.
  Expected<std::shared_ptr<const opencl::Buffer>> allocate(unsigned index);
  Status allocateBuffers();
  Status buildKernels();
  /// Writes `tensor` into the storage of bundle buffer `index`.
  Status upload(const Storage &bound, unsigned index, const HostTensor &tensor);
  /// Enqueues the fill of bundle buffer `index` with 0xFF bytes if
  /// StoragePlan::isPoisoned says so.
  Status poison(const Storage &bound, unsigned index);
  /// Enqueues the fill of every output and temporary with 0xFF bytes.
  Status poisonResults(const Storage &bound);
  /// Enqueues launch `index`; one without work-items has no event.
  Expected<std::optional<opencl::Event>> launch(const Storage &bound,
                                                size_t index);
  /// Enqueues every launch in order.
  Expected<std::vector<std::optional<opencl::Event>>>
  launchAll(const Storage &bound);
  /// The device time of each launch of `events`, 0 for those without one.
  Expected<std::vector<uint64_t>>
  timeLaunches(const std::vector<std::optional<opencl::Event>> &events) const;
  /// Runs the bundle streamed through the device (StoragePlan::
  /// planResidency): `bound` holds the storage bound before (inputs on the
  /// device), `hostInputs` the host data of the other inputs (null for
  /// those). Fills `outputs`, when given, with the outputs read back;
  /// leaves in `bound` the storage of the parts resident to the end.
  Expected<BundleRun>
  runStreamed(Storage &bound, const std::vector<const HostTensor *> &hostInputs,
              bool deviceResident, bool readOutputs);
  /// The buffer that holds the storage of bundle buffer `index`.
  const opencl::Buffer &storageOf(const Storage &bound, unsigned index) const;
  /// `message` prefixed with the bundle's name, keeping the driver code.
  Error fail(const std::string &message, int driverCode = 0) const;

  opencl::Device &device;
  Bundle program;
  std::string label;
  /// Aliases, pieces, poisoning: decided as on every backend.
  std::unique_ptr<StoragePlan> plan;
  /// The executor's own storage, which `run` uses; empty when the bundle
  /// streams, allocating storage per run.
  Storage storage;
  /// Whether the bundle's buffers do not fit the device together.
  bool streamed = false;
  std::vector<opencl::Kernel> kernels;
};

} // namespace tilec

#endif // TILEC_RUNTIME_LIB_OPENCL_OPENCLEXECUTOR_H
