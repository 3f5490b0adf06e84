//===- EnumerationTest.cpp - Devices, their profiles and device choice ----===//
//
// Runs on whatever OpenCL devices the machine has; CI has PoCL's CPU device,
// so finding no device at all is a failure, not a reason to skip.
//
//===----------------------------------------------------------------------===//

#include "OpenCL/OpenCL.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>

using namespace tilec;
using namespace tilec::opencl;

static std::vector<DeviceDescriptor> devicesOrFail() {
  Expected<std::vector<DeviceDescriptor>> devices = enumerateDevices();
  EXPECT_TRUE(devices) << devices.error().message();
  if (!devices)
    return {};
  EXPECT_FALSE(devices->empty()) << "no OpenCL device: install PoCL";
  return std::move(*devices);
}

TEST(EnumerationTest, FindsACpuDevice) {
  std::vector<DeviceDescriptor> devices = devicesOrFail();
  for (size_t i = 0; i < devices.size(); ++i)
    EXPECT_EQ(devices[i].index, i);
  EXPECT_TRUE(std::any_of(devices.begin(), devices.end(), [](const auto &d) {
    return d.profile.type == DeviceType::CPU;
  }));
}

TEST(EnumerationTest, ProfilesAreSane) {
  for (const DeviceDescriptor &device : devicesOrFail()) {
    const DeviceProfile &profile = device.profile;
    SCOPED_TRACE(profile.name);
    EXPECT_FALSE(profile.name.empty());
    EXPECT_FALSE(profile.vendor.empty());
    EXPECT_FALSE(profile.driverVersion.empty());
    EXPECT_FALSE(device.platformName.empty());
    EXPECT_GE(profile.maxWorkGroupSize, 1u);
    for (uint64_t size : profile.maxWorkItemSizes)
      EXPECT_GE(size, 1u);
    // OpenCL 1.2 guarantees at least 32 KiB of local memory on non-custom
    // devices.
    EXPECT_GE(profile.localMemBytes, 32u * 1024);
    EXPECT_GE(profile.computeUnits, 1u);
    EXPECT_GE(profile.preferredVectorWidth.floatWidth, 1u);
    EXPECT_GT(profile.maxAllocBytes, 0u);
    EXPECT_GE(profile.globalMemBytes, profile.maxAllocBytes);
    // OpenCL requires a preferred double width of 0 without fp64.
    if (!profile.supportsFp64) {
      EXPECT_EQ(profile.preferredVectorWidth.doubleWidth, 0u);
    }

    // Querying again gives the same profile.
    Expected<DeviceProfile> again = queryProfile(device.device);
    ASSERT_TRUE(again) << again.error().message();
    EXPECT_EQ(*again, profile);
  }
}

TEST(EnumerationTest, SelectsByIndexAndNameSubstring) {
  std::vector<DeviceDescriptor> devices = devicesOrFail();
  ASSERT_FALSE(devices.empty());
  const DeviceDescriptor &last = devices.back();

  Expected<DeviceDescriptor> byIndex =
      selectDevice(devices, std::to_string(last.index));
  ASSERT_TRUE(byIndex) << byIndex.error().message();
  EXPECT_EQ(byIndex->device, last.device);

  // Any case, any part of the name.
  std::string part = last.profile.name.substr(1, 5);
  std::transform(part.begin(), part.end(), part.begin(),
                 [](unsigned char c) { return std::toupper(c); });
  Expected<DeviceDescriptor> byName = selectDevice(devices, part);
  ASSERT_TRUE(byName) << byName.error().message();
  EXPECT_NE(byName->profile.name.find(last.profile.name.substr(1, 5)),
            std::string::npos);
}

TEST(EnumerationTest, UnknownDeviceListsTheAvailableOnes) {
  std::vector<DeviceDescriptor> devices = devicesOrFail();
  for (const char *selector : {"nosuchdevice", "99", "123456789012345678901"}) {
    Expected<DeviceDescriptor> selected = selectDevice(devices, selector);
    ASSERT_FALSE(selected) << selector;
    const std::string &message = selected.error().message();
    EXPECT_NE(message.find(std::string("'") + selector + "'"),
              std::string::npos)
        << message;
    for (const DeviceDescriptor &device : devices)
      EXPECT_NE(message.find("#" + std::to_string(device.index) + ": " +
                             device.profile.name),
                std::string::npos)
          << message;
  }
}

/// Descriptors that exist only for the choice among them.
static std::vector<DeviceDescriptor>
fakeDevices(std::initializer_list<DeviceType> types) {
  std::vector<DeviceDescriptor> devices;
  for (DeviceType type : types) {
    DeviceDescriptor device;
    device.index = static_cast<unsigned>(devices.size());
    device.profile.name = std::string(deviceTypeName(type)) + " device " +
                          std::to_string(device.index);
    device.profile.type = type;
    devices.push_back(device);
  }
  return devices;
}

TEST(EnumerationTest, DefaultIsTheFirstGpuElseTheFirstCpu) {
  auto defaultName = [](std::initializer_list<DeviceType> types) {
    Expected<DeviceDescriptor> selected = selectDevice(fakeDevices(types), "");
    return selected ? selected->profile.name : selected.error().message();
  };
  EXPECT_EQ(defaultName({DeviceType::Other, DeviceType::CPU, DeviceType::GPU,
                         DeviceType::GPU}),
            "gpu device 2");
  EXPECT_EQ(defaultName({DeviceType::Other, DeviceType::CPU, DeviceType::CPU}),
            "cpu device 1");
  EXPECT_EQ(defaultName({DeviceType::Other}), "other device 0");
  EXPECT_EQ(defaultName({}).rfind("no OpenCL device found", 0), 0u);
}

TEST(EnumerationTest, DeviceListLooksLikeClinfo) {
  std::vector<DeviceDescriptor> devices =
      fakeDevices({DeviceType::CPU, DeviceType::GPU, DeviceType::CPU});
  devices[0].platformName = "Platform A";
  devices[1].platformName = devices[2].platformName = "Platform B";
  devices[1].platformIndex = devices[2].platformIndex = 1;
  std::string list = formatDeviceList(devices);
  EXPECT_EQ(list.find("Platform #0: Platform A\n"
                      " `-- Device #0: cpu device 0\n"
                      "       type cpu,"),
            0u)
      << list;
  EXPECT_NE(list.find("Platform #1: Platform B\n"
                      " +-- Device #1: gpu device 1 (default)\n"
                      " |     type gpu,"),
            std::string::npos)
      << list;
  EXPECT_NE(list.find(" `-- Device #2: cpu device 2\n"
                      "       type cpu,"),
            std::string::npos)
      << list;

  EXPECT_EQ(formatDeviceList({}).rfind("no OpenCL device found", 0), 0u);
}

TEST(EnumerationTest, StatusNames) {
  EXPECT_STREQ(statusName(CL_OUT_OF_RESOURCES), "CL_OUT_OF_RESOURCES");
  EXPECT_STREQ(statusName(CL_INVALID_WORK_GROUP_SIZE),
               "CL_INVALID_WORK_GROUP_SIZE");
  EXPECT_STREQ(statusName(-12345), "CL_UNKNOWN_ERROR");
}
