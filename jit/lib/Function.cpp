//===- Function.cpp - A Tile function for any input shapes ----------------===//

#include "tilec/JIT/Function.h"

#include "ContextState.h"
#include "ProgramState.h"

#include "tilec/JIT/Context.h"
#include "tilec/Runtime/Plural.h"

#include <map>
#include <mutex>

namespace tilec::jit {

struct Function::State {
  Context context;
  std::string text;
  std::string sourceName;
  std::string entry;
  FunctionSignature signature;
  /// Guards `programs`.
  std::mutex mutex;
  /// The programs compiled for each combination of the inputs' dtypes and
  /// shapes, by specializationKey.
  std::map<std::string, CompiledProgram> programs;

  explicit State(Context context) : context(std::move(context)) {}
};

Expected<Function> Context::load(const std::string &text,
                                 const std::string &entry,
                                 const std::string &sourceName) const {
  Expected<FunctionSignature> signature =
      readSignature(text, entry, sourceName);
  if (!signature)
    return signature.error();
  auto function = std::make_shared<Function::State>(*this);
  function->text = text;
  function->sourceName = sourceName;
  function->entry = entry;
  function->signature = std::move(*signature);
  return Function(std::move(function));
}

const FunctionSignature &Function::signature() const {
  return state->signature;
}
const std::string &Function::name() const { return state->signature.name; }

/// "f32[4,3];i32[];": one line per input, exact.
static std::string specializationKey(const std::vector<InputType> &types) {
  std::string key;
  for (const InputType &type : types) {
    key += dtypeName(type.dtype);
    key += '[';
    for (size_t i = 0; i < type.shape.size(); ++i)
      key += (i ? "," : "") + std::to_string(type.shape[i]);
    key += "];";
  }
  return key;
}

Expected<CompiledProgram>
Function::specialize(const std::vector<InputType> &types) const {
  const std::vector<ParameterInfo> &parameters = state->signature.parameters;
  if (types.size() != parameters.size())
    return Error(ErrorKind::InvalidArgument,
                 "'" + name() + "' takes " +
                     pluralize(parameters.size(), "input") + ", not " +
                     std::to_string(types.size()));
  std::string key = specializationKey(types);
  {
    std::lock_guard<std::mutex> guard(state->mutex);
    if (auto found = state->programs.find(key); found != state->programs.end())
      return found->second;
  }
  CompileOptions options;
  options.entry = state->entry;
  for (size_t i = 0; i < types.size(); ++i)
    options.inputs.push_back(
        {parameters[i].name, types[i].dtype, types[i].shape});
  // Threads specialising to the same types at once each compile (the
  // context's memory cache serves all but the first to finish).
  Expected<CompiledProgram> program =
      state->context.compile(state->text, options, state->sourceName);
  if (!program)
    return program.error();
  std::lock_guard<std::mutex> guard(state->mutex);
  return state->programs.emplace(std::move(key), *program).first->second;
}

size_t Function::specializationCount() const {
  std::lock_guard<std::mutex> guard(state->mutex);
  return state->programs.size();
}

Expected<std::vector<HostTensor>>
Function::run(const std::vector<HostTensor> &inputs) const {
  std::vector<InputType> types;
  for (const HostTensor &input : inputs)
    types.push_back({input.dtype(), input.shape()});
  Expected<CompiledProgram> program = specialize(types);
  if (!program)
    return program.error();
  return program->run(inputs);
}

Expected<DeviceOutputs>
Function::runOnDevice(const std::vector<RunInput> &inputs) const {
  std::vector<InputType> types;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (const auto *host = std::get_if<const HostTensor *>(&inputs[i])) {
      if (*host) {
        types.push_back({(*host)->dtype(), (*host)->shape()});
        continue;
      }
    } else if (const auto &device =
                   std::get<std::shared_ptr<const DeviceTensor>>(inputs[i])) {
      types.push_back({device->dtype(), device->shape()});
      continue;
    }
    return Error(ErrorKind::InvalidArgument, "input " + std::to_string(i) +
                                                 " of '" + name() +
                                                 "' is a null tensor");
  }
  Expected<CompiledProgram> program = specialize(types);
  if (!program)
    return program.error();
  return program->runOnDevice(inputs);
}

Future<std::vector<HostTensor>>
Function::runAsync(std::vector<HostTensor> inputs) const {
  return submitWork<std::vector<HostTensor>>(
      state->context.state->session->runQueue(),
      [function = *this, inputs = std::move(inputs)] {
        return function.run(inputs);
      });
}

Future<DeviceOutputs>
Function::runOnDeviceAsync(std::vector<OwnedRunInput> inputs) const {
  return submitWork<DeviceOutputs>(
      state->context.state->session->runQueue(),
      [function = *this,
       inputs = std::move(inputs)]() -> Expected<DeviceOutputs> {
        std::vector<std::string> parameters;
        for (const ParameterInfo &parameter : function.signature().parameters)
          parameters.push_back(parameter.name);
        Expected<std::vector<RunInput>> borrowed =
            borrowRunInputs(inputs, function.name(), parameters);
        if (!borrowed)
          return borrowed.error();
        return function.runOnDevice(*borrowed);
      });
}

} // namespace tilec::jit
