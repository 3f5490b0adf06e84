//===- OpenedDeviceTest.cpp - The OpenCL backend behind Device.h ----------===//
//
// What the tools and the JIT use of a device, through the backend-neutral
// API alone, on the default OpenCL device (PoCL's CPU device in CI).
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/Device.h"

#include "BundleBuilders.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace tilec;

namespace {

using Kind = BundleBuffer::Kind;
using tilec::testing::iota;
using tilec::testing::launch1D;
using tilec::testing::signKernels;

/// C = A + B over 100 floats.
Bundle vectorAddBundle() {
  Bundle bundle;
  bundle.function = "vadd";
  bundle.kernels = {{"vadd", "vadd.tile:2:3", 100, 1200}};
  bundle.openclSource = R"(
kernel void vadd(global const float *a, global const float *b,
                 global float *c) {
  size_t i = get_global_id(0);
  if (i < 100)
    c[i] = a[i] + b[i];
}
)";
  bundle.buffers = {{"A", Kind::Input, DType::F32, {100}, std::nullopt},
                    {"B", Kind::Input, DType::F32, {100}, std::nullopt},
                    {"C", Kind::Output, DType::F32, {100}, std::nullopt}};
  bundle.inputs = {0, 1};
  bundle.outputs = {2};
  bundle.launches = {launch1D(0, 128, 64, {0, 1, 2})};
  signKernels(bundle);
  return bundle;
}

/// Runs `executor` on A = i, B = 2i and checks that C = 3i.
void expectVectorSum(Executor &executor) {
  HostTensor a = iota(DType::F32, {100}, 1.0);
  HostTensor b = iota(DType::F32, {100}, 2.0);
  Expected<BundleRun> run = executor.run({a, b});
  ASSERT_TRUE(run) << run.error().message();
  for (int64_t i = 0; i < 100; ++i)
    ASSERT_EQ(run->outputs[0].getDouble(i), 3.0 * static_cast<double>(i))
        << "element " << i;
}

DeviceRequest openclRequest(std::string selector = "",
                            std::string profileOverrides = "") {
  DeviceRequest request;
  request.backend = Backend::OpenCL;
  request.selector = std::move(selector);
  request.profileOverrides = std::move(profileOverrides);
  return request;
}

TEST(OpenCLDeviceTest, ListsTheDevicesWithOneDefault) {
  Expected<DeviceList> list = listDevices(Backend::OpenCL);
  ASSERT_TRUE(list) << list.error().message();
  ASSERT_FALSE(list->devices.empty());
  for (size_t i = 0; i < list->devices.size(); ++i) {
    EXPECT_EQ(list->devices[i].index, i);
    EXPECT_FALSE(list->devices[i].origin.empty());
  }
  EXPECT_EQ(
      std::count_if(list->devices.begin(), list->devices.end(),
                    [](const DeviceInfo &info) { return info.isDefault; }),
      1);
  EXPECT_NE(list->listing.find("Device #0: " + list->devices[0].profile.name),
            std::string::npos)
      << list->listing;
}

TEST(OpenCLDeviceTest, OpensTheSelectedDeviceWithTheOverrides) {
  Expected<DeviceList> list = listDevices(Backend::OpenCL);
  ASSERT_TRUE(list) << list.error().message();
  const DeviceInfo &first = list->devices[0];
  DeviceRequest request = openclRequest("0", R"({"max_work_group_size": 64})");
  Expected<std::unique_ptr<Device>> device = Device::open(request);
  ASSERT_TRUE(device) << device.error().message();
  EXPECT_EQ((*device)->backend(), Backend::OpenCL);
  EXPECT_EQ((*device)->origin(), first.origin);
  EXPECT_EQ((*device)->profile().name, first.profile.name);
  EXPECT_EQ((*device)->profile().maxWorkGroupSize, 64u);
  // The profile is chosen the same way without opening the device.
  Expected<DeviceProfile> profile = chooseDeviceProfile(request);
  ASSERT_TRUE(profile) << profile.error().message();
  EXPECT_EQ(*profile, (*device)->profile());
}

