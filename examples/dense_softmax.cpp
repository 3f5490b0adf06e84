//===- dense_softmax.cpp - A layer and softmax, chained on the device ----===//
//
// A classifier's last two steps, relu(X W + b) and softmax, as two Tile
// programs that the application chains: the layer's output stays on the
// device and goes straight into softmax (runOnDevice), so only the final
// probabilities come back to the host. Three batches run through the same
// compiled programs; each batch's probabilities are checked against the
// same computation on the host in double precision.
//
//===----------------------------------------------------------------------===//

#include "Support.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <random>
#include <vector>

using namespace tilec;

static const char *const kLayers = R"(
function dense_relu(X[M, K], W[K, N], B[N]) -> (H) {
  XW[i, j : M, N] = +(X[i, k] * W[k, j]);
  H = relu(XW + B);
}

function softmax(H[M, N]) -> (P) {
  RowMax[i : M] = >(H[i, j]);
  ColumnMax = reshape(RowMax, M, 1);
  E = exp(H - ColumnMax);
  RowSum[i : M] = +(E[i, j]);
  ColumnSum = reshape(RowSum, M, 1);
  P = E / ColumnSum;
}
)";

constexpr int64_t kBatch = 64, kInputs = 128, kClasses = 10;

/// softmax(relu(x w + b)) row by row, in double.
static std::vector<double> classifyOnHost(const std::vector<float> &x,
                                          const std::vector<float> &w,
                                          const std::vector<float> &b) {
  std::vector<double> p(kBatch * kClasses);
  for (int64_t i = 0; i < kBatch; ++i) {
    double *row = &p[i * kClasses];
    for (int64_t j = 0; j < kClasses; ++j) {
      double sum = b[j];
      for (int64_t k = 0; k < kInputs; ++k)
        sum += static_cast<double>(x[i * kInputs + k]) * w[k * kClasses + j];
      row[j] = std::max(sum, 0.0);
    }
    double largest = *std::max_element(row, row + kClasses), total = 0;
    for (int64_t j = 0; j < kClasses; ++j)
      total += row[j] = std::exp(row[j] - largest);
    for (int64_t j = 0; j < kClasses; ++j)
      row[j] /= total;
  }
  return p;
}

static std::vector<float> randomValues(std::mt19937 &generator, size_t count,
                                       float scale) {
  std::uniform_real_distribution<float> distribution(-scale, scale);
  std::vector<float> values(count);
  for (float &value : values)
    value = distribution(generator);
  return values;
}

int main() {
  std::mt19937 generator(7);
  const std::vector<float> w =
      randomValues(generator, kInputs * kClasses, 0.25f);
  const std::vector<float> b = randomValues(generator, kClasses, 0.5f);
  const HostTensor weights =
      examples::valueOrExit(HostTensor::from({kInputs, kClasses}, w));
  const HostTensor bias =
      examples::valueOrExit(HostTensor::from({kClasses}, b));

  jit::Context context = examples::valueOrExit(jit::Context::create());
  std::printf("device: %s\n", context.deviceProfile().name.c_str());
  // Each compiles for the shapes of its first call; the later batches reuse
  // those programs.
  jit::Function dense =
      examples::valueOrExit(context.load(kLayers, "dense_relu", "layers.tile"));
  jit::Function softmax =
      examples::valueOrExit(context.load(kLayers, "softmax", "layers.tile"));

  double worstError = 0;
  for (int batch = 0; batch < 3; ++batch) {
    const std::vector<float> x =
        randomValues(generator, kBatch * kInputs, 1.0f);
    const HostTensor input =
        examples::valueOrExit(HostTensor::from({kBatch, kInputs}, x));
    // H never leaves the device: softmax takes dense's output as it is.
    std::shared_ptr<DeviceTensor> hidden =
        examples::valueOrExit(dense.runOnDevice({&input, &weights, &bias}))[0];
    std::shared_ptr<DeviceTensor> probabilities =
        examples::valueOrExit(softmax.runOnDevice({hidden}))[0];
    const HostTensor host = examples::valueOrExit(probabilities->read());
    Span<const float> p = examples::valueOrExit(host.view<float>());

    std::vector<double> expected = classifyOnHost(x, w, b);
    double error = 0;
    int64_t agreeingClasses = 0;
    for (int64_t i = 0; i < kBatch; ++i) {
      const float *row = p.data() + i * kClasses;
      const double *expectedRow = &expected[i * kClasses];
      for (int64_t j = 0; j < kClasses; ++j)
        error = std::max(error, std::fabs(row[j] - expectedRow[j]));
      agreeingClasses +=
          std::max_element(row, row + kClasses) - row ==
          std::max_element(expectedRow, expectedRow + kClasses) - expectedRow;
    }
    worstError = std::max(worstError, error);
    std::printf("batch %d: %lld rows, %lld of them classified as on the "
                "host, largest difference in a probability %.2e\n",
                batch, static_cast<long long>(kBatch),
                static_cast<long long>(agreeingClasses), error);
  }
  // f32 sums of 128 products against double: a few ulps of the
  // probabilities, which are at most 1.
  constexpr double kTolerance = 1e-5;
  std::printf("%s (tolerance %.0e)\n",
              worstError <= kTolerance ? "agrees with the host"
                                       : "DIFFERS from the host",
              kTolerance);
  return worstError <= kTolerance ? 0 : 1;
}
