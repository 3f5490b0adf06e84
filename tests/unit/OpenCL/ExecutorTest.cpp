//===- ExecutorTest.cpp - Running hand-written bundles on a device --------===//
//
// Runs on the default device (PoCL's CPU device in CI), with bundles written
// by hand (OpenCL C and the buffer plan), so that the executor is tested
// independently of the compiler.
//
//===----------------------------------------------------------------------===//

#include "OpenCL/OpenCLExecutor.h"

#include "BundleBuilders.h"
#include "DeviceFixture.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace tilec;
using namespace tilec::opencl;

namespace {

using Kind = BundleBuffer::Kind;
using tilec::testing::iota;
using tilec::testing::launch1D;
using tilec::testing::signKernels;

/// C = A + B over 1000 floats, in work-groups of 64 (so the last group has
/// work-items past the end, which the kernel's guard skips).
Bundle vectorAddBundle() {
  Bundle bundle;
  bundle.producer = "hand-written";
  bundle.function = "vadd";
  bundle.kernels = {{"vadd", "vadd.tile:2:3", 1000, 12000}};
  bundle.openclSource = R"(
kernel void vadd(global const float *a, global const float *b,
                 global float *c) {
  size_t i = get_global_id(0);
  if (i < 1000)
    c[i] = a[i] + b[i];
}
)";
  bundle.buffers = {{"A", Kind::Input, DType::F32, {1000}, std::nullopt},
                    {"B", Kind::Input, DType::F32, {1000}, std::nullopt},
                    {"C", Kind::Output, DType::F32, {1000}, std::nullopt}};
  bundle.inputs = {0, 1};
  bundle.outputs = {2};
  bundle.launches = {launch1D(0, 1024, 64, {0, 1, 2})};
  return bundle;
}

/// Two kernels through a temporary and aliases: T = 2 * A (a temporary); V is T
/// seen as [3, 2] (an alias, as a reshape makes); O = V + 1 (the output,
/// written by a second kernel through the alias); R is another alias of T, an
/// output read back from T's storage.
Bundle chainBundle() {
  Bundle bundle;
  bundle.function = "chain";
  bundle.kernels = {{"twice", "chain.tile:2:3", 6, 48},
                    {"plus_one", "chain.tile:3:3", 6, 48}};
  bundle.openclSource = R"(
kernel void twice(global const int *a, global int *t) {
  size_t i = get_global_id(0);
  t[i] = 2 * a[i];
}
kernel void plus_one(global const int *v, global int *o) {
  size_t i = get_global_id(0), j = get_global_id(1);
  o[i * 2 + j] = v[i * 2 + j] + 1;
}
)";
  bundle.buffers = {{"A", Kind::Input, DType::I32, {2, 3}, std::nullopt},
                    {"T", Kind::Temporary, DType::I32, {2, 3}, std::nullopt},
                    {"V", Kind::Temporary, DType::I32, {3, 2}, 1u},
                    {"O", Kind::Output, DType::I32, {3, 2}, std::nullopt},
                    {"R", Kind::Output, DType::I32, {6}, 1u}};
  bundle.inputs = {0};
  bundle.outputs = {3, 4};
  BundleLaunch second;
  second.kernel = 1;
  second.dims = 2;
  second.globalSize = {3, 2, 1};
  second.localSize = {1, 2, 1};
  second.args = {2, 3};
  bundle.launches = {launch1D(0, 6, 1, {0, 1}), second};

  return bundle;
}

class ExecutorTest : public tilec::testing::DeviceFixture {
protected:
  /// Prepares `bundle`, its kernels signed from its launches.
  Expected<std::unique_ptr<OpenCLExecutor>> prepare(Bundle bundle) {
    signKernels(bundle);
    return OpenCLExecutor::create(*device, std::move(bundle), "test.json");
  }

  /// Prepares and runs `bundle`, failing the test on any error.
  BundleRun runOrFail(const Bundle &bundle,
                      const std::vector<HostTensor> &inputs) {
    Expected<std::unique_ptr<OpenCLExecutor>> executor = prepare(bundle);
    EXPECT_TRUE(executor) << executor.error().message();
    if (!executor)
      return {};
    Expected<BundleRun> run = (*executor)->run(inputs);
    EXPECT_TRUE(run) << run.error().message();
    return run ? *run : BundleRun();
  }
};

} // namespace

