//===- LibraryGradientTest.cpp - The Tile library's layers differentiate --===//
//
// Every differentiable function of the Tile library (lib/tile/tilec), called
// from a small program, has gradients that agree with central finite
// differences in f64: the training step of a network built from the library
// differentiates correctly.
//
//===----------------------------------------------------------------------===//

#include "FiniteDifferences.h"

#include "gtest/gtest.h"

using namespace tilec;
using namespace tilec::testing;

namespace {

constexpr DType F64 = DType::F64;

/// `import "<the library in the source tree>/tilec/<file>";` then `body`.
std::string importing(const std::string &file, const std::string &body) {
  return "import \"" TILEC_LIBRARY_SOURCE_DIR "/tilec/" + file + "\";\n" + body;
}

TEST(LibraryGradient, Activations) {
  expectGradientsMatch(importing("activations.tile", R"(
function f(X[M, N]) -> (Gelu, Softmax, LogSoftmax) {
  Gelu = gelu(X);
  Softmax = softmax(X);
  LogSoftmax = log_softmax(X);
})"),
                       {{"X", F64, {3, 4}}}, {"X"});
}

TEST(LibraryGradient, DenseAndFlatten) {
  expectGradientsMatch(
      importing("layers.tile", R"(
function f(I, W, B) -> (Y) {
  Y = relu(dense(flatten(I), W, B));
})"),
      {{"I", F64, {2, 2, 3, 2}}, {"W", F64, {12, 3}}, {"B", F64, {3}}},
      {"I", "W", "B"});
}

TEST(LibraryGradient, ConvolutionAndPooling) {
  expectGradientsMatch(
      importing("conv.tile", R"(
function f(I, F, B) -> (Max, Avg) {
  C = conv2d(I, F, B);
  Max = maxpool2d(C);
  Avg = avgpool2d(C);
})"),
      {{"I", F64, {2, 6, 7, 2}}, {"F", F64, {3, 3, 2, 3}}, {"B", F64, {3}}},
      {"I", "F", "B"});
}

TEST(LibraryGradient, SameAndDepthwiseConvolutions) {
  expectGradientsMatch(importing("conv.tile", R"(
function f(I, F, B, FD, BD) -> (Same, Depthwise) {
  Same = conv2d_same(I, F, B);
  Depthwise = depthwise_conv2d(I, FD, BD);
})"),
                       {{"I", F64, {1, 5, 4, 2}},
                        {"F", F64, {3, 2, 2, 3}},
                        {"B", F64, {3}},
                        {"FD", F64, {3, 3, 2, 2}},
                        {"BD", F64, {4}}},
                       {"I", "F", "B", "FD", "BD"});
}

TEST(LibraryGradient, CrossEntropies) {
  expectGradientsMatch(importing("losses.tile", R"(
function f(Logits[M, N], Targets[M, N], Labels[M]) -> (Dense, Sparse) {
  Dense = categorical_crossentropy(Logits, Targets);
  Sparse = sparse_categorical_crossentropy(Logits, Labels);
})"),
                       {{"Logits", F64, {3, 5}},
                        {"Targets", F64, {3, 5}},
                        {"Labels", DType::I32, {3}}},
                       {"Logits", "Targets"});
}

TEST(LibraryGradient, LayerNorm) {
  expectGradientsMatch(
      importing("norms.tile", R"(
function f(X, Gamma, Beta) -> (Y) {
  Y = layer_norm(X, Gamma, Beta, 0.001);
})"),
      {{"X", F64, {3, 4}}, {"Gamma", F64, {4}}, {"Beta", F64, {4}}},
      {"X", "Gamma", "Beta"});
}

TEST(LibraryGradient, BatchNormForInference) {
  expectGradientsMatch(importing("norms.tile", R"(
function f(X, Mean, Var, Gamma, Beta) -> (Y) {
  Y = batch_norm(X, Mean, abs(Var), Gamma, Beta, 0.001);
})"),
                       {{"X", F64, {2, 3, 2, 4}},
                        {"Mean", F64, {4}},
                        {"Var", F64, {4}},
                        {"Gamma", F64, {4}},
                        {"Beta", F64, {4}}},
                       {"X", "Mean", "Var", "Gamma", "Beta"});
}

TEST(LibraryGradient, BatchNormForTraining) {
  expectGradientsMatch(importing("norms.tile", R"(
function f(X, Gamma, Beta, MovingMean, MovingVar) -> (Y, NewMean, NewVar) {
  (Y, NewMean, NewVar) =
      batch_norm_train(X, Gamma, Beta, MovingMean, MovingVar, 0.9, 0.001);
})"),
                       {{"X", F64, {5, 3}},
                        {"Gamma", F64, {3}},
                        {"Beta", F64, {3}},
                        {"MovingMean", F64, {3}},
                        {"MovingVar", F64, {3}}},
                       {"X", "Gamma", "Beta", "MovingMean", "MovingVar"});
}

TEST(LibraryGradient, BatchNormForTrainingOnImages) {
  expectGradientsMatch(importing("norms.tile", R"(
function f(X, Gamma, Beta, MovingMean, MovingVar) -> (Y, NewMean, NewVar) {
  (Y, NewMean, NewVar) = batch_norm_train_nhwc(X, Gamma, Beta, MovingMean,
                                               MovingVar, 0.9, 0.001);
})"),
                       {{"X", F64, {2, 2, 3, 2}},
                        {"Gamma", F64, {2}},
                        {"Beta", F64, {2}},
                        {"MovingMean", F64, {2}},
                        {"MovingVar", F64, {2}}},
                       {"X", "Gamma", "Beta"});
}

TEST(LibraryGradient, Dropout) {
  // The mask depends on the seed alone: the gradient is the mask's scaling.
  expectGradientsMatch(importing("dropout.tile", R"(
function f(X, Seed) -> (Y) {
  Y = dropout(X, Seed, 0.5);
})"),
                       {{"X", F64, {4, 6}}, {"Seed", DType::U32, {}}}, {"X"});
}

} // namespace
