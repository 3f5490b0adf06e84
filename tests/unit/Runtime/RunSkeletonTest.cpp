//===- RunSkeletonTest.cpp - The run every executor shares, step by step --===//
//
// Drives the run skeleton (runtime/lib/RunSkeleton.h) with a fake backend
// whose steps work on host memory and log themselves, so that the order of
// a run's steps, which both the OpenCL and the Vulkan executor follow, is
// tested without a device: what is uploaded and poisoned, when launches
// run, that storage is released only after a synchronisation, and which
// storage device-resident runs reuse.
//
//===----------------------------------------------------------------------===//

#include "RunSkeleton.h"

#include "BundleBuilders.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <optional>

using namespace tilec;

namespace {

using Kind = BundleBuffer::Kind;
using tilec::testing::iota;
using tilec::testing::launch1D;
using tilec::testing::signKernels;

/// Device memory on the host; its release is logged.
struct FakeBuffer {
  FakeBuffer(std::vector<std::string> &log, std::string name, uint64_t bytes)
      : log(log), name(std::move(name)), bytes(bytes) {}
  ~FakeBuffer() { log.push_back("free " + name); }
  uint64_t size() const { return bytes.size(); }

  std::vector<std::string> &log;
  std::string name;
  /// Written through the const storage that a run binds, as a device's
  /// memory is.
  mutable std::vector<uint8_t> bytes;
};

struct FakeDevice {
  const DeviceProfile &profile() const { return deviceProfile; }
  Status read(const FakeBuffer &buffer, void *data, uint64_t bytes) const {
    std::memcpy(data, buffer.bytes.data(), bytes);
    return Status::success();
  }

  DeviceProfile deviceProfile;
  std::vector<std::string> log;
};

/// The skeleton with steps that log themselves; each launch copies its
/// first argument into its last.
class FakeRunner final
    : public RunSkeleton<Backend::OpenCL, FakeDevice, FakeBuffer> {
public:
  FakeRunner(FakeDevice &device, Bundle bundle)
      : RunSkeleton(device, std::move(bundle), "fake.json") {}
  using RunSkeleton::allocateStorage;
  /// A launch that fails, if any.
  std::optional<size_t> failLaunch;

private:
  Expected<std::shared_ptr<const FakeBuffer>> allocate(unsigned part) override {
    const BundleBuffer &buffer = bundle().buffers[part];
    device.log.push_back("allocate " + buffer.name);
    return std::make_shared<const FakeBuffer>(device.log, buffer.name,
                                              bufferBytes(buffer));
  }
  Status write(const Storage &bound, unsigned part,
               const uint8_t *data) override {
    device.log.push_back("write " + bound[part]->name);
    std::memcpy(bound[part]->bytes.data(), data, bound[part]->size());
    return Status::success();
  }
  Status fill(const Storage &bound, unsigned part) override {
    uint8_t byte = plan->fillByte(part);
    device.log.push_back((byte ? "poison " : "zero ") + bound[part]->name);
    std::fill(bound[part]->bytes.begin(), bound[part]->bytes.end(), byte);
    return Status::success();
  }
  Status launch(const Storage &bound, size_t index) override {
    if (failLaunch == index)
      return Error("launch " + std::to_string(index) + " failed");
    device.log.push_back("launch " + std::to_string(index));
    const std::vector<unsigned> &args = bundle().launches[index].args;
    bound[plan->storageOwner(args.back())]->bytes =
        bound[plan->storageOwner(args.front())]->bytes;
    launched[index] = true;
    return Status::success();
  }
  Status read(const Storage &bound, unsigned part, uint8_t *data) override {
    const FakeBuffer &buffer = *bound[plan->storageOwner(part)];
    device.log.push_back("read " + buffer.name);
    std::memcpy(data, buffer.bytes.data(), buffer.size());
    return Status::success();
  }
  Status synchronise(const Storage &) override {
    device.log.push_back("synchronise");
    return Status::success();
  }
  Expected<std::vector<uint64_t>> launchTimes() override {
    std::vector<uint64_t> launchNs;
    for (bool ran : launched)
      launchNs.push_back(ran ? 1 : 0);
    return launchNs;
  }

  std::vector<bool> launched = std::vector<bool>(bundle().launches.size());
};

/// C = A over 8 i32 through a temporary T, each tensor stored as two
/// pieces of 4, launched piece by piece. 96 bytes of storage in all, 32 at
/// once when streamed.
Bundle copyBundle() {
  Bundle bundle;
  bundle.function = "copy";
  bundle.kernels = {{"copy", "copy.tile:2:3", 4, 32}};
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
  bundle.launches = {launch1D(0, 4, 1, {3, 7}), launch1D(0, 4, 1, {7, 5}),
                     launch1D(0, 4, 1, {4, 8}), launch1D(0, 4, 1, {8, 6})};
  signKernels(bundle);
  return bundle;
}

/// C = A over 8 i32 by one launch, and R, A seen as [2, 4]: an output that
/// is an input reshaped. 64 bytes of storage.
Bundle reshapeBundle() {
  Bundle bundle;
  bundle.function = "reshape";
  bundle.kernels = {{"copy", "reshape.tile:2:3", 8, 64}};
  bundle.buffers = {{"A", Kind::Input, DType::I32, {8}, std::nullopt},
                    {"C", Kind::Output, DType::I32, {8}, std::nullopt},
                    {"R", Kind::Output, DType::I32, {2, 4}, 0u}};
  bundle.inputs = {0};
  bundle.outputs = {1, 2};
  bundle.launches = {launch1D(0, 8, 1, {0, 1})};
  signKernels(bundle);
  return bundle;
}

/// C = A over 8 i32 through a temporary T that the kernels need zeroed (as
/// a reduction's partials and counters where its last work-group combines
/// them). 96 bytes of storage.
Bundle zeroedBundle() {
  Bundle bundle;
  bundle.function = "zeroed";
  bundle.kernels = {{"copy", "zeroed.tile:2:3", 8, 64}};
  bundle.buffers = {{"A", Kind::Input, DType::I32, {8}, std::nullopt},
                    {"C", Kind::Output, DType::I32, {8}, std::nullopt},
                    {"T", Kind::Temporary, DType::I32, {8}, std::nullopt}};
  bundle.buffers[2].zeroed = true;
  bundle.inputs = {0};
  bundle.outputs = {1};
  bundle.launches = {launch1D(0, 8, 1, {0, 2}), launch1D(0, 8, 1, {2, 1})};
  signKernels(bundle);
  return bundle;
}

class RunSkeletonTest : public ::testing::Test {
protected:
  /// A runner of `bundle` on a device of `globalMemBytes`.
  std::unique_ptr<FakeRunner> prepare(uint64_t globalMemBytes,
                                      Bundle bundle = copyBundle()) {
    device.deviceProfile.name = "fake";
    device.deviceProfile.globalMemBytes = globalMemBytes;
    auto runner = std::make_unique<FakeRunner>(device, std::move(bundle));
    EXPECT_TRUE(runner->allocateStorage());
    device.log.clear();
    return runner;
  }

