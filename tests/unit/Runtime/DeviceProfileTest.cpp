//===- DeviceProfileTest.cpp - Device profiles and their JSON form --------===//

#include "tilec/Runtime/DeviceProfile.h"

#include "ScopedTempDir.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include <sys/stat.h>

using namespace tilec;

/// A profile with every field away from its default.
static DeviceProfile makeProfile() {
  DeviceProfile profile;
  profile.name = "Pretend GPU";
  profile.vendor = "Tilec Labs";
  profile.driverVersion = "1.2.3";
  profile.type = DeviceType::GPU;
  profile.maxWorkGroupSize = 1024;
  profile.maxWorkGroupSizeGuaranteed = true;
  profile.maxWorkItemSizes = {1024, 512, 64};
  profile.localMemBytes = 48 * 1024;
  profile.computeUnits = 80;
  profile.preferredVectorWidth = {16, 8, 4, 2, 4, 2, 8};
  profile.subgroupSize = 32;
  profile.maxAllocBytes = 4ull << 30;
  profile.globalMemBytes = 16ull << 30;
  profile.clockMHz = 1500;
  profile.supportsFp64 = true;
  profile.supportsFp16 = true;
  profile.maxLoopIterations = 65535;
  profile.signedZeroInfNanPreserve = {true, false, true};
  profile.denormPreserve = {false, true, true};
  return profile;
}

/// Applies `json` to a copy of makeProfile(); returns the error message, or
/// "" on success, and the profile through `result`.
static std::string apply(const std::string &json, DeviceProfile &result) {
  result = makeProfile();
  Status status = applyProfileOverrides(result, json, "pretend.json");
  return status ? "" : status.error().message();
}

TEST(DeviceProfileTest, JsonRoundTrip) {
  DeviceProfile original = makeProfile();
  std::string json = profileToJson(original);
  DeviceProfile read;
  Status status = applyProfileOverrides(read, json, "roundtrip.json");
  ASSERT_TRUE(status) << status.error().message();
  EXPECT_EQ(read, original) << json;

  // An unset subgroup size is written as null and read back as unset.
  original.subgroupSize.reset();
  json = profileToJson(original);
  EXPECT_NE(json.find("\"subgroup_size\": null"), std::string::npos) << json;
  ASSERT_TRUE(applyProfileOverrides(read, json, "roundtrip.json"));
  EXPECT_EQ(read, original);
}

TEST(DeviceProfileTest, OverridesOnlyTheGivenKeys) {
  DeviceProfile result;
  ASSERT_EQ(apply(R"({"max_work_group_size": 64, "type": "cpu",
                      "preferred_vector_width_half": 0,
                      "max_work_item_sizes": [64, 1, 1],
                      "subgroup_size": null})",
                  result),
            "");
  DeviceProfile expected = makeProfile();
  expected.maxWorkGroupSize = 64;
  expected.type = DeviceType::CPU;
  expected.preferredVectorWidth.halfWidth = 0;
  expected.maxWorkItemSizes = {64, 1, 1};
  expected.subgroupSize.reset();
  EXPECT_EQ(result, expected);

  ASSERT_EQ(apply("{}", result), "");
  EXPECT_EQ(result, makeProfile());
}

TEST(DeviceProfileTest, ErrorsNameTheFileAndKey) {
  struct Case {
    const char *json;
    const char *message;
  } cases[] = {
      {R"({"max_work_groups": 64})",
       "pretend.json: unknown key 'max_work_groups' in a device profile"},
      {R"({"max_work_group_size": "64"})",
       "pretend.json: key 'max_work_group_size': expected a non-negative "
       "integer, got \"64\""},
      {R"({"local_mem_bytes": -1})",
       "pretend.json: key 'local_mem_bytes': expected a non-negative integer, "
       "got -1"},
      {R"({"clock_mhz": 1.5})",
       "pretend.json: key 'clock_mhz': expected a non-negative integer below "
       "2^32, got 1.5"},
      {R"({"compute_units": 4294967296})",
       "pretend.json: key 'compute_units': expected a non-negative integer "
       "below 2^32, got 4294967296"},
      {R"({"max_work_item_sizes": [64, 1]})",
       "pretend.json: key 'max_work_item_sizes': expected an array of 3 "
       "non-negative integers, got [64,1]"},
      {R"({"type": "tpu"})",
       "pretend.json: key 'type': expected \"gpu\", \"cpu\" or \"other\", got "
       "\"tpu\""},
      {R"({"supports_fp64": 1})",
       "pretend.json: key 'supports_fp64': expected true or false, got 1"},
      {R"({"subgroup_size": "32"})",
       "pretend.json: key 'subgroup_size': expected null or a non-negative "
       "integer below 2^32, got \"32\""},
      {R"({"signed_zero_inf_nan_preserve": [32, 8]})",
       "pretend.json: key 'signed_zero_inf_nan_preserve': expected an array "
       "of float widths (16, 32, 64), got [32,8]"},
      {R"({"signed_zero_inf_nan_preserve": true})",
       "pretend.json: key 'signed_zero_inf_nan_preserve': expected an array "
       "of float widths (16, 32, 64), got true"},
      {R"({"denorm_preserve": [0]})",
       "pretend.json: key 'denorm_preserve': expected an array of float "
       "widths (16, 32, 64), got [0]"},
      {R"([1, 2])",
       "pretend.json: a device profile must be a JSON object, not [1,2]"},
  };
  for (const Case &c : cases) {
    DeviceProfile result;
    EXPECT_EQ(apply(c.json, result), c.message) << c.json;
    EXPECT_EQ(result, makeProfile()) << "a failed override changed " << c.json;
  }
}

