//===- LibraryTest.cpp - The layer library from the JIT -------------------===//
//
// A source given to the JIT imports tilec's layer library by name: the JIT
// finds it relative to libtilec_jit.so (build/share/tilec/tile in the build
// tree), whatever the application's directory.
//
//===----------------------------------------------------------------------===//

#include "JITFixture.h"

namespace tilec::jit::testing {
namespace {

using LibraryTest = JITFixture;

const char *const kClassifier = R"(import "tilec/activations.tile";
import "tilec/layers.tile";

function classify(X, W, B) -> (P) {
  P = softmax(dense(X, W, B));
}
)";

CompileOptions classifierOptions() {
  return {"",
          {{"X", DType::F32, {3, 4}},
           {"W", DType::F32, {4, 5}},
           {"B", DType::F32, {5}}}};
}

TEST_F(LibraryTest, ImportsTheLibraryByName) {
  std::optional<Context> context;
  ASSERT_TRUE(open(options(), context));
  Expected<CompiledProgram> program =
      context->compile(kClassifier, classifierOptions(), "classify.tile");
  ASSERT_TRUE(program) << program.error().describe();

  HostTensor x =
      makeTensor({3, 4}, [](int64_t i) { return patternValue(i, 1); });
  HostTensor w =
      makeTensor({4, 5}, [](int64_t i) { return patternValue(i, 2); });
  HostTensor b = makeTensor({5}, [](int64_t i) { return patternValue(i, 3); });
  auto outputs = program->run({x, w, b});
  ASSERT_TRUE(outputs) << outputs.error().describe();
  ASSERT_EQ(outputs->size(), 1u);
  // The softmax of the host's X W + B, row by row.
  HostTensor logits = hostMatmul(x, w);
  for (int64_t i = 0; i < 3; ++i) {
    double max = -INFINITY, sum = 0;
    for (int64_t j = 0; j < 5; ++j)
      max = std::max(max, logits.getDouble(i * 5 + j) + b.getDouble(j));
    for (int64_t j = 0; j < 5; ++j)
      sum += std::exp(logits.getDouble(i * 5 + j) + b.getDouble(j) - max);
    for (int64_t j = 0; j < 5; ++j)
      EXPECT_NEAR((*outputs)[0].getDouble(i * 5 + j),
                  std::exp(logits.getDouble(i * 5 + j) + b.getDouble(j) - max) /
                      sum,
                  1e-6)
          << "element [" << i << ", " << j << "]";
  }
}

TEST_F(LibraryTest, GradientOfALibraryLayer) {
  Expected<std::string> source = gradientSource(
      kClassifier, {"W", "B"}, classifierOptions(), "classify.tile");
  ASSERT_TRUE(source) << source.error().describe();
  EXPECT_NE(source->find("function classify_grad (X[3, 4], W[4, 5], B[5], "
                         "DP[3, 5]) -> (DW, DB)"),
            std::string::npos)
      << *source;
}

TEST_F(LibraryTest, AFileTheLibraryLacksIsAnErrorAtTheImport) {
  std::optional<Context> context;
  ASSERT_TRUE(open(options(), context));
  Expected<CompiledProgram> program = context->compile(
      "import \"tilec/no-such-file.tile\";\nfunction f(X) -> (Y) {\n  Y = "
      "X;\n}\n",
      {"", {{"X", DType::F32, {2}}}}, "missing.tile");
  ASSERT_FALSE(program);
  EXPECT_EQ(program.error().kind(), ErrorKind::Compile);
  ASSERT_FALSE(program.error().diagnostics().empty());
  const Diagnostic &first = program.error().diagnostics().front();
  EXPECT_EQ(first.file, "missing.tile");
  EXPECT_EQ(first.line, 1u);
  EXPECT_NE(first.message.find("cannot read"), std::string::npos)
      << first.message;
}

} // namespace
} // namespace tilec::jit::testing