TEST_F(ExecutorTest, VectorAdd) {
  HostTensor a = iota(DType::F32, {1000}, 0.5), b = iota(DType::F32, {1000}, 2);
  BundleRun run = runOrFail(vectorAddBundle(), {a, b});
  ASSERT_EQ(run.outputs.size(), 1u);
  const HostTensor &c = run.outputs[0];
  ASSERT_EQ(c.shape(), Shape{1000});
  for (int64_t i = 0; i < 1000; ++i)
    ASSERT_EQ(c.getDouble(i), 2.5 * static_cast<double>(i)) << "element " << i;
  ASSERT_EQ(run.launchNs.size(), 1u);
  EXPECT_GT(run.launchNs[0], 0u);
}

TEST_F(ExecutorTest, RunsRepeatedlyAndSharesTheProgramCache) {
  Expected<std::unique_ptr<OpenCLExecutor>> executor =
      prepare(vectorAddBundle());
  ASSERT_TRUE(executor) << executor.error().message();
  for (double scale : {1.0, -3.0}) {
    HostTensor a = iota(DType::F32, {1000}, scale);
    Expected<BundleRun> run = (*executor)->run({a, a});
    ASSERT_TRUE(run) << run.error().message();
    EXPECT_EQ(run->outputs[0].getDouble(999), 2 * 999 * scale);
  }
  Expected<std::unique_ptr<OpenCLExecutor>> second = prepare(vectorAddBundle());
  ASSERT_TRUE(second) << second.error().message();
  EXPECT_EQ(device->cachedProgramCount(), 1u);
}

TEST_F(ExecutorTest, TwoKernelsThroughATemporaryAndAnAlias) {
  Bundle bundle = chainBundle();
  HostTensor a = iota(DType::I32, {2, 3}, 1);
  BundleRun run = runOrFail(bundle, {a});
  ASSERT_EQ(run.outputs.size(), 2u);
  EXPECT_EQ(run.outputs[0].shape(), (Shape{3, 2}));
  EXPECT_EQ(run.outputs[1].shape(), Shape{6});
  for (int64_t i = 0; i < 6; ++i) {
    EXPECT_EQ(run.outputs[0].getInt(i), 2 * i + 1) << "O element " << i;
    EXPECT_EQ(run.outputs[1].getInt(i), 2 * i) << "R element " << i;
  }
  EXPECT_EQ(run.launchNs.size(), 2u);
}

TEST_F(ExecutorTest, OutputsArePoisonedSoSkippedElementsShow) {
  // The kernel writes the even elements only; the odd ones must come back
  // as the poison (NaN, -1), not as zeros or stale data.
  Bundle bundle;
  bundle.function = "evens";
  bundle.kernels = {{"evens", "evens.tile:1:1", 0, 0}};
  bundle.openclSource = R"(
kernel void evens(global float *f, global int *n) {
  size_t i = get_global_id(0);
  if (i % 2 == 0) {
    f[i] = 1.0f;
    n[i] = 7;
  }
}
)";
  bundle.buffers = {{"F", Kind::Output, DType::F32, {10}, std::nullopt},
                    {"N", Kind::Output, DType::I32, {10}, std::nullopt}};
  bundle.outputs = {0, 1};
  bundle.launches = {launch1D(0, 10, 2, {0, 1})};

  Expected<std::unique_ptr<OpenCLExecutor>> executor = prepare(bundle);
  ASSERT_TRUE(executor) << executor.error().message();
  // Twice: the second run is poisoned afresh, not left with the first's
  // results.
  for (int attempt = 0; attempt < 2; ++attempt) {
    Expected<BundleRun> run = (*executor)->run({});
    ASSERT_TRUE(run) << run.error().message();
    for (int64_t i = 0; i < 10; ++i) {
      if (i % 2 == 0) {
        EXPECT_EQ(run->outputs[0].getDouble(i), 1.0);
        EXPECT_EQ(run->outputs[1].getInt(i), 7);
      } else {
        EXPECT_TRUE(std::isnan(run->outputs[0].getDouble(i))) << i;
        EXPECT_EQ(run->outputs[1].getInt(i), -1) << i;
      }
    }
  }
}

