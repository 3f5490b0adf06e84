//===- OpenedDeviceTest.cpp - The Vulkan backend behind Device.h ----------===//
//
// What the tools and the JIT use of a device, through the backend-neutral
// API alone, on the default Vulkan device (lavapipe in CI) under the
// validation layers.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/Device.h"

#include "BundleBuilders.h"
#include "DeviceFixture.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

using namespace tilec;

namespace {

using Kind = BundleBuffer::Kind;
using tilec::testing::iota;
using tilec::testing::launch1D;
using tilec::testing::signKernels;

/// C = A + B over 1000 floats (the test shader "vadd").
Bundle vectorAddBundle() {
  Bundle bundle;
  bundle.function = "vadd";
  bundle.kernels = {{"vadd", "vadd.tile:2:3", 1000, 12000,
                     tilec::testing::readTestShader("vadd"), ""}};
  bundle.buffers = {{"A", Kind::Input, DType::F32, {1000}, std::nullopt},
                    {"B", Kind::Input, DType::F32, {1000}, std::nullopt},
                    {"C", Kind::Output, DType::F32, {1000}, std::nullopt}};
  bundle.inputs = {0, 1};
  bundle.outputs = {2};
  bundle.launches = {launch1D(0, 1024, 64, {0, 1, 2})};
  signKernels(bundle);
  return bundle;
}

DeviceRequest vulkanRequest() {
  DeviceRequest request;
  request.backend = Backend::Vulkan;
  return request;
}

class VulkanDeviceTest : public ::testing::Test {
protected:
  void SetUp() override {
    setenv(vulkan::kValidationVariable, "1", /*overwrite=*/1);
  }
};

TEST_F(VulkanDeviceTest, ListsTheDevicesWithTheirVulkanVersions) {
  Expected<DeviceList> list = listDevices(Backend::Vulkan);
  ASSERT_TRUE(list) << list.error().message();
  ASSERT_FALSE(list->devices.empty());
  for (const DeviceInfo &device : list->devices)
    EXPECT_EQ(device.origin.rfind("Vulkan ", 0), 0u) << device.origin;
  EXPECT_EQ(
      std::count_if(list->devices.begin(), list->devices.end(),
                    [](const DeviceInfo &info) { return info.isDefault; }),
      1);
  EXPECT_NE(list->listing.find("(default)"), std::string::npos)
      << list->listing;
}

TEST_F(VulkanDeviceTest, PreparesAndRunsABundle) {
  Expected<std::unique_ptr<Device>> device = Device::open(vulkanRequest());
  ASSERT_TRUE(device) << device.error().message();
  EXPECT_EQ((*device)->backend(), Backend::Vulkan);
  EXPECT_EQ((*device)->origin().rfind("Vulkan ", 0), 0u);
  Expected<std::unique_ptr<Executor>> executor =
      (*device)->prepare(vectorAddBundle(), "vadd");
  ASSERT_TRUE(executor) << executor.error().message();
  EXPECT_EQ((*executor)->backend(), Backend::Vulkan);
  HostTensor a = iota(DType::F32, {1000}, 1.0);
  HostTensor b = iota(DType::F32, {1000}, 2.0);
  Expected<BundleRun> run = (*executor)->run({a, b});
  ASSERT_TRUE(run) << run.error().message();
  for (int64_t i = 0; i < 1000; ++i)
    ASSERT_EQ(run->outputs[0].getDouble(i), 3.0 * static_cast<double>(i))
        << "element " << i;
}

TEST_F(VulkanDeviceTest, KeepsNoDriverBinary) {
  Expected<std::unique_ptr<Device>> device = Device::open(vulkanRequest());
  ASSERT_TRUE(device) << device.error().message();
  Bundle bundle = vectorAddBundle();
  Expected<std::vector<unsigned char>> binary =
      (*device)->driverBinary(bundle, "vadd");
  ASSERT_TRUE(binary) << binary.error().message();
  EXPECT_TRUE(binary->empty());
  Expected<std::unique_ptr<Executor>> loaded =
      (*device)->prepareFromBinary(bundle, {1, 2, 3}, "vadd");
  ASSERT_FALSE(loaded);
  EXPECT_EQ(loaded.error().kind(), ErrorKind::InvalidArgument);
  EXPECT_NE(loaded.error().message().find("keeps none"), std::string::npos)
      << loaded.error().message();
}

} // namespace