TEST(DeviceProfileTest, FailureLeavesTheProfileUnchanged) {
  DeviceProfile result;
  EXPECT_NE(
      apply(R"({"max_work_group_size": 64, "compute_units": "x"})", result),
      "");
  EXPECT_EQ(result, makeProfile());
}

TEST(DeviceProfileTest, MalformedJsonSaysWhere) {
  DeviceProfile result;
  std::string message = apply("{\n  \"clock_mhz\": 10,\n  oops\n}", result);
  EXPECT_EQ(message.rfind("pretend.json: parse error at line 3, column 3", 0),
            0u)
      << message;
}

TEST(DeviceProfileTest, ProfileFile) {
  std::string path = ::testing::TempDir() + "tilec-profile-test.json";
  {
    std::ofstream file(path);
    file << R"({"name": "Small device", "max_alloc_bytes": 4096})";
  }
  DeviceProfile profile = makeProfile();
  Status status = applyProfileFile(profile, path);
  ASSERT_TRUE(status) << status.error().message();
  EXPECT_EQ(profile.name, "Small device");
  EXPECT_EQ(profile.maxAllocBytes, 4096u);
  std::remove(path.c_str());

  status = applyProfileFile(profile, path);
  ASSERT_FALSE(status);
  EXPECT_EQ(status.error().message(),
            path + ": cannot open: No such file or directory (the device "
                   "profile file)");
}

TEST(DeviceProfileTest, ProfilesThatAreNotRegularFilesAreRefused) {
  // A FIFO would block a reader until a writer came; /dev/zero never ends.
  ScopedTempDir dir;
  std::string fifo = (dir.path() / "profile.json").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (const std::string &path :
       {fifo, std::string("/dev/zero"), dir.path().string()}) {
    DeviceProfile profile = makeProfile();
    Status status = applyProfileFile(profile, path);
    ASSERT_FALSE(status) << path;
    EXPECT_NE(status.error().message().find(", not a regular file"),
              std::string::npos)
        << status.error().message();
  }
}

TEST(DeviceProfileTest, NumbersOutOfRangeAreErrorsNotExceptions) {
  // nlohmann throws out_of_range while parsing a number beyond a double.
  DeviceProfile profile = makeProfile();
  Status status = applyProfileOverrides(
      profile, "{\"max_alloc_bytes\": " + std::string(400, '9') + "}",
      "p.json");
  ASSERT_FALSE(status);
  EXPECT_EQ(status.error().message().rfind("p.json: ", 0), 0u)
      << status.error().message();
  status =
      applyProfileOverrides(profile, "{\"max_alloc_bytes\": 1e400}", "p.json");
  ASSERT_FALSE(status);
}

