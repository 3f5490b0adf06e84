//===- Run.cpp - `tilec run` ----------------------------------------------===//

#include "Driver.h"

#include "tilec/Interpreter/Interpreter.h"
#include "tilec/Runtime/Npy.h"
#include "tilec/Runtime/Random.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace tilec {

static std::string typeString(DType dtype, const Shape &shape) {
  std::string text = std::string(dtypeName(dtype)) + "[";
  for (size_t i = 0; i < shape.size(); ++i)
    text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + "]";
}

/// The data of every parameter, from `--in` files or, with `--random`, made
/// from the `--arg` bindings. Returns the exit code on failure.
static int gatherInputs(const RunOptions &options, const ast::Function &function,
                        std::vector<ArgBinding> &bindings,
                        StringMap<HostTensor> &data) {
  std::vector<ParamInfo> params = getParams(function);
  auto isParam = [&](StringRef name) {
    return llvm::any_of(params,
                        [&](const ParamInfo &p) { return p.name == name; });
  };
  auto paramList = [&] {
    std::string names;
    for (const ParamInfo &p : params)
      names += (names.empty() ? "" : ", ") + p.name;
    return names;
  };

  StringMap<ArgBinding> argBindings;
  for (const std::string &spec : options.argSpecs) {
    std::string error;
    std::optional<ArgBinding> binding = parseArgSpec(spec, error);
    if (!binding) {
      reportError(error);
      return ExitUsageError;
    }
    if (!isParam(binding->name)) {
      reportError("--arg names '" + binding->name +
                  "', which is not an input (inputs: " + paramList() + ")");
      return ExitUsageError;
    }
    argBindings[binding->name] = std::move(*binding);
  }

  for (const std::string &spec : options.inputFiles) {
    auto [name, path] = StringRef(spec).split('=');
    if (name.empty() || path.empty()) {
      reportError("invalid --in '" + spec + "' (expected NAME=FILE.npy)");
      return ExitUsageError;
    }
    if (!isParam(name)) {
      reportError("--in names '" + name + "', which is not an input (inputs: " +
                  paramList() + ")");
      return ExitUsageError;
    }
    std::string error;
    std::optional<HostTensor> tensor = readNpy(path.str(), error);
    if (!tensor) {
      reportError(error);
      return ExitProgramError;
    }
    auto arg = argBindings.find(name);
    if (arg != argBindings.end() &&
        (arg->second.dtype != tensor->dtype() ||
         arg->second.shape != tensor->shape())) {
      reportError("--in " + name + " holds " +
                  typeString(tensor->dtype(), tensor->shape()) +
                  " but --arg says " +
                  typeString(arg->second.dtype, arg->second.shape));
      return ExitProgramError;
    }
    data[name] = std::move(*tensor);
  }

  for (const auto &[index, param] : llvm::enumerate(params)) {
    if (!data.count(param.name)) {
      auto arg = argBindings.find(param.name);
      if (arg == argBindings.end() || !options.random) {
        reportError("input '" + param.name +
                    "' has no data: pass --in " + param.name +
                    "=FILE.npy, or --arg " + param.name +
                    "=DTYPE[dims] with --random");
        return ExitUsageError;
      }
      data[param.name] = randomTensor(arg->second.dtype, arg->second.shape,
                                      options.seed + index);
    }
    const HostTensor &tensor = data[param.name];
    bindings.push_back({param.name, tensor.dtype(), tensor.shape()});
  }
  return ExitSuccess;
}

/// Writes `tensor` to DIR/<name>.npy.
static bool writeOutput(StringRef outDir, StringRef name,
                        const HostTensor &tensor) {
  if (std::error_code ec = sys::fs::create_directories(outDir)) {
    reportError("cannot create '" + outDir + "': " + ec.message());
    return false;
  }
  SmallString<256> path(outDir);
  sys::path::append(path, name + ".npy");
  std::string error;
  if (!writeNpy(std::string(path), tensor, error)) {
    reportError(error);
    return false;
  }
  return true;
}

int runRun(const RunOptions &options) {
  if (options.backend != "reference") {
    reportError("unknown backend '" + options.backend +
                "' (available: reference)");
    return ExitUsageError;
  }
  std::unique_ptr<LoadedSource> source =
      loadSource(options.inputPath, options.entry);
  if (!source)
    return ExitProgramError;

  std::vector<ArgBinding> bindings;
  StringMap<HostTensor> data;
  if (int code = gatherInputs(options, *source->function, bindings, data))
    return code;
  std::optional<Program> program =
      specialize(*source->function, bindings, source->sourceMgr);
  if (!program)
    return ExitProgramError;

  std::vector<HostTensor> inputs;
  for (unsigned id : program->inputs)
    inputs.push_back(data[program->tensors[id].name]);
  std::optional<std::vector<HostTensor>> outputs =
      interpret(*program, inputs, source->sourceMgr);
  if (!outputs)
    return ExitProgramError;

  for (const auto &[id, tensor] : llvm::zip(program->outputs, *outputs)) {
    const std::string &name = program->tensors[id].name;
    double checksum = 0;
    for (int64_t i = 0; i < tensor.numElements(); ++i)
      checksum += tensor.getDouble(i);
    outs() << name << ": " << typeString(tensor.dtype(), tensor.shape())
           << ", checksum " << format("%.9g", checksum)
           << " (sum of elements)\n";
    if (!options.outDir.empty() && !writeOutput(options.outDir, name, tensor))
      return ExitProgramError;
  }
  if (options.check)
    outs() << "check: skipped, the reference backend is the oracle itself\n";
  return ExitSuccess;
}

} // namespace tilec
