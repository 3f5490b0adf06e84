//===- Bench.cpp - `tilec bench` ------------------------------------------===//
//
// Times a compiled function on a device: random inputs, one warm-up run
// (program build, first-touch costs), then N timed runs. Times are the
// device's own (OpenCL profiling events, Vulkan timestamp queries), per
// kernel summed over its launches, and reported as medians, which one slow
// run (a context switch, a clock change) does not move. Rates come from the
// bundle's exact flop and byte counts.
//
//===----------------------------------------------------------------------===//

#include "Driver.h"
#include "ProgressBar.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <optional>

using namespace llvm;

namespace tilec {

static double medianOf(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  size_t middle = values.size() / 2;
  return values.size() % 2 ? values[middle]
                           : (values[middle - 1] + values[middle]) / 2;
}

/// One row of the report: a kernel, or the total.
static void printRow(StringRef name, StringRef source, size_t launches,
                     double seconds, double flops, double bytes) {
  auto rate = [&](double amount) {
    return seconds > 0 ? amount / seconds / 1e9 : 0.0;
  };
  outs() << format("%-24s %-32s %8zu %12.3f %10.2f %10.2f\n",
                   name.str().c_str(), source.str().c_str(), launches,
                   seconds * 1e3, rate(flops), rate(bytes));
}

int runBench(const BenchOptions &options) {
  if (options.repeat == 0) {
    reportError("--repeat must be at least 1");
    return ExitUsageError;
  }
  std::optional<Backend> backend =
      parseDeviceBackend(options.backend, "opencl, vulkan");
  if (!backend)
    return ExitUsageError;
  std::unique_ptr<MemoryBuffer> source = readSourceFile(options.inputPath);
  if (!source)
    return ExitProgramError;
  InputDataArguments randomInputs;
  randomInputs.random = true;
  randomInputs.seed = options.seed;
  StringMap<HostTensor> data;
  DeviceProgram prepared;
  SourceMgr sourceMgr;
  int exitCode = ExitProgramError;
  std::optional<CompiledSource> compiled = compileSource(
      std::move(source), options.entry,
      [&](const ast::Function &function) {
        return gatherInputs(options.argSpecs, randomInputs, function, data,
                            exitCode);
      },
      [&](const Program &) -> std::optional<DeviceProfile> {
        if (int code = openRunDevice(*backend, options.device, options.profile,
                                     /*unoptimized=*/false, prepared)) {
          exitCode = code;
          return std::nullopt;
        }
        return prepared.device->profile();
      },
      getRunTargets(*backend), sourceMgr);
  if (!compiled)
    return exitCode;
  prepared.bundle = std::move(compiled->bundle);
  if (int code = prepareExecutor(prepared, options.inputPath))
    return code;
  const Bundle &bundle = prepared.bundle;

  std::vector<HostTensor> inputs =
      tensorsInBundleOrder(bundle, bundle.inputs, data);
  // seconds[k][run]: kernel k's time in each timed run; the total last.
  size_t numKernels = bundle.kernels.size();
  std::vector<std::vector<double>> seconds(numKernels + 1);
  // The warm-up and the timed runs, cleared before the table is printed.
  std::optional<ProgressBar> bar(std::in_place, "bench");
  for (unsigned run = 0; run <= options.repeat; ++run) {
    Expected<BundleRun> result = prepared.executor->run(inputs);
    bar->update(run + 1, options.repeat + 1);
    if (!result) {
      bar.reset();
      reportError(result.error().message());
      return ExitDeviceError;
    }
    if (run == 0)
      continue; // The warm-up.
    std::vector<double> perKernel(numKernels + 1, 0.0);
    for (size_t l = 0; l < bundle.launches.size(); ++l) {
      double launchSeconds = static_cast<double>(result->launchNs[l]) * 1e-9;
      perKernel[bundle.launches[l].kernel] += launchSeconds;
      perKernel[numKernels] += launchSeconds;
    }
    for (size_t k = 0; k <= numKernels; ++k)
      seconds[k].push_back(perKernel[k]);
  }

  bar.reset();
  outs() << "bench " << bundle.function << " on device '"
         << prepared.device->profile().name << "' ("
         << prepared.device->origin() << "): " << options.repeat
         << " timed runs after a warm-up\n";
  const char *const columns[] = {"kernel",    "source",  "launches",
                                 "median ms", "GFLOP/s", "GB/s"};
  outs() << format("%-24s %-32s %8s %12s %10s %10s\n", columns[0], columns[1],
                   columns[2], columns[3], columns[4], columns[5]);
  double totalFlops = 0, totalBytes = 0;
  for (size_t k = 0; k < numKernels; ++k) {
    const BundleKernel &kernel = bundle.kernels[k];
    size_t launches = std::count_if(
        bundle.launches.begin(), bundle.launches.end(),
        [&](const BundleLaunch &launch) { return launch.kernel == k; });
    printRow(kernel.name, kernel.sourceLocation, launches, medianOf(seconds[k]),
             kernel.flops, kernel.bytes);
    totalFlops += kernel.flops;
    totalBytes += kernel.bytes;
  }
  printRow("total", "", bundle.launches.size(), medianOf(seconds[numKernels]),
           totalFlops, totalBytes);
  return ExitSuccess;
}

} // namespace tilec
