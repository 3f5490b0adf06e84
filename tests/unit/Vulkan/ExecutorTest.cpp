//===- ExecutorTest.cpp - Running hand-written bundles through Vulkan -----===//
//
// Runs on the default Vulkan device (lavapipe in CI) under the validation
// layers, with bundles written by hand around the SPIR-V of Inputs/, so
// that the executor is tested independently of the compiler.
//
//===----------------------------------------------------------------------===//

#include "Vulkan/VulkanExecutor.h"

#include "BundleBuilders.h"
#include "DeviceFixture.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

using namespace tilec;
using namespace tilec::vulkan;

namespace {

using Kind = BundleBuffer::Kind;
using tilec::testing::iota;
using tilec::testing::launch1D;
using tilec::testing::signKernels;

/// C = A + B over `size` floats by kernel "vadd", which writes the first
/// 1000, in work-groups of 64.
Bundle vectorAddBundle(int64_t size = 1000) {
  Bundle bundle;
  bundle.producer = "hand-written";
  bundle.function = "vadd";
  bundle.kernels = {{"vadd", "vadd.tile:2:3", 1000, 12000,
                     tilec::testing::readTestShader("vadd"), ""}};
  bundle.buffers = {{"A", Kind::Input, DType::F32, {size}, std::nullopt},
                    {"B", Kind::Input, DType::F32, {size}, std::nullopt},
                    {"C", Kind::Output, DType::F32, {size}, std::nullopt}};
  bundle.inputs = {0, 1};
  bundle.outputs = {2};
  bundle.launches = {launch1D(0, 1024, 64, {0, 1, 2})};
  return bundle;
}

/// vectorAddBundle(size) with A, B and C stored as two pieces of size / 2
/// each, which kernel "vhalf" adds piece by piece (its first 500 elements).
Bundle vectorAddInPiecesBundle(int64_t size) {
  Bundle bundle = vectorAddBundle(size);
  bundle.kernels.push_back(
      {"vhalf", "vadd.tile:2:3", 500, 6000, bundle.kernels[0].spirv, ""});
  int64_t half = size / 2;
  for (unsigned whole = 0; whole < 3; ++whole)
    for (uint64_t piece = 0; piece < 2; ++piece)
      bundle.buffers.push_back(
          {bundle.buffers[whole].name + std::to_string(piece),
           Kind::Piece,
           DType::F32,
           {half},
           std::nullopt,
           BufferPiece{whole, piece * uint64_t(half) * sizeof(float)}});
  bundle.launches = {launch1D(1, 512, 64, {3, 5, 7}),
                     launch1D(1, 512, 64, {4, 6, 8})};
  return bundle;
}

class ExecutorTest : public tilec::testing::VulkanFixture {
protected:
  /// Prepares `bundle`, its kernels signed from its launches.
  Expected<std::unique_ptr<VulkanExecutor>> prepare(Bundle bundle) {
    signKernels(bundle);
    return VulkanExecutor::create(*device, std::move(bundle), "test.json");
  }

