//===- Run.cpp - `tilec run` ----------------------------------------------===//

#include "Driver.h"

#include "tilec/Interpreter/Interpreter.h"
#include "tilec/Runtime/Compare.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace tilec {

/// Compiles `program` for the chosen device of `backend` and runs it there
/// on `data`; stores the outputs by name in `outputs`. Returns the exit
/// code.
static int runOnDevice(const RunOptions &options, Backend backend,
                       const Program &program, SourceMgr &sourceMgr,
                       const StringMap<HostTensor> &data,
                       StringMap<HostTensor> &outputs) {
  DeviceProgram prepared;
  if (int code =
          prepareOnDevice(program, backend, options.device, options.profile,
                          options.inputPath, sourceMgr, prepared))
    return code;
  const Bundle &bundle = prepared.bundle;
  Expected<BundleRun> run =
      prepared.executor->run(tensorsInBundleOrder(bundle, bundle.inputs, data));
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

/// Compares every output with the reference interpreter's, one line each.
/// Returns the exit code: ExitProgramError when any output differs.
static int checkAgainstReference(const Program &program, SourceMgr &sourceMgr,
                                 ArrayRef<HostTensor> inputs,
                                 const StringMap<HostTensor> &outputs) {
  std::optional<std::vector<HostTensor>> expected =
      interpret(program, inputs, sourceMgr);
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
  }
  std::unique_ptr<LoadedSource> source =
      loadSource(options.inputPath, options.entry);
  if (!source)
    return ExitProgramError;

  std::vector<ArgBinding> bindings;
  StringMap<HostTensor> data;
  if (int code = gatherInputs(options.argSpecs, options.inputs,
                              *source->function, bindings, data))
    return code;
  std::optional<Program> program =
      specialize(*source->function, bindings, source->sourceMgr);
  if (!program)
    return ExitProgramError;

  std::vector<std::string> outputNames;
  for (unsigned id : program->outputs)
    outputNames.push_back(program->tensors[id].name);
  if (Status status = checkOutputArguments(options.outputs, outputNames);
      !status) {
    reportError(status.error().message());
    return ExitUsageError;
  }

  std::vector<HostTensor> inputs;
  for (unsigned id : program->inputs)
    inputs.push_back(data[program->tensors[id].name]);
  StringMap<HostTensor> outputs;
  if (backend) {
    if (int code = runOnDevice(options, *backend, *program, source->sourceMgr,
                               data, outputs))
      return code;
  } else {
    std::optional<std::vector<HostTensor>> results =
        interpret(*program, inputs, source->sourceMgr);
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
  return checkAgainstReference(*program, source->sourceMgr, inputs, outputs);
}

} // namespace tilec
