//===- RobustnessTest.cpp - Hostile input ends in an error ----------------===//

#include "FrontendTestUtil.h"

#include <gtest/gtest.h>

using namespace tilec;
using namespace tilec::test;

namespace {

void expectParseError(llvm::StringRef source, llvm::StringRef message) {
  TileCompiler compiler;
  EXPECT_FALSE(compiler.parse(source));
  EXPECT_NE(compiler.getDiagnostics().find(message.str()), std::string::npos)
      << "expected: " << message.str()
      << "\nreported: " << compiler.getDiagnostics().substr(0, 2000);
}

TEST(RobustnessTest, EmptyFile) {
  expectParseError("", "test.tile:1:1: error: no function in the source");
  expectParseError("  // only a comment\n",
                   "1:1: error: no function in the source");
}

TEST(RobustnessTest, DeepParentheses) {
  std::string source = "function (A) -> (B) { B = " + std::string(100000, '(') +
                       "A" + std::string(100000, ')') + "; }";
  expectParseError(source, "error: expression nests too deeply (more than "
                           "256 levels)");
}

TEST(RobustnessTest, DeepUnaryAndBrackets) {
  expectParseError("function (A) -> (B) { B = " + std::string(100000, '-') +
                       "A; }",
                   "error: expression nests too deeply");
  std::string brackets;
  for (int i = 0; i < 50000; ++i)
    brackets += "f(";
  expectParseError("function (A) -> (B) { B = " + brackets + "; }",
                   "error: expression nests too deeply");
}

TEST(RobustnessTest, LongOperatorChain) {
  std::string chain = "A";
  for (int i = 0; i < 100000; ++i)
    chain += " + A";
  expectParseError("function (A) -> (B) { B = " + chain + "; }",
                   "error: expression is too complex (more than 1024 "
                   "levels)");
}

TEST(RobustnessTest, NulAndStrayBytes) {
  std::string source = "function (A) -> (B) {";
  source += '\0';
  source += " B = A \x7f\xff; }";
  expectParseError(source, "1:22: error: unexpected byte 0x00 in source");
  expectParseError(std::string(1000, '\0'),
                   "1:1: error: unexpected byte 0x00 in source");
}

TEST(RobustnessTest, HugeLiterals) {
  expectParseError("function (A) -> (B) { B = A + 99999999999999999999999; }",
                   "1:31: error: integer literal '99999999999999999999999' "
                   "is too large (the largest is 9223372036854775807)");
  expectParseError("function (A) -> (B) { B = A + 9223372036854775808; }",
                   "is too large");
  expectParseError("function (A) -> (B) { B = A * 1e999; }",
                   "1:31: error: float literal '1e999' is out of the range "
                   "of f64");
}

TEST(RobustnessTest, HugeSizes) {
  TileCompiler compiler;
  EXPECT_FALSE(compiler.compile(
      "function (A[N]) -> (B) {\n"
      "  B[i, j, k : 3037000500, 3037000500, 3037000500] = +(A[i]);\n"
      "}\n",
      {arg("A", DType::F32, {4})}));
  EXPECT_NE(compiler.getDiagnostics().find("overflows a 64-bit integer"),
            std::string::npos)
      << compiler.getDiagnostics();
}

} // namespace
