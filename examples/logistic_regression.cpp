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
  jit::Function multiply = examples::valueOrExit(
      context.load(kArrayMultiply, "", "array_multiply.tile"));
  std::vector<HostTensor> outputs = examples::valueOrExit(
      multiply(examples::valueOrExit(HostTensor::from({size}, a)),
               examples::valueOrExit(HostTensor::from({size}, b))));
  Span<const float> c = examples::valueOrExit(outputs[0].view<float>());
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

  jit::Function gradient = examples::valueOrExit(
      context.load(kLogisticGradient, "", "logistic_gradient.tile"));
  const HostTensor x =
      examples::valueOrExit(HostTensor::from({kPoints, kFeatures}, features));
  const HostTensor y =
      examples::valueOrExit(HostTensor::from({kPoints}, labels));

  // The model's parameters, updated in place on the host.
  HostTensor w(DType::F32, {kFeatures}), b(DType::F32, {});
  Span<float> weights = examples::valueOrExit(w.span<float>());
  float &bias = examples::valueOrExit(b.span<float>())[0];
  // The outputs at the current weights: DW, DB, Loss, P.
  auto evaluate = [&] { return examples::valueOrExit(gradient(x, w, b, y)); };
  auto first = [](const HostTensor &tensor) {
    return examples::valueOrExit(tensor.view<float>())[0];
  };
  for (int iteration = 0; iteration < kIterations; ++iteration) {
    std::vector<HostTensor> outputs = evaluate();
    Span<const float> dw = examples::valueOrExit(outputs[0].view<float>());
    for (int64_t k = 0; k < kFeatures; ++k)
      weights[k] -= kLearningRate * dw[k];
    bias -= kLearningRate * first(outputs[1]);
  }

  std::vector<HostTensor> final = evaluate();
  float loss = first(final[2]);
  Span<const float> p = examples::valueOrExit(final[3].view<float>());
  std::printf("after %d iterations: w = {%.4f, %.4f}, b = %.4f, loss = %.4f\n",
              kIterations, weights[0], weights[1], bias, loss);
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
