//===- PrinterTest.cpp - Tests of the canonical printer -------------------===//

#include "FrontendTestUtil.h"

#include <gtest/gtest.h>

using namespace tilec;
using namespace tilec::test;

namespace {

/// Compiles, prints, re-parses the print (params now carry integer extents,
/// so no bindings but the dtypes are needed), prints again, and expects the
/// two prints to be identical. Returns the first print.
std::string expectRoundTrip(llvm::StringRef source,
                            const std::vector<ArgBinding> &args) {
  TileCompiler compiler;
  std::optional<Program> program = compiler.compile(source, args);
  if (!program) {
    ADD_FAILURE() << compiler.getDiagnostics();
    return "";
  }
  std::string first = printToString(*program);
  TileCompiler again;
  std::optional<Program> reparsed = again.compile(first, args);
  if (!reparsed) {
    ADD_FAILURE() << first << again.getDiagnostics();
    return first;
  }
  EXPECT_EQ(first, printToString(*reparsed));
  return first;
}

TEST(PrinterTest, Matmul) {
  std::string text = expectRoundTrip(
      "function matmul(A[M, K], B[K, N]) -> (C) {\n"
      "  C[i, j : M, N] = +(A[i, k] * B[k, j]);\n"
      "}\n",
      {arg("A", DType::F32, {8, 16}), arg("B", DType::F32, {16, 4})});
  EXPECT_EQ(text, "// A: f32[8, 16]\n"
                  "// B: f32[16, 4]\n"
                  "function matmul (A[8, 16], B[16, 4]) -> (C) {\n"
                  "  // C: f32[8, 4]\n"
                  "  C[i, j : 8, 4] = +(A[i, k] * B[k, j]);\n"
                  "}\n");
}

TEST(PrinterTest, ContractionDetails) {
  std::string text =
      expectRoundTrip("function (I[N], K[KN], D[ND]) -> (O, P, S, AM) {\n"
                      "  O[x : N - KN + 1] = +(I[x + k - 1] * K[KN - 1 - k]), "
                      "x + k - 1 < N no_defract;\n"
                      "  P[x/2 : (N + 1)/2] = >(I[(3*x + 1)/4]) default D;\n"
                      "  S[] = *(I[i]);\n"
                      "  AM[] = =(I[i] == K[j] ? D[j]);\n"
                      "}\n",
                      {arg("I", DType::F32, {8}), arg("K", DType::F32, {3}),
                       arg("D", DType::F32, {4})});
  EXPECT_NE(text.find("  O[x : 6] = +(I[x + k - 1] * K[-k + 2]), "
                      "x + k - 1 < 8 no_defract;\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  P[x/2 : 4] = >(I[3*x/4 + 1/4]) default D;\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  S[] = *(I[i]);\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  AM[] = =(I[i] == K[j] ? D[j]);\n"), std::string::npos)
      << text;
}

TEST(PrinterTest, ElementwiseWithCastsAndLiterals) {
  std::string text =
      expectRoundTrip("function (A[N, M], B[M], I) -> (O, P, Q, R, S, T) {\n"
                      "  O = (A + B) * 2 - I / 3;\n"
                      "  P = exp(I) + -1.5;\n"
                      "  Q = A > 0.5 ? A : -A;\n"
                      "  R = reshape(A, M * N);\n"
                      "  S = shape(A);\n"
                      "  T = index(A, 1) + (B << 2) + as_int(1, 64);\n"
                      "}\n",
                      {arg("A", DType::F32, {2, 3}), arg("B", DType::I8, {3}),
                       arg("I", DType::I32, {1})});
  EXPECT_NE(text.find("  // O: f32[2, 3]\n"
                      "  O = (A + as_float(B, 32)) * 2.0 - "
                      "as_float(I / 3, 32);\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  P = exp(as_float(I, 32)) + -1.5;\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  Q = select(A > 0.5, A, -A);\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("  R = reshape(A, 6);\n"), std::string::npos) << text;
}

TEST(PrinterTest, BoolAndUnsignedCasts) {
  std::string text =
      expectRoundTrip("function (B, U, H) -> (O, P, Q) {\n"
                      "  O = B + B;\n"
                      "  P = U + 1 < 3 && !B;\n"
                      "  Q = as_bf16(H) + 1;\n"
                      "}\n",
                      {arg("B", DType::Bool, {2}), arg("U", DType::U16, {2}),
                       arg("H", DType::F16, {2})});
  EXPECT_NE(text.find("  O = as_int(B, 32) + as_int(B, 32);\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  P = U + 1 < 3 && !B;\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  // Q: bf16[2]\n  Q = as_bf16(H) + 1.0;\n"),
            std::string::npos)
      << text;
}

} // namespace
