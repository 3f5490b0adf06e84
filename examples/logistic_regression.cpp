//===- logistic_regression.cpp - Training with gradients from Tile -------===//
//
// Two steps of the classic first GPU programs. First, array multiplication:
// the element-wise product of two arrays on the device, checked against the
// host. Then logistic regression on five points with two features,
//   x_i = {0, 1, 1, 1, 1}, x_j = {0, 0, 0, 1, 1}, y = {0, 0, 0, 1, 1},
// trained by 100 steps of gradient descent: a Tile function computes the
// predictions, the gradient of the mean cross-entropy and the loss on the
// device; the host applies the update. The example prints the learnt
// weights, the final loss and the class of every training point, and fails
// unless every point is classified right.
//
//===----------------------------------------------------------------------===//

#include "Support.h"

#include <cstdio>
#include <vector>

using namespace tilec;

static const char *const kArrayMultiply = R"(
function array_multiply(A[N], B[N]) -> (C) {
  C = A * B;
}
)";

// One evaluation of the model p = sigmoid(X w + b) on every point: the
// gradient of the mean cross-entropy with respect to w and b, the loss
// itself and the predictions.
static const char *const kLogisticGradient = R"(
function logistic_gradient(X[N, D], W[D], B[], Y[N]) -> (DW, DB, Loss, P) {
  Z[n : N] = +(X[n, d] * W[d]);
  P = sigmoid(Z + B);
  G = P - Y;
  SumGW[d : D] = +(X[n, d] * G[n]);
  DW = SumGW / N;
  SumG[] = +(G[n]);
  DB = SumG / N;
  CrossEntropy = -(Y * log(P) + (1 - Y) * log(1 - P));
  SumLoss[] = +(CrossEntropy[n]);
  Loss = SumLoss / N;
}
)";

/// Multiplies two arrays on the device; returns whether every product
/// equals the host's.
static bool multiplyArrays(const jit::Context &context) {
  const std::vector<float> a = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  const std::vector<float> b = {0.5f, -1, 2, 0.25f, 3, -2, 1.5f, 0, 4, -0.5f};
  const int64_t size = static_cast<int64_t>(a.size());
  jit::CompileOptions options;
  options.inputs = {{"A", DType::F32, {size}}, {"B", DType::F32, {size}}};
  jit::CompiledProgram program = examples::valueOrExit(
      context.compile(kArrayMultiply, options, "array_multiply.tile"));
  std::vector<HostTensor> outputs =
      examples::valueOrExit(program.run({examples::makeF32Tensor({size}, a),
                                         examples::makeF32Tensor({size}, b)}));
  std::vector<float> c = examples::readF32(outputs[0]);
  bool agrees = true;
  std::printf("a * b =");
  for (int64_t i = 0; i < size; ++i) {
    std::printf(" %g", c[i]);
    agrees &= c[i] == a[i] * b[i];
  }
  std::printf("\narray multiplication %s the host\n",
              agrees ? "agrees with" : "DIFFERS from");
  return agrees;
}

int main() {
  jit::Context context = examples::valueOrExit(jit::Context::create());
  std::printf("device: %s\n", context.deviceProfile().name.c_str());
  bool ok = multiplyArrays(context);

  // The training data: one row of features per point.
  constexpr int64_t kPoints = 5, kFeatures = 2;
  const std::vector<float> features = {0, 0, 1, 0, 1, 0, 1, 1, 1, 1};
  const std::vector<float> labels = {0, 0, 0, 1, 1};
  constexpr int kIterations = 100;
  constexpr float kLearningRate = 1.0f;

  jit::CompileOptions options;
  options.inputs = {{"X", DType::F32, {kPoints, kFeatures}},
                    {"W", DType::F32, {kFeatures}},
                    {"B", DType::F32, {}},
                    {"Y", DType::F32, {kPoints}}};
  jit::CompiledProgram gradient = examples::valueOrExit(
      context.compile(kLogisticGradient, options, "logistic_gradient.tile"));
  const HostTensor x = examples::makeF32Tensor({kPoints, kFeatures}, features);
  const HostTensor y = examples::makeF32Tensor({kPoints}, labels);

  std::vector<float> w(kFeatures, 0.0f);
  float b = 0.0f;
  // The outputs at the current weights: DW, DB, Loss, P.
  auto evaluate = [&] {
    return examples::valueOrExit(
        gradient.run({x, examples::makeF32Tensor({kFeatures}, w),
                      examples::makeF32Tensor({}, {b}), y}));
  };
  for (int iteration = 0; iteration < kIterations; ++iteration) {
    std::vector<HostTensor> outputs = evaluate();
    std::vector<float> dw = examples::readF32(outputs[0]);
    float db = examples::readF32(outputs[1])[0];
    for (int64_t k = 0; k < kFeatures; ++k)
      w[k] -= kLearningRate * dw[k];
    b -= kLearningRate * db;
  }

  std::vector<HostTensor> final = evaluate();
  float loss = examples::readF32(final[2])[0];
  std::vector<float> p = examples::readF32(final[3]);
  std::printf("after %d iterations: w = {%.4f, %.4f}, b = %.4f, loss = %.4f\n",
              kIterations, w[0], w[1], b, loss);
  int correct = 0;
  for (int64_t n = 0; n < kPoints; ++n) {
    int predicted = p[n] > 0.5f ? 1 : 0;
    correct += predicted == static_cast<int>(labels[n]);
    std::printf("point (%g, %g): p = %.4f, class %d, label %g\n",
                features[n * kFeatures], features[n * kFeatures + 1], p[n],
                predicted, labels[n]);
  }
  std::printf("%d of %lld training points classified right\n", correct,
              static_cast<long long>(kPoints));
  return ok && correct == kPoints ? 0 : 1;
}
