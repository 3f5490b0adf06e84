//===- DeviceTest.cpp - Vulkan buffers, transfers and pipelines -----------===//

#include "Vulkan/Vulkan.h"

#include "DeviceFixture.h"

#include <gtest/gtest.h>

#include <numeric>

using namespace tilec;
using namespace tilec::vulkan;

namespace {

using DeviceTest = tilec::testing::VulkanFixture;

TEST_F(DeviceTest, WritesAndReadsBack) {
  Expected<Buffer> buffer = device->allocate(1003, "bytes");
  ASSERT_TRUE(buffer) << buffer.error().message();
  EXPECT_EQ(buffer->size(), 1003u);
  EXPECT_EQ(buffer->allocatedSize(), 1004u);
  std::vector<unsigned char> data(1003);
  std::iota(data.begin(), data.end(), 0);
  ASSERT_TRUE(device->write(*buffer, data.data(), data.size()));
  std::vector<unsigned char> back(1003, 0);
  ASSERT_TRUE(device->read(*buffer, back.data(), back.size()));
  EXPECT_EQ(back, data);

  // Part of it, at an offset.
  unsigned char three[3] = {7, 8, 9};
  ASSERT_TRUE(device->write(*buffer, three, 3, 1000));
  unsigned char tail[4] = {};
  ASSERT_TRUE(device->read(*buffer, tail, 4, 999));
  EXPECT_EQ(tail[0], data[999]);
  EXPECT_EQ(tail[1], 7);
  EXPECT_EQ(tail[3], 9);
}

TEST_F(DeviceTest, EmptyBuffersAreAllowed) {
  Expected<Buffer> buffer = device->allocate(0, "empty");
  ASSERT_TRUE(buffer) << buffer.error().message();
  EXPECT_EQ(buffer->size(), 0u);
  EXPECT_TRUE(device->write(*buffer, nullptr, 0));
}

TEST_F(DeviceTest, TransfersOutsideTheBufferFail) {
  Expected<Buffer> buffer = device->allocate(16, "small");
  ASSERT_TRUE(buffer);
  unsigned char data[8] = {};
  Status status = device->write(*buffer, data, 8, 12);
  ASSERT_FALSE(status);
  EXPECT_EQ(status.error().message(),
            "writing 8 bytes to buffer 'small' at offset 12: outside the "
            "buffer, which holds 16 bytes");
}

TEST_F(DeviceTest, AllocationsBeyondTheProfileFail) {
  descriptor.profile.maxAllocBytes = 1024;
  open();
  Expected<Buffer> tooLarge = device->allocate(2048, "big");
  ASSERT_FALSE(tooLarge);
  EXPECT_EQ(tooLarge.error().message(),
            "allocating buffer 'big' of 2048 bytes on device '" +
                descriptor.profile.name +
                "': larger than the device's largest allocation, 1024 bytes "
                "(max_alloc_bytes of its profile)");
}

TEST_F(DeviceTest, DriverOutOfMemoryIsNamed) {
  // More than any device has, while the profile claims it fits.
  uint64_t huge = uint64_t(1) << 50;
  descriptor.profile.maxAllocBytes = huge;
  descriptor.profile.globalMemBytes = huge;
  open();
  Expected<Buffer> buffer = device->allocate(huge, "huge");
  ASSERT_FALSE(buffer);
  EXPECT_NE(buffer.error().message().find("VK_ERROR_OUT_OF_DEVICE_MEMORY"),
            std::string::npos)
      << buffer.error().message();
  EXPECT_EQ(buffer.error().driverCode(), VK_ERROR_OUT_OF_DEVICE_MEMORY);
}

TEST_F(DeviceTest, PipelinesGrowTheCache) {
  Expected<std::shared_ptr<const ShaderModule>> module =
      device->createShaderModule(tilec::testing::readTestShader("vadd"),
                                 "vadd");
  ASSERT_TRUE(module) << module.error().message();
  Expected<size_t> before = device->pipelineCacheSize();
  ASSERT_TRUE(before) << before.error().message();
  Expected<ComputePipeline> pipeline =
      device->createPipeline(**module, "vadd", 3);
  ASSERT_TRUE(pipeline) << pipeline.error().message();
  EXPECT_EQ(pipeline->localSize(), (std::array<uint32_t, 3>{64, 1, 1}));
  Expected<size_t> after = device->pipelineCacheSize();
  ASSERT_TRUE(after);
  EXPECT_GE(*after, *before);
}

TEST_F(DeviceTest, MissingEntryPointListsTheOthers) {
  Expected<std::shared_ptr<const ShaderModule>> module =
      device->createShaderModule(tilec::testing::readTestShader("vadd"),
                                 "vadd");
  ASSERT_TRUE(module);
  Expected<ComputePipeline> pipeline =
      device->createPipeline(**module, "vsub", 3);
  ASSERT_FALSE(pipeline);
  EXPECT_NE(pipeline.error().message().find(
                "the SPIR-V of 'vadd' has no such entry point (it has "
                "'vadd', 'vhalf')"),
            std::string::npos)
      << pipeline.error().message();
}

TEST_F(DeviceTest, NewerSPIRVThanTheDeviceAcceptsIsRefused) {
  std::vector<uint32_t> words = tilec::testing::readTestShader("vadd");
  ASSERT_GT(words.size(), 1u);
  // The version word of the header: SPIR-V 1.6, newer than Vulkan 1.2's 1.5
  // (the newest version tilec asks of any device).
  words[1] = 0x00010600;
  Expected<std::shared_ptr<const ShaderModule>> module =
      device->createShaderModule(words, "vadd");
  ASSERT_FALSE(module);
  EXPECT_NE(module.error().message().find(
                "the SPIR-V of 'vadd' is version 1.6, but device"),
            std::string::npos)
      << module.error().message();
  EXPECT_NE(module.error().message().find("accepts SPIR-V up to 1.5"),
            std::string::npos)
      << module.error().message();
}

} // namespace
