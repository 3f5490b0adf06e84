//===- jit_startup.cpp - Cold and warm starts of the JIT ------------------===//
//
// How long Context::compile takes until a program is ready to run, in
// three states of the kernel cache:
//   cold         an empty cache directory: the MLIR pipeline and the
//                driver's build both run;
//   warm disk    a new context on the filled directory (what a new process
//                sees): the bundle and the driver's binary are loaded;
//   warm memory  the same context again: a lookup.
// Each is repeated and the median reported, per program.
//
// Usage: jit_startup [--device SEL] [--repeat N]
//
//===----------------------------------------------------------------------===//

#include "tilec/tilec.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <unistd.h>
#include <vector>

using namespace tilec::jit;

namespace {

struct Workload {
  const char *name;
  const char *text;
  CompileOptions options;
};

std::vector<Workload> workloads() {
  const char *matmul = "function matmul(A[M, K], B[K, N]) -> (C) {\n"
                       "  C[i, j : M, N] = +(A[i, k] * B[k, j]);\n"
                       "}\n";
  const char *dense = "function dense(X[M, K], W[K, N], B[N]) -> (Y) {\n"
                      "  XW[i, j : M, N] = +(X[i, k] * W[k, j]);\n"
                      "  Y = relu(XW + B);\n"
                      "}\n";
  const char *softmax = "function softmax(X[M, N]) -> (Y) {\n"
                        "  RowMax[i : M] = >(X[i, j]);\n"
                        "  ColumnMax = reshape(RowMax, M, 1);\n"
                        "  E = exp(X - ColumnMax);\n"
                        "  RowSum[i : M] = +(E[i, j]);\n"
                        "  ColumnSum = reshape(RowSum, M, 1);\n"
                        "  Y = E / ColumnSum;\n"
                        "}\n";
  return {
      {"matmul 256^3",
       matmul,
       {"", {{"A", DType::F32, {256, 256}}, {"B", DType::F32, {256, 256}}}}},
      {"dense 64x512x256",
       dense,
       {"",
        {{"X", DType::F32, {64, 512}},
         {"W", DType::F32, {512, 256}},
         {"B", DType::F32, {256}}}}},
      {"softmax 128x1000", softmax, {"", {{"X", DType::F32, {128, 1000}}}}},
  };
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

/// Milliseconds that `compile` takes; exits on a failure.
double timeCompile(const Context &context, const Workload &workload,
                   ProgramOrigin expected) {
  auto start = std::chrono::steady_clock::now();
  Expected<CompiledProgram> program =
      context.compile(workload.text, workload.options);
  auto end = std::chrono::steady_clock::now();
  if (!program) {
    std::fprintf(stderr, "%s\n", program.error().describe().c_str());
    std::exit(1);
  }
  if (program->origin() != expected) {
    std::fprintf(stderr, "%s: expected a %s compile, got %s\n", workload.name,
                 programOriginName(expected),
                 programOriginName(program->origin()));
    std::exit(1);
  }
  return std::chrono::duration<double, std::milli>(end - start).count();
}

Context openContext(ContextOptions options) {
  Expected<Context> context = Context::create(options);
  if (!context) {
    std::fprintf(stderr, "%s\n", context.error().describe().c_str());
    std::exit(1);
  }
  return *context;
}

} // namespace

int main(int argc, char **argv) {
  ContextOptions options;
  int repeats = 7;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--device") && i + 1 < argc)
      options.device = argv[++i];
    else if (!std::strcmp(argv[i], "--repeat") && i + 1 < argc)
      repeats = std::max(1, std::atoi(argv[++i]));
    else {
      std::fprintf(stderr, "usage: jit_startup [--device SEL] [--repeat N]\n");
      return 2;
    }
  }
  std::filesystem::path root =
      std::filesystem::temp_directory_path() /
      ("tilec-jit-startup-" + std::to_string(getpid()));

  bool first = true;
  for (const Workload &workload : workloads()) {
    std::vector<double> cold, warmDisk, warmMemory;
    for (int r = 0; r < repeats; ++r) {
      std::filesystem::remove_all(root);
      options.cache.directory = root.string();
      Context coldContext = openContext(options);
      if (first) {
        std::printf("device: %s (%s, driver %s)\n",
                    coldContext.deviceProfile().name.c_str(),
                    coldContext.deviceProfile().vendor.c_str(),
                    coldContext.deviceProfile().driverVersion.c_str());
        std::printf("median of %d, milliseconds until ready to run\n\n",
                    repeats);
        std::printf("| program | cold | warm disk | warm memory | cold / "
                    "warm disk |\n|---|---|---|---|---|\n");
        first = false;
      }
      cold.push_back(
          timeCompile(coldContext, workload, ProgramOrigin::Compiled));
      Context warmContext = openContext(options);
      warmDisk.push_back(
          timeCompile(warmContext, workload, ProgramOrigin::DiskCache));
      warmMemory.push_back(
          timeCompile(warmContext, workload, ProgramOrigin::MemoryCache));
    }
    std::printf("| %s | %.1f | %.2f | %.4f | %.0fx |\n", workload.name,
                median(cold), median(warmDisk), median(warmMemory),
                median(cold) / median(warmDisk));
  }
  std::filesystem::remove_all(root);
  return 0;
}