TEST_F(ExecutorTest, LaunchesWithoutWorkItemsAreSkipped) {
  Bundle bundle = vectorAddBundle();
  for (BundleBuffer &buffer : bundle.buffers)
    buffer.shape = {0};
  bundle.launches[0].globalSize = {0, 1, 1};
  HostTensor empty(DType::F32, {0});
  BundleRun run = runOrFail(bundle, {empty, empty});
  ASSERT_EQ(run.outputs.size(), 1u);
  EXPECT_EQ(run.outputs[0].numElements(), 0);
  EXPECT_EQ(run.launchNs, std::vector<uint64_t>{0});
}

TEST_F(ExecutorTest, WrongInputsNameTheInput) {
  Expected<std::unique_ptr<OpenCLExecutor>> executor =
      prepare(vectorAddBundle());
  ASSERT_TRUE(executor) << executor.error().message();
  HostTensor good(DType::F32, {1000});
  Expected<BundleRun> shape =
      (*executor)->run({good, HostTensor(DType::F32, {999})});
  ASSERT_FALSE(shape);
  EXPECT_EQ(shape.error().message(),
            "test.json: input 'B' is f32[999] but the bundle expects "
            "f32[1000]");
  Expected<BundleRun> dtype =
      (*executor)->run({HostTensor(DType::F64, {1000}), good});
  ASSERT_FALSE(dtype);
  EXPECT_EQ(dtype.error().message(),
            "test.json: input 'A' is f64[1000] but the bundle expects "
            "f32[1000]");
  Expected<BundleRun> count = (*executor)->run({good});
  ASSERT_FALSE(count);
  EXPECT_EQ(count.error().message(),
            "test.json: the bundle of 'vadd' takes 2 inputs, not 1");
}

TEST_F(ExecutorTest, AKernelThatFailsToBuildIsNamed) {
  Bundle bundle = vectorAddBundle();
  bundle.kernels.push_back({"broken", "vadd.tile:7:5", 0, 0});
  bundle.openclSource += R"(
kernel void broken(global float *x) {
  x[0] = ;
}
)";
  Expected<std::unique_ptr<OpenCLExecutor>> executor = prepare(bundle);
  ASSERT_FALSE(executor);
  const std::string &message = executor.error().message();
  EXPECT_EQ(message.rfind("test.json: kernel 'broken' (vadd.tile:7:5) failed "
                          "to build: building OpenCL program 'vadd'",
                          0),
            0u)
      << message;
  EXPECT_NE(message.find("build log:"), std::string::npos) << message;
  EXPECT_EQ(executor.error().driverCode(), CL_BUILD_PROGRAM_FAILURE);
}

TEST_F(ExecutorTest, ABundleWithoutOpenCLIsRefused) {
  Bundle bundle = vectorAddBundle();
  bundle.openclSource.clear();
  Expected<std::unique_ptr<OpenCLExecutor>> executor = prepare(bundle);
  ASSERT_FALSE(executor);
  EXPECT_EQ(executor.error().message(),
            "test.json: the bundle of 'vadd' has no OpenCL C: it was compiled "
            "without the opencl target");
}

// tilec's printer puts the attributes on the line of `__kernel` and the
// name on the next.
TEST_F(ExecutorTest, AKernelDefinedOverTwoLinesIsNamed) {
  Bundle bundle = vectorAddBundle();
  bundle.kernels.push_back({"broken", "vadd.tile:7:5", 0, 0});
  bundle.openclSource += R"(
__kernel __attribute__((reqd_work_group_size(1, 1, 1)))
void broken(__global float *x) {
  x[0] = ;
}
)";
  Expected<std::unique_ptr<OpenCLExecutor>> executor = prepare(bundle);
  ASSERT_FALSE(executor);
  EXPECT_EQ(
      executor.error().message().rfind(
          "test.json: kernel 'broken' (vadd.tile:7:5) failed to build", 0),
      0u)
      << executor.error().message();
}

TEST_F(ExecutorTest, AMissingEntryPointIsNamed) {
  Bundle bundle = vectorAddBundle();
  bundle.kernels[0].name = "vsub";
  Expected<std::unique_ptr<OpenCLExecutor>> executor = prepare(bundle);
  ASSERT_FALSE(executor);
  EXPECT_EQ(executor.error().message().rfind(
                "test.json: kernel 'vsub' (vadd.tile:2:3): ", 0),
            0u)
      << executor.error().message();
}

