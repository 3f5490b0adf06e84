//===- SignatureTest.cpp - A function's interface read before binding ----===//

#include "tilec/JIT/Signature.h"

#include <gtest/gtest.h>

namespace tilec::jit::testing {
namespace {

TEST(SignatureTest, NamesParametersWithTheirRanksAndResultsInOrder) {
  Expected<FunctionSignature> signature =
      readSignature("function first(A) -> (B) { B = A; }\n"
                    "function second(X[M, K], S[], T) -> (Y, Z) {\n"
                    "  Y = X * S;\n  Z = T;\n}\n",
                    "second", "two.tile");
  ASSERT_TRUE(signature) << signature.error().describe();
  EXPECT_EQ(signature->name, "second");
  ASSERT_EQ(signature->parameters.size(), 3u);
  EXPECT_EQ(signature->parameters[0].name, "X");
  EXPECT_EQ(signature->parameters[0].rank, 2u);
  EXPECT_EQ(signature->parameters[1].name, "S");
  EXPECT_EQ(signature->parameters[1].rank, 0u);
  EXPECT_EQ(signature->parameters[2].name, "T");
  EXPECT_FALSE(signature->parameters[2].rank.has_value());
  EXPECT_EQ(signature->results, (std::vector<std::string>{"Y", "Z"}));
}

TEST(SignatureTest, SyntaxErrorIsACompileErrorWithItsLocation) {
  Expected<FunctionSignature> signature =
      readSignature("function f(A) -> (B) {\n  B = A + ;\n}\n", "", "bad.tile");
  ASSERT_FALSE(signature);
  EXPECT_EQ(signature.error().kind(), ErrorKind::Compile);
  ASSERT_FALSE(signature.error().diagnostics().empty());
  const Diagnostic &first = signature.error().diagnostics().front();
  EXPECT_EQ(first.file, "bad.tile");
  EXPECT_EQ(first.line, 2u);
  EXPECT_EQ(first.column, 11u);
  EXPECT_NE(signature.error().message().find("bad.tile:2:11"),
            std::string::npos);
}

TEST(SignatureTest, MissingEntryIsACompileError) {
  Expected<FunctionSignature> signature =
      readSignature("function f(A) -> (B) { B = A; }\n", "g", "one.tile");
  ASSERT_FALSE(signature);
  EXPECT_EQ(signature.error().kind(), ErrorKind::Compile);
  EXPECT_NE(signature.error().describe().find("g"), std::string::npos);
}

} // namespace
} // namespace tilec::jit::testing