TEST(DeviceProfileTest, FingerprintAndSummary) {
  DeviceProfile profile = makeProfile();
  EXPECT_EQ(deviceFingerprint(profile), "Tilec Labs|Pretend GPU|1.2.3");
  profile.driverVersion = "1.2.4";
  EXPECT_EQ(deviceFingerprint(profile), "Tilec Labs|Pretend GPU|1.2.4");

  EXPECT_EQ(formatProfileSummary(makeProfile(), "> "),
            "> type gpu, 80 compute units at 1500 MHz, driver 1.2.3\n"
            "> global memory 16 GiB, max allocation 4 GiB, local memory 48 "
            "KiB\n"
            "> work-group up to 1024 items (1024 x 512 x 64) for every "
            "kernel, subgroup size 32\n"
            "> fp64 yes, fp16 yes; preferred vector widths: char 16, short 8, "
            "int 4, long 2, float 4, double 2, half 8\n"
            "> signed zeros, infinities and NaNs kept for f16, f64\n"
            "> subnormals kept for f32, f64\n"
            "> loops stop after 65535 passes per work-item\n");
  // No limit, no line.
  profile = makeProfile();
  profile.maxLoopIterations = 0;
  EXPECT_EQ(formatProfileSummary(profile, "").find("loops stop"),
            std::string::npos);
}

TEST(DeviceProfileTest, LoopLimitDefaultsToNone) {
  DeviceProfile profile;
  EXPECT_EQ(profile.maxLoopIterations, 0u);
  ASSERT_TRUE(applyProfileOverrides(profile, R"({"max_loop_iterations": 7})",
                                    "limit.json"));
  EXPECT_EQ(profile.maxLoopIterations, 7u);
  EXPECT_NE(profile, DeviceProfile());
  std::string json = profileToJson(profile);
  EXPECT_NE(json.find("\"max_loop_iterations\": 7"), std::string::npos) << json;
}

TEST(DeviceProfileTest, SignedZeroInfNanPreserveListsWidths) {
  // Every width by default: what OpenCL C keeps.
  DeviceProfile profile;
  EXPECT_EQ(profile.signedZeroInfNanPreserve, (FloatWidths{true, true, true}));
  std::string json = profileToJson(profile);
  EXPECT_NE(json.find("\"signed_zero_inf_nan_preserve\": [\n    16,\n    "
                      "32,\n    64\n  ]"),
            std::string::npos)
      << json;
  ASSERT_TRUE(applyProfileOverrides(
      profile, R"({"signed_zero_inf_nan_preserve": [64, 32]})", "f.json"));
  EXPECT_EQ(profile.signedZeroInfNanPreserve, (FloatWidths{false, true, true}));
  EXPECT_TRUE(profile.signedZeroInfNanPreserve.contains(64));
  EXPECT_FALSE(profile.signedZeroInfNanPreserve.contains(16));
  ASSERT_TRUE(applyProfileOverrides(
      profile, R"({"signed_zero_inf_nan_preserve": []})", "f.json"));
  EXPECT_EQ(profile.signedZeroInfNanPreserve, FloatWidths());
  EXPECT_NE(
      formatProfileSummary(profile, "")
          .find("signed zeros, infinities and NaNs kept for no float type\n"),
      std::string::npos);
}

TEST(DeviceProfileTest, DenormPreserveListsWidthsNoneByDefault) {
  // None by default: a module that declares the mode runs only on a device
  // that has the property, which lavapipe lacks.
  DeviceProfile profile;
  EXPECT_EQ(profile.denormPreserve, FloatWidths());
  EXPECT_NE(profileToJson(profile).find("\"denorm_preserve\": []"),
            std::string::npos);
  EXPECT_NE(formatProfileSummary(profile, "")
                .find("subnormals kept for no float type\n"),
            std::string::npos);
  ASSERT_TRUE(
      applyProfileOverrides(profile, R"({"denorm_preserve": [32]})", "f.json"));
  EXPECT_EQ(profile.denormPreserve, (FloatWidths{false, true, false}));
  EXPECT_NE(profileToJson(profile).find("\"denorm_preserve\": [\n    32\n  ]"),
            std::string::npos);
}

TEST(DeviceProfileTest, WorkGroupCountDefaultsToNoLimit) {
  DeviceProfile profile;
  EXPECT_EQ(profile.maxWorkGroupCount, (std::array<uint64_t, 3>{0, 0, 0}));
  ASSERT_TRUE(applyProfileOverrides(
      profile, R"({"max_work_group_count": [65535, 65535, 65535]})",
      "count.json"));
  EXPECT_EQ(profile.maxWorkGroupCount[0], 65535u);
  EXPECT_NE(profile, DeviceProfile());
  std::string json = profileToJson(profile);
  EXPECT_NE(json.find("\"max_work_group_count\""), std::string::npos) << json;
  EXPECT_NE(formatProfileSummary(profile, "")
                .find("work-groups per launch up to 65535 x 65535 x 65535"),
            std::string::npos);
  EXPECT_FALSE(applyProfileOverrides(
      profile, R"({"max_work_group_count": [1, 2]})", "count.json"));
}
