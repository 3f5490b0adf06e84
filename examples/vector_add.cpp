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
  // Compiled for the inputs' dtypes and shapes when it is called.
  jit::Function vectorAdd =
      examples::valueOrExit(context.load(kVectorAdd, "", "vector_add.tile"));
  std::vector<HostTensor> outputs = examples::valueOrExit(
      vectorAdd(examples::valueOrExit(HostTensor::from({kSize}, a)),
                examples::valueOrExit(HostTensor::from({kSize}, b))));
  Span<const float> c = examples::valueOrExit(outputs[0].view<float>());

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