TEST(OpenCLDeviceTest, AFailedChoiceSaysWhichKind) {
  Expected<std::unique_ptr<Device>> unmatched =
      Device::open(openclRequest("no such device"));
  ASSERT_FALSE(unmatched);
  EXPECT_EQ(unmatched.error().kind(), ErrorKind::NoDevice);
  EXPECT_NE(unmatched.error().message().find("#0: "), std::string::npos)
      << unmatched.error().message();

  Expected<std::unique_ptr<Device>> badOverrides =
      Device::open(openclRequest("", R"({"no_such_key": 1})"));
  ASSERT_FALSE(badOverrides);
  EXPECT_EQ(badOverrides.error().kind(), ErrorKind::InvalidArgument);
  EXPECT_NE(badOverrides.error().message().find("no_such_key"),
            std::string::npos)
      << badOverrides.error().message();

  DeviceRequest missingFile = openclRequest();
  missingFile.profilePath = "/nonexistent/profile.json";
  Expected<DeviceProfile> profile = chooseDeviceProfile(missingFile);
  ASSERT_FALSE(profile);
  EXPECT_EQ(profile.error().kind(), ErrorKind::InvalidArgument);
}

/// C = 1 where the program was built optimized, else 0, over 4 floats:
/// clang-based compilers (PoCL's) define __OPTIMIZE__ unless built with
/// -cl-opt-disable.
Bundle optimizedFlagBundle() {
  Bundle bundle;
  bundle.function = "optimized";
  bundle.kernels = {{"optimized", "optimized.tile:2:3", 4, 4}};
  bundle.openclSource = R"(
kernel void optimized(global float *c) {
#ifdef __OPTIMIZE__
  c[get_global_id(0)] = 1.0f;
#else
  c[get_global_id(0)] = 0.0f;
#endif
}
)";
  bundle.buffers = {{"C", Kind::Output, DType::F32, {4}, std::nullopt}};
  bundle.outputs = {0};
  bundle.launches = {launch1D(0, 4, 4, {0})};
  signKernels(bundle);
  return bundle;
}

TEST(OpenCLDeviceTest, BuildsUnoptimizedWhenAsked) {
  for (bool optimize : {true, false}) {
    DeviceRequest request = openclRequest();
    request.optimizeDeviceCode = optimize;
    Expected<std::unique_ptr<Device>> device = Device::open(request);
    ASSERT_TRUE(device) << device.error().message();
    Expected<std::unique_ptr<Executor>> executor =
        (*device)->prepare(optimizedFlagBundle(), "optimized");
    ASSERT_TRUE(executor) << executor.error().message();
    Expected<BundleRun> run = (*executor)->run({});
    ASSERT_TRUE(run) << run.error().message();
    EXPECT_EQ(run->outputs[0].getDouble(3), optimize ? 1.0 : 0.0);
  }
}

TEST(OpenCLDeviceTest, PreparesFromTheDriversBinary) {
  Expected<std::unique_ptr<Device>> device = Device::open(openclRequest());
  ASSERT_TRUE(device) << device.error().message();
  Bundle bundle = vectorAddBundle();
  Expected<std::unique_ptr<Executor>> executor =
      (*device)->prepare(bundle, "vadd");
  ASSERT_TRUE(executor) << executor.error().message();
  expectVectorSum(**executor);
  Expected<std::vector<unsigned char>> binary =
      (*device)->driverBinary(bundle, "vadd");
  ASSERT_TRUE(binary) << binary.error().message();
  ASSERT_FALSE(binary->empty());

  // A device opened afresh (as by a later process) skips the driver's
  // compiler with it, and runs the same.
  Expected<std::unique_ptr<Device>> later = Device::open(openclRequest());
  ASSERT_TRUE(later) << later.error().message();
  Expected<std::unique_ptr<Executor>> loaded =
      (*later)->prepareFromBinary(bundle, *binary, "vadd");
  ASSERT_TRUE(loaded) << loaded.error().message();
  expectVectorSum(**loaded);
}

TEST(OpenCLDeviceTest, RefusesABinaryTheDriverRejects) {
  Expected<std::unique_ptr<Device>> device = Device::open(openclRequest());
  ASSERT_TRUE(device) << device.error().message();
  Expected<std::unique_ptr<Executor>> executor =
      (*device)->prepareFromBinary(vectorAddBundle(), {1, 2, 3, 4}, "vadd");
  ASSERT_FALSE(executor);
  EXPECT_EQ(executor.error().kind(), ErrorKind::Device);
  // The bundle's code still prepares.
  Expected<std::unique_ptr<Executor>> fromSource =
      (*device)->prepare(vectorAddBundle(), "vadd");
  ASSERT_TRUE(fromSource) << fromSource.error().message();
  expectVectorSum(**fromSource);
}

} // namespace
