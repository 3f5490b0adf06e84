//===- Executor.h - Running a bundle on an OpenCL device --------*- C++ -*-===//
//
// Runs a Bundle on an opened OpenCL device: allocates its buffers (aliases
// share their target's storage), builds its program, then, for each run,
// uploads the inputs, poisons the outputs and temporaries so that elements
// no kernel writes stand out, launches the kernels in order and reads the
// outputs back, with each launch's device time from its event.
//
// An executor is prepared once and may run many times (`tilec bench`); the
// device's program cache makes a second executor of the same bundle cheap.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_EXECUTOR_H
#define TILEC_RUNTIME_EXECUTOR_H

#include "tilec/Runtime/Bundle.h"
#include "tilec/Runtime/HostTensor.h"
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

/// Checks `inputs`, one per `bundle.inputs` in that order, against the
/// bundle's dtypes and shapes; the error names the first input that differs
/// ("input 'A' is f32[4, 5] but the bundle expects f32[4, 4]").
Status checkBundleInputs(const Bundle &bundle,
                         const std::vector<HostTensor> &inputs);

/// What one run of a bundle produced.
struct BundleRun {
  /// One per `Bundle::outputs`, in that order.
  std::vector<HostTensor> outputs;
  /// The device time of each launch in nanoseconds, one per
  /// `Bundle::launches`; 0 for a launch without work-items, which is skipped.
  std::vector<uint64_t> launchNs;
};

class BundleExecutor {
public:
  /// Prepares `bundle` on `device`, which must outlive the executor: checks
  /// that its buffers fit the device's profile (each allocation and their
  /// total), allocates them, builds the program and creates the kernels.
  /// `name` (the bundle's file, say) prefixes every message.
  static Expected<std::unique_ptr<BundleExecutor>>
  create(opencl::Device &device, Bundle bundle, std::string name);

  /// Runs the bundle once on `inputs` (one per `Bundle::inputs`, in order):
  /// uploads them, fills every output and temporary with 0xFF bytes (NaN
  /// floats, -1 integers), launches every kernel in order and reads the
  /// outputs back. A failure names the kernel and its source location.
  Expected<BundleRun> run(const std::vector<HostTensor> &inputs);

  const Bundle &bundle() const { return program; }

  BundleExecutor(const BundleExecutor &) = delete;
  BundleExecutor &operator=(const BundleExecutor &) = delete;

private:
  BundleExecutor(opencl::Device &device, Bundle bundle, std::string name)
      : device(device), program(std::move(bundle)), label(std::move(name)) {}

  Status allocateBuffers();
  Status buildKernels();
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
  /// One per bundle buffer; empty for aliases, which use their target's.
  std::vector<std::optional<opencl::Buffer>> storage;
  std::vector<opencl::Kernel> kernels;
};

} // namespace tilec

#endif // TILEC_RUNTIME_EXECUTOR_H
