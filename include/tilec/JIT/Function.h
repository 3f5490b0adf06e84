//===- Function.h - A Tile function for any input shapes --------*- C++ -*-===//
//
// What Context::load returns: one function of a Tile source, generic over the
// dtypes and shapes of its inputs. Each call with a combination of dtypes and
// shapes not seen before specialises the function to it through
// Context::compile (and so through the memory and disk caches); later calls
// with the same combination reuse that program.
//
//   auto matmul = context.load(source);      // Expected<Function>
//   auto c = (*matmul)(a, b);                // any shapes that fit
//   auto d = matmul->run({a2, b2});          // the same, from a vector
//
// A Function is a shared handle: copies share their programs. Every member
// is thread-safe.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_JIT_FUNCTION_H
#define TILEC_JIT_FUNCTION_H

#include "tilec/JIT/CompiledProgram.h"
#include "tilec/JIT/Error.h"
#include "tilec/JIT/Future.h"
#include "tilec/JIT/Signature.h"
#include "tilec/Runtime/DType.h"
#include "tilec/Runtime/HostTensor.h"

#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

namespace tilec::jit {

/// The dtype and shape of one input of a call.
struct InputType {
  DType dtype = DType::F32;
  Shape shape;
};

class Function {
public:
  /// The parameters' names and declared ranks, and the results' names.
  const FunctionSignature &signature() const;
  /// The function's name (signature().name).
  const std::string &name() const;

  /// The program for inputs of `types` (one per parameter, in order): the
  /// one this function compiled for them before, else Context::compile's
  /// (compiled now, or from the context's memory or disk cache). The wrong
  /// number of inputs is an ErrorKind::InvalidArgument; types the function
  /// does not accept (a rank other than declared, mismatched extents) are an
  /// ErrorKind::Compile with the diagnostics.
  Expected<CompiledProgram>
  specialize(const std::vector<InputType> &types) const;

  /// CompiledProgram::run of the program for these inputs' dtypes and
  /// shapes.
  Expected<std::vector<HostTensor>>
  run(const std::vector<HostTensor> &inputs) const;
  /// run() of the arguments, each a HostTensor: f(a, b).
  template <class... Tensors>
  Expected<std::vector<HostTensor>> operator()(Tensors &&...inputs) const {
    static_assert((std::is_convertible_v<Tensors, HostTensor> && ...),
                  "a Function takes HostTensors");
    std::vector<HostTensor> list;
    list.reserve(sizeof...(inputs));
    (list.push_back(std::forward<Tensors>(inputs)), ...);
    return run(list);
  }
  /// CompiledProgram::runOnDevice of the program for these inputs.
  Expected<DeviceOutputs>
  runOnDevice(const std::vector<RunInput> &inputs) const;
  /// run() and runOnDevice() queued on the device's run queue, with the
  /// order and chaining of CompiledProgram::runAsync and runOnDeviceAsync. A
  /// new combination of dtypes and shapes is compiled there, in turn.
  Future<std::vector<HostTensor>>
  runAsync(std::vector<HostTensor> inputs) const;
  Future<DeviceOutputs>
  runOnDeviceAsync(std::vector<OwnedRunInput> inputs) const;

  /// How many programs (combinations of dtypes and shapes) this function
  /// holds.
  size_t specializationCount() const;

  /// The implementation's state; created by Context::load only.
  struct State;
  explicit Function(std::shared_ptr<State> state) : state(std::move(state)) {}

private:
  std::shared_ptr<State> state;
};

} // namespace tilec::jit

#endif // TILEC_JIT_FUNCTION_H
