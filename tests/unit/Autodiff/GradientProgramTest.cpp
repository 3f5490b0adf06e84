//===- GradientProgramTest.cpp - The gradient program's interface, errors -===//

#include "FiniteDifferences.h"

#include "tilec/Frontend/Frontend.h"

#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace tilec;
using namespace tilec::testing;

namespace {

constexpr DType F32 = DType::F32;

const char *kDense = R"(function dense(X[M, K], W[K, N], B[N]) -> (Y) {
  XW[i, j : M, N] = +(X[i, k] * W[k, j]);
  Y = relu(XW + B);
})";

TEST(GradientProgram, InterfaceIsInputsCotangentsAndGradients) {
  std::string diagnostics;
  std::string text = gradientSource(
      kDense, {{"X", F32, {2, 3}}, {"W", F32, {3, 4}}, {"B", F32, {4}}},
      {"W", "B"}, diagnostics);
  EXPECT_NE(text.find("function dense_grad (X[2, 3], W[3, 4], B[4], "
                      "DY[2, 4]) -> (DW, DB)"),
            std::string::npos)
      << text;
}

TEST(GradientProgram, PrintedProgramIsAFixedPoint) {
  // Printing, compiling and printing again gives the same text.
  std::string diagnostics;
  std::vector<InputType> inputs = {
      {"X", F32, {2, 3}}, {"W", F32, {3, 4}}, {"B", F32, {4}}};
  std::string text = gradientSource(kDense, inputs, {"X"}, diagnostics);
  ASSERT_FALSE(text.empty()) << diagnostics;
  inputs.push_back({"DY", F32, {2, 4}});
  Compiled again = compileSource(text, inputs);
  ASSERT_TRUE(again.program) << again.diagnostics;
  std::string reprinted;
  llvm::raw_string_ostream os(reprinted);
  printProgram(*again.program, os);
  EXPECT_EQ(reprinted, text);
}

TEST(GradientProgram, UnknownInputIsAnError) {
  std::string diagnostics;
  EXPECT_EQ(
      gradientSource(kDense,
                     {{"X", F32, {2, 3}}, {"W", F32, {3, 4}}, {"B", F32, {4}}},
                     {"Q"}, diagnostics),
      "");
  EXPECT_NE(diagnostics.find("test.tile:1:1: error: cannot differentiate "
                             "with respect to 'Q': it is not an input of "
                             "the function (inputs: X, W, B)"),
            std::string::npos)
      << diagnostics;
}

TEST(GradientProgram, IntegerInputIsAnErrorAtItsParameter) {
  std::string diagnostics;
  EXPECT_EQ(gradientSource("function f(X[N], I[N]) -> (O) { O = X * I; }",
                           {{"X", F32, {3}}, {"I", DType::I32, {3}}}, {"I"},
                           diagnostics),
            "");
  EXPECT_NE(diagnostics.find("test.tile:1:18: error: cannot differentiate "
                             "with respect to 'I': it is i32, and only float "
                             "inputs have gradients"),
            std::string::npos)
      << diagnostics;
}

TEST(GradientProgram, ExtremumOfProductsIsAnErrorAtTheStatement) {
  std::string diagnostics;
  EXPECT_EQ(gradientSource("function f(A[N], B[N]) -> (O) {\n"
                           "  O[] = >(A[i] * B[i]);\n}",
                           {{"A", F32, {3}}, {"B", F32, {3}}}, {"A"},
                           diagnostics),
            "");
  EXPECT_NE(diagnostics.find("test.tile:2:3: error: cannot differentiate "
                             "this '>' contraction"),
            std::string::npos)
      << diagnostics;
}

TEST(GradientProgram, CotangentNameTakenIsAnError) {
  std::string diagnostics;
  EXPECT_EQ(gradientSource("function f(X[N]) -> (O) {\n"
                           "  DX = X * 2;\n  O = DX + 1;\n}",
                           {{"X", F32, {3}}}, {"X"}, diagnostics),
            "");
  EXPECT_NE(diagnostics.find("test.tile:2:3: error: the gradient program "
                             "names the cotangent of 'X' 'DX', which this "
                             "function already uses"),
            std::string::npos)
      << diagnostics;
}

} // namespace
