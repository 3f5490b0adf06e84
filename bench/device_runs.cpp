//===- device_runs.cpp - Host overhead of device-resident runs ------------===//
//
// What a device-resident run (CompiledProgram::runOnDevice) costs on the
// host, for a program of many small kernels shaped like a training step:
// per parameter W_i a contraction (its "gradient" G_i = X W_i), an Adadelta
// update of W_i and its two accumulators (tilec/optimizers.tile), and a
// sum of squares of G_i; the loss sums those. The batch X is uploaded on
// every run, the parameters and accumulators are the previous run's
// outputs, fed back as inputs, and only the loss is read back: the loop of
// examples/train_cnn.cpp.
//
// It reports, as medians over the steps: the wall-clock time of one step,
// the CPU time of the calling thread during it (the host's own work: the
// runtime's and the driver's on that thread), and the kernels' device time
// (the launches' profiling times of host runs, Executor::run, of the same
// program). On a GPU the host's overhead is the wall-clock time less the
// kernels'; on a CPU device (PoCL, lavapipe) the kernels run on other
// threads of the same cores, and the calling thread's CPU time is the
// measure to compare.
//
// Usage: device_runs [--backend opencl|vulkan] [--device SEL]
//                    [--params P] [--side S] [--runs N]
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/Device.h"
#include "tilec/tilec.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

using namespace tilec;

namespace {

struct Options {
  jit::ContextOptions context;
  int params = 12;
  int64_t side = 16;
  int runs = 200;
};

[[noreturn]] void fail(const std::string &message) {
  std::fprintf(stderr, "device_runs: error: %s\n", message.c_str());
  std::exit(1);
}

template <class T> T valueOrExit(Expected<T> value) {
  if (!value)
    fail(value.error().message());
  return std::move(*value);
}

Options parseOptions(int argc, char **argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    std::string flag = argv[i];
    if (i + 1 >= argc)
      fail("option " + flag + " needs a value");
    std::string value = argv[++i];
    if (flag == "--backend" && (value == "opencl" || value == "vulkan"))
      options.context.backend =
          value == "opencl" ? Backend::OpenCL : Backend::Vulkan;
    else if (flag == "--device")
      options.context.device = value;
    else if (flag == "--params")
      options.params = std::atoi(value.c_str());
    else if (flag == "--side")
      options.side = std::atoll(value.c_str());
    else if (flag == "--runs")
      options.runs = std::atoi(value.c_str());
    else
      fail("unknown option or value: " + flag + " " + value);
  }
  if (options.params < 1 || options.side < 1 || options.runs < 1)
    fail("--params, --side and --runs take positive integers");
  return options;
}

/// The step's source: inputs X, then W_i, AG_i, AD_i for each parameter;
/// outputs NewW_i, NewAG_i, NewAD_i for each, then Loss.
std::string stepSource(int params) {
  auto list = [&](const std::string &prefix) {
    std::string text;
    for (int i = 0; i < params; ++i)
      text += ", " + prefix + std::to_string(i);
    return text;
  };
  std::string text = "import \"tilec/optimizers.tile\";\n"
                     "function step(X" +
                     list("W") + list("AG") + list("AD") + ")\n    -> (" +
                     list("NewW").substr(2) + list("NewAG") + list("NewAD") +
                     ", Loss) {\n";
  std::string loss = "  Loss = 0.0";
  for (int i = 0; i < params; ++i) {
    std::string n = std::to_string(i);
    text += "  G" + n + "[a, b : S, S] = +(X[a, k] * W" + n + "[k, b]);\n";
    text += "  (NewW" + n + ", NewAG" + n + ", NewAD" + n + ") = adadelta(W" +
            n + ", G" + n + ", AG" + n + ", AD" + n +
            ", 1.0, 0.95, 0.0000001);\n";
    text += "  L" + n + "[] = +(G" + n + "[a, b] * G" + n + "[a, b]);\n";
    loss += " + L" + n;
  }
  return text + loss + ";\n}\n";
}

/// Microseconds of CPU time that the calling thread has used.
double threadCpuUs() {
  timespec now;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return double(now.tv_sec) * 1e6 + double(now.tv_nsec) / 1e3;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

} // namespace

