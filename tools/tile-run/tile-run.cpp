//===- tile-run.cpp - Run a kernel bundle with the runtime alone ----------===//
//
// tile-run BUNDLE.json [--input NAME=VALUES|NAME=@FILE.npy ...]
//                      [--random [--seed N]] [--print] [--checksum]
//                      [--output NAME=FILE.npy ...] [--output-dir DIR]
//                      [--backend opencl|vulkan] [--device SEL]
//                      [--profile FILE] [--memory-report]
//
// Executes a bundle that `tilec compile --emit bundle` wrote, with no
// compiler in the process (this tool links the runtime only), and prints
// what `tilec run` prints for each output. Exit status as tilec's: 0
// success, 1 bad input data, 2 a bad command line, 3 a device or runtime
// failure, a bundle file that cannot be used included.
//
//===----------------------------------------------------------------------===//

#include "CommandLine.h"
#include "InputArgument.h"
#include "OutputArguments.h"
#include "ProgressBar.h"

#include "tilec/Runtime/Bundle.h"
#include "tilec/Runtime/Device.h"
#include "tilec/Runtime/Npy.h"
#include "tilec/Runtime/Random.h"

#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <vector>

using namespace tilec;

namespace {

enum ExitCode : int {
  ExitSuccess = 0,
  ExitDataError = 1,
  ExitUsageError = 2,
  ExitDeviceError = 3,
};

struct Options {
  std::string bundlePath;
  /// `--input` and `--in`, parsed, in command-line order.
  std::vector<InputArgument> inputs;
  bool random = false;
  bool memoryReport = false;
  bool unoptimized = false;
  uint64_t seed = 1;
  OutputArguments outputs;
  Backend backend = Backend::OpenCL;
  std::string device;
  std::string profile;
};

} // namespace

static void reportError(const std::string &message) {
  std::fprintf(stderr, "tile-run: error: %s\n", message.c_str());
}

/// Parses the command line into `options` with the options tilec run shares
/// (tools/common/CommandLine). Returns false with `exitCode` set when there
/// is nothing to run: --help, --version, or an error, reported.
static bool parseCommandLine(int argc, char **argv, Options &options,
                             int &exitCode) {
  CLI::App app("tile-run: runs a kernel bundle (tilec compile --emit bundle) "
               "on an OpenCL or\nVulkan device and prints each output's "
               "dtype, shape and checksum, or its values.",
               "tile-run");
  app.set_version_flag("--version", std::string("tile-run ") + TILEC_VERSION);
  app.footer(kExitStatusHelp);
  app.add_option("BUNDLE.json", options.bundlePath, "The bundle file");
  InputDataArguments data;
  addInputDataOptions(app, data);
  std::string formerOutDir;
  addOutputOptions(app, options.outputs, formerOutDir);
  std::string backend = "opencl";
  addDeviceOptions(app, backend, "opencl|vulkan",
                   "opencl (the default; runs the bundle's OpenCL C) or "
                   "vulkan (runs its SPIR-V)",
                   options.device, options.profile);
  addMemoryReportOption(app, options.memoryReport);
  addDriverOptimizationOption(app, options.unoptimized);
  if (!tilec::parseCommandLine(app, argc, argv, "tile-run", exitCode))
    return false;
  exitCode = ExitUsageError;
  if (!checkFormerOutDir(app, "tile-run"))
    return false;
  if (options.bundlePath.empty()) {
    reportError("no bundle file given (see tile-run --help)");
    return false;
  }
  std::optional<Backend> parsed = parseBackend(backend);
  if (!parsed) {
    reportError("unknown backend '" + backend +
                "' (available: opencl, vulkan)");
    return false;
  }
  options.backend = *parsed;
  options.random = data.random;
  options.seed = data.seed;
  for (const std::string &spec : data.inputs) {
    Expected<InputArgument> input = parseInputArgument(spec);
    if (!input) {
      reportError(input.error().message());
      return false;
    }
    options.inputs.push_back(std::move(*input));
  }
  for (const std::string &spec : data.inputFiles) {
    Expected<InputArgument> input = parseInputFileArgument(spec);
    if (!input) {
      reportError(input.error().message());
      return false;
    }
    options.inputs.push_back(std::move(*input));
  }
  return true;
}

