//===- SpirvInfoTest.cpp - Reading entry points and feature needs ---------===//

#include "tilec/Runtime/Vulkan.h"

#include "DeviceFixture.h"

#include <gtest/gtest.h>

using namespace tilec;
using namespace tilec::vulkan;

namespace {

TEST(SpirvInfoTest, EntryPointsAndWorkGroups) {
  Expected<std::vector<SpirvEntryPoint>> entries =
      inspectSpirv(tilec::testing::readTestShader("vadd"), "vadd");
  ASSERT_TRUE(entries) << entries.error().message();
  ASSERT_EQ(entries->size(), 2u);
  EXPECT_EQ((*entries)[0].name, "vadd");
  EXPECT_EQ((*entries)[1].name, "vhalf");
  for (const SpirvEntryPoint &entry : *entries) {
    ASSERT_TRUE(entry.localSize.has_value());
    EXPECT_EQ(*entry.localSize, (std::array<uint32_t, 3>{64, 1, 1}));
    EXPECT_TRUE(entry.features.empty());
  }
}

TEST(SpirvInfoTest, FeaturesBelongToTheKernelsThatUseThem) {
  Expected<std::vector<SpirvEntryPoint>> entries =
      inspectSpirv(tilec::testing::readTestShader("f64"), "f64");
  ASSERT_TRUE(entries) << entries.error().message();
  ASSERT_EQ(entries->size(), 2u);
  EXPECT_EQ((*entries)[0].name, "dadd");
  EXPECT_EQ((*entries)[0].features, std::vector<std::string>{"shaderFloat64"});
  EXPECT_EQ((*entries)[1].name, "fcopy");
  EXPECT_TRUE((*entries)[1].features.empty());
}

TEST(SpirvInfoTest, MalformedModulesAreErrors) {
  std::vector<uint32_t> words = tilec::testing::readTestShader("vadd");
  std::vector<uint32_t> badMagic = words;
  badMagic[0] = 0x12345678;
  Expected<std::vector<SpirvEntryPoint>> notSpirv = inspectSpirv(badMagic, "x");
  ASSERT_FALSE(notSpirv);
  EXPECT_EQ(notSpirv.error().message(),
            "the SPIR-V of 'x' is not a SPIR-V module (no SPIR-V header)");

  // An instruction cut short: an OpLoad header claiming 4 words, last.
  std::vector<uint32_t> truncated = words;
  truncated.push_back((4u << 16) | 61);
  Expected<std::vector<SpirvEntryPoint>> cut = inspectSpirv(truncated, "x");
  ASSERT_FALSE(cut);
  EXPECT_NE(cut.error().message().find("runs past the end of the module"),
            std::string::npos)
      << cut.error().message();
  EXPECT_FALSE(inspectSpirv({}, "x"));
}

} // namespace