  /// The error of preparing `bundle`, which must fail.
  std::string prepareError(const Bundle &bundle) {
    Expected<std::unique_ptr<VulkanExecutor>> executor = prepare(bundle);
    EXPECT_FALSE(executor);
    return executor ? std::string() : executor.error().message();
  }
};

TEST_F(ExecutorTest, RunsAndTimesAKernel) {
  Expected<std::unique_ptr<VulkanExecutor>> executor =
      prepare(vectorAddBundle());
  ASSERT_TRUE(executor) << executor.error().message();
  HostTensor a = iota(DType::F32, {1000}, 1), b = iota(DType::F32, {1000}, 2);
  for (int repeat = 0; repeat < 2; ++repeat) {
    Expected<BundleRun> run = (*executor)->run({a, b});
    ASSERT_TRUE(run) << run.error().message();
    ASSERT_EQ(run->outputs.size(), 1u);
    for (int64_t i = 0; i < 1000; ++i)
      ASSERT_EQ(run->outputs[0].getDouble(i), 3.0 * static_cast<double>(i));
    ASSERT_EQ(run->launchNs.size(), 1u);
    EXPECT_GT(run->launchNs[0], 0u);
  }
}

TEST_F(ExecutorTest, UnwrittenElementsAreUnwrittenPoison) {
  // The kernel writes 1000 of 1024 elements: the rest read as all-ones
  // bytes, a NaN, in every run.
  Bundle bundle = vectorAddBundle(1024);
  Expected<std::unique_ptr<VulkanExecutor>> executor = prepare(bundle);
  ASSERT_TRUE(executor) << executor.error().message();
  HostTensor a = iota(DType::F32, {1024}, 1);
  for (int repeat = 0; repeat < 2; ++repeat) {
    Expected<BundleRun> run = (*executor)->run({a, a});
    ASSERT_TRUE(run) << run.error().message();
    uint32_t bits = 0;
    std::memcpy(&bits, run->outputs[0].data() + 1000 * 4, 4);
    EXPECT_EQ(bits, 0xFFFFFFFFu);
    EXPECT_EQ(run->outputs[0].getDouble(999), 2.0 * 999);
  }
}

TEST_F(ExecutorTest, TensorsStoredAsPieces) {
  // A, B and C (1000 floats) are stored as two pieces of 500 each, and
  // "vhalf" adds the matching pieces.
  Bundle bundle = vectorAddInPiecesBundle(1000);
  Expected<std::unique_ptr<VulkanExecutor>> executor = prepare(bundle);
  ASSERT_TRUE(executor) << executor.error().message();
  HostTensor a = iota(DType::F32, {1000}, 1), b = iota(DType::F32, {1000}, 2);
  Expected<BundleRun> run = (*executor)->run({a, b});
  ASSERT_TRUE(run) << run.error().message();
  for (int64_t i = 0; i < 1000; ++i)
    ASSERT_EQ(run->outputs[0].getDouble(i), 3.0 * static_cast<double>(i)) << i;
  EXPECT_GT(run->launchNs[0], 0u);
  EXPECT_GT(run->launchNs[1], 0u);

  // On the device, the pieces travel together.
  Expected<std::vector<std::shared_ptr<DeviceTensor>>> onDevice =
      (*executor)->runOnDevice({&a, &b});
  ASSERT_TRUE(onDevice) << onDevice.error().message();
  Expected<std::vector<std::shared_ptr<DeviceTensor>>> chained =
      (*executor)->runOnDevice({(*onDevice)[0], &a});
  ASSERT_TRUE(chained) << chained.error().message();
  Expected<HostTensor> result = (*chained)[0]->read();
  ASSERT_TRUE(result) << result.error().message();
  EXPECT_EQ(result->getDouble(999), 4.0 * 999);

  // A whole tensor where pieces are expected is refused.
  Expected<std::unique_ptr<VulkanExecutor>> whole = prepare(vectorAddBundle());
  ASSERT_TRUE(whole) << whole.error().message();
  Expected<std::vector<std::shared_ptr<DeviceTensor>>> unsplit =
      (*whole)->runOnDevice({&a, &a});
  ASSERT_TRUE(unsplit) << unsplit.error().message();
  Expected<std::vector<std::shared_ptr<DeviceTensor>>> refused =
      (*executor)->runOnDevice({(*unsplit)[0], &a});
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().message(),
            "test.json: input 'A' is stored in other pieces than this "
            "bundle's");
}

TEST_F(ExecutorTest, AliasesShareTheirTargetsStorage) {
  // D is C reshaped.
  Bundle bundle = vectorAddBundle();
  bundle.buffers.push_back(
      {"D", Kind::Output, DType::F32, {10, 100}, 2u, std::nullopt});
  bundle.outputs = {2, 3};
  Expected<std::unique_ptr<VulkanExecutor>> executor = prepare(bundle);
  ASSERT_TRUE(executor) << executor.error().message();
  HostTensor a = iota(DType::F32, {1000}, 1);
  Expected<BundleRun> run = (*executor)->run({a, a});
  ASSERT_TRUE(run) << run.error().message();
  ASSERT_EQ(run->outputs.size(), 2u);
  EXPECT_EQ(run->outputs[1].shape(), (Shape{10, 100}));
  EXPECT_EQ(std::memcmp(run->outputs[0].data(), run->outputs[1].data(), 4000),
            0);
  EXPECT_EQ(run->outputs[1].getDouble(999), 2.0 * 999);
}