  FakeDevice device;
};

} // namespace

TEST_F(RunSkeletonTest, AWholeRunUploadsPoisonsLaunchesReadsThenWaits) {
  std::unique_ptr<FakeRunner> runner = prepare(96);
  HostTensor a = iota(DType::I32, {8}, 1);
  Expected<BundleRun> run = runner->run({a});
  ASSERT_TRUE(run) << run.error().message();
  EXPECT_EQ(device.log,
            (std::vector<std::string>{
                "write A.0", "write A.1", "poison C.0", "poison C.1",
                "poison T.0", "poison T.1", "launch 0", "launch 1", "launch 2",
                "launch 3", "read C.0", "read C.1", "synchronise"}));
  EXPECT_EQ(run->peakDeviceBytes, 96u);
  EXPECT_EQ(run->launchNs, (std::vector<uint64_t>{1, 1, 1, 1}));
  for (int64_t i = 0; i < 8; ++i)
    EXPECT_EQ(run->outputs[0].getDouble(i), i) << i;
}

TEST_F(RunSkeletonTest, AZeroedTemporaryIsFilledWithZerosNotPoison) {
  std::unique_ptr<FakeRunner> runner = prepare(96, zeroedBundle());
  HostTensor a = iota(DType::I32, {8}, 1);
  Expected<BundleRun> run = runner->run({a});
  ASSERT_TRUE(run) << run.error().message();
  EXPECT_EQ(device.log, (std::vector<std::string>{
                            "write A", "poison C", "zero T", "launch 0",
                            "launch 1", "read C", "synchronise"}));
}

TEST_F(RunSkeletonTest, AStreamedRunReleasesStorageOnlyAfterWaiting) {
  std::unique_ptr<FakeRunner> runner = prepare(32);
  HostTensor a = iota(DType::I32, {8}, 1);
  Expected<BundleRun> run = runner->run({a});
  ASSERT_TRUE(run) << run.error().message();
  EXPECT_EQ(device.log,
            (std::vector<std::string>{
                "allocate A.0", "write A.0",    "allocate T.0", "poison T.0",
                "launch 0",     "synchronise",  "free A.0",     "allocate C.0",
                "poison C.0",   "launch 1",     "read C.0",     "synchronise",
                "free C.0",     "free T.0",     "allocate A.1", "write A.1",
                "allocate T.1", "poison T.1",   "launch 2",     "synchronise",
                "free A.1",     "allocate C.1", "poison C.1",   "launch 3",
                "read C.1",     "synchronise",  "free C.1",     "free T.1",
                "synchronise"}));
  EXPECT_EQ(run->peakDeviceBytes, 32u);
  for (int64_t i = 0; i < 8; ++i)
    EXPECT_EQ(run->outputs[0].getDouble(i), i) << i;
}