TEST_F(ExecutorTest, ALaunchFailureNamesTheKernelAndItsSource) {
  Bundle bundle = vectorAddBundle();
  // The kernel's code takes three arguments, its signature (signed from
  // this launch) two: consistent as far as the bundle tells, so only the
  // driver finds out, at the launch.
  bundle.launches[0].args = {0, 2};
  Expected<std::unique_ptr<OpenCLExecutor>> executor = prepare(bundle);
  ASSERT_TRUE(executor) << executor.error().message();
  HostTensor a(DType::F32, {1000});
  Expected<BundleRun> run = (*executor)->run({a, a});
  ASSERT_FALSE(run);
  EXPECT_EQ(run.error().message().rfind(
                "test.json: kernel 'vadd' (vadd.tile:2:3): ", 0),
            0u)
      << run.error().message();
}

TEST_F(ExecutorTest, AllocationsAreCheckedAgainstTheProfile) {
  // Each 4000-byte buffer is over a 1 KiB largest allocation.
  descriptor.profile.maxAllocBytes = 1024;
  open();
  Expected<std::unique_ptr<OpenCLExecutor>> tooLarge =
      prepare(vectorAddBundle());
  ASSERT_FALSE(tooLarge);
  EXPECT_EQ(tooLarge.error().message().rfind(
                "test.json: allocating buffer 'A' of 4000 bytes", 0),
            0u)
      << tooLarge.error().message();
  EXPECT_NE(tooLarge.error().message().find("largest allocation"),
            std::string::npos);

  // Each fits, all three together (12000 bytes) do not.
  descriptor.profile.maxAllocBytes = 4096;
  descriptor.profile.globalMemBytes = 10000;
  open();
  Expected<std::unique_ptr<OpenCLExecutor>> tooMuch =
      prepare(vectorAddBundle());
  ASSERT_FALSE(tooMuch);
  EXPECT_EQ(tooMuch.error().message(),
            "test.json: the buffers of 'vadd' need 12000 bytes at once even "
            "streamed through the device (12000 in all), more than the 10000 "
            "bytes of global memory of device '" +
                descriptor.profile.name +
                "' (global_mem_bytes of its profile)");
}

namespace {

/// C = 2 * A over 8 floats, both stored as two pieces of 4 (as the compiler
/// splits tensors larger than one allocation): one launch per piece.
Bundle piecewiseDoubleBundle() {
  Bundle bundle;
  bundle.function = "pieces";
  bundle.kernels = {{"twice", "pieces.tile:2:3", 8, 64}};
  bundle.openclSource = R"(
kernel void twice(global const float *a, global float *c) {
  size_t i = get_global_id(0);
  c[i] = 2.0f * a[i];
}
)";
  bundle.buffers = {
      {"A", Kind::Input, DType::F32, {8}, std::nullopt},
      {"C", Kind::Output, DType::F32, {8}, std::nullopt},
      {"A.0", Kind::Piece, DType::F32, {4}, std::nullopt, BufferPiece{0, 0}},
      {"A.1", Kind::Piece, DType::F32, {4}, std::nullopt, BufferPiece{0, 16}},
      {"C.0", Kind::Piece, DType::F32, {4}, std::nullopt, BufferPiece{1, 0}},
      {"C.1", Kind::Piece, DType::F32, {4}, std::nullopt, BufferPiece{1, 16}}};
  bundle.inputs = {0};
  bundle.outputs = {1};
  bundle.launches = {launch1D(0, 4, 4, {2, 4}), launch1D(0, 4, 4, {3, 5})};
  return bundle;
}

/// The tensor's elements as doubles.
std::vector<double> elementsOf(const HostTensor &tensor) {
  std::vector<double> values;
  for (int64_t i = 0; i < tensor.numElements(); ++i)
    values.push_back(tensor.getDouble(i));
  return values;
}

} // namespace