TEST_F(ExecutorTest, LaunchesWithoutWorkAreSkipped) {
  // A kernel has one geometry: the empty launch is of a second kernel of
  // the same module.
  Bundle bundle = vectorAddBundle();
  bundle.kernels.push_back(bundle.kernels[0]);
  bundle.launches.insert(bundle.launches.begin(),
                         launch1D(1, 0, 64, {0, 1, 2}));
  Expected<std::unique_ptr<VulkanExecutor>> executor = prepare(bundle);
  ASSERT_TRUE(executor) << executor.error().message();
  HostTensor a = iota(DType::F32, {1000}, 1);
  Expected<BundleRun> run = (*executor)->run({a, a});
  ASSERT_TRUE(run) << run.error().message();
  EXPECT_EQ(run->launchNs[0], 0u);
  EXPECT_GT(run->launchNs[1], 0u);
}

TEST_F(ExecutorTest, DeviceTensorsChainWithoutCopies) {
  Expected<std::unique_ptr<VulkanExecutor>> executor =
      prepare(vectorAddBundle());
  ASSERT_TRUE(executor) << executor.error().message();
  HostTensor a = iota(DType::F32, {1000}, 1);
  Expected<std::vector<std::shared_ptr<DeviceTensor>>> twice =
      (*executor)->runOnDevice({&a, &a});
  ASSERT_TRUE(twice) << twice.error().message();
  Expected<std::vector<std::shared_ptr<DeviceTensor>>> fourTimes =
      (*executor)->runOnDevice({(*twice)[0], (*twice)[0]});
  ASSERT_TRUE(fourTimes) << fourTimes.error().message();
  EXPECT_EQ((*fourTimes)[0]->backend(), Backend::Vulkan);
  // The first run's output stays valid.
  Expected<HostTensor> first = (*twice)[0]->read();
  Expected<HostTensor> second = (*fourTimes)[0]->read();
  ASSERT_TRUE(first && second);
  for (int64_t i = 0; i < 1000; ++i) {
    ASSERT_EQ(first->getDouble(i), 2.0 * static_cast<double>(i));
    ASSERT_EQ(second->getDouble(i), 4.0 * static_cast<double>(i));
  }

  // A tensor of another device (another Device object) is refused.
  Expected<std::unique_ptr<Device>> other = Device::open(descriptor);
  ASSERT_TRUE(other) << other.error().message();
  Bundle signedBundle = vectorAddBundle();
  signKernels(signedBundle);
  Expected<std::unique_ptr<VulkanExecutor>> elsewhere =
      VulkanExecutor::create(**other, signedBundle, "other.json");
  ASSERT_TRUE(elsewhere) << elsewhere.error().message();
  Expected<std::vector<std::shared_ptr<DeviceTensor>>> foreign =
      (*elsewhere)->runOnDevice({(*twice)[0], &a});
  ASSERT_FALSE(foreign);
  EXPECT_EQ(foreign.error().message(),
            "other.json: input 'A' is a tensor of another vulkan device");
  elsewhere->reset();

  // Inputs that do not fit are named.
  Expected<std::vector<std::shared_ptr<DeviceTensor>>> count =
      (*executor)->runOnDevice({&a});
  ASSERT_FALSE(count);
  EXPECT_EQ(count.error().message(),
            "test.json: the bundle of 'vadd' takes 2 inputs, not 1");
  HostTensor ints = iota(DType::I32, {1000}, 1);
  Expected<std::vector<std::shared_ptr<DeviceTensor>>> dtype =
      (*executor)->runOnDevice({(*twice)[0], &ints});
  ASSERT_FALSE(dtype);
  EXPECT_EQ(dtype.error().message(),
            "test.json: input 'B' is i32[1000] but the bundle expects "
            "f32[1000]");
}

TEST_F(ExecutorTest, ABundleWithoutSpirvIsRefused) {
  Bundle bundle = vectorAddBundle();
  bundle.kernels[0].spirv.clear();
  EXPECT_EQ(prepareError(bundle),
            "test.json: the bundle of 'vadd' has no SPIR-V: it was compiled "
            "without the spirv target");
}