TEST_F(RunSkeletonTest, InputsAreCheckedBeforeAnyStep) {
  std::unique_ptr<FakeRunner> runner = prepare(96);
  Expected<BundleRun> run = runner->run({HostTensor(DType::F32, {8})});
  ASSERT_FALSE(run);
  EXPECT_EQ(run.error().message(),
            "fake.json: input 'A' is f32[8] but the bundle expects i32[8]");
  Expected<std::vector<std::shared_ptr<DeviceTensor>>> onDevice =
      runner->runOnDevice({});
  ASSERT_FALSE(onDevice);
  EXPECT_EQ(onDevice.error().message(),
            "fake.json: the bundle of 'copy' takes 1 input, not 0");
  EXPECT_TRUE(device.log.empty());
}

TEST_F(RunSkeletonTest, ADeviceResidentRunKeepsItsOutputsStorage) {
  std::unique_ptr<FakeRunner> runner = prepare(96);
  HostTensor a = iota(DType::I32, {8}, 1);
  Expected<std::vector<std::shared_ptr<DeviceTensor>>> kept =
      runner->runOnDevice({&a});
  ASSERT_TRUE(kept) << kept.error().message();
  // C's pieces are allocated afresh, so that earlier results stay valid;
  // the executor's own C pieces stay with the executor.
  EXPECT_EQ(device.log, (std::vector<std::string>{
                            "allocate C.0", "allocate C.1", "write A.0",
                            "write A.1", "poison C.0", "poison C.1",
                            "poison T.0", "poison T.1", "launch 0", "launch 1",
                            "launch 2", "launch 3", "synchronise"}));
  Expected<HostTensor> c = (*kept)[0]->read();
  ASSERT_TRUE(c) << c.error().message();
  for (int64_t i = 0; i < 8; ++i)
    EXPECT_EQ(c->getDouble(i), i) << i;
}

TEST_F(RunSkeletonTest, DeviceResidentRunsReuseOnlyStorageNoTensorHolds) {
  std::unique_ptr<FakeRunner> runner = prepare(96);
  HostTensor first = iota(DType::I32, {8}, 1);
  Expected<std::vector<std::shared_ptr<DeviceTensor>>> held =
      runner->runOnDevice({&first});
  ASSERT_TRUE(held) << held.error().message();
  // Each later run's outputs are dropped before the next: the second run
  // allocates (the first's are held), every later one reuses the second's
  // storage, which a complete run has written, so nothing is poisoned.
  for (int scale = 2; scale <= 4; ++scale) {
    device.log.clear();
    HostTensor a = iota(DType::I32, {8}, scale);
    Expected<std::vector<std::shared_ptr<DeviceTensor>>> outputs =
        runner->runOnDevice({&a});
    ASSERT_TRUE(outputs) << outputs.error().message();
    std::vector<std::string> reused = {"write A.0",  "write A.1", "launch 0",
                                       "launch 1",   "launch 2",  "launch 3",
                                       "synchronise"};
    std::vector<std::string> allocated = {
        "allocate C.0", "allocate C.1", "write A.0",  "write A.1",
        "poison C.0",   "poison C.1",   "launch 0",   "launch 1",
        "launch 2",     "launch 3",     "synchronise"};
    EXPECT_EQ(device.log, scale == 2 ? allocated : reused) << "run " << scale;
    Expected<HostTensor> c = (*outputs)[0]->read();
    ASSERT_TRUE(c) << c.error().message();
    for (int64_t i = 0; i < 8; ++i)
      ASSERT_EQ(c->getDouble(i), scale * i) << i;
  }
  // The first run's output, held throughout, was never reused.
  Expected<HostTensor> c = (*held)[0]->read();
  ASSERT_TRUE(c) << c.error().message();
  for (int64_t i = 0; i < 8; ++i)
    EXPECT_EQ(c->getDouble(i), i) << i;
}

