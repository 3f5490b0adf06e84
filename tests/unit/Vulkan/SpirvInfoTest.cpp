//===- SpirvInfoTest.cpp - Reading entry points and feature needs ---------===//

#include "Vulkan/Vulkan.h"

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

TEST(SpirvInfoTest, SignedZeroInfNanPreserveNeedsItsWidthsProperty) {
  // f64.spvasm with OpExecutionMode %dadd SignedZeroInfNanPreserve 64 (and
  // 32) added after the header: inspectSpirv does not care where.
  std::vector<uint32_t> words = tilec::testing::readTestShader("f64");
  uint32_t dadd = 0;
  for (size_t at = 5; at < words.size(); at += words[at] >> 16)
    if ((words[at] & 0xFFFF) == 15 && !dadd)
      dadd = words[at + 2];
  ASSERT_NE(dadd, 0u);
  for (uint32_t width : {64u, 32u})
    words.insert(words.begin() + 5, {(4u << 16) | 16, dadd, 4461, width});
  Expected<std::vector<SpirvEntryPoint>> entries = inspectSpirv(words, "f64");
  ASSERT_TRUE(entries) << entries.error().message();
  ASSERT_EQ(entries->size(), 2u);
  EXPECT_EQ((*entries)[0].features,
            (std::vector<std::string>{"shaderFloat64",
                                      "shaderSignedZeroInfNanPreserveFloat32",
                                      "shaderSignedZeroInfNanPreserveFloat64"}));
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
