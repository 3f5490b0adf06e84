//===- FunctionTest.cpp - One loaded function, any input shapes -----------===//

#include "JITFixture.h"

#include <fstream>

namespace tilec::jit::testing {
namespace {

using FunctionTest = JITFixture;

HostTensor patterned(const Shape &shape, int64_t seed) {
  return makeTensor(shape, [&](int64_t i) { return patternValue(i, seed); });
}

TEST_F(FunctionTest, SpecialisesOnEachNewShape) {
  std::optional<Context> context;
  ASSERT_TRUE(open(options(), context));
  Expected<Function> matmul = context->load(kMatmul);
  ASSERT_TRUE(matmul) << matmul.error().describe();
  EXPECT_EQ(matmul->name(), "matmul");
  ASSERT_EQ(matmul->signature().parameters.size(), 2u);
  EXPECT_EQ(matmul->specializationCount(), 0u);

  for (int64_t size : {2, 5, 2, 5, 3}) {
    HostTensor a = patterned({size, size + 1}, size);
    HostTensor b = patterned({size + 1, 4}, size + 1);
    Expected<std::vector<HostTensor>> c = (*matmul)(a, b);
    ASSERT_TRUE(c) << c.error().describe();
    expectSameTensor((*c)[0], hostMatmul(a, b));
  }
  // Three shapes: three programs, each compiled once.
  EXPECT_EQ(matmul->specializationCount(), 3u);
  EXPECT_EQ(context->cacheStats().misses, 3u);
  EXPECT_EQ(context->cacheStats().memoryHits, 0u);

  // A vector of inputs, and another dtype: a fourth program.
  Expected<std::vector<HostTensor>> f64 =
      matmul->run({*HostTensor::from<double>({1, 2}, {1, 2}),
                   *HostTensor::from<double>({2, 1}, {3, 4})});
  ASSERT_TRUE(f64) << f64.error().describe();
  EXPECT_EQ((*f64)[0].dtype(), DType::F64);
  EXPECT_EQ((*f64)[0].getDouble(0), 11.0);
  EXPECT_EQ(matmul->specializationCount(), 4u);
}

TEST_F(FunctionTest, SpecialisationsGoThroughTheCaches) {
  {
    std::optional<Context> context;
    ASSERT_TRUE(open(options(), context));
    Expected<Function> matmul = context->load(kMatmul, "matmul", "mm.tile");
    ASSERT_TRUE(matmul);
    ASSERT_TRUE((*matmul)(patterned({2, 3}, 1), patterned({3, 4}, 2)));
    // Another Function of the same source finds the program in memory.
    Expected<Function> again = context->load(kMatmul, "matmul", "mm.tile");
    ASSERT_TRUE(again);
    Expected<CompiledProgram> program =
        again->specialize({{DType::F32, {2, 3}}, {DType::F32, {3, 4}}});
    ASSERT_TRUE(program) << program.error().describe();
    EXPECT_EQ(program->origin(), ProgramOrigin::MemoryCache);
  }
  // A new context (a new process, as far as the cache knows) finds it on
  // disk.
  std::optional<Context> context;
  ASSERT_TRUE(open(options(), context));
  Expected<Function> matmul = context->load(kMatmul, "matmul", "mm.tile");
  ASSERT_TRUE(matmul);
  Expected<CompiledProgram> program =
      matmul->specialize({{DType::F32, {2, 3}}, {DType::F32, {3, 4}}});
  ASSERT_TRUE(program) << program.error().describe();
  EXPECT_EQ(program->origin(), ProgramOrigin::DiskCache);
}

TEST_F(FunctionTest, DeviceTensorsAndAsynchronousRuns) {
  std::optional<Context> context;
  ASSERT_TRUE(open(options(), context));
  Expected<Function> scale = context->load(kScale);
  ASSERT_TRUE(scale);
  HostTensor x = *HostTensor::from<float>({3}, {1, 2, 3});
  Expected<DeviceOutputs> once = scale->runOnDevice({&x});
  ASSERT_TRUE(once) << once.error().describe();
  Expected<DeviceOutputs> twice =
      scale->runOnDevice({std::shared_ptr<const DeviceTensor>((*once)[0])});
  ASSERT_TRUE(twice) << twice.error().describe();
  tilec::Expected<HostTensor> y = (*twice)[0]->read();
  ASSERT_TRUE(y);
  tilec::Expected<Span<const float>> values = y->view<float>();
  ASSERT_TRUE(values);
  EXPECT_EQ((*values)[2], 27.0f);

  // Asynchronous, with a new shape compiled on the way.
  Future<DeviceOutputs> first = scale->runOnDeviceAsync(
      {*HostTensor::from<int32_t>({2, 2}, {1, 2, 3, 4})});
  Future<DeviceOutputs> second = scale->runOnDeviceAsync({first.output(0)});
  Expected<DeviceOutputs> result = second.get();
  ASSERT_TRUE(result) << result.error().describe();
  tilec::Expected<HostTensor> z = (*result)[0]->read();
  ASSERT_TRUE(z);
  EXPECT_EQ(z->dtype(), DType::I32);
  EXPECT_EQ(z->getInt(3), 36);
  Expected<std::vector<HostTensor>> host = scale->runAsync({x}).get();
  ASSERT_TRUE(host);
  EXPECT_EQ((*host)[0].getDouble(0), 3.0);
}

TEST_F(FunctionTest, ErrorsOfLoadAndOfCalls) {
  std::optional<Context> context;
  ASSERT_TRUE(open(options(), context));
  // A syntax error is found by load, with its location.
  Expected<Function> broken =
      context->load("function f(A) -> (B) {\n  B = A + ;\n}\n", "", "f.tile");
  ASSERT_FALSE(broken);
  EXPECT_EQ(broken.error().kind(), ErrorKind::Compile);
  ASSERT_FALSE(broken.error().diagnostics().empty());
  EXPECT_EQ(broken.error().diagnostics()[0].line, 2u);
  EXPECT_EQ(context->load(kMatmul, "nothing").error().kind(),
            ErrorKind::Compile);
  EXPECT_EQ(context->loadFile(cacheDir + "/missing.tile").error().kind(),
            ErrorKind::File);

  Expected<Function> matmul = context->load(kMatmul);
  ASSERT_TRUE(matmul);
  Expected<std::vector<HostTensor>> one = (*matmul)(patterned({2, 2}, 0));
  ASSERT_FALSE(one);
  EXPECT_EQ(one.error().kind(), ErrorKind::InvalidArgument);
  EXPECT_EQ(one.error().message(), "'matmul' takes 2 inputs, not 1");
  // Shapes that do not fit the function are a compile error of the call.
  Expected<std::vector<HostTensor>> mismatched =
      (*matmul)(patterned({2, 3}, 0), patterned({4, 2}, 0));
  ASSERT_FALSE(mismatched);
  EXPECT_EQ(mismatched.error().kind(), ErrorKind::Compile);
  EXPECT_FALSE(mismatched.error().diagnostics().empty());
  EXPECT_EQ(matmul->specializationCount(), 0u);

  Expected<Function> scale = context->load(kScale);
  ASSERT_TRUE(scale);
  Expected<std::vector<HostTensor>> two =
      scale->run({HostTensor(), HostTensor()});
  ASSERT_FALSE(two);
  EXPECT_EQ(two.error().message(), "'scale' takes 1 input, not 2");
}

TEST_F(FunctionTest, LoadFileNamesTheSourceByItsPath) {
  std::optional<Context> context;
  ASSERT_TRUE(open(options(), context));
  std::string path = cacheDir + "/bias.tile";
  std::ofstream(path) << kBiasRelu;
  Expected<Function> biasRelu = context->loadFile(path);
  ASSERT_TRUE(biasRelu) << biasRelu.error().describe();
  Expected<CompiledProgram> program =
      biasRelu->specialize({{DType::F32, {2, 3}}, {DType::F32, {3}}});
  ASSERT_TRUE(program) << program.error().describe();
  ASSERT_FALSE(program->kernels().empty());
  EXPECT_EQ(program->kernels()[0].sourceLocation.rfind(path, 0), 0u)
      << program->kernels()[0].sourceLocation;
}

} // namespace
} // namespace tilec::jit::testing