TEST_F(ExecutorTest, BadSpirvIsRefused) {
  Bundle bundle = vectorAddBundle();
  bundle.kernels[0].spirv.resize(3);
  EXPECT_EQ(prepareError(bundle),
            "test.json: kernel 'vadd' (vadd.tile:2:3): the SPIR-V of 'vadd' "
            "is not a SPIR-V module (no SPIR-V header)");
}

TEST_F(ExecutorTest, MissingEntryPointNamesTheKernel) {
  Bundle bundle = vectorAddBundle();
  bundle.kernels[0].name = "vsub";
  std::string message = prepareError(bundle);
  EXPECT_EQ(message.rfind("test.json: kernel 'vsub' (vadd.tile:2:3): ", 0), 0u)
      << message;
  EXPECT_NE(message.find("has no such entry point (it has 'vadd', 'vhalf')"),
            std::string::npos)
      << message;
}

TEST_F(ExecutorTest, LaunchGeometryMustMatchTheModule) {
  Bundle bundle = vectorAddBundle();
  bundle.launches = {launch1D(0, 1024, 32, {0, 1, 2})};
  EXPECT_EQ(prepareError(bundle),
            "test.json: kernel 'vadd' (vadd.tile:2:3), launch #0: the local "
            "size 32 in dimension 0 differs from the work-group size fixed in "
            "the SPIR-V, 64x1x1");
  bundle.launches = {launch1D(0, 1000, 64, {0, 1, 2})};
  // Checked with the bundle's consistency, before the module is looked at.
  EXPECT_EQ(prepareError(bundle),
            "test.json: inconsistent bundle: launches[0].global_size: [1000] "
            "is not a multiple of the local size [64]");
}

TEST_F(ExecutorTest, BuffersBeyondTheProfileAreRefused) {
  descriptor.profile.maxAllocBytes = 2000;
  open();
  std::string message = prepareError(vectorAddBundle());
  EXPECT_NE(message.find("allocating buffer 'A' of 4000 bytes on device"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("(max_alloc_bytes of its profile)"),
            std::string::npos);

  descriptor.profile.maxAllocBytes = 4000;
  descriptor.profile.globalMemBytes = 10000;
  open();
  EXPECT_EQ(prepareError(vectorAddBundle()),
            "test.json: the buffers of 'vadd' need 12000 bytes at once even "
            "streamed through the device (12000 in all), more than the 10000 "
            "bytes of global memory of device '" +
                descriptor.profile.name +
                "' (global_mem_bytes of its profile)");
}

TEST_F(ExecutorTest, ABundleLargerThanTheDeviceStreamsThroughIt) {
  // A, B and C (1024 floats) are stored as two pieces of 512; "vhalf" adds
  // the first 500 elements of matching pieces. 6144 of the 12288 bytes
  // hold one launch's pieces: each is on the device only for its launch.
  descriptor.profile.globalMemBytes = 6144;
  open();
  Bundle bundle = vectorAddInPiecesBundle(1024);
  Expected<std::unique_ptr<VulkanExecutor>> executor = prepare(bundle);
  ASSERT_TRUE(executor) << executor.error().message();
  HostTensor a = iota(DType::F32, {1024}, 1), b = iota(DType::F32, {1024}, 2);
  for (int repeat = 0; repeat < 2; ++repeat) {
    Expected<BundleRun> run = (*executor)->run({a, b});
    ASSERT_TRUE(run) << run.error().message();
    EXPECT_EQ(run->peakDeviceBytes, 6144u);
    for (int64_t i = 0; i < 1024; ++i) {
      if (i % 512 < 500) {
        ASSERT_EQ(run->outputs[0].getDouble(i), 3.0 * static_cast<double>(i))
            << i;
        continue;
      }
      uint32_t bits = 0;
      std::memcpy(&bits, run->outputs[0].data() + 4 * i, 4);
      ASSERT_EQ(bits, 0xFFFFFFFFu) << i;
    }
    EXPECT_GT(run->launchNs[1], 0u);
  }
  // Kept on the device, the inputs and the output would stay whole.
  Expected<std::vector<std::shared_ptr<DeviceTensor>>> refused =
      (*executor)->runOnDevice({&a, &b});
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message().find(
                "need 12288 bytes at once even streamed through the device "
                "with its inputs and outputs resident"),
            std::string::npos)
      << refused.error().message();
}

