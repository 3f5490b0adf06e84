//===- ProgramState.h - What a CompiledProgram handle refers to -*- C++ -*-===//
//
// Internal to the JIT library.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_JIT_LIB_PROGRAMSTATE_H
#define TILEC_JIT_LIB_PROGRAMSTATE_H

#include "DeviceSession.h"

#include "tilec/JIT/CompiledProgram.h"

#include <memory>
#include <vector>

namespace tilec::jit {

/// One compiled program, shared by its handles and the memory cache.
struct ProgramCore {
  /// Declared before the executor, so that it outlives it: the executor
  /// uses the session's device.
  std::shared_ptr<DeviceSession> session;
  /// Used only under the session's queue lock.
  std::unique_ptr<Executor> executor;
  std::vector<TensorInfo> inputs;
  std::vector<TensorInfo> outputs;
  std::vector<KernelDescription> kernels;
};

/// `prepared`'s executor on `session`, with what its bundle tells.
std::shared_ptr<ProgramCore>
makeProgramCore(std::shared_ptr<DeviceSession> session,
                std::unique_ptr<Executor> executor);

/// `inputs` of an asynchronous run of `function` (whose parameters are
/// named `parameters`) as runOnDevice takes them, borrowing the host
/// tensors; waits for pending outputs of earlier runs, and fails with the
/// error of one whose run failed.
Expected<std::vector<RunInput>>
borrowRunInputs(const std::vector<OwnedRunInput> &inputs,
                const std::string &function,
                const std::vector<std::string> &parameters);

struct CompiledProgram::State {
  std::shared_ptr<ProgramCore> core;
  /// Where this handle's compile found the program.
  ProgramOrigin origin = ProgramOrigin::Compiled;
};

} // namespace tilec::jit

#endif // TILEC_JIT_LIB_PROGRAMSTATE_H
