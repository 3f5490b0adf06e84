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

#include "InputArgument.h"
#include "OutputArguments.h"

#include "tilec/Runtime/Bundle.h"
#include "tilec/Runtime/DeviceChoice.h"
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
  uint64_t seed = 1;
  OutputArguments outputs;
  Backend backend = Backend::OpenCL;
  std::string device;
  std::string profile;
};

} // namespace

static const char *const kUsage =
    "usage: tile-run BUNDLE.json [--input NAME=VALUES|NAME=@FILE.npy ...]\n"
    "                [--random [--seed N]] [--print] [--checksum]\n"
    "                [--output NAME=FILE.npy ...] [--output-dir DIR]\n"
    "                [--backend opencl|vulkan] [--device SEL] [--profile "
    "FILE]\n"
    "                [--memory-report]\n"
    "\n"
    "Runs a kernel bundle (tilec compile --emit bundle) on an OpenCL or "
    "Vulkan\ndevice and prints each output's dtype, shape and checksum.\n"
    "\n"
    "  --input NAME=2x3xf32=1,2,3,4,5,6\n"
    "                      an input's values (one value fills the tensor; a "
    "scalar\n"
    "                      is NAME=f32=0.5), or NAME=@FILE.npy its file\n"
    "  --in NAME=FILE.npy  the same as --input NAME=@FILE.npy\n"
    "  --random            fill inputs without --input with pseudo-random "
    "values\n"
    "  --seed N            the seed of --random (default 1)\n"
    "  --print             print each output's values, as NumPy does\n"
    "  --checksum          print each output's checksum (the default without "
    "--print)\n"
    "  --output NAME=FILE.npy\n"
    "                      write the output NAME to FILE.npy\n"
    "  --output-dir DIR    write every output to DIR/<output>.npy\n"
    "  --backend NAME      opencl (the default; runs the bundle's OpenCL C) or "
    "vulkan\n                      (runs its SPIR-V)\n"
    "  --device SEL        a device index or a substring of its name "
    "(tilec devices)\n"
    "  --profile FILE      override the device's profile with a JSON file\n"
    "  --memory-report     print the most device memory the run held at "
    "once\n"
    "\n"
    "Exit status: 0 success, 1 bad input data or an unwritable output, 2 a "
    "bad\ncommand line, 3 a device or runtime failure (an unusable bundle "
    "included).\n";

static void reportError(const std::string &message) {
  std::fprintf(stderr, "tile-run: error: %s\n", message.c_str());
}

/// Parses the command line into `options`; returns false after reporting
/// what is wrong.
static bool parseCommandLine(int argc, char **argv, Options &options) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::fputs(kUsage, stdout);
      std::exit(ExitSuccess);
    }
    if (arg == "--version") {
      std::printf("tile-run %s\n", TILEC_VERSION);
      std::exit(ExitSuccess);
    }
    if (arg == "--random") {
      options.random = true;
      continue;
    }
    if (arg == "--memory-report") {
      options.memoryReport = true;
      continue;
    }
    if (arg == "--print") {
      options.outputs.print = true;
      continue;
    }
    if (arg == "--checksum") {
      options.outputs.checksum = true;
      continue;
    }
    if (arg.rfind("--", 0) != 0) {
      if (!options.bundlePath.empty()) {
        reportError("a second bundle '" + arg + "' (one bundle per run)");
        return false;
      }
      options.bundlePath = arg;
      continue;
    }
    // Options with a value: "--name value" or "--name=value".
    std::string name = arg, value;
    if (size_t equals = arg.find('='); equals != std::string::npos) {
      name = arg.substr(0, equals);
      value = arg.substr(equals + 1);
    } else if (i + 1 < argc) {
      value = argv[++i];
    } else {
      reportError("option '" + name + "' needs a value");
      return false;
    }
    if (name == "--input" || name == "--in") {
      Expected<InputArgument> input = name == "--input"
                                          ? parseInputArgument(value)
                                          : parseInputFileArgument(value);
      if (!input) {
        reportError(input.error().message());
        return false;
      }
      options.inputs.push_back(std::move(*input));
    } else if (name == "--output") {
      options.outputs.files.push_back(value);
    } else if (name == "--output-dir") {
      options.outputs.directory = value;
    } else if (name == "--out") {
      reportError("--out is now --output-dir DIR (every output), or --output "
                  "NAME=FILE.npy (one output)");
      return false;
    } else if (name == "--backend") {
      std::optional<Backend> backend = parseBackend(value);
      if (!backend) {
        reportError("unknown backend '" + value +
                    "' (available: opencl, vulkan)");
        return false;
      }
      options.backend = *backend;
    } else if (name == "--device") {
      options.device = value;
    } else if (name == "--profile") {
      options.profile = value;
    } else if (name == "--seed") {
      char *end = nullptr;
      options.seed = std::strtoull(value.c_str(), &end, 10);
      if (value.empty() || *end != '\0' || value[0] == '-') {
        reportError("--seed '" + value + "' is not a non-negative integer");
        return false;
      }
    } else {
      reportError("unknown option '" + name + "' (see tile-run --help)");
      return false;
    }
  }
  if (options.bundlePath.empty()) {
    reportError("no bundle file given (see tile-run --help)");
    return false;
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
      inputs.push_back(
          randomTensor(buffer.dtype, buffer.shape, options.seed + position));
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
  if (!parseCommandLine(argc, argv, options))
    return ExitUsageError;

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

  Expected<std::unique_ptr<OpenedDevice>> device =
      openDevice(options.backend, options.device, options.profile);
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
  Expected<BundleRun> run = (*executor)->run(inputs);
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