int main(int argc, char **argv) {
  Options options = parseOptions(argc, argv);
  jit::Context context = valueOrExit(jit::Context::create(options.context));
  const int64_t side = options.side;
  jit::CompileOptions compile{"step", {{"X", DType::F32, {side, side}}}};
  for (const char *prefix : {"W", "AG", "AD"})
    for (int i = 0; i < options.params; ++i)
      compile.inputs.push_back(
          {prefix + std::to_string(i), DType::F32, {side, side}});
  // S, the side, is bound through the shapes: say so in the source.
  std::string source = stepSource(options.params);
  size_t at;
  while ((at = source.find(" : S, S]")) != std::string::npos)
    source.replace(at, 8,
                   " : " + std::to_string(side) + ", " + std::to_string(side) +
                       "]");
  jit::CompiledProgram step =
      valueOrExit(context.compile(source, compile, "step.tile"));

  std::vector<HostTensor> initial;
  for (size_t i = 0; i < compile.inputs.size(); ++i) {
    HostTensor tensor(DType::F32, {side, side});
    for (int64_t e = 0; e < tensor.numElements(); ++e)
      tensor.setDouble(e, i == 0 || i <= size_t(options.params)
                              ? 0.01 * double((e * 7 + i) % 13) - 0.06
                              : 0.0);
    initial.push_back(std::move(tensor));
  }

  // The kernels' device time: launch times of host runs.
  std::vector<double> kernelUs;
  // CompiledProgram::run returns no launch times: time the kernels through
  // an executor of the same bundle on the context's device.
  std::unique_ptr<Device> device = valueOrExit(
      Device::open({options.context.backend, options.context.device, "", ""}));
  std::unique_ptr<Executor> executor =
      valueOrExit(device->prepare(step.bundle(), "step"));
  for (int r = 0; r < 11; ++r) {
    BundleRun run = valueOrExit(executor->run(initial));
    double total = 0;
    for (uint64_t ns : run.launchNs)
      total += double(ns) / 1000;
    if (r > 0)
      kernelUs.push_back(total);
  }

  std::vector<std::shared_ptr<DeviceTensor>> state;
  std::vector<double> stepUs, cpuUs;
  double lossSum = 0;
  for (int r = 0; r < options.runs + 5; ++r) {
    auto start = std::chrono::steady_clock::now();
    double cpuStart = threadCpuUs();
    std::vector<RunInput> inputs = {&initial[0]};
    for (size_t i = 1; i < initial.size(); ++i)
      if (state.empty())
        inputs.push_back(&initial[i]);
      else
        inputs.push_back(state[i - 1]);
    std::vector<std::shared_ptr<DeviceTensor>> outputs =
        valueOrExit(step.runOnDevice(inputs));
    HostTensor loss = valueOrExit(outputs.back()->read());
    lossSum += loss.getDouble(0);
    outputs.pop_back();
    state = std::move(outputs);
    double cpuEnd = threadCpuUs();
    auto end = std::chrono::steady_clock::now();
    if (r >= 5) {
      stepUs.push_back(
          std::chrono::duration<double, std::micro>(end - start).count());
      cpuUs.push_back(cpuEnd - cpuStart);
    }
  }

  size_t launches = step.bundle().launches.size();
  double wall = median(stepUs), kernels = median(kernelUs);
  std::printf("device: %s (%s)\n", context.deviceProfile().name.c_str(),
              backendName(options.context.backend));
  std::printf("program: %d parameters of f32[%lld, %lld]: %zu kernels, %zu "
              "launches, %zu outputs\n",
              options.params, static_cast<long long>(side),
              static_cast<long long>(side), step.kernels().size(), launches,
              step.outputs().size());
  std::printf("step (runOnDevice + read of the loss), medians of %d: "
              "%.1f us wall-clock, %.1f us CPU of the calling thread "
              "(%.2f us per launch)\n",
              options.runs, wall, median(cpuUs),
              median(cpuUs) / double(launches));
  std::printf("kernels' device time, median of 10 host runs: %.1f us; "
              "wall-clock less kernels: %.1f us\n",
              kernels, wall - kernels);
  std::printf("(loss checksum %g)\n", lossSum);
  return 0;
}
