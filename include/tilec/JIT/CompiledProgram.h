//===- CompiledProgram.h - A program compiled for one device ----*- C++ -*-===//
//
// What Context::compile returns: one Tile function specialised to its
// bindings and compiled for the context's device. It tells its inputs,
// outputs, kernels and schedule, and runs on host tensors (results on the
// host) or with device-resident tensors (results stay on the device, so
// that programs chain without copies through the host), synchronously or in
// the background.
//
// A CompiledProgram is a shared handle: copies refer to the same compiled
// program, which lives while any copy (or the context's memory cache) holds
// it. Every member is thread-safe; runs on one device are serialised by the
// device's lock, in the order they take it. Asynchronous runs go through the
// device's run queue: one at a time, in the order they were submitted.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_JIT_COMPILEDPROGRAM_H
#define TILEC_JIT_COMPILEDPROGRAM_H

#include "tilec/JIT/Error.h"
#include "tilec/JIT/Future.h"
#include "tilec/Runtime/Bundle.h"
#include "tilec/Runtime/DType.h"
#include "tilec/Runtime/Executor.h"
#include "tilec/Runtime/HostTensor.h"

#include <memory>
#include <string>
#include <variant>
#include <vector>

namespace tilec::jit {

/// An input or output of a compiled program.
struct TensorInfo {
  std::string name;
  DType dtype = DType::F32;
  Shape shape;
};

/// A kernel of a compiled program.
struct KernelDescription {
  /// The kernel's entry point.
  std::string name;
  /// `file:line:col` of the statement(s) it computes.
  std::string sourceLocation;
  /// The floating-point operations and the minimum bytes moved by one run.
  double flops = 0;
  double bytes = 0;
};

/// Where Context::compile found the program.
enum class ProgramOrigin {
  /// Compiled now (the MLIR pipeline and the driver's build ran).
  Compiled,
  /// The context's memory cache: nothing ran.
  MemoryCache,
  /// The disk cache: the bundle and the driver's program binary were loaded,
  /// so neither the MLIR pipeline nor the driver's compiler ran.
  DiskCache,
};

/// "compiled", "memory cache" or "disk cache".
const char *programOriginName(ProgramOrigin origin);

/// An input of an asynchronous device run: a host tensor (owned by the
/// call, uploaded when it runs), a device tensor, or an output of an earlier
/// asynchronous run (Future::output), which need not have finished.
using OwnedRunInput =
    std::variant<HostTensor, std::shared_ptr<const DeviceTensor>,
                 PendingTensor>;

class CompiledProgram {
public:
  /// The Tile function's name.
  const std::string &function() const;
  /// The parameters in declaration order: the order of every run's inputs.
  const std::vector<TensorInfo> &inputs() const;
  /// The results in `-> (...)` order: the order of every run's outputs.
  const std::vector<TensorInfo> &outputs() const;
  /// The kernels, in the order their launches first appear.
  const std::vector<KernelDescription> &kernels() const;
  /// What the scheduler chose for every kernel and why (the text of
  /// `tilec compile --explain`).
  const std::string &schedule() const;
  /// Everything the runtime runs: kernels' code, buffers, launches. It may
  /// be saved with writeBundle and run without the compiler (tile-run).
  const Bundle &bundle() const;
  /// Where the context found this program when it was compiled.
  ProgramOrigin origin() const;

  /// Runs the program once on `inputs` (one per inputs(), in order, each of
  /// its dtype and shape) and returns the outputs (one per outputs(), in
  /// order) on the host. Blocks until they are read back. `progress`, where
  /// given, hears how far a run streamed through the device has got, on the
  /// calling thread (Executor::setProgress: a run that fits the device whole
  /// reports nothing).
  Expected<std::vector<HostTensor>>
  run(const std::vector<HostTensor> &inputs,
      const RunProgress &progress = nullptr) const;

  /// Runs the program once with inputs on the host (uploaded; not owned:
  /// each must outlive the call) or on the device (used in place: the
  /// outputs of an earlier run of any program of the same context) and
  /// leaves the outputs on the device, each in storage of its own, so that
  /// they stay valid across later runs. DeviceTensor::read copies one to the
  /// host. A device tensor of another context's device, or of another dtype
  /// or shape than its input, is an ErrorKind::InvalidArgument. `progress`
  /// as for run().
  Expected<std::vector<std::shared_ptr<DeviceTensor>>>
  runOnDevice(const std::vector<RunInput> &inputs,
              const RunProgress &progress = nullptr) const;

  /// run() queued on the device's run queue; the call returns at once.
  /// The queue runs one run at a time, in the order they were submitted
  /// (by any program of the same context).
  Future<std::vector<HostTensor>>
  runAsync(std::vector<HostTensor> inputs) const;
  /// runOnDevice() queued like runAsync. An input may be a PendingTensor of
  /// an earlier asynchronous run (Future::output): the queue's order means
  /// that run has finished when this one starts, so a chain of runs needs no
  /// waiting on the host; only the last result is read back.
  Future<DeviceOutputs>
  runOnDeviceAsync(std::vector<OwnedRunInput> inputs) const;

  /// The implementation's state; created by Context only.
  struct State;
  explicit CompiledProgram(std::shared_ptr<State> state)
      : state(std::move(state)) {}

private:
  std::shared_ptr<State> state;
};

} // namespace tilec::jit

#endif // TILEC_JIT_COMPILEDPROGRAM_H
