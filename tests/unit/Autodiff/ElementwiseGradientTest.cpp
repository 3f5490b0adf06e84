//===- ElementwiseGradientTest.cpp - Elementwise rules vs finite differences //
//
// Each rule of ElementwiseRules.cpp, checked in f64 against central finite
// differences of the forward program on the reference interpreter.
//
//===----------------------------------------------------------------------===//

#include "FiniteDifferences.h"

#include "gtest/gtest.h"

using namespace tilec;
using namespace tilec::testing;

namespace {

constexpr DType F64 = DType::F64;

/// d/dX and d/dY of `O = <body>` over X and Y of f64[2, 3].
void expectBinaryGradients(const std::string &body) {
  expectGradientsMatch("function f(X[M, N], Y[M, N]) -> (O) { O = " + body +
                           "; }",
                       {{"X", F64, {2, 3}}, {"Y", F64, {2, 3}}}, {"X", "Y"});
}

TEST(ElementwiseGradient, Arithmetic) {
  expectBinaryGradients("X + Y");
  expectBinaryGradients("X - Y");
  expectBinaryGradients("X * Y");
  expectBinaryGradients("X / Y");
  expectBinaryGradients("-X * 3.5 + Y / 2");
  expectBinaryGradients("X * X * Y");
}

TEST(ElementwiseGradient, ExpLogRoots) {
  expectBinaryGradients("exp(X) * Y");
  expectBinaryGradients("log(X * X + 1) + Y");
  expectBinaryGradients("sqrt(X * X + Y * Y)");
  expectBinaryGradients("rsqrt(X * X + 1) * Y");
  expectBinaryGradients("pow(X * X + 1, Y)");
}

TEST(ElementwiseGradient, Trigonometry) {
  expectBinaryGradients("sin(X) * cos(Y)");
  expectBinaryGradients("tan(X * 0.5) + tanh(Y)");
  expectBinaryGradients("sinh(X) * cosh(Y)");
  expectBinaryGradients("asin(X * 0.3) + acos(Y * 0.3)");
  expectBinaryGradients("atan(X) * atan2(X, Y)");
  expectBinaryGradients("erf(X) * sigmoid(Y)");
}

TEST(ElementwiseGradient, PiecewiseFunctions) {
  expectBinaryGradients("abs(X) * relu(Y)");
  expectBinaryGradients("min(X, Y) + max(X * 2, Y)");
  // Ties split the cotangent equally.
  expectBinaryGradients("max(X, X) + min(Y, Y)");
  expectBinaryGradients("select(X > Y, X * Y, X / Y)");
  expectBinaryGradients("X > Y ? sin(X) : Y");
  // Zero almost everywhere.
  expectBinaryGradients("floor(X * 3) + ceil(Y) + round(X) * sign(Y) + X");
}

TEST(ElementwiseGradient, Broadcasting) {
  expectGradientsMatch(
      R"(
function f(A[M, N], B[N], C[M, 1], S[]) -> (O) {
  O = A * B + C * S - B;
})",
      {{"A", F64, {3, 4}}, {"B", F64, {4}}, {"C", F64, {3, 1}}, {"S", F64, {}}},
      {"A", "B", "C", "S"});
}

TEST(ElementwiseGradient, ReshapeBack) {
  expectGradientsMatch(R"(
function f(X[M, N], W[K]) -> (O) {
  R = reshape(X, 6);
  O = R * W;
})",
                       {{"X", F64, {2, 3}}, {"W", F64, {6}}}, {"X", "W"});
}

TEST(ElementwiseGradient, CastsAndIntegers) {
  // Integer operands and index() carry no gradient; float casts pass it on.
  expectGradientsMatch(R"(
function f(X[N], I[N]) -> (O) {
  O = X * as_float(I, 64) + as_float(index(X, 0), 64) * X;
})",
                       {{"X", F64, {4}}, {"I", DType::I32, {4}}}, {"X"});
}

TEST(ElementwiseGradient, SeveralOutputsSumTheirContributions) {
  // Y is both an output and read by Z.
  expectGradientsMatch(R"(
function f(X[N]) -> (Y, Z, S) {
  Y = X * X;
  Z = sin(Y) + X;
  S[] = +(Z[i]);
})",
                       {{"X", F64, {5}}}, {"X"});
}

TEST(ElementwiseGradient, TwoInputsWithOneCotangent) {
  // DA and DB are the same values: the second is a copy of the first.
  expectGradientsMatch(R"(
function f(A[N], B[N]) -> (L) {
  Y = exp(A + B);
  L[] = +(Y[i]);
})",
                       {{"A", F64, {3}}, {"B", F64, {3}}}, {"A", "B"});
}

TEST(ElementwiseGradient, InputThatDoesNotMatterGetsZeros) {
  expectGradientsMatch("function f(X[N], Y[N]) -> (O) { O = X * 2; }",
                       {{"X", F64, {3}}, {"Y", F64, {3}}}, {"Y", "X"});
}

} // namespace
