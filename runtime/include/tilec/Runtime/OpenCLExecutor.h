//===- OpenCLExecutor.h - Running a bundle on an OpenCL device --*- C++ -*-===//
//
// Runs a Bundle on an opened OpenCL device: allocates its buffers (aliases
// share their target's storage; a tensor stored as pieces is one allocation
// per piece, and transfers go piece by piece), builds its program, then, for
// each run, uploads the inputs, poisons the outputs and temporaries so that
// elements no kernel writes stand out, launches the kernels in order and reads
// the outputs back, with each launch's device time from its event.
//
// An executor is prepared once and may run many times (`tilec bench`); the
// device's program cache makes a second executor of the same bundle cheap.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_OPENCLEXECUTOR_H
#define TILEC_RUNTIME_OPENCLEXECUTOR_H

#include "tilec/Runtime/Executor.h"
#include "tilec/Runtime/OpenCL.h"
#include "tilec/Runtime/Status.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tilec {

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

  OpenCLExecutor(const OpenCLExecutor &) = delete;
  OpenCLExecutor &operator=(const OpenCLExecutor &) = delete;

private:
  /// The storage a run uses, one entry per bundle buffer: null for aliases,
  /// which use their target's, and for tensors stored as pieces, which use
  /// their pieces'. Shared, so that outputs kept on the device outlive the
  /// run and inputs can come from other executors.
  using Storage = std::vector<std::shared_ptr<const opencl::Buffer>>;

  OpenCLExecutor(opencl::Device &device, Bundle bundle, std::string name)
      : device(device), program(std::move(bundle)), label(std::move(name)) {}

  /// Whether bundle buffer `index` has storage of its own: not an alias
  /// and not a tensor stored as pieces.
  bool ownsStorage(unsigned index) const;
  /// Allocates the storage of bundle buffer `index`, which owns storage.
  Expected<std::shared_ptr<const opencl::Buffer>> allocate(unsigned index);
  Status allocateBuffers();
  Status buildKernels();
  /// The buffer whose storage bundle buffer `index` uses: its alias target,
  /// or itself.
  unsigned storageOwner(unsigned index) const;
  /// The parts of bundle buffer `index` (itself, or its pieces in order),
  /// which owns storage or is stored as pieces.
  std::vector<unsigned> partsOf(unsigned index) const;
  /// Binds input `input` to `tensor`'s storage in `bound`, checking that it
  /// fits the input.
  Status bindDeviceInput(Storage &bound, unsigned input,
                         const DeviceTensor &tensor) const;
  /// Writes `tensor` into the storage of bundle buffer `index`.
  Status upload(const Storage &bound, unsigned index, const HostTensor &tensor);
  /// Enqueues the fill of every output and temporary with 0xFF bytes.
  Status poisonResults(const Storage &bound);
  /// Enqueues every launch in order; a launch without work-items has no
  /// event.
  Expected<std::vector<std::optional<opencl::Event>>>
  launchAll(const Storage &bound);
  /// The buffer that holds the storage of bundle buffer `index`.
  const opencl::Buffer &storageOf(const Storage &bound, unsigned index) const;
  /// "kernel 'k0' (mm.tile:3:3)", for messages.
  std::string describeKernel(unsigned kernel) const;
  /// `message` prefixed with the bundle's name, keeping the driver code.
  Error fail(const std::string &message, int driverCode = 0) const;

  opencl::Device &device;
  Bundle program;
  std::string label;
  /// The executor's own storage, which `run` uses.
  Storage storage;
  /// The pieces of each bundle buffer, in order (empty: not split).
  std::vector<std::vector<unsigned>> pieces;
  std::vector<opencl::Kernel> kernels;
};

} // namespace tilec

#endif // TILEC_RUNTIME_OPENCLEXECUTOR_H