TEST_F(ExecutorTest, OutputsStayOnTheDeviceAndChainWithoutCopies) {
  Expected<std::unique_ptr<OpenCLExecutor>> first = prepare(vectorAddBundle());
  Expected<std::unique_ptr<OpenCLExecutor>> second = prepare(vectorAddBundle());
  ASSERT_TRUE(first && second);
  HostTensor a = iota(DType::F32, {1000}, 1), b = iota(DType::F32, {1000}, 2);
  Expected<std::vector<std::shared_ptr<DeviceTensor>>> sum =
      (*first)->runOnDevice({&a, &b});
  ASSERT_TRUE(sum) << sum.error().message();
  ASSERT_EQ(sum->size(), 1u);
  std::shared_ptr<const DeviceTensor> c = (*sum)[0];
  EXPECT_EQ(c->backend(), Backend::OpenCL);
  EXPECT_EQ(c->shape(), Shape{1000});

  // D = C + A, with C taken from the device.
  Expected<std::vector<std::shared_ptr<DeviceTensor>>> chained =
      (*second)->runOnDevice({c, &a});
  ASSERT_TRUE(chained) << chained.error().message();
  // A later run of the first executor must not overwrite C.
  HostTensor other = iota(DType::F32, {1000}, -7);
  ASSERT_TRUE((*first)->runOnDevice({&other, &other}));

  Expected<HostTensor> kept = c->read();
  Expected<HostTensor> d = (*chained)[0]->read();
  ASSERT_TRUE(kept && d);
  for (int64_t i = 0; i < 1000; ++i) {
    ASSERT_EQ(kept->getDouble(i), 3.0 * static_cast<double>(i)) << i;
    ASSERT_EQ(d->getDouble(i), 4.0 * static_cast<double>(i)) << i;
  }
}

TEST_F(ExecutorTest, OnDeviceOutputsThroughAliasesMatchHostRuns) {
  Expected<std::unique_ptr<OpenCLExecutor>> executor = prepare(chainBundle());
  ASSERT_TRUE(executor) << executor.error().message();
  HostTensor a = iota(DType::I32, {2, 3}, 1);
  Expected<BundleRun> host = (*executor)->run({a});
  Expected<std::vector<std::shared_ptr<DeviceTensor>>> onDevice =
      (*executor)->runOnDevice({&a});
  ASSERT_TRUE(host && onDevice);
  ASSERT_EQ(onDevice->size(), 2u);
  for (size_t o = 0; o < 2; ++o) {
    Expected<HostTensor> read = (*onDevice)[o]->read();
    ASSERT_TRUE(read) << read.error().message();
    EXPECT_EQ(read->shape(), host->outputs[o].shape());
    EXPECT_EQ(elementsOf(*read), elementsOf(host->outputs[o]))
        << "output " << o;
  }
}

TEST_F(ExecutorTest, TensorsStoredAsPiecesChainPieceByPiece) {
  Expected<std::unique_ptr<OpenCLExecutor>> executor =
      prepare(piecewiseDoubleBundle());
  ASSERT_TRUE(executor) << executor.error().message();
  HostTensor a = iota(DType::F32, {8}, 1);
  Expected<std::vector<std::shared_ptr<DeviceTensor>>> twice =
      (*executor)->runOnDevice({&a});
  ASSERT_TRUE(twice) << twice.error().message();
  Expected<std::vector<std::shared_ptr<DeviceTensor>>> fourTimes =
      (*executor)->runOnDevice({(*twice)[0]});
  ASSERT_TRUE(fourTimes) << fourTimes.error().message();
  Expected<HostTensor> result = (*fourTimes)[0]->read();
  ASSERT_TRUE(result) << result.error().message();
  for (int64_t i = 0; i < 8; ++i)
    EXPECT_EQ(result->getDouble(i), 4.0 * static_cast<double>(i)) << i;

  // A whole tensor where pieces are expected, and pieces where a whole
  // tensor is: both refused.
  Bundle whole = vectorAddBundle();
  for (BundleBuffer &buffer : whole.buffers)
    buffer.shape = {8};
  whole.launches = {launch1D(0, 8, 8, {0, 1, 2})};
  Expected<std::unique_ptr<OpenCLExecutor>> add = prepare(whole);
  ASSERT_TRUE(add) << add.error().message();
  Expected<std::vector<std::shared_ptr<DeviceTensor>>> refused =
      (*add)->runOnDevice({(*twice)[0], &a});
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message().find(
                "input 'A' is stored in other pieces than this bundle's"),
            std::string::npos)
      << refused.error().message();
}

