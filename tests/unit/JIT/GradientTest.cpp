//===- GradientTest.cpp - Gradient programs from the JIT ------------------===//

#include "JITFixture.h"

namespace tilec::jit::testing {
namespace {

using GradientTest = JITFixture;

/// The host's transpose of `a` (m x n).
HostTensor hostTranspose(const HostTensor &a) {
  int64_t m = a.shape()[0], n = a.shape()[1];
  HostTensor t(DType::F32, {n, m});
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j)
      t.setDouble(j * m + i, a.getDouble(i * n + j));
  return t;
}

TEST_F(GradientTest, MatmulGradientCompilesAndRuns) {
  Expected<std::string> source =
      gradientSource(kMatmul, {"A", "B"}, matmulOptions(4, 6, 5), "mm.tile");
  ASSERT_TRUE(source) << source.error().describe();
  EXPECT_NE(source->find("function matmul_grad (A[4, 6], B[6, 5], DC[4, 5]) "
                         "-> (DA, DB)"),
            std::string::npos)
      << *source;

  std::optional<Context> context;
  ASSERT_TRUE(open(options(), context));
  CompileOptions bindings = matmulOptions(4, 6, 5);
  bindings.inputs.push_back({"DC", DType::F32, {4, 5}});
  Expected<CompiledProgram> gradient =
      context->compile(*source, bindings, "mm.grad.tile");
  ASSERT_TRUE(gradient) << gradient.error().describe();

  HostTensor a =
      makeTensor({4, 6}, [](int64_t i) { return patternValue(i, 1); });
  HostTensor b =
      makeTensor({6, 5}, [](int64_t i) { return patternValue(i, 2); });
  HostTensor dc =
      makeTensor({4, 5}, [](int64_t i) { return patternValue(i, 3); });
  auto outputs = gradient->run({a, b, dc});
  ASSERT_TRUE(outputs) << outputs.error().describe();
  ASSERT_EQ(outputs->size(), 2u);
  // DA = DC B^T and DB = A^T DC, exact for these small multiples of 1/4.
  expectSameTensor((*outputs)[0], hostMatmul(dc, hostTranspose(b)));
  expectSameTensor((*outputs)[1], hostMatmul(hostTranspose(a), dc));
}

TEST_F(GradientTest, IntegerInputIsACompileErrorWithItsLocation) {
  Expected<std::string> source = gradientSource(
      "function f(X[N], I[N]) -> (O) {\n  O = X * I;\n}\n", {"I"},
      {"", {{"X", DType::F32, {3}}, {"I", DType::I32, {3}}}}, "int.tile");
  ASSERT_FALSE(source);
  EXPECT_EQ(source.error().kind(), ErrorKind::Compile);
  ASSERT_FALSE(source.error().diagnostics().empty());
  const Diagnostic &first = source.error().diagnostics().front();
  EXPECT_EQ(first.file, "int.tile");
  EXPECT_EQ(first.line, 1u);
  EXPECT_EQ(first.column, 18u);
  EXPECT_NE(first.message.find("only float inputs have gradients"),
            std::string::npos)
      << first.message;
}

} // namespace
} // namespace tilec::jit::testing
