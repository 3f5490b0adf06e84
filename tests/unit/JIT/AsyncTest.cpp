//===- AsyncTest.cpp - Queued runs, chained on the device -----------------===//

#include "JITFixture.h"

#include <fstream>
#include <string>

namespace tilec::jit::testing {
namespace {

using AsyncTest = JITFixture;

/// The threads of this process, as the kernel counts them.
int threadCount() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("Threads:", 0) == 0)
      return std::stoi(line.substr(8));
  return -1;
}

const char *const kAddOne = R"(function add_one(X) -> (Y) {
  Y = X + 1;
}
)";

TEST_F(AsyncTest, AHundredChainedRunsNeedNoReadBackAndNoThreadEach) {
  std::optional<Context> context;
  ASSERT_TRUE(open(options(), context));
  Expected<CompiledProgram> addOne =
      context->compile(kAddOne, {"", {{"X", DType::F32, {64}}}});
  ASSERT_TRUE(addOne) << addOne.error().describe();
  HostTensor x = makeTensor({64}, [](int64_t i) { return double(i); });
  // One run first, so that the driver's own threads and the run queue's
  // thread exist before counting.
  ASSERT_TRUE(addOne->runOnDeviceAsync({x}).get());
  int threadsBefore = threadCount();
  ASSERT_GT(threadsBefore, 0);

  std::vector<Future<DeviceOutputs>> chain;
  chain.push_back(addOne->runOnDeviceAsync({x}));
  for (int step = 1; step < 100; ++step)
    chain.push_back(addOne->runOnDeviceAsync({chain.back().output(0)}));
  // Every run was only queued: no thread per call.
  EXPECT_LE(threadCount(), threadsBefore);

  Expected<DeviceOutputs> last = chain.back().get();
  ASSERT_TRUE(last) << last.error().describe();
  tilec::Expected<HostTensor> y = (*last)[0]->read();
  ASSERT_TRUE(y) << y.error().message();
  tilec::Expected<Span<const float>> values = y->view<float>();
  ASSERT_TRUE(values);
  for (int64_t i = 0; i < 64; ++i)
    ASSERT_EQ((*values)[i], float(i + 100)) << "element " << i;
  // The runs before it finished first: their results are there at once.
  for (Future<DeviceOutputs> &run : chain)
    EXPECT_TRUE(run.waitFor(std::chrono::seconds(0)));
}

TEST_F(AsyncTest, CompilesShareAFewThreads) {
  std::optional<Context> context;
  ASSERT_TRUE(open(options(), context));
  int threadsBefore = threadCount();
  std::vector<Future<CompiledProgram>> compiles;
  for (int64_t size = 1; size <= 8; ++size)
    compiles.push_back(context->compileAsync(
        kScale, {"", {{"X", DType::F32, {size}}}}, "scale.tile"));
  // At most four compile threads, whatever the number of calls.
  EXPECT_LE(threadCount(), threadsBefore + 4);
  for (Future<CompiledProgram> &compile : compiles) {
    Expected<CompiledProgram> program = compile.get();
    ASSERT_TRUE(program) << program.error().describe();
  }
}

TEST_F(AsyncTest, AQueuedRunKeepsItsDeviceAlive) {
  for (int attempt = 0; attempt < 3; ++attempt) {
    Future<std::vector<HostTensor>> pending(nullptr);
    {
      std::optional<Context> context;
      ASSERT_TRUE(open(options(), context));
      Expected<Function> scale = context->load(kScale);
      ASSERT_TRUE(scale);
      pending = scale->runAsync({*HostTensor::from<float>({2}, {1, 2})});
    }
    // The context and the function are gone: the queued run holds the last
    // reference to the device, so the run queue's own thread closes the
    // device and its queue once the run is done.
    Expected<std::vector<HostTensor>> outputs = pending.get();
    ASSERT_TRUE(outputs) << outputs.error().describe();
    EXPECT_EQ((*outputs)[0].getDouble(1), 6.0);
  }
}

TEST_F(AsyncTest, RunsOfOneContextRunInSubmissionOrder) {
  std::optional<Context> context;
  ASSERT_TRUE(open(options(), context));
  Expected<Function> addOne = context->load(kAddOne);
  Expected<Function> scale = context->load(kScale);
  ASSERT_TRUE(addOne && scale);
  // ((2 + 1) * 3 + 1) * 3, through two functions, with host runs between.
  HostTensor x = *HostTensor::from<double>({1}, {2});
  Future<DeviceOutputs> a = addOne->runOnDeviceAsync({x});
  Future<DeviceOutputs> b = scale->runOnDeviceAsync({a.output(0)});
  Future<std::vector<HostTensor>> host = scale->runAsync({x});
  Future<DeviceOutputs> c = addOne->runOnDeviceAsync({b.output(0)});
  Future<DeviceOutputs> d = scale->runOnDeviceAsync({c.output(0)});
  Expected<DeviceOutputs> result = d.get();
  ASSERT_TRUE(result) << result.error().describe();
  EXPECT_TRUE(host.ready());
  EXPECT_EQ((*host.get())[0].getDouble(0), 6.0);
  tilec::Expected<HostTensor> value = (*result)[0]->read();
  ASSERT_TRUE(value);
  EXPECT_EQ(value->getDouble(0), 30.0);
  // a's outputs were shared with b: get() still returns them.
  Expected<DeviceOutputs> first = a.get();
  ASSERT_TRUE(first);
  EXPECT_EQ((*first)[0]->shape(), Shape{1});
  EXPECT_FALSE(a.get());
}

TEST_F(AsyncTest, AFailedRunFailsTheRunsChainedToIt) {
  std::optional<Context> context;
  ASSERT_TRUE(open(options(), context));
  Expected<Function> matmul = context->load(kMatmul, "", "mm.tile");
  Expected<Function> scale = context->load(kScale);
  ASSERT_TRUE(matmul && scale);
  // K is 3 in A and 4 in B: the compile in the queue fails.
  Future<DeviceOutputs> product = matmul->runOnDeviceAsync(
      {HostTensor(DType::F32, {2, 3}), HostTensor(DType::F32, {4, 2})});
  Future<DeviceOutputs> scaled = scale->runOnDeviceAsync({product.output(0)});
  Future<DeviceOutputs> beyond = scale->runOnDeviceAsync({scaled.output(5)});
  Expected<DeviceOutputs> result = scaled.get();
  ASSERT_FALSE(result);
  const Error &error = result.error();
  EXPECT_EQ(error.kind(), ErrorKind::Compile);
  EXPECT_EQ(error.message().rfind("input 'X' of 'scale' is the output of a "
                                  "run that failed: compiling 'mm.tile' "
                                  "failed: mm.tile:",
                                  0),
            0u)
      << error.message();
  ASSERT_FALSE(error.diagnostics().empty());
  // Each diagnostic once, though the error wraps the compile's.
  std::string description = error.describe();
  const std::string &firstLine = error.diagnostics()[0].message;
  size_t at = description.find(firstLine);
  ASSERT_NE(at, std::string::npos) << description;
  EXPECT_EQ(description.find(firstLine, at + 1), std::string::npos)
      << description;
  EXPECT_FALSE(beyond.get());
  // The queue goes on after the failures.
  EXPECT_TRUE(scale->runAsync({HostTensor(DType::F32, {2})}).get());
}

} // namespace
} // namespace tilec::jit::testing
