//===- Inputs.cpp - The data of a function's inputs -----------------------===//

#include "Driver.h"

#include "tilec/Runtime/Npy.h"
#include "tilec/Runtime/Random.h"
#include "tilec/Runtime/TensorSummary.h"

#include "llvm/ADT/STLExtras.h"

using namespace llvm;

namespace tilec {

int gatherInputs(const InputOptions &options, const ast::Function &function,
                 std::vector<ArgBinding> &bindings,
                 StringMap<HostTensor> &data) {
  std::vector<ParamInfo> params = getParams(function);
  auto isParam = [&](StringRef name) {
    return llvm::any_of(params,
                        [&](const ParamInfo &p) { return p.name == name; });
  };

  std::optional<StringMap<ArgBinding>> parsed =
      parseArgBindings(options.argSpecs, function);
  if (!parsed)
    return ExitUsageError;
  StringMap<ArgBinding> &argBindings = *parsed;

  for (const std::string &spec : options.inputFiles) {
    auto [name, path] = StringRef(spec).split('=');
    if (name.empty() || path.empty()) {
      reportError("invalid --in '" + spec + "' (expected NAME=FILE.npy)");
      return ExitUsageError;
    }
    if (!isParam(name)) {
      reportError("--in names '" + name + "', which is not an input (inputs: " +
                  listParams(params) + ")");
      return ExitUsageError;
    }
    std::string error;
    std::optional<HostTensor> tensor = readNpy(path.str(), error);
    if (!tensor) {
      reportError(error);
      return ExitProgramError;
    }
    auto arg = argBindings.find(name);
    if (arg != argBindings.end() && (arg->second.dtype != tensor->dtype() ||
                                     arg->second.shape != tensor->shape())) {
      reportError("--in " + name + " holds " +
                  formatTensorType(tensor->dtype(), tensor->shape()) +
                  " but --arg says " +
                  formatTensorType(arg->second.dtype, arg->second.shape));
      return ExitProgramError;
    }
    data[name] = std::move(*tensor);
  }

  for (const auto &[index, param] : llvm::enumerate(params)) {
    if (!data.count(param.name)) {
      auto arg = argBindings.find(param.name);
      if (arg == argBindings.end() || !options.random) {
        reportError("input '" + param.name + "' has no data: pass --in " +
                    param.name + "=FILE.npy, or --arg " + param.name +
                    "=DTYPE[dims] with --random");
        return ExitUsageError;
      }
      Expected<HostTensor> random = randomTensor(
          arg->second.dtype, arg->second.shape, options.seed + index);
      if (!random) {
        reportError("--arg " + param.name + ": " + random.error().message());
        return ExitProgramError;
      }
      data[param.name] = std::move(*random);
    }
    const HostTensor &tensor = data[param.name];
    bindings.push_back({param.name, tensor.dtype(), tensor.shape()});
  }
  return ExitSuccess;
}

} // namespace tilec
