//===- EnumerationTest.cpp - Vulkan devices, profiles and the choice ------===//

#include "Vulkan/Vulkan.h"

#include "DeviceFixture.h"

#include <gtest/gtest.h>

using namespace tilec;
using namespace tilec::vulkan;

namespace {

using EnumerationTest = tilec::testing::VulkanFixture;

TEST_F(EnumerationTest, ProfileComesFromTheLimits) {
  const DeviceProfile &profile = descriptor.profile;
  EXPECT_FALSE(profile.name.empty());
  EXPECT_GE(profile.maxWorkGroupSize, 128u);
  for (uint64_t size : profile.maxWorkItemSizes)
    EXPECT_GE(size, 1u);
  EXPECT_GE(profile.maxWorkItemSizes[0], 128u);
  // Vulkan guarantees 16 KiB of shared memory and 128 MiB storage ranges.
  EXPECT_GE(profile.localMemBytes, 16384u);
  EXPECT_GE(profile.maxAllocBytes, uint64_t(1) << 27);
  EXPECT_GE(profile.globalMemBytes, profile.maxAllocBytes);
  EXPECT_GE(profile.computeUnits, 1u);
  ASSERT_TRUE(profile.subgroupSize.has_value());
  EXPECT_GE(*profile.subgroupSize, 1u);
  EXPECT_EQ(profile.supportsFp64, descriptor.features.shaderFloat64);
  EXPECT_EQ(profile.preferredVectorWidth.floatWidth, 1u);
  ASSERT_TRUE(descriptor.computeQueueFamily.has_value());
  EXPECT_GT(descriptor.timestampPeriodNs, 0);
  EXPECT_FALSE(descriptor.apiVersion.empty());
}

TEST_F(EnumerationTest, SelectsByIndexAndName) {
  Expected<std::vector<DeviceDescriptor>> devices = enumerateDevices();
  ASSERT_TRUE(devices) << devices.error().message();
  Expected<DeviceDescriptor> byIndex =
      selectDevice(*devices, std::to_string(descriptor.index));
  ASSERT_TRUE(byIndex) << byIndex.error().message();
  EXPECT_EQ(byIndex->profile.name, descriptor.profile.name);

  // A name substring, in another case.
  std::string needle = descriptor.profile.name.substr(0, 3);
  for (char &c : needle)
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  Expected<DeviceDescriptor> byName = selectDevice(*devices, needle);
  ASSERT_TRUE(byName) << byName.error().message();
  EXPECT_EQ(byName->profile.name, descriptor.profile.name);
}

TEST_F(EnumerationTest, UnmatchedSelectorListsTheDevices) {
  Expected<std::vector<DeviceDescriptor>> devices = enumerateDevices();
  ASSERT_TRUE(devices);
  Expected<DeviceDescriptor> none = selectDevice(*devices, "99");
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().message().rfind(
                "no Vulkan device has index '99'; the devices are:\n  #0: ", 0),
            0u)
      << none.error().message();
  Expected<DeviceDescriptor> noName = selectDevice(*devices, "no such gpu");
  ASSERT_FALSE(noName);
  EXPECT_NE(noName.error().message().find(
                "no Vulkan device name contains 'no such gpu'"),
            std::string::npos);
  Expected<DeviceDescriptor> empty = selectDevice({}, "");
  ASSERT_FALSE(empty);
  EXPECT_EQ(empty.error().message().rfind("no Vulkan devices", 0), 0u);
}

TEST_F(EnumerationTest, ListMarksTheDefault) {
  Expected<std::vector<DeviceDescriptor>> devices = enumerateDevices();
  ASSERT_TRUE(devices);
  std::string list = formatDeviceList(*devices);
  EXPECT_NE(list.find("Device #" + std::to_string(descriptor.index) + ": " +
                      descriptor.profile.name + " (default)"),
            std::string::npos)
      << list;
  EXPECT_NE(list.find("Vulkan " + descriptor.apiVersion), std::string::npos);
}

TEST_F(EnumerationTest, ValidationMessagesFailTheNextCheck) {
  // Inject a message as the layer would send one.
  auto submit =
      reinterpret_cast<PFN_vkSubmitDebugUtilsMessageEXT>(vkGetInstanceProcAddr(
          descriptor.instance->handle(), "vkSubmitDebugUtilsMessageEXT"));
  ASSERT_NE(submit, nullptr);
  VkDebugUtilsMessengerCallbackDataEXT data = {};
  data.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CALLBACK_DATA_EXT;
  data.pMessage = "an injected problem";
  submit(descriptor.instance->handle(),
         VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
         VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT, &data);
  Status status = device->checkValidation("testing");
  ASSERT_FALSE(status);
  EXPECT_NE(status.error().message().find(
                "the Vulkan validation layer reported 1 problem while testing "
                "on device '" +
                descriptor.profile.name + "':\n  error: an injected problem"),
            std::string::npos)
      << status.error().message();
  // Reported once.
  EXPECT_TRUE(device->checkValidation("testing again"));
}

} // namespace