TEST_F(ExecutorTest, WrongDeviceInputsNameTheInput) {
  Expected<std::unique_ptr<OpenCLExecutor>> add = prepare(vectorAddBundle());
  Expected<std::unique_ptr<OpenCLExecutor>> chain = prepare(chainBundle());
  ASSERT_TRUE(add && chain);
  HostTensor a = iota(DType::F32, {1000}, 1);
  Expected<std::vector<std::shared_ptr<DeviceTensor>>> sum =
      (*add)->runOnDevice({&a, &a});
  ASSERT_TRUE(sum) << sum.error().message();

  auto expectError = [](const auto &result, const std::string &text) {
    ASSERT_FALSE(result);
    EXPECT_NE(result.error().message().find(text), std::string::npos)
        << result.error().message();
  };
  expectError((*chain)->runOnDevice({(*sum)[0]}),
              "test.json: input 'A' is f32[1000] but the bundle expects "
              "i32[2, 3]");
  expectError((*add)->runOnDevice({&a}), "takes 2 inputs, not 1");
  expectError((*chain)->runOnDevice({&a, &a}), "takes 1 input, not 2");
  expectError((*chain)->run({a, a}), "takes 1 input, not 2");
  expectError((*add)->runOnDevice({std::shared_ptr<const DeviceTensor>(), &a}),
              "input 'A' is a null device tensor");
  HostTensor ints = iota(DType::I32, {1000}, 1);
  expectError((*add)->runOnDevice({&a, &ints}),
              "input 'B' is i32[1000] but the bundle expects f32[1000]");
}

namespace {

/// C = 3 * A over 8 i32 through a temporary T = 2 * A, each tensor stored
/// as two pieces of 4; the launches go piece by piece (twice, plus on
/// piece 0, then on piece 1), and "plus" writes 3 of each piece's 4
/// elements. 96 bytes of storage in all, at most 48 at once when streamed.
Bundle streamedBundle() {
  Bundle bundle;
  bundle.function = "stream";
  bundle.kernels = {{"twice", "stream.tile:2:3", 4, 32},
                    {"plus", "stream.tile:3:3", 3, 36}};
  bundle.openclSource = R"(
kernel void twice(global const int *a, global int *t) {
  size_t i = get_global_id(0);
  t[i] = 2 * a[i];
}
kernel void plus(global const int *t, global const int *a, global int *c) {
  size_t i = get_global_id(0);
  c[i] = t[i] + a[i];
}
)";
  bundle.buffers = {{"A", Kind::Input, DType::I32, {8}, std::nullopt},
                    {"C", Kind::Output, DType::I32, {8}, std::nullopt},
                    {"T", Kind::Temporary, DType::I32, {8}, std::nullopt}};
  for (unsigned whole = 0; whole < 3; ++whole)
    for (uint64_t piece = 0; piece < 2; ++piece)
      bundle.buffers.push_back(
          {bundle.buffers[whole].name + "." + std::to_string(piece),
           Kind::Piece,
           DType::I32,
           {4},
           std::nullopt,
           BufferPiece{whole, piece * 16}});
  // A.p is 3 + p, C.p is 5 + p, T.p is 7 + p.
  bundle.inputs = {0};
  bundle.outputs = {1};
  bundle.launches = {launch1D(0, 4, 1, {3, 7}), launch1D(1, 3, 1, {7, 3, 5}),
                     launch1D(0, 4, 1, {4, 8}), launch1D(1, 3, 1, {8, 4, 6})};
  return bundle;
}

} // namespace

