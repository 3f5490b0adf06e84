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

#include <memory>
#include <string>
#include <vector>

namespace tilec {

/// The options a bundle's OpenCL C is built with on `device`: OpenCL C 1.2,
/// no relaxed math, and correctly rounded f32 division and square root where
/// the device offers them (OpenCL 1.2 otherwise allows 2.5 and 3 ulp); with
/// -cl-opt-disable where the device was opened so.
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
  const Bundle &bundle() const override;
  Expected<BundleRun> run(const std::vector<HostTensor> &inputs) override;
  Expected<std::vector<std::shared_ptr<DeviceTensor>>>
  runOnDevice(const std::vector<RunInput> &inputs) override;
  void setProgress(RunProgress progress) override;

  ~OpenCLExecutor() override;
  OpenCLExecutor(const OpenCLExecutor &) = delete;
  OpenCLExecutor &operator=(const OpenCLExecutor &) = delete;

private:
  /// The bundle, its storage and kernels, and the OpenCL steps of the run
  /// skeleton that every backend shares (runtime/lib/RunSkeleton.h).
  class Runner;

  explicit OpenCLExecutor(std::unique_ptr<Runner> runner);

  std::unique_ptr<Runner> runner;
};

} // namespace tilec

#endif // TILEC_RUNTIME_LIB_OPENCL_OPENCLEXECUTOR_H
