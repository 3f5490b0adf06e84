//===- ContractionGradientTest.cpp - Contraction rules vs finite differences //
//
// Each rule of ContractionRules.cpp, checked in f64 against central finite
// differences of the forward program on the reference interpreter.
//
//===----------------------------------------------------------------------===//

#include "FiniteDifferences.h"

#include "gtest/gtest.h"

using namespace tilec;
using namespace tilec::testing;

namespace {

constexpr DType F64 = DType::F64;

TEST(ContractionGradient, Matmul) {
  expectGradientsMatch(R"(
function matmul(A[M, K], B[K, N]) -> (C) {
  C[i, j : M, N] = +(A[i, k] * B[k, j]);
})",
                       {{"A", F64, {3, 4}}, {"B", F64, {4, 2}}}, {"A", "B"});
}

TEST(ContractionGradient, SameTensorTwiceSumsBothUses) {
  expectGradientsMatch(R"(
function square(A[N, N]) -> (C) {
  C[i, j : N, N] = +(A[i, k] * A[k, j]);
})",
                       {{"A", F64, {3, 3}}}, {"A"});
}

TEST(ContractionGradient, PaddedConvolution2D) {
  expectGradientsMatch(R"(
function conv(I[N, H, W, C], F[KH, KW, C, CO]) -> (O) {
  O[n, y, x, co : N, H, W, CO] =
      +(I[n, y + ky - 1, x + kx - 1, c] * F[ky, kx, c, co]);
})",
                       {{"I", F64, {2, 4, 5, 2}}, {"F", F64, {3, 3, 2, 3}}},
                       {"I", "F"});
}

TEST(ContractionGradient, StridedDilatedConvolution) {
  expectGradientsMatch(R"(
function conv(I[N], F[K]) -> (O) {
  O[x : (N - 2*(K - 1) - 1)/2 + 1] = +(I[2*x + 2*k] * F[k]);
})",
                       {{"I", F64, {11}}, {"F", F64, {3}}}, {"I", "F"});
}

TEST(ContractionGradient, FractionalIndexes) {
  expectGradientsMatch(R"(
function transposed(I[N], F[K]) -> (O) {
  O[x : 2*N + K - 2] = +(I[(x - k)/2] * F[k]);
})",
                       {{"I", F64, {4}}, {"F", F64, {3}}}, {"I", "F"});
}

TEST(ContractionGradient, ConstraintsCarryOver) {
  expectGradientsMatch(R"(
function cumsum(I[N]) -> (O) {
  O[i : N] = +(I[k]), i - k < N;
})",
                       {{"I", F64, {6}}}, {"I"});
}

TEST(ContractionGradient, ConstantAndRepeatedIndexes) {
  expectGradientsMatch(R"(
function pick(A[N, N]) -> (D, R, B) {
  D[i : N] = +(A[i, i]);
  R[j : N] = +(A[0, j]);
  B[i, j : N, N] = +(D[j]);
})",
                       {{"A", F64, {3, 3}}}, {"A"});
}

TEST(ContractionGradient, AddCombinationKeepsTheOtherBounds) {
  // Only tuples where B[j - 1] is in bounds count.
  expectGradientsMatch(R"(
function outer(A[M], B[N]) -> (O) {
  O[i, j : M, N] = +(A[i] + B[j - 1]);
})",
                       {{"A", F64, {3}}, {"B", F64, {4}}}, {"A", "B"});
}

TEST(ContractionGradient, ConditionalValueOnly) {
  expectGradientsMatch(R"(
function masked(A[M, N], B[M, N], C[M, N]) -> (O) {
  O[i : M] = +(A[i, j] == B[i, j] ? C[i, j]);
})",
                       {{"A", DType::I32, {3, 4}},
                        {"B", DType::I32, {3, 4}},
                        {"C", F64, {3, 4}}},
                       {"C"});
}

