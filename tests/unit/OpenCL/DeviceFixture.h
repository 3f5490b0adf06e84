//===- DeviceFixture.h - Tests on the default OpenCL device -----*- C++ -*-===//
//
// A fixture that opens the default device (PoCL's CPU device in CI) and can
// reopen it after a test overrides its profile.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TESTS_UNIT_OPENCL_DEVICEFIXTURE_H
#define TILEC_TESTS_UNIT_OPENCL_DEVICEFIXTURE_H

#include "OpenCL/OpenCL.h"

#include <gtest/gtest.h>

#include <memory>

namespace tilec {
namespace testing {

class DeviceFixture : public ::testing::Test {
protected:
  void SetUp() override {
    Expected<std::vector<opencl::DeviceDescriptor>> devices =
        opencl::enumerateDevices();
    ASSERT_TRUE(devices) << devices.error().message();
    Expected<opencl::DeviceDescriptor> chosen =
        opencl::selectDevice(*devices, "");
    ASSERT_TRUE(chosen) << chosen.error().message();
    descriptor = *chosen;
    open();
  }

  /// (Re)opens the device of `descriptor`, with its current profile.
  void open() {
    Expected<std::unique_ptr<opencl::Device>> opened =
        opencl::Device::open(descriptor);
    ASSERT_TRUE(opened) << opened.error().message();
    device = std::move(*opened);
  }

  opencl::DeviceDescriptor descriptor;
  std::unique_ptr<opencl::Device> device;
};

} // namespace testing
} // namespace tilec

#endif // TILEC_TESTS_UNIT_OPENCL_DEVICEFIXTURE_H