TEST_F(RunSkeletonTest, DroppedOutputsLeaveOneSpareBehind) {
  std::unique_ptr<FakeRunner> runner = prepare(96);
  HostTensor a = iota(DType::I32, {8}, 1);
  std::vector<std::shared_ptr<DeviceTensor>> held;
  for (int run = 0; run < 4; ++run) {
    Expected<std::vector<std::shared_ptr<DeviceTensor>>> outputs =
        runner->runOnDevice({&a});
    ASSERT_TRUE(outputs) << outputs.error().message();
    held.push_back((*outputs)[0]);
  }
  held.clear();
  device.log.clear();
  // Four sets of storage are free: the run takes one, keeps one spare and
  // releases the other two.
  Expected<std::vector<std::shared_ptr<DeviceTensor>>> outputs =
      runner->runOnDevice({&a});
  ASSERT_TRUE(outputs) << outputs.error().message();
  EXPECT_EQ(std::count(device.log.begin(), device.log.end(), "free C.0"), 2);
  EXPECT_EQ(std::count(device.log.begin(), device.log.end(), "free C.1"), 2);
  EXPECT_EQ(std::count(device.log.begin(), device.log.end(), "allocate C.0"),
            0);
}

TEST_F(RunSkeletonTest, AFailedDeviceResidentRunLeavesItsStoragePoisonedNext) {
  // Storage that a run got but did not complete is poisoned by the next.
  std::unique_ptr<FakeRunner> runner = prepare(96);
  HostTensor a = iota(DType::I32, {8}, 1);
  runner->failLaunch = 1;
  ASSERT_FALSE(runner->runOnDevice({&a}));
  runner->failLaunch.reset();
  device.log.clear();
  Expected<std::vector<std::shared_ptr<DeviceTensor>>> outputs =
      runner->runOnDevice({&a});
  ASSERT_TRUE(outputs) << outputs.error().message();
  EXPECT_EQ(device.log,
            (std::vector<std::string>{"write A.0", "write A.1", "poison C.0",
                                      "poison C.1", "poison T.0", "poison T.1",
                                      "launch 0", "launch 1", "launch 2",
                                      "launch 3", "synchronise"}));
}

TEST_F(RunSkeletonTest, AnOutputThatIsAHostInputReshapedOwnsItsStorage) {
  std::unique_ptr<FakeRunner> runner = prepare(64, reshapeBundle());
  HostTensor first = iota(DType::I32, {8}, 1);
  Expected<std::vector<std::shared_ptr<DeviceTensor>>> held =
      runner->runOnDevice({&first});
  ASSERT_TRUE(held) << held.error().message();
  // A is uploaded into storage that R then keeps, as C's is: the second
  // run allocates it (the first's R holds the first's), every later one
  // reuses the second's, whose outputs are dropped before the next run.
  for (int scale = 2; scale <= 4; ++scale) {
    device.log.clear();
    HostTensor a = iota(DType::I32, {8}, scale);
    Expected<std::vector<std::shared_ptr<DeviceTensor>>> outputs =
        runner->runOnDevice({&a});
    ASSERT_TRUE(outputs) << outputs.error().message();
    std::vector<std::string> reused = {"write A", "launch 0", "synchronise"};
    std::vector<std::string> allocated = {"allocate C", "allocate A",
                                          "write A",    "poison C",
                                          "launch 0",   "synchronise"};
    EXPECT_EQ(device.log, scale == 2 ? allocated : reused) << "run " << scale;
    Expected<HostTensor> r = (*outputs)[1]->read();
    ASSERT_TRUE(r) << r.error().message();
    EXPECT_EQ(r->shape(), (Shape{2, 4}));
    for (int64_t i = 0; i < 8; ++i)
      ASSERT_EQ(r->getDouble(i), scale * i) << i;
  }
  // The first run's R, held throughout, still holds the first run's A.
  Expected<HostTensor> r = (*held)[1]->read();
  ASSERT_TRUE(r) << r.error().message();
  for (int64_t i = 0; i < 8; ++i)
    EXPECT_EQ(r->getDouble(i), i) << i;
}

TEST_F(RunSkeletonTest, AnOutputThatIsADeviceInputReshapedSharesIt) {
  // A device tensor given for A is the user's: R is bound to its storage,
  // as A is, with nothing allocated or uploaded for either.
  std::unique_ptr<FakeRunner> runner = prepare(64, reshapeBundle());
  HostTensor a = iota(DType::I32, {8}, 3);
  Expected<std::vector<std::shared_ptr<DeviceTensor>>> first =
      runner->runOnDevice({&a});
  ASSERT_TRUE(first) << first.error().message();
  device.log.clear();
  std::shared_ptr<const DeviceTensor> c = (*first)[0];
  Expected<std::vector<std::shared_ptr<DeviceTensor>>> second =
      runner->runOnDevice({c});
  ASSERT_TRUE(second) << second.error().message();
  EXPECT_EQ(device.log, (std::vector<std::string>{"allocate C", "poison C",
                                                  "launch 0", "synchronise"}));
  Expected<HostTensor> r = (*second)[1]->read();
  ASSERT_TRUE(r) << r.error().message();
  for (int64_t i = 0; i < 8; ++i)
    EXPECT_EQ(r->getDouble(i), 3 * i) << i;
}
