//===- DeviceTensorTest.cpp - Programs chained on the device --------------===//

#include "JITFixture.h"

namespace tilec::jit::testing {
namespace {

using DeviceTensorTest = JITFixture;

/// The host's relu(x + b) of x (m x n) and b (n).
HostTensor hostBiasRelu(const HostTensor &x, const HostTensor &b) {
  int64_t n = b.shape()[0];
  HostTensor y(DType::F32, x.shape());
  for (int64_t i = 0; i < x.numElements(); ++i)
    y.setDouble(i, std::max(0.0, x.getDouble(i) + b.getDouble(i % n)));
  return y;
}

TEST_F(DeviceTensorTest, DescribesInputsOutputsKernelsAndSchedule) {
  std::optional<Context> context;
  ASSERT_TRUE(open(options(), context));
  Expected<CompiledProgram> program =
      context->compile(kMatmul, matmulOptions(4, 6, 8), "mm.tile");
  ASSERT_TRUE(program) << program.error().describe();
  EXPECT_EQ(program->function(), "matmul");
  ASSERT_EQ(program->inputs().size(), 2u);
  EXPECT_EQ(program->inputs()[0].name, "A");
  EXPECT_EQ(program->inputs()[0].shape, (Shape{4, 6}));
  EXPECT_EQ(program->inputs()[1].name, "B");
  ASSERT_EQ(program->outputs().size(), 1u);
  EXPECT_EQ(program->outputs()[0].name, "C");
  EXPECT_EQ(program->outputs()[0].dtype, DType::F32);
  EXPECT_EQ(program->outputs()[0].shape, (Shape{4, 8}));
  ASSERT_FALSE(program->kernels().empty());
  EXPECT_EQ(program->kernels()[0].sourceLocation.rfind("mm.tile:2:", 0), 0u)
      << program->kernels()[0].sourceLocation;
  EXPECT_EQ(program->kernels()[0].flops, 2.0 * 4 * 6 * 8);
  EXPECT_FALSE(program->schedule().empty());
  EXPECT_FALSE(program->bundle().openclSource.empty());
}

TEST_F(DeviceTensorTest, ChainsProgramsOnTheDevice) {
  std::optional<Context> context;
  ASSERT_TRUE(open(options(), context));
  Expected<CompiledProgram> matmul =
      context->compile(kMatmul, matmulOptions(5, 7, 6));
  Expected<CompiledProgram> biasRelu = context->compile(
      kBiasRelu, {"", {{"X", DType::F32, {5, 6}}, {"B", DType::F32, {6}}}});
  ASSERT_TRUE(matmul && biasRelu);

  HostTensor a =
      makeTensor({5, 7}, [](int64_t i) { return patternValue(i, 1); });
  HostTensor b =
      makeTensor({7, 6}, [](int64_t i) { return patternValue(i, 2); });
  HostTensor bias =
      makeTensor({6}, [](int64_t i) { return patternValue(i, 3); });
  auto product = matmul->runOnDevice({&a, &b});
  ASSERT_TRUE(product) << product.error().describe();
  ASSERT_EQ(product->size(), 1u);
  std::shared_ptr<DeviceTensor> c = (*product)[0];
  EXPECT_EQ(c->shape(), (Shape{5, 6}));

  // The product goes on to the next program without leaving the device.
  auto activated = biasRelu->runOnDevice({c, &bias});
  ASSERT_TRUE(activated) << activated.error().describe();
  tilec::Expected<HostTensor> y = (*activated)[0]->read();
  ASSERT_TRUE(y) << y.error().message();
  HostTensor expectedC = hostMatmul(a, b);
  expectSameTensor(*y, hostBiasRelu(expectedC, bias));

  // A second run writes fresh storage: the first run's output holds still.
  HostTensor otherA =
      makeTensor({5, 7}, [](int64_t i) { return patternValue(i, 9); });
  auto second = matmul->runOnDevice({&otherA, &b});
  ASSERT_TRUE(second);
  tilec::Expected<HostTensor> firstAgain = c->read();
  ASSERT_TRUE(firstAgain);
  expectSameTensor(*firstAgain, expectedC);
  tilec::Expected<HostTensor> secondC = (*second)[0]->read();
  ASSERT_TRUE(secondC);
  expectSameTensor(*secondC, hostMatmul(otherA, b));
}

TEST_F(DeviceTensorTest, DeviceTensorsOutliveTheirContextAndProgram) {
  std::shared_ptr<DeviceTensor> kept;
  HostTensor x = makeTensor({16}, [](int64_t i) { return double(i); });
  {
    std::optional<Context> context;
    ASSERT_TRUE(open(options(), context));
    Expected<CompiledProgram> scale =
        context->compile(kScale, {"", {{"X", DType::F32, {16}}}});
    ASSERT_TRUE(scale);
    auto outputs = scale->runOnDevice({&x});
    ASSERT_TRUE(outputs);
    kept = (*outputs)[0];
  }
  tilec::Expected<HostTensor> y = kept->read();
  ASSERT_TRUE(y) << y.error().message();
  expectSameTensor(*y, makeTensor({16}, [](int64_t i) { return 3.0 * i; }));
}

TEST_F(DeviceTensorTest, AsynchronousDeviceRunsChain) {
  std::optional<Context> context;
  ASSERT_TRUE(open(options(), context));
  Expected<CompiledProgram> scale =
      context->compile(kScale, {"", {{"X", DType::F32, {32}}}});
  ASSERT_TRUE(scale);
  HostTensor x = makeTensor({32}, [](int64_t i) { return double(i) - 16; });
  // The host input is moved into the call, so it may go out of scope.
  Future<std::vector<std::shared_ptr<DeviceTensor>>> first =
      scale->runOnDeviceAsync({HostTensor(x)});
  auto once = first.get();
  ASSERT_TRUE(once) << once.error().describe();
  Future<std::vector<std::shared_ptr<DeviceTensor>>> second =
      scale->runOnDeviceAsync(
          {std::shared_ptr<const DeviceTensor>((*once)[0])});
  auto twice = second.get();
  ASSERT_TRUE(twice) << twice.error().describe();
  tilec::Expected<HostTensor> y = (*twice)[0]->read();
  ASSERT_TRUE(y);
  expectSameTensor(
      *y, makeTensor({32}, [](int64_t i) { return 9.0 * (double(i) - 16); }));
}

TEST_F(DeviceTensorTest, RepeatedRunsOfALastGroupReduction) {
  // Under a GPU's profile the sum is shared by many work-groups, the last
  // of which combines their partials from zeroed temporaries and leaves
  // them zeroed: device-resident runs fill those only before the first run,
  // so each later run relies on the last.
  ContextOptions contextOptions = options();
  contextOptions.profileOverrides =
      R"({"type": "gpu", "compute_units": 132, "max_work_group_size": 256,
          "max_work_item_sizes": [256, 256, 256], "local_mem_bytes": 49152})";
  std::optional<Context> context;
  ASSERT_TRUE(open(contextOptions, context));
  const char *sum = "function sum(X[N]) -> (S) { S[] = +(X[i]); }";
  Expected<CompiledProgram> program =
      context->compile(sum, {"", {{"X", DType::F32, {300007}}}});
  ASSERT_TRUE(program) << program.error().describe();
  ASSERT_EQ(program->kernels().size(), 1u) << program->schedule();
  for (int64_t seed = 1; seed <= 3; ++seed) {
    HostTensor x =
        makeTensor({300007}, [&](int64_t i) { return patternValue(i, seed); });
    double expected = 0;
    for (int64_t i = 0; i < x.numElements(); ++i)
      expected += x.getDouble(i);
    auto outputs = program->runOnDevice({&x});
    ASSERT_TRUE(outputs) << outputs.error().describe();
    tilec::Expected<HostTensor> s = (*outputs)[0]->read();
    ASSERT_TRUE(s) << s.error().message();
    EXPECT_EQ(s->getDouble(0), expected) << "run " << seed;
  }
}

} // namespace
} // namespace tilec::jit::testing
