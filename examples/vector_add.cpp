//===- vector_add.cpp - c = a + b for 50,000 floats on a device ----------===//
//
// The first program of GPU computing (PyOpenCL's classic): a Tile function
// compiled at run time for the default device, run on two vectors of random
// floats, and its result compared with the same sums on the host. f32
// addition rounds once on both sides, so every element must be equal.
//
//===----------------------------------------------------------------------===//

#include "Support.h"

#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

using namespace tilec;

static const char *const kVectorAdd = R"(
function vector_add(A[N], B[N]) -> (C) {
  C = A + B;
}
)";

int main() {
  constexpr int64_t kSize = 50000;
  std::mt19937 generator(2026);
  std::uniform_real_distribution<float> distribution(-1.0f, 1.0f);
  std::vector<float> a(kSize), b(kSize);
  for (int64_t i = 0; i < kSize; ++i) {
    a[i] = distribution(generator);
    b[i] = distribution(generator);
  }

  jit::Context context = examples::valueOrExit(jit::Context::create());
  jit::CompileOptions options;
  options.inputs = {{"A", DType::F32, {kSize}}, {"B", DType::F32, {kSize}}};
  jit::CompiledProgram program = examples::valueOrExit(
      context.compile(kVectorAdd, options, "vector_add.tile"));
  std::vector<HostTensor> outputs =
      examples::valueOrExit(program.run({examples::makeF32Tensor({kSize}, a),
                                         examples::makeF32Tensor({kSize}, b)}));
  std::vector<float> c = examples::readF32(outputs[0]);

  int64_t differences = 0;
  for (int64_t i = 0; i < kSize; ++i)
    differences += c[i] != a[i] + b[i];
  std::printf("device: %s\n", context.deviceProfile().name.c_str());
  std::printf("c = a + b over %lld floats: %lld elements differ from the "
              "host's sums\n",
              static_cast<long long>(kSize),
              static_cast<long long>(differences));
  return differences == 0 ? 0 : 1;
}