/// C = (A + B) + A over 1024 floats through a temporary T = A + B, each
/// tensor stored as two pieces of 512; the launches go piece by piece
/// ("vhalf" adds the first 500 elements). 16384 bytes of storage in all,
/// 6144 at once when streamed, 14336 with A, B and C resident.
Bundle streamedBundle() {
  Bundle bundle;
  bundle.producer = "hand-written";
  bundle.function = "stream";
  bundle.kernels = {{"vhalf", "stream.tile:2:3", 500, 6000,
                     tilec::testing::readTestShader("vadd"), ""}};
  bundle.buffers = {{"A", Kind::Input, DType::F32, {1024}, std::nullopt},
                    {"B", Kind::Input, DType::F32, {1024}, std::nullopt},
                    {"C", Kind::Output, DType::F32, {1024}, std::nullopt},
                    {"T", Kind::Temporary, DType::F32, {1024}, std::nullopt}};
  for (unsigned whole = 0; whole < 4; ++whole)
    for (uint64_t piece = 0; piece < 2; ++piece)
      bundle.buffers.push_back(
          {bundle.buffers[whole].name + "." + std::to_string(piece),
           Kind::Piece,
           DType::F32,
           {512},
           std::nullopt,
           BufferPiece{whole, piece * 2048}});
  // A.p is 4 + p, B.p is 6 + p, C.p is 8 + p, T.p is 10 + p.
  bundle.inputs = {0, 1};
  bundle.outputs = {2};
  bundle.launches = {
      launch1D(0, 512, 64, {4, 6, 10}), launch1D(0, 512, 64, {10, 4, 8}),
      launch1D(0, 512, 64, {5, 7, 11}), launch1D(0, 512, 64, {11, 5, 9})};
  return bundle;
}

/// Expects `tensor` to hold `scale * i` at the elements "vhalf" writes (the
/// first 500 of each piece of 512) and poison at the others.
void expectHalvesWritten(const HostTensor &tensor, double scale) {
  for (int64_t i = 0; i < tensor.numElements(); ++i) {
    if (i % 512 < 500) {
      ASSERT_EQ(tensor.getDouble(i), scale * static_cast<double>(i)) << i;
      continue;
    }
    uint32_t bits = 0;
    std::memcpy(&bits, tensor.data() + 4 * i, 4);
    ASSERT_EQ(bits, 0xFFFFFFFFu) << i;
  }
}

TEST_F(ExecutorTest, AStreamedBundleKeepsItsResultsOnTheDevice) {
  // Too large for the device whole (16384 bytes), a device-resident run
  // streams T's pieces and keeps A, B and C throughout; a device tensor
  // given as an input is bound in place, as in a run that fits whole.
  descriptor.profile.globalMemBytes = 14336;
  open();
  Expected<std::unique_ptr<VulkanExecutor>> executor =
      prepare(streamedBundle());
  ASSERT_TRUE(executor) << executor.error().message();
  HostTensor a = iota(DType::F32, {1024}, 1), b = iota(DType::F32, {1024}, 2);
  Expected<BundleRun> run = (*executor)->run({a, b});
  ASSERT_TRUE(run) << run.error().message();
  EXPECT_EQ(run->peakDeviceBytes, 6144u);
  expectHalvesWritten(run->outputs[0], 4);
  for (uint64_t launchNs : run->launchNs)
    EXPECT_GT(launchNs, 0u);

  Expected<std::vector<std::shared_ptr<DeviceTensor>>> kept =
      (*executor)->runOnDevice({&a, &b});
  ASSERT_TRUE(kept) << kept.error().message();
  Expected<std::vector<std::shared_ptr<DeviceTensor>>> chained =
      (*executor)->runOnDevice({(*kept)[0], &b});
  ASSERT_TRUE(chained) << chained.error().message();
  Expected<HostTensor> first = (*kept)[0]->read();
  ASSERT_TRUE(first) << first.error().message();
  expectHalvesWritten(*first, 4);
  Expected<HostTensor> second = (*chained)[0]->read();
  ASSERT_TRUE(second) << second.error().message();
  expectHalvesWritten(*second, 10);
}

