//===- DeviceFixture.h - Tests on the default Vulkan device -----*- C++ -*-===//
//
// A fixture that opens the default Vulkan device (lavapipe in CI) under the
// validation layers, so that every test also checks that the layer reports
// nothing, and reads the test shaders that the build assembles.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TESTS_UNIT_VULKAN_DEVICEFIXTURE_H
#define TILEC_TESTS_UNIT_VULKAN_DEVICEFIXTURE_H

#include "Vulkan/Vulkan.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>

namespace tilec {
namespace testing {

/// The words of the SPIR-V module `name` (Inputs/<name>.spvasm, assembled).
inline std::vector<uint32_t> readTestShader(const std::string &name) {
  std::ifstream file(std::string(TILEC_VULKAN_TEST_SHADERS) + "/" + name +
                         ".spv",
                     std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(file)),
                    std::istreambuf_iterator<char>());
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), words.size() * 4);
  return words;
}

class VulkanFixture : public ::testing::Test {
protected:
  void SetUp() override {
    setenv(vulkan::kValidationVariable, "1", /*overwrite=*/1);
    Expected<std::vector<vulkan::DeviceDescriptor>> devices =
        vulkan::enumerateDevices();
    ASSERT_TRUE(devices) << devices.error().message();
    Expected<vulkan::DeviceDescriptor> chosen =
        vulkan::selectDevice(*devices, "");
    ASSERT_TRUE(chosen) << chosen.error().message();
    descriptor = *chosen;
    ASSERT_TRUE(descriptor.instance->validated());
    open();
  }

  /// (Re)opens the device of `descriptor`, with its current profile.
  void open() {
    device.reset();
    Expected<std::unique_ptr<vulkan::Device>> opened =
        vulkan::Device::open(descriptor);
    ASSERT_TRUE(opened) << opened.error().message();
    device = std::move(*opened);
  }

  vulkan::DeviceDescriptor descriptor;
  std::unique_ptr<vulkan::Device> device;
};

} // namespace testing
} // namespace tilec

#endif // TILEC_TESTS_UNIT_VULKAN_DEVICEFIXTURE_H
