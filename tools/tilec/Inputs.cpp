//===- Inputs.cpp - The data of a function's inputs -----------------------===//

#include "Driver.h"

#include "InputArgument.h"

#include "tilec/Runtime/Npy.h"
#include "tilec/Runtime/Random.h"
#include "tilec/Runtime/TensorSummary.h"

#include "llvm/ADT/STLExtras.h"

using namespace llvm;

namespace tilec {

std::optional<std::vector<ArgBinding>>
gatherInputs(ArrayRef<std::string> argSpecs, const InputDataArguments &given,
             const ast::Function &function, StringMap<HostTensor> &data,
             int &exitCode) {
  auto fail = [&](int code) {
    exitCode = code;
    return std::nullopt;
  };
  std::vector<ParamInfo> params = getParams(function);
  auto isParam = [&](StringRef name) {
    return llvm::any_of(params,
                        [&](const ParamInfo &p) { return p.name == name; });
  };

  std::optional<StringMap<ArgBinding>> parsed =
      parseArgBindings(argSpecs, function);
  if (!parsed)
    return fail(ExitUsageError);
  StringMap<ArgBinding> &argBindings = *parsed;

  std::vector<Expected<InputArgument>> inputs;
  for (const std::string &spec : given.inputs)
    inputs.push_back(parseInputArgument(spec));
  for (const std::string &spec : given.inputFiles)
    inputs.push_back(parseInputFileArgument(spec));
  for (Expected<InputArgument> &input : inputs) {
    if (!input) {
      reportError(input.error().message());
      return fail(ExitUsageError);
    }
    const std::string &name = input->name;
    if (!isParam(name)) {
      reportError("--input names '" + name +
                  "', which is not an input (inputs: " + listParams(params) +
                  ")");
      return fail(ExitUsageError);
    }
    if (data.count(name)) {
      reportError("--input gives '" + name + "' twice");
      return fail(ExitUsageError);
    }
    std::optional<HostTensor> tensor = std::move(input->tensor);
    if (!tensor) {
      std::string error;
      tensor = readNpy(input->npyPath, error);
      if (!tensor) {
        reportError(error);
        return fail(ExitProgramError);
      }
    }
    auto arg = argBindings.find(name);
    if (arg != argBindings.end() && (arg->second.dtype != tensor->dtype() ||
                                     arg->second.shape != tensor->shape())) {
      reportError("--input " + name + " is " +
                  formatTensorType(tensor->dtype(), tensor->shape()) +
                  " but --arg says " +
                  formatTensorType(arg->second.dtype, arg->second.shape));
      return fail(ExitProgramError);
    }
    data[name] = std::move(*tensor);
  }

  std::vector<ArgBinding> bindings;
  for (const auto &[index, param] : llvm::enumerate(params)) {
    if (!data.count(param.name)) {
      auto arg = argBindings.find(param.name);
      if (arg == argBindings.end() || !given.random) {
        reportError("input '" + param.name + "' has no data: pass --input " +
                    param.name + "=VALUES or --input " + param.name +
                    "=@FILE.npy, or --arg " + param.name +
                    "=DTYPE[dims] with --random");
        return fail(ExitUsageError);
      }
      Expected<HostTensor> random = randomTensor(
          arg->second.dtype, arg->second.shape, given.seed + index);
      if (!random) {
        reportError("--arg " + param.name + ": " + random.error().message());
        return fail(ExitProgramError);
      }
      data[param.name] = std::move(*random);
    }
    const HostTensor &tensor = data[param.name];
    bindings.push_back({param.name, tensor.dtype(), tensor.shape()});
  }
  return bindings;
}

} // namespace tilec