TEST_F(ExecutorTest, ABundleLargerThanTheDeviceStreamsThroughIt) {
  // 48 of the 96 bytes: each piece is on the device only while the
  // launches that take it run.
  descriptor.profile.globalMemBytes = 48;
  open();
  Expected<std::unique_ptr<OpenCLExecutor>> executor =
      prepare(streamedBundle());
  ASSERT_TRUE(executor) << executor.error().message();
  HostTensor a = iota(DType::I32, {8}, 1);
  for (int repeat = 0; repeat < 2; ++repeat) {
    Expected<BundleRun> run = (*executor)->run({a});
    ASSERT_TRUE(run) << run.error().message();
    EXPECT_EQ(run->peakDeviceBytes, 48u);
    for (int64_t i = 0; i < 8; ++i)
      EXPECT_EQ(run->outputs[0].getDouble(i), i % 4 == 3 ? -1.0 : 3.0 * i) << i;
    EXPECT_GT(run->launchNs[3], 0u);
  }
  // Kept on the device, A and C would stay whole beside a piece of T.
  Expected<std::vector<std::shared_ptr<DeviceTensor>>> refused =
      (*executor)->runOnDevice({&a});
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().message(),
            "test.json: the buffers of 'stream' need 80 bytes at once even "
            "streamed through the device with its inputs and outputs "
            "resident (96 in all), more than the 48 bytes of global memory "
            "of device '" +
                descriptor.profile.name +
                "' (global_mem_bytes of its profile)");

  descriptor.profile.globalMemBytes = 80;
  open();
  Expected<std::unique_ptr<OpenCLExecutor>> resident =
      prepare(streamedBundle());
  ASSERT_TRUE(resident) << resident.error().message();
  Expected<std::vector<std::shared_ptr<DeviceTensor>>> kept =
      (*resident)->runOnDevice({&a});
  ASSERT_TRUE(kept) << kept.error().message();
  Expected<HostTensor> c = (*kept)[0]->read();
  ASSERT_TRUE(c) << c.error().message();
  for (int64_t i = 0; i < 8; ++i)
    EXPECT_EQ(c->getDouble(i), i % 4 == 3 ? -1.0 : 3.0 * i) << i;
}

TEST_F(ExecutorTest, AnOutputHeldAcrossLaterRunsKeepsItsValues) {
  // The loop of a training step: each run's output is the next run's
  // input, and the previous state is dropped, so that later runs reuse its
  // storage. An output held throughout must never be among it.
  Expected<std::unique_ptr<OpenCLExecutor>> executor =
      prepare(vectorAddBundle());
  ASSERT_TRUE(executor) << executor.error().message();
  HostTensor a = iota(DType::F32, {1000}, 1);
  Expected<std::vector<std::shared_ptr<DeviceTensor>>> held =
      (*executor)->runOnDevice({&a, &a});
  ASSERT_TRUE(held) << held.error().message();
  std::shared_ptr<const DeviceTensor> state = (*held)[0];
  for (int step = 3; step <= 8; ++step) {
    Expected<std::vector<std::shared_ptr<DeviceTensor>>> next =
        (*executor)->runOnDevice({state, &a});
    ASSERT_TRUE(next) << next.error().message();
    state = (*next)[0];
    Expected<HostTensor> values = state->read();
    ASSERT_TRUE(values) << values.error().message();
    for (int64_t i = 0; i < 1000; ++i)
      ASSERT_EQ(values->getDouble(i), step * static_cast<double>(i)) << i;
  }
  Expected<HostTensor> first = (*held)[0]->read();
  ASSERT_TRUE(first) << first.error().message();
  for (int64_t i = 0; i < 1000; ++i)
    ASSERT_EQ(first->getDouble(i), 2.0 * static_cast<double>(i)) << i;
}

TEST_F(ExecutorTest, AnOutputThatIsAHostInputReshapedKeepsItsValues) {
  // R is A seen as [10, 100], as a reshape of an input makes: its device
  // tensor holds A's storage, which a later run's upload must not be.
  Bundle bundle = vectorAddBundle();
  bundle.buffers.push_back({"R", Kind::Output, DType::F32, {10, 100}, 0u});
  bundle.outputs = {2, 3};
  Expected<std::unique_ptr<OpenCLExecutor>> executor = prepare(bundle);
  ASSERT_TRUE(executor) << executor.error().message();
  HostTensor a = iota(DType::F32, {1000}, 1), b = iota(DType::F32, {1000}, -3);
  Expected<std::vector<std::shared_ptr<DeviceTensor>>> first =
      (*executor)->runOnDevice({&a, &a});
  ASSERT_TRUE(first) << first.error().message();
  Expected<std::vector<std::shared_ptr<DeviceTensor>>> second =
      (*executor)->runOnDevice({&b, &a});
  ASSERT_TRUE(second) << second.error().message();
  Expected<HostTensor> kept = (*first)[1]->read();
  Expected<HostTensor> later = (*second)[1]->read();
  ASSERT_TRUE(kept && later);
  EXPECT_EQ(kept->shape(), (Shape{10, 100}));
  for (int64_t i = 0; i < 1000; ++i) {
    ASSERT_EQ(kept->getDouble(i), static_cast<double>(i)) << i;
    ASSERT_EQ(later->getDouble(i), -3.0 * static_cast<double>(i)) << i;
  }
}
