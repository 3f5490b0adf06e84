//===- tile-run.cpp - Run a kernel bundle with the runtime alone ----------===//
//
// tile-run BUNDLE.json [--in NAME=FILE.npy ...] [--random [--seed N]]
//                      [--out DIR] [--backend opencl|vulkan] [--device SEL]
//                      [--profile FILE]
//
// Executes a bundle that `tilec compile --emit bundle` wrote, with no
// compiler in the process (this tool links the runtime only), and prints
// what `tilec run` prints for each output. Exit status as tilec's: 0
// success, 1 bad input data, 2 a bad command line, 3 a device or runtime
// failure, a bundle file that cannot be used included.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/Bundle.h"
#include "tilec/Runtime/DeviceChoice.h"
#include "tilec/Runtime/Npy.h"
#include "tilec/Runtime/Random.h"
#include "tilec/Runtime/TensorSummary.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
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
  std::vector<std::string> inputFiles;
  bool random = false;
  bool memoryReport = false;
  uint64_t seed = 1;
  std::string outDir;
  Backend backend = Backend::OpenCL;
  std::string device;
  std::string profile;
};

} // namespace

static const char *const kUsage =
    "usage: tile-run BUNDLE.json [--in NAME=FILE.npy ...] [--random [--seed "
    "N]]\n"
    "                [--out DIR] [--backend opencl|vulkan] [--device SEL]\n"
    "                [--profile FILE] [--memory-report]\n"
    "\n"
    "Runs a kernel bundle (tilec compile --emit bundle) on an OpenCL or "
    "Vulkan\ndevice and prints each output's dtype, shape and checksum.\n"
    "\n"
    "  --in NAME=FILE.npy  an input's data\n"
    "  --random            fill inputs without --in with pseudo-random "
    "values\n"
    "  --seed N            the seed of --random (default 1)\n"
    "  --out DIR           write every output to DIR/<output>.npy\n"
    "  --backend NAME      opencl (the default; runs the bundle's OpenCL C) or "
    "vulkan\n                      (runs its SPIR-V)\n"
    "  --device SEL        a device index or a substring of its name "
    "(tilec devices)\n"
    "  --profile FILE      override the device's profile with a JSON file\n"
    "  --memory-report     print the most device memory the run held at "
    "once\n";

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
    if (name == "--in") {
      options.inputFiles.push_back(value);
    } else if (name == "--out") {
      options.outDir = value;
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

/// The data of every input of `bundle`, in `Bundle::inputs` order, from the
/// `--in` files or, with `--random`, generated. Returns the exit code on
/// failure.
static int gatherInputs(const Options &options, const Bundle &bundle,
                        std::vector<HostTensor> &inputs) {
  auto inputList = [&] {
    std::string names;
    for (unsigned index : bundle.inputs)
      names += (names.empty() ? "" : ", ") + bundle.buffers[index].name;
    return names;
  };
  std::map<std::string, std::string> files;
  for (const std::string &spec : options.inputFiles) {
    size_t equals = spec.find('=');
    if (equals == std::string::npos || equals == 0 ||
        equals + 1 == spec.size()) {
      reportError("invalid --in '" + spec + "' (expected NAME=FILE.npy)");
      return ExitUsageError;
    }
    std::string name = spec.substr(0, equals);
    bool known = false;
    for (unsigned index : bundle.inputs)
      known |= bundle.buffers[index].name == name;
    if (!known) {
      reportError("--in names '" + name +
                  "', which is not an input (inputs: " + inputList() + ")");
      return ExitUsageError;
    }
    files[name] = spec.substr(equals + 1);
  }

  for (size_t position = 0; position < bundle.inputs.size(); ++position) {
    const BundleBuffer &buffer = bundle.buffers[bundle.inputs[position]];
    auto file = files.find(buffer.name);
    if (file == files.end()) {
      if (!options.random) {
        reportError("input '" + buffer.name + "' has no data: pass --in " +
                    buffer.name + "=FILE.npy, or --random");
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
    std::string error;
    std::optional<HostTensor> tensor = readNpy(file->second, error);
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

/// Writes every output to DIR/<name>.npy.
static bool writeOutputs(const std::string &outDir, const Bundle &bundle,
                         const std::vector<HostTensor> &outputs) {
  std::error_code ec;
  std::filesystem::create_directories(outDir, ec);
  if (ec) {
    reportError("cannot create '" + outDir + "': " + ec.message());
    return false;
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    std::filesystem::path path =
        std::filesystem::path(outDir) /
        (bundle.buffers[bundle.outputs[i]].name + ".npy");
    std::string error;
    if (!writeNpy(path.string(), outputs[i], error)) {
      reportError(error);
      return false;
    }
  }
  return true;
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
    std::printf("%s\n",
                formatOutputSummary(bundle->buffers[bundle->outputs[i]].name,
                                    run->outputs[i])
                    .c_str());
  if (options.memoryReport)
    std::printf("%s\n", formatMemoryReport(*run, (*device)->profile()).c_str());
  if (!options.outDir.empty() &&
      !writeOutputs(options.outDir, *bundle, run->outputs))
    return ExitDataError;
  return ExitSuccess;
}
