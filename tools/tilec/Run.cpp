//===- Run.cpp - `tilec run` ----------------------------------------------===//

#include "Driver.h"
#include "ProgressBar.h"

#include "tilec/Interpreter/Interpreter.h"
#include "tilec/Runtime/Compare.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace tilec {

/// Runs the prepared program on `data`; stores the outputs by name in
/// `outputs`. Returns the exit code.
static int runOnDevice(const RunOptions &options, const DeviceProgram &prepared,
                       const StringMap<HostTensor> &data,
                       StringMap<HostTensor> &outputs) {
  const Bundle &bundle = prepared.bundle;
  Expected<BundleRun> run = [&] {
    // Only a run streamed through the device reports its launches.
    ProgressBar bar("device");
    prepared.executor->setProgress(
        [&](size_t done, size_t total) { bar.update(done, total); });
    return prepared.executor->run(
        tensorsInBundleOrder(bundle, bundle.inputs, data));
  }();
  if (!run) {
    reportError(run.error().message());
    return ExitDeviceError;
  }
  for (size_t i = 0; i < bundle.outputs.size(); ++i)
    outputs[bundle.buffers[bundle.outputs[i]].name] =
        std::move(run->outputs[i]);
  if (options.memoryReport)
    outs() << formatMemoryReport(*run, prepared.device->profile()) << "\n";
  return ExitSuccess;
}

/// The names of `program`'s outputs, after checking that `--output` names
/// only those. Returns the exit code (a usage error; it is printed).
static int getOutputNames(const RunOptions &options, const Program &program,
                          std::vector<std::string> &outputNames) {
  for (unsigned id : program.outputs)
    outputNames.push_back(program.tensors[id].name);
  if (Status status = checkOutputArguments(options.outputs, outputNames);
      !status) {
    reportError(status.error().message());
    return ExitUsageError;
  }
  return ExitSuccess;
}

/// The reference interpreter's run, with a progress bar where one is drawn.
static std::optional<std::vector<HostTensor>>
interpretShowingProgress(const Program &program, ArrayRef<HostTensor> inputs,
                         SourceMgr &sourceMgr, Perturbation perturbation = {}) {
  ProgressBar bar("reference");
  return interpret(
      program, inputs, sourceMgr,
      [&](uint64_t done, uint64_t total) { bar.update(done, total); },
      perturbation);
}

/// Compares every output with the reference interpreter's, one line each.
/// Returns the exit code: ExitProgramError when any output differs.
static int checkAgainstReference(const Program &program, SourceMgr &sourceMgr,
                                 ArrayRef<HostTensor> inputs,
                                 const StringMap<HostTensor> &outputs) {
  std::optional<std::vector<HostTensor>> expected =
      interpretShowingProgress(program, inputs, sourceMgr);
  if (!expected)
    return ExitProgramError;
  bool allAgree = true;
  for (const auto &[id, reference] : llvm::zip(program.outputs, *expected)) {
    const std::string &name = program.tensors[id].name;
    Comparison comparison = compareTensors(outputs.lookup(name), reference,
                                           defaultTolerance(reference.dtype()));
    outs() << "check " << name << ": " << comparison.summary << "\n";
    allAgree &= comparison.agrees;
  }
  if (!allAgree)
    reportError("the results differ from the reference interpreter's");
  return allAgree ? ExitSuccess : ExitProgramError;
}

int runRun(const RunOptions &options) {
  // The reference interpreter, or a device of the named backend.
  std::optional<Backend> backend;
  if (options.backend != "reference") {
    backend = parseDeviceBackend(options.backend, "opencl, vulkan, reference");
    if (!backend)
      return ExitUsageError;
    if (options.perturbation.seed || options.perturbation.flushSubnormals) {
      reportError("--perturb and --flush-subnormals apply to --backend "
                  "reference only");
      return ExitUsageError;
    }
  } else if (options.unoptimized) {
    reportError("--no-driver-optimization applies to a device backend only");
    return ExitUsageError;
  }
  std::unique_ptr<MemoryBuffer> source = readSourceFile(options.inputPath);
  if (!source)
    return ExitProgramError;

  // The inputs' data, and from it the bindings of the parameters; the
  // output names checked before a device is opened.
  SourceMgr sourceMgr;
  StringMap<HostTensor> data;
  std::vector<std::string> outputNames;
  int exitCode = ExitProgramError;
  auto bind = [&](const ast::Function &function) {
    return gatherInputs(options.argSpecs, options.inputs, function, data,
                        exitCode);
  };
  std::optional<Program> program;
  DeviceProgram prepared;
  if (backend) {
    std::optional<CompiledSource> compiled = compileSource(
        std::move(source), options.entry, bind,
        [&](const Program &specialized) -> std::optional<DeviceProfile> {
          int code = getOutputNames(options, specialized, outputNames);
          if (!code)
            code = openRunDevice(*backend, options.device, options.profile,
                                 options.unoptimized, prepared);
          if (code) {
            exitCode = code;
            return std::nullopt;
          }
          return prepared.device->profile();
        },
        getRunTargets(*backend), sourceMgr);
    if (!compiled)
      return exitCode;
    program = std::move(compiled->program);
    prepared.bundle = std::move(compiled->bundle);
    if (int code = prepareExecutor(prepared, options.inputPath))
      return code;
  } else {
    program =
        specializeSource(std::move(source), options.entry, bind, sourceMgr);
    if (!program)
      return exitCode;
    if (int code = getOutputNames(options, *program, outputNames))
      return code;
  }

  std::vector<HostTensor> inputs;
  for (unsigned id : program->inputs)
    inputs.push_back(data[program->tensors[id].name]);
  StringMap<HostTensor> outputs;
  if (backend) {
    if (int code = runOnDevice(options, prepared, data, outputs))
      return code;
  } else {
    std::optional<std::vector<HostTensor>> results = interpretShowingProgress(
        *program, inputs, sourceMgr, options.perturbation);
    if (!results)
      return ExitProgramError;
    for (size_t i = 0; i < program->outputs.size(); ++i)
      outputs[program->tensors[program->outputs[i]].name] =
          std::move((*results)[i]);
  }

  std::vector<HostTensor> outputTensors;
  for (const std::string &name : outputNames) {
    outputTensors.push_back(outputs[name]);
    outs() << describeOutput(options.outputs, name, outputTensors.back());
  }
  if (Status status =
          writeOutputFiles(options.outputs, outputNames, outputTensors);
      !status) {
    reportError(status.error().message());
    return ExitProgramError;
  }
  if (!options.check)
    return ExitSuccess;
  if (!backend) {
    outs() << "check: skipped, the reference backend is the oracle itself\n";
    return ExitSuccess;
  }
  outs().flush();
  return checkAgainstReference(*program, sourceMgr, inputs, outputs);
}

} // namespace tilec