TEST(ContractionGradient, SumDefault) {
  expectGradientsMatch(R"(
function rows(A[M, N], D[M]) -> (O) {
  O[i : M] = +(A[i, j]) default D;
})",
                       {{"A", F64, {3, 4}}, {"D", F64, {3}}}, {"A", "D"});
}

TEST(ContractionGradient, Max) {
  expectGradientsMatch(R"(
function rowmax(A[M, N]) -> (O) {
  O[i : M] = >(A[i, j]);
})",
                       {{"A", F64, {4, 5}}}, {"A"});
}

TEST(ContractionGradient, TiesSplitTheCotangent) {
  // Every column of B ties: giving each the whole cotangent would count it
  // N times, and splitting it equally matches the derivative of max(a, a).
  expectGradientsMatch(R"(
function ties(A[M], D[M]) -> (O, P) {
  B[i, j : M, 4] = +(A[i]);
  O[i : M] = >(B[i, j]);
  P[i : M] = <(B[i, j]) default A;
})",
                       {{"A", F64, {3}}, {"D", F64, {3}}}, {"A"});
}

TEST(ContractionGradient, MaxPooling) {
  expectGradientsMatch(R"(
function maxpool(I[H, W]) -> (O) {
  O[y, x : H/2, W/2] = >(I[2*y + i, 2*x + j]), i < 2, j < 2;
})",
                       {{"I", F64, {4, 6}}}, {"I"});
}

TEST(ContractionGradient, MinWithDefault) {
  // Some rows of D win, some lose.
  expectGradientsMatch(R"(
function rowmin(A[M, N], D[M]) -> (O) {
  O[i : M] = <(A[i, j]) default D;
})",
                       {{"A", F64, {6, 2}}, {"D", F64, {6}}}, {"A", "D"});
}

TEST(ContractionGradient, Product) {
  expectGradientsMatch(R"(
function rowprod(A[M, N], B[N], D[M]) -> (O, P) {
  O[i : M] = *(A[i, j]);
  P[i : M] = *(A[i, j] * B[j]) default D;
})",
                       {{"A", F64, {3, 4}}, {"B", F64, {4}}, {"D", F64, {3}}},
                       {"A", "B", "D"});
}

TEST(ContractionGradient, AssignWithDefault) {
  expectGradientsMatch(R"(
function set_diagonal(A[N], B[N, N]) -> (O) {
  O[i, i : N, N] = =(A[i]) default B;
})",
                       {{"A", F64, {3}}, {"B", F64, {3, 3}}}, {"A", "B"});
}

TEST(ContractionGradient, ScalarLossHasNoCotangentInput) {
  expectGradientsMatch(
      R"(
function loss(X[M, K], W[K, N], B[N]) -> (L) {
  XW[i, j : M, N] = +(X[i, k] * W[k, j]);
  Y = relu(XW + B);
  L[] = +(Y[i, j]);
})",
      {{"X", F64, {4, 3}}, {"W", F64, {3, 5}}, {"B", F64, {5}}},
      {"W", "B", "X"});
}

TEST(ContractionGradient, SoftmaxCrossEntropy) {
  // Max, broadcasting, exp, log and a `?` pick, as a classifier's loss.
  expectGradientsMatch(R"(
function loss(Logits[B, C], Label[B]) -> (L) {
  Max[i : B] = >(Logits[i, j]);
  Column = reshape(Max, B, 1);
  Shifted = Logits - Column;
  E = exp(Shifted);
  Sum[i : B] = +(E[i, j]);
  LogSum = log(Sum);
  LogSumColumn = reshape(LogSum, B, 1);
  LogProb = Shifted - LogSumColumn;
  Col = index(Logits, 1);
  Picked[i : B] = +(Col[i, j] == Label[i] ? LogProb[i, j]);
  Total[] = +(Picked[i]);
  L = -Total / B;
})",
                       {{"Logits", F64, {3, 4}}, {"Label", DType::I32, {3}}},
                       {"Logits"});
}

} // namespace
