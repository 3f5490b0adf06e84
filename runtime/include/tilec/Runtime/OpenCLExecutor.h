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
#include <functional>
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

  OpenCLExecutor(const OpenCLExecutor &) = delete;
  OpenCLExecutor &operator=(const OpenCLExecutor &) = delete;

private:
  OpenCLExecutor(opencl::Device &device, Bundle bundle, std::string name)
      : device(device), program(std::move(bundle)), label(std::move(name)) {}

  /// Whether bundle buffer `index` has storage of its own: not an alias
  /// and not a tensor stored as pieces.
  bool ownsStorage(unsigned index) const;
  Status allocateBuffers();
  Status buildKernels();
  /// Calls `visit` with the storage of bundle buffer `index` and offset 0,
  /// or, for a tensor stored as pieces, with each piece's storage and its
  /// byte offset in the tensor; stops at the first failure.
  Status forEachPart(unsigned index,
                     const std::function<Status(const opencl::Buffer &,
                                                uint64_t)> &visit) const;
  /// Enqueues the fill of every output and temporary with 0xFF bytes.
  Status poisonResults();
  /// The buffer that holds the storage of bundle buffer `index`.
  const opencl::Buffer &storageOf(unsigned index) const;
  /// "kernel 'k0' (mm.tile:3:3)", for messages.
  std::string describeKernel(unsigned kernel) const;
  /// `message` prefixed with the bundle's name, keeping the driver code.
  Error fail(const std::string &message, int driverCode = 0) const;

  opencl::Device &device;
  Bundle program;
  std::string label;
  /// One per bundle buffer; empty for aliases, which use their target's,
  /// and for tensors stored as pieces.
  std::vector<std::optional<opencl::Buffer>> storage;
  /// The pieces of each bundle buffer, in order (empty: not split).
  std::vector<std::vector<unsigned>> pieces;
  std::vector<opencl::Kernel> kernels;
};

} // namespace tilec

#endif // TILEC_RUNTIME_OPENCLEXECUTOR_H