/// The data of every input of `bundle`, in `Bundle::inputs` order, from
/// `--input` or, with `--random`, generated. Returns the exit code on
/// failure.
static int gatherInputs(const Options &options, const Bundle &bundle,
                        std::vector<HostTensor> &inputs) {
  auto inputList = [&] {
    std::string names;
    for (unsigned index : bundle.inputs)
      names += (names.empty() ? "" : ", ") + bundle.buffers[index].name;
    return names;
  };
  std::map<std::string, const InputArgument *> given;
  for (const InputArgument &input : options.inputs) {
    bool known = false;
    for (unsigned index : bundle.inputs)
      known |= bundle.buffers[index].name == input.name;
    if (!known) {
      reportError("--input names '" + input.name +
                  "', which is not an input (inputs: " + inputList() + ")");
      return ExitUsageError;
    }
    if (!given.emplace(input.name, &input).second) {
      reportError("--input gives '" + input.name + "' twice");
      return ExitUsageError;
    }
  }

  for (size_t position = 0; position < bundle.inputs.size(); ++position) {
    const BundleBuffer &buffer = bundle.buffers[bundle.inputs[position]];
    auto input = given.find(buffer.name);
    if (input == given.end()) {
      if (!options.random) {
        reportError("input '" + buffer.name + "' has no data: pass --input " +
                    buffer.name + "=VALUES or --input " + buffer.name +
                    "=@FILE.npy, or --random");
        return ExitUsageError;
      }
      // The same data as `tilec run --random` gives this input.
      Expected<HostTensor> random =
          randomTensor(buffer.dtype, buffer.shape, options.seed + position);
      if (!random) {
        reportError("input '" + buffer.name + "': " + random.error().message());
        return ExitDataError;
      }
      inputs.push_back(std::move(*random));
      continue;
    }
    if (input->second->tensor) {
      inputs.push_back(*input->second->tensor);
      continue;
    }
    std::string error;
    std::optional<HostTensor> tensor = readNpy(input->second->npyPath, error);
    if (!tensor) {
      reportError(error);
      return ExitDataError;
    }
    inputs.push_back(std::move(*tensor));
  }
  if (Status status = checkBundleInputs(bundle, inputs); !status) {
    reportError(status.error().message());
    return ExitDataError;
  }
  return ExitSuccess;
}

int main(int argc, char **argv) {
  Options options;
  int exitCode = ExitSuccess;
  if (!parseCommandLine(argc, argv, options, exitCode))
    return exitCode;

  Expected<Bundle> bundle = readBundle(options.bundlePath);
  if (!bundle) {
    reportError(bundle.error().message());
    return ExitDeviceError;
  }
  std::vector<HostTensor> inputs;
  if (int code = gatherInputs(options, *bundle, inputs))
    return code;
  std::vector<std::string> outputNames;
  for (unsigned index : bundle->outputs)
    outputNames.push_back(bundle->buffers[index].name);
  if (Status status = checkOutputArguments(options.outputs, outputNames);
      !status) {
    reportError(status.error().message());
    return ExitUsageError;
  }

  DeviceRequest request{options.backend, options.device, options.profile};
  request.optimizeDeviceCode = !options.unoptimized;
  Expected<std::unique_ptr<Device>> device = Device::open(request);
  if (!device) {
    reportError(device.error().message());
    return ExitDeviceError;
  }
  Expected<std::unique_ptr<Executor>> executor =
      (*device)->prepare(*bundle, options.bundlePath);
  if (!executor) {
    reportError(executor.error().message());
    return ExitDeviceError;
  }
  Expected<BundleRun> run = [&] {
    // Only a run streamed through the device reports its launches (as in
    // `tilec run`): a bar on stderr, where one is drawn (ProgressBar.h).
    ProgressBar bar("device");
    (*executor)->setProgress(
        [&](size_t done, size_t total) { bar.update(done, total); });
    return (*executor)->run(inputs);
  }();
  if (!run) {
    reportError(run.error().message());
    return ExitDeviceError;
  }

  for (size_t i = 0; i < run->outputs.size(); ++i)
    std::fputs(describeOutput(options.outputs, outputNames[i], run->outputs[i])
                   .c_str(),
               stdout);
  if (options.memoryReport)
    std::printf("%s\n", formatMemoryReport(*run, (*device)->profile()).c_str());
  if (Status status =
          writeOutputFiles(options.outputs, outputNames, run->outputs);
      !status) {
    reportError(status.error().message());
    return ExitDataError;
  }
  return ExitSuccess;
}