TEST_F(ExecutorTest, WrongInputsNameTheInput) {
  // The checks and messages of OpenCL's executor: the run skeleton is one.
  Expected<std::unique_ptr<VulkanExecutor>> executor =
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
  Expected<std::vector<std::shared_ptr<DeviceTensor>>> null =
      (*executor)->runOnDevice(
          {&good, static_cast<const HostTensor *>(nullptr)});
  ASSERT_FALSE(null);
  EXPECT_EQ(null.error().message(),
            "test.json: input 'B' is a null host tensor but the bundle "
            "expects f32[1000]");
}

/// "dadd" over 8 doubles and "fcopy" over 8 floats, one bundle each.
Bundle f64Bundle(bool useDoubles) {
  Bundle bundle;
  bundle.producer = "hand-written";
  bundle.function = useDoubles ? "dadd" : "fcopy";
  bundle.kernels = {{bundle.function, "f64.tile:1:1", 8, 8,
                     tilec::testing::readTestShader("f64"), ""}};
  DType dtype = useDoubles ? DType::F64 : DType::F32;
  bundle.buffers = {
      {"A", Kind::Input, dtype, {8}, std::nullopt},
      {"B", useDoubles ? Kind::Input : Kind::Output, dtype, {8}, std::nullopt}};
  bundle.inputs = {0};
  bundle.outputs = {1};
  if (useDoubles) {
    bundle.buffers.push_back({"C", Kind::Output, dtype, {8}, std::nullopt});
    bundle.inputs = {0, 1};
    bundle.outputs = {2};
  }
  bundle.launches = {launch1D(0, 8, 8,
                              useDoubles ? std::vector<unsigned>{0, 1, 2}
                                         : std::vector<unsigned>{0, 1})};
  return bundle;
}

TEST_F(ExecutorTest, FeaturesTheProfileDeniesNameTheKernel) {
  {
    Expected<std::unique_ptr<VulkanExecutor>> doubles =
        prepare(f64Bundle(true));
    ASSERT_TRUE(doubles) << doubles.error().message();
    HostTensor a = iota(DType::F64, {8}, 0.5);
    Expected<BundleRun> run = (*doubles)->run({a, a});
    ASSERT_TRUE(run) << run.error().message();
    EXPECT_EQ(run->outputs[0].getDouble(7), 7.0);
  }

  descriptor.profile.supportsFp64 = false;
  open();
  std::string message = prepareError(f64Bundle(true));
  EXPECT_EQ(message.rfind("test.json: kernel 'dadd' (f64.tile:1:1): ", 0), 0u)
      << message;
  EXPECT_NE(message.find("it needs the Vulkan feature shaderFloat64, which "
                         "the device's profile denies (supports_fp64 is "
                         "false)"),
            std::string::npos)
      << message;
  // The module's other kernel uses no f64 and still runs.
  Expected<std::unique_ptr<VulkanExecutor>> floats = prepare(f64Bundle(false));
  ASSERT_TRUE(floats) << floats.error().message();
  HostTensor a = iota(DType::F32, {8}, 1);
  Expected<BundleRun> run = (*floats)->run({a});
  ASSERT_TRUE(run) << run.error().message();
  EXPECT_EQ(run->outputs[0].getDouble(5), 5.0);
}

} // namespace

TEST_F(ExecutorTest, AnOutputHeldAcrossLaterRunsKeepsItsValues) {
  // The loop of a training step: each run's output is the next run's
  // input, and the previous state is dropped, so that later runs reuse its
  // storage. An output held throughout must never be among it.
  Expected<std::unique_ptr<VulkanExecutor>> executor =
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
  bundle.buffers.push_back(
      {"R", Kind::Output, DType::F32, {10, 100}, 0u, std::nullopt});
  bundle.outputs = {2, 3};
  Expected<std::unique_ptr<VulkanExecutor>> executor = prepare(bundle);
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
