//===- BundleTest.cpp - The bundle's JSON file form -----------------------===//

#include "tilec/Runtime/Bundle.h"

#include "ScopedTempDir.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <fstream>
#include <functional>

using namespace tilec;
using nlohmann::json;

namespace {

/// A bundle that uses every feature of the format: two kernels, an input of
/// each kind of use, a temporary, an alias and a 2-D launch.
Bundle sampleBundle() {
  Bundle bundle;
  bundle.producer = "tilec 0.1.0";
  bundle.function = "dense";
  // SPIR-V headers (magic number, version 1.5, generator, bound, schema).
  bundle.kernels = {{"matmul_0",
                     "dense.tile:3:3",
                     2.0 * 32 * 64 * 16,
                     12416,
                     {0x07230203, 0x00010500, 0x00080001, 42, 0},
                     "kernel void matmul_0(device float *x [[buffer(0)]]) {}"},
                    {"relu_1",
                     "dense.tile:4:3",
                     512,
                     4096,
                     {0x07230203, 0x00010500, 0x00080001, 17, 0},
                     "kernel void relu_1(device float *y [[buffer(0)]]) {}"}};
  bundle.openclSource = "kernel void matmul_0(global float *x) {}\n"
                        "kernel void relu_1(global float *y) {}\n";
  using Kind = BundleBuffer::Kind;
  bundle.buffers = {{"X", Kind::Input, DType::F32, {32, 64}, std::nullopt},
                    {"W", Kind::Input, DType::F16, {64, 16}, std::nullopt},
                    {"XW", Kind::Temporary, DType::F32, {32, 16}, std::nullopt},
                    {"Y", Kind::Output, DType::F32, {512}, 2u}};
  bundle.inputs = {0, 1};
  bundle.outputs = {3};
  BundleLaunch matmul;
  matmul.kernel = 0;
  matmul.dims = 2;
  matmul.globalSize = {32, 16, 1};
  matmul.localSize = {8, 4, 1};
  matmul.args = {0, 1, 2};
  BundleLaunch relu;
  relu.kernel = 1;
  relu.dims = 1;
  relu.globalSize = {512, 1, 1};
  relu.localSize = {64, 1, 1};
  relu.args = {2, 3};
  bundle.launches = {matmul, relu};
  // What each kernel addresses, and the geometry it was generated for.
  bundle.kernels[0].params = {{DType::F32, 2048, false, true},
                              {DType::F16, 1024, false, true},
                              {DType::F32, 512, true, false}};
  bundle.kernels[0].dims = 2;
  bundle.kernels[0].globalSize = matmul.globalSize;
  bundle.kernels[0].localSize = matmul.localSize;
  bundle.kernels[1].params = {{DType::F32, 512, false, true},
                              {DType::F32, 512, true, false}};
  bundle.kernels[1].globalSize = relu.globalSize;
  bundle.kernels[1].localSize = relu.localSize;
  bundle.explanation = "matmul_0: 8x4 work-groups\n";
  return bundle;
}

void expectSameBundle(const Bundle &actual, const Bundle &expected) {
  EXPECT_EQ(actual.producer, expected.producer);
  EXPECT_EQ(actual.function, expected.function);
  EXPECT_EQ(actual.openclSource, expected.openclSource);
  EXPECT_EQ(actual.explanation, expected.explanation);
  EXPECT_EQ(actual.inputs, expected.inputs);
  EXPECT_EQ(actual.outputs, expected.outputs);
  ASSERT_EQ(actual.kernels.size(), expected.kernels.size());
  for (size_t i = 0; i < actual.kernels.size(); ++i) {
    EXPECT_EQ(actual.kernels[i].name, expected.kernels[i].name);
    EXPECT_EQ(actual.kernels[i].sourceLocation,
              expected.kernels[i].sourceLocation);
    EXPECT_EQ(actual.kernels[i].flops, expected.kernels[i].flops);
    EXPECT_EQ(actual.kernels[i].bytes, expected.kernels[i].bytes);
    EXPECT_EQ(actual.kernels[i].spirv, expected.kernels[i].spirv);
    EXPECT_EQ(actual.kernels[i].msl, expected.kernels[i].msl);
    ASSERT_EQ(actual.kernels[i].params.size(),
              expected.kernels[i].params.size());
    for (size_t p = 0; p < actual.kernels[i].params.size(); ++p) {
      EXPECT_EQ(actual.kernels[i].params[p].dtype,
                expected.kernels[i].params[p].dtype);
      EXPECT_EQ(actual.kernels[i].params[p].elements,
                expected.kernels[i].params[p].elements);
      EXPECT_EQ(actual.kernels[i].params[p].written,
                expected.kernels[i].params[p].written);
      EXPECT_EQ(actual.kernels[i].params[p].read,
                expected.kernels[i].params[p].read);
    }
    EXPECT_EQ(actual.kernels[i].dims, expected.kernels[i].dims);
    EXPECT_EQ(actual.kernels[i].globalSize, expected.kernels[i].globalSize);
    EXPECT_EQ(actual.kernels[i].localSize, expected.kernels[i].localSize);
  }
  ASSERT_EQ(actual.buffers.size(), expected.buffers.size());
  for (size_t i = 0; i < actual.buffers.size(); ++i) {
    EXPECT_EQ(actual.buffers[i].name, expected.buffers[i].name);
    EXPECT_EQ(actual.buffers[i].kind, expected.buffers[i].kind);
    EXPECT_EQ(actual.buffers[i].dtype, expected.buffers[i].dtype);
    EXPECT_EQ(actual.buffers[i].shape, expected.buffers[i].shape);
    EXPECT_EQ(actual.buffers[i].aliasOf, expected.buffers[i].aliasOf);
    ASSERT_EQ(actual.buffers[i].pieceOf.has_value(),
              expected.buffers[i].pieceOf.has_value());
    if (expected.buffers[i].pieceOf) {
      EXPECT_EQ(actual.buffers[i].pieceOf->whole,
                expected.buffers[i].pieceOf->whole);
      EXPECT_EQ(actual.buffers[i].pieceOf->byteOffset,
                expected.buffers[i].pieceOf->byteOffset);
    }
  }
  ASSERT_EQ(actual.launches.size(), expected.launches.size());
  for (size_t i = 0; i < actual.launches.size(); ++i) {
    const BundleLaunch &a = actual.launches[i], &e = expected.launches[i];
    EXPECT_EQ(a.kernel, e.kernel);
    EXPECT_EQ(a.dims, e.dims);
    EXPECT_EQ(a.globalSize, e.globalSize);
    EXPECT_EQ(a.localSize, e.localSize);
    EXPECT_EQ(a.args, e.args);
  }
}

/// The sample bundle with X (32x64 f32, 8192 bytes) stored as two pieces of
/// 16 rows, buffers 4 and 5, each taken by one launch of the first kernel.
Bundle splitBundle() {
  Bundle bundle = sampleBundle();
  using Kind = BundleBuffer::Kind;
  bundle.buffers.push_back({"X.0",
                            Kind::Piece,
                            DType::F32,
                            {16, 64},
                            std::nullopt,
                            BufferPiece{0, 0}});
  bundle.buffers.push_back({"X.1",
                            Kind::Piece,
                            DType::F32,
                            {16, 64},
                            std::nullopt,
                            BufferPiece{0, 4096}});
  BundleLaunch second = bundle.launches[0];
  bundle.launches[0].args[0] = 4;
  second.args[0] = 5;
  bundle.launches.insert(bundle.launches.begin() + 1, second);
  // The kernel now addresses a piece of X.
  bundle.kernels[0].params[0].elements = 1024;
  return bundle;
}

/// The error of parsing `bundle` after `edit` changed its JSON.
std::string errorAfter(const std::function<void(json &)> &edit,
                       const Bundle &bundle = sampleBundle()) {
  json object = json::parse(serializeBundle(bundle));
  edit(object);
  Expected<Bundle> parsed = parseBundle(object.dump(), "b.json");
  if (parsed)
    return "(parsed)";
  return parsed.error().message();
}

} // namespace

TEST(BundleTest, RoundTripsThroughJson) {
  Bundle bundle = sampleBundle();
  std::string text = serializeBundle(bundle);
  Expected<Bundle> parsed = parseBundle(text, "b.json");
  ASSERT_TRUE(parsed) << parsed.error().message();
  expectSameBundle(*parsed, bundle);
  // Serialising again gives the same text: nothing is lost or reordered.
  EXPECT_EQ(serializeBundle(*parsed), text);
}

TEST(BundleTest, FileFormIsReadableJsonWithFormatAndVersion) {
  json object = json::parse(serializeBundle(sampleBundle()));
  EXPECT_EQ(object["format"], "tilec-bundle");
  EXPECT_EQ(object["version"], kBundleFormatVersion);
  EXPECT_EQ(object["buffers"][3]["alias_of"], 2);
  EXPECT_EQ(object["buffers"][0]["alias_of"], nullptr);
  EXPECT_EQ(object["buffers"][1]["dtype"], "f16");
  EXPECT_EQ(object["buffers"][2]["kind"], "temporary");
  EXPECT_EQ(object["launches"][0]["global_size"], json::array({32, 16}));
  EXPECT_EQ(object["launches"][1]["local_size"], json::array({64}));
}

TEST(BundleTest, SPIRVIsBase64OfLittleEndianWords) {
  Bundle bundle = sampleBundle();
  // 4, 8 and 12 bytes: base64 with two, one and no padding characters
  // (the texts of Python's base64.b64encode of the bytes).
  const char *texts[] = {"AwIjBw==", "AwIjBwAFAQA=", "AwIjBwAFAQDvvq3e"};
  for (size_t count : {1, 2, 3}) {
    std::vector<uint32_t> &words = bundle.kernels[1].spirv;
    words = {0x07230203, 0x00010500, 0xdeadbeef};
    words.resize(count);
    std::string text = serializeBundle(bundle);
    EXPECT_EQ(json::parse(text)["kernels"][1]["spirv"], texts[count - 1]);
    Expected<Bundle> parsed = parseBundle(text, "b.json");
    ASSERT_TRUE(parsed) << parsed.error().message();
    EXPECT_EQ(parsed->kernels[1].spirv, words);
  }
  bundle.kernels[1].spirv = {0x07230203};
  json object = json::parse(serializeBundle(bundle));
  EXPECT_EQ(object["kernels"][1]["spirv"], "AwIjBw==");
  EXPECT_EQ(object["kernels"][1]["msl"],
            "kernel void relu_1(device float *y [[buffer(0)]]) {}");
}

TEST(BundleTest, SPIRVGoesIntoItsOwnKernelWhateverTheStringsSay) {
  // serializeBundle writes each kernel's base64 into the dumped text: the
  // text is that of a plain dump, even where other strings hold the key.
  Bundle bundle = sampleBundle();
  bundle.kernels[0].spirv = {0x07230203};
  bundle.kernels[1].spirv = {0x07230203, 0x00010500};
  bundle.kernels[0].sourceLocation = "\"spirv\": \"\"";
  bundle.kernels[1].msl = "// \"spirv\": \"\" and \\\"spirv\\\": \"\"";
  bundle.explanation = "\"spirv\": \"\"";
  std::string text = serializeBundle(bundle);
  json object = json::parse(text);
  EXPECT_EQ(object["kernels"][0]["spirv"], "AwIjBw==");
  EXPECT_EQ(object["kernels"][1]["spirv"], "AwIjBwAFAQA=");
  EXPECT_EQ(object["kernels"][0]["source_location"], "\"spirv\": \"\"");
  EXPECT_EQ(object["kernels"][1]["msl"], bundle.kernels[1].msl);
  EXPECT_EQ(object["explanation"], "\"spirv\": \"\"");
  EXPECT_EQ(nlohmann::ordered_json::parse(text).dump(2) + "\n", text);
}

TEST(BundleTest, BundlesWithoutSPIRVOrMSLAreRead) {
  Bundle bundle = sampleBundle();
  for (BundleKernel &kernel : bundle.kernels) {
    kernel.spirv.clear();
    kernel.msl.clear();
  }
  json object = json::parse(serializeBundle(bundle));
  EXPECT_EQ(object["kernels"][0]["spirv"], "");
  EXPECT_EQ(object["kernels"][0]["msl"], "");
  Expected<Bundle> parsed = parseBundle(object.dump(), "b.json");
  ASSERT_TRUE(parsed) << parsed.error().message();
  expectSameBundle(*parsed, bundle);
}

TEST(BundleTest, EveryKernelOrNoneHasSPIRV) {
  EXPECT_EQ(errorAfter([](json &b) { b["kernels"][1]["spirv"] = ""; }),
            "b.json: inconsistent bundle: kernels[1]: 'relu_1' has no SPIR-V "
            "module but kernels[0] ('matmul_0') has one");
  EXPECT_EQ(errorAfter([](json &b) { b["kernels"][0]["spirv"] = ""; }),
            "b.json: inconsistent bundle: kernels[1]: 'relu_1' has SPIR-V but "
            "kernels[0] ('matmul_0') has none");
}

TEST(BundleTest, CorruptSPIRVIsRefused) {
  auto withSPIRV = [](const char *text) {
    return errorAfter([&](json &b) { b["kernels"][1]["spirv"] = text; });
  };
  EXPECT_EQ(withSPIRV("AwIj*w=="), "b.json: kernels[1].spirv: not base64: the "
                                   "character '*' at offset 4");
  EXPECT_EQ(withSPIRV("AwI=jBw="), "b.json: kernels[1].spirv: not base64: the "
                                   "character '=' at offset 3");
  EXPECT_EQ(withSPIRV("AwIjB"), "b.json: kernels[1].spirv: not base64: its "
                                "length, 5, is not a multiple of 4");
  EXPECT_EQ(withSPIRV("AwIj"), "b.json: kernels[1].spirv: 3 bytes are not a "
                               "whole number of 32-bit words");
  EXPECT_EQ(withSPIRV("AAAAAA=="),
            "b.json: kernels[1].spirv: not a SPIR-V module: its first word is "
            "0x00000000, not the magic number 0x07230203");
  EXPECT_EQ(errorAfter([](json &b) { b["kernels"][0]["spirv"] = 7; }),
            "b.json: kernels[0].spirv: expected a string, got 7");
  EXPECT_EQ(errorAfter([](json &b) { b["kernels"][0].erase("spirv"); }),
            "b.json: kernels[0]: the key 'spirv' is missing");
  EXPECT_EQ(errorAfter([](json &b) { b["kernels"][0]["msl"] = nullptr; }),
            "b.json: kernels[0].msl: expected a string, got null");
}

TEST(BundleTest, UnknownKeysAreIgnored) {
  EXPECT_EQ(errorAfter([](json &b) { b["spirv_binary"] = "AAAA"; }),
            "(parsed)");
}

TEST(BundleTest, WritesAndReadsFilesAtomically) {
  ScopedTempDir dir;
  std::string path = dir.file("b.json");
  ASSERT_TRUE(writeBundle(path, sampleBundle()));
  Expected<Bundle> read = readBundle(path);
  ASSERT_TRUE(read) << read.error().message();
  expectSameBundle(*read, sampleBundle());
  // Only the bundle itself: no temporary file is left behind.
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path()),
                          std::filesystem::directory_iterator()),
            1);
}

TEST(BundleTest, FailedWriteLeavesNothing) {
  ScopedTempDir dir;
  std::string path = dir.file("missing/b.json");
  Status written = writeBundle(path, sampleBundle());
  ASSERT_FALSE(written);
  EXPECT_EQ(written.error().message().rfind(path + ": cannot", 0), 0u)
      << written.error().message();
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

TEST(BundleTest, MissingFileIsAnError) {
  ScopedTempDir dir;
  std::string path = dir.file("none.json");
  Expected<Bundle> read = readBundle(path);
  ASSERT_FALSE(read);
  EXPECT_EQ(read.error().message(),
            path + ": cannot open: No such file or directory");
}

TEST(BundleTest, TruncatedAndCorruptFilesAreRefused) {
  std::string text = serializeBundle(sampleBundle());
  for (size_t length :
       {size_t(0), size_t(1), text.size() / 2, text.size() - 3}) {
    Expected<Bundle> parsed = parseBundle(text.substr(0, length), "b.json");
    ASSERT_FALSE(parsed) << "length " << length;
    EXPECT_EQ(parsed.error().message().rfind(
                  "b.json: not a valid bundle file (truncated or corrupt): "
                  "parse error at line ",
                  0),
              0u)
        << parsed.error().message();
  }
}

TEST(BundleTest, OtherFormatsAndVersionsAreRefused) {
  Expected<Bundle> array = parseBundle("[1, 2]", "b.json");
  ASSERT_FALSE(array);
  EXPECT_EQ(array.error().message(),
            "b.json: not a tilec bundle (no \"format\": \"tilec-bundle\")");
  EXPECT_EQ(errorAfter([](json &b) { b["format"] = "npy"; }),
            "b.json: not a tilec bundle (no \"format\": \"tilec-bundle\")");
  EXPECT_EQ(
      errorAfter([](json &b) { b["version"] = kBundleFormatVersion + 1; }),
      "b.json: bundle format version 6 is not supported: this runtime "
      "reads version 5 (recompile the program with this tilec)");
  EXPECT_EQ(errorAfter([](json &b) { b.erase("version"); }),
            "b.json: bundle format version null is not supported: this "
            "runtime reads version 5 (recompile the program with this tilec)");
  EXPECT_EQ(errorAfter([](json &b) { b["version"] = "3"; }),
            "b.json: bundle format version \"3\" is not supported: this "
            "runtime reads version 5 (recompile the program with this tilec)");
  // Version 1 had no pieces, version 2 one SPIR-V module for all kernels,
  // version 3 no kernel signatures and version 4 no zeroed temporaries;
  // their files are refused, not misread.
  for (int old : {1, 2, 3, 4})
    EXPECT_EQ(errorAfter([&](json &b) { b["version"] = old; }),
              "b.json: bundle format version " + std::to_string(old) +
                  " is not supported: this runtime reads version 5 "
                  "(recompile the program with this tilec)");
}

TEST(BundleTest, WrongTypesNameTheField) {
  EXPECT_EQ(errorAfter([](json &b) { b.erase("opencl_source"); }),
            "b.json: the key 'opencl_source' is missing");
  EXPECT_EQ(errorAfter([](json &b) { b["function"] = 3; }),
            "b.json: function: expected a string, got 3");
  EXPECT_EQ(errorAfter([](json &b) { b["kernels"] = "k"; }),
            "b.json: kernels: expected an array, got \"k\"");
  EXPECT_EQ(errorAfter([](json &b) { b["kernels"][1] = 7; }),
            "b.json: kernels[1]: expected an object, got 7");
  EXPECT_EQ(errorAfter([](json &b) { b["kernels"][0]["flops"] = "many"; }),
            "b.json: kernels[0].flops: expected a non-negative number, got "
            "\"many\"");
  EXPECT_EQ(errorAfter([](json &b) { b["kernels"][1].erase("name"); }),
            "b.json: kernels[1]: the key 'name' is missing");
  EXPECT_EQ(errorAfter([](json &b) { b["buffers"][1]["dtype"] = "f33"; }),
            "b.json: buffers[1].dtype: expected a dtype (\"f32\", \"i8\", "
            "...), got \"f33\"");
  EXPECT_EQ(errorAfter([](json &b) { b["buffers"][0]["shape"][1] = -4; }),
            "b.json: buffers[0].shape[1]: expected a non-negative integer "
            "below 2^63, got -4");
  EXPECT_EQ(errorAfter([](json &b) { b["buffers"][2]["kind"] = "scratch"; }),
            "b.json: buffers[2].kind: expected \"input\", \"output\", "
            "\"temporary\" or \"piece\", got \"scratch\"");
  EXPECT_EQ(errorAfter([](json &b) { b["buffers"][2].erase("piece_of"); }),
            "b.json: buffers[2]: the key 'piece_of' is missing");
  EXPECT_EQ(errorAfter([](json &b) { b["buffers"][2]["piece_of"] = 3; }),
            "b.json: buffers[2].piece_of: expected null or an object, got 3");
  EXPECT_EQ(errorAfter([](json &b) {
              b["buffers"][2]["piece_of"] = {{"buffer", 0}};
            }),
            "b.json: buffers[2].piece_of: the key 'byte_offset' is missing");
  EXPECT_EQ(errorAfter([](json &b) { b["buffers"][3]["alias_of"] = -1; }),
            "b.json: buffers[3].alias_of: expected a non-negative integer "
            "below 2^32, got -1");
  EXPECT_EQ(errorAfter([](json &b) {
              b["inputs"] = {0, "W"};
            }),
            "b.json: inputs[1]: expected a non-negative integer below 2^32, "
            "got \"W\"");
  EXPECT_EQ(errorAfter([](json &b) { b["launches"][0]["args"] = 1; }),
            "b.json: launches[0].args: expected an array, got 1");
  EXPECT_EQ(
      errorAfter([](json &b) { b["launches"][0]["global_size"][0] = 1.5; }),
      "b.json: launches[0].global_size[0]: expected a non-negative "
      "integer, got 1.5");
}

TEST(BundleTest, BadLaunchGeometryIsRefused) {
  EXPECT_EQ(errorAfter([](json &b) {
              b["launches"][1]["global_size"] = json::array();
              b["launches"][1]["local_size"] = json::array();
            }),
            "b.json: launches[1]: a launch has 1 to 3 dimensions, not 0");
  EXPECT_EQ(errorAfter([](json &b) {
              b["launches"][1]["global_size"] = {8, 8, 8, 8};
              b["launches"][1]["local_size"] = {1, 1, 1, 1};
            }),
            "b.json: launches[1]: a launch has 1 to 3 dimensions, not 4");
  EXPECT_EQ(errorAfter([](json &b) {
              b["launches"][0]["local_size"] = json::array({8});
            }),
            "b.json: launches[0]: the local size has 1 dimensions but the "
            "global size 2");
  EXPECT_EQ(errorAfter([](json &b) {
              b["launches"][0]["global_size"] = {33, 16};
            }),
            "b.json: launches[0]: the global size 33 of dimension 0 is not a "
            "multiple of the local size 8");
  EXPECT_EQ(errorAfter([](json &b) {
              b["launches"][1]["local_size"] = json::array({0});
            }),
            "b.json: launches[1]: the global size 512 of dimension 0 is not a "
            "multiple of the local size 0");
}

TEST(BundleTest, InconsistentBundlesAreRefused) {
  const std::string prefix = "b.json: inconsistent bundle: ";
  EXPECT_EQ(errorAfter([](json &b) { b["launches"][1]["kernel"] = 2; }),
            prefix + "launches[1].kernel: 2 is out of range (the bundle has "
                     "2 kernels)");
  EXPECT_EQ(errorAfter([](json &b) { b["launches"][0]["args"][2] = 9; }),
            prefix + "launches[0].args[2]: buffer 9 is out of range (the "
                     "bundle has 4 buffers)");
  EXPECT_EQ(errorAfter([](json &b) { b["inputs"][1] = 4; }),
            prefix + "inputs[1]: buffer 4 is out of range (the bundle has 4 "
                     "buffers)");
  EXPECT_EQ(errorAfter([](json &b) { b["inputs"][1] = 0; }),
            prefix + "inputs[1]: buffer 0 ('X') is listed twice");
  EXPECT_EQ(errorAfter([](json &b) { b["inputs"] = json::array({0}); }),
            prefix + "inputs: buffer 1 ('W') is an input but is not listed");
  EXPECT_EQ(errorAfter([](json &b) { b["outputs"] = json::array({2}); }),
            prefix + "outputs[0]: buffer 2 ('XW') is not an output");
  EXPECT_EQ(errorAfter([](json &b) { b["buffers"][0]["zeroed"] = true; }),
            prefix + "buffers[0]: 'X' is zeroed, which only a temporary with "
                     "storage of its own can be");
  EXPECT_EQ(errorAfter([](json &b) { b["buffers"][3]["zeroed"] = true; }),
            prefix + "buffers[3]: 'Y' is zeroed, which only a temporary with "
                     "storage of its own can be");
  EXPECT_EQ(errorAfter([](json &b) { b["buffers"][3]["alias_of"] = 7; }),
            prefix + "buffers[3].alias_of: 7 is out of range (the bundle has "
                     "4 buffers)");
  EXPECT_EQ(errorAfter(
                [](json &b) { b["buffers"][3]["shape"] = json::array({511}); }),
            prefix + "buffers[3]: 'Y' holds 2044 bytes but its alias target "
                     "buffer 2 ('XW') holds 2048");
  EXPECT_EQ(errorAfter([](json &b) { b["buffers"][3]["alias_of"] = 3; }),
            prefix + "buffers[3]: 'Y' is an alias of buffer 3 ('Y'), which "
                     "does not own its storage (aliases must name a buffer "
                     "that does)");
  EXPECT_EQ(errorAfter([](json &b) {
              b["buffers"][2]["alias_of"] = 0;
              b["buffers"][2]["shape"] = {16, 128};
            }),
            prefix + "buffers[3]: 'Y' is an alias of buffer 2 ('XW'), which "
                     "does not own its storage (aliases must name a buffer "
                     "that does)");
  EXPECT_EQ(errorAfter([](json &b) { b["buffers"][1]["alias_of"] = 0; }),
            prefix + "buffers[1]: input 'W' cannot be an alias; inputs own "
                     "their storage");
  EXPECT_EQ(errorAfter([](json &b) { b["buffers"][2]["name"] = "X"; }),
            prefix + "buffers[2]: a second buffer named 'X'");
  EXPECT_EQ(errorAfter([](json &b) {
              b["buffers"][2]["shape"] = {4294967296, 4294967296};
            }),
            prefix + "buffers[2]: the size of 'XW' overflows");
}

TEST(BundleTest, LaunchesAreCheckedAgainstTheirKernels) {
  const std::string prefix = "b.json: inconsistent bundle: ";
  // No launch at all: the outputs would be whatever the memory held.
  EXPECT_EQ(errorAfter([](json &b) { b["launches"] = json::array(); }),
            prefix + "outputs[0]: no launch writes buffer 3 ('Y') (the "
                     "bundle has no launches)");
  // An output no launch writes (Y shares XW's storage, which matmul_0
  // writes, until it has its own).
  EXPECT_EQ(errorAfter([](json &b) {
              b["buffers"][3]["alias_of"] = nullptr;
              b["launches"].erase(1);
            }),
            prefix + "outputs[0]: no launch writes buffer 3 ('Y')");
  // Arguments in the wrong order.
  EXPECT_EQ(errorAfter([](json &b) {
              b["launches"][0]["args"] = {2, 1, 0};
            }),
            prefix + "launches[0].args[0]: buffer 2 ('XW') is f32[32, 16], "
                     "but argument 0 of kernel 'matmul_0' is 2048 elements "
                     "of f32");
  EXPECT_EQ(errorAfter([](json &b) {
              b["launches"][0]["args"] = {0, 1};
            }),
            prefix + "launches[0].args: 2 arguments, but kernel 'matmul_0' "
                     "takes 3");
  // A buffer smaller than the kernel addresses: it would write past it.
  EXPECT_EQ(errorAfter([](json &b) {
              b["buffers"][2]["shape"] = {32, 8};
              b["buffers"][3]["shape"] = {256};
            }),
            prefix + "launches[0].args[2]: buffer 2 ('XW') is f32[32, 8], "
                     "but argument 2 of kernel 'matmul_0' is 512 elements "
                     "of f32");
  EXPECT_EQ(errorAfter([](json &b) { b["buffers"][1]["dtype"] = "f32"; }),
            prefix + "launches[0].args[1]: buffer 1 ('W') is f32[64, 16], "
                     "but argument 1 of kernel 'matmul_0' is 1024 elements "
                     "of f16");
  // A kernel that writes an input.
  EXPECT_EQ(errorAfter([](json &b) {
              b["kernels"][0]["params"][0]["written"] = true;
            }),
            prefix + "launches[0].args[0]: kernel 'matmul_0' writes argument "
                     "0, but buffer 0 ('X') holds an input");
  // An argument the kernel does not read may be a buffer nothing wrote yet
  // (a reduction's first pass takes its output and leaves it alone).
  EXPECT_EQ(errorAfter([](json &b) {
              b["kernels"][1]["params"][0]["read"] = false;
              std::swap(b["launches"][0], b["launches"][1]);
            }),
            "(parsed)");
  // Launches in the wrong order read what nothing wrote yet.
  EXPECT_EQ(errorAfter(
                [](json &b) { std::swap(b["launches"][0], b["launches"][1]); }),
            prefix + "launches[0].args[0]: kernel 'relu_1' reads buffer 2 "
                     "('XW') before any launch writes it");
  // Another geometry than the kernel's, and one beyond 64-bit counts.
  EXPECT_EQ(errorAfter([](json &b) {
              b["launches"][0]["global_size"] = {uint64_t(1) << 40, uint64_t(1)
                                                                        << 40};
            }),
            prefix + "launches[0].global_size: [1099511627776, "
                     "1099511627776] is not the global size [32, 16] that "
                     "kernel 'matmul_0' was generated for");
  EXPECT_EQ(errorAfter([](json &b) {
              b["launches"][0]["local_size"] = {4, 4};
            }),
            prefix + "launches[0].local_size: [4, 4] is not the local size "
                     "[8, 4] that kernel 'matmul_0' was generated for");
  EXPECT_EQ(
      errorAfter([](json &b) {
        for (json *sized : {&b["launches"][0], &b["kernels"][0]})
          (*sized)["global_size"] = {uint64_t(1) << 40, uint64_t(1) << 40};
      }),
      prefix + "launches[0].global_size: [1099511627776, "
               "1099511627776] has more than 2^64 work-items");
  // The signature is part of the format.
  EXPECT_EQ(errorAfter([](json &b) { b["kernels"][0].erase("params"); }),
            "b.json: kernels[0]: the key 'params' is missing");
  EXPECT_EQ(errorAfter(
                [](json &b) { b["kernels"][0]["params"][2]["elements"] = -1; }),
            "b.json: kernels[0].params[2].elements: expected a non-negative "
            "integer, got -1");
}

TEST(BundleTest, BundlesBuiltInMemoryAreValidatedToo) {
  Bundle bundle = sampleBundle();
  EXPECT_TRUE(validateBundle(bundle));
  bundle.kernels[0].params.clear();
  Status status = validateBundle(bundle);
  ASSERT_FALSE(status);
  EXPECT_EQ(status.error().message(),
            "inconsistent bundle: launches[0].args: 3 arguments, but kernel "
            "'matmul_0' takes 0");
}

TEST(BundleTest, NumbersBeyondTheirTypesAreErrorsNotExceptions) {
  // nlohmann throws out_of_range (not parse_error) on a number that no
  // double holds; it used to escape and abort tile-run.
  json object = json::parse(serializeBundle(sampleBundle()));
  std::string text = object.dump();
  std::string version = "\"version\":" + std::to_string(kBundleFormatVersion);
  size_t at = text.find(version);
  ASSERT_NE(at, std::string::npos);
  text.replace(at, version.size(), "\"version\":" + std::string(400, '7'));
  Expected<Bundle> parsed = parseBundle(text, "b.json");
  ASSERT_FALSE(parsed);
  EXPECT_EQ(parsed.error().message().rfind(
                "b.json: not a valid bundle file (truncated or corrupt): "
                "number overflow parsing '777",
                0),
            0u)
      << parsed.error().message();
}

TEST(BundleTest, PiecesRoundTripThroughJson) {
  Bundle bundle = splitBundle();
  std::string text = serializeBundle(bundle);
  Expected<Bundle> parsed = parseBundle(text, "b.json");
  ASSERT_TRUE(parsed) << parsed.error().message();
  expectSameBundle(*parsed, bundle);
  EXPECT_EQ(serializeBundle(*parsed), text);

  json object = json::parse(text);
  EXPECT_EQ(object["buffers"][5]["kind"], "piece");
  EXPECT_EQ(object["buffers"][5]["piece_of"],
            json({{"buffer", 0}, {"byte_offset", 4096}}));
  EXPECT_EQ(object["buffers"][0]["piece_of"], nullptr);
}

TEST(BundleTest, PiecesThatDoNotTileTheirTensorAreRefused) {
  const std::string prefix = "b.json: inconsistent bundle: ";
  Bundle split = splitBundle();
  auto errorOf = [&](const std::function<void(json &)> &edit) {
    return errorAfter(edit, split);
  };
  EXPECT_EQ(errorOf([](json &b) { b["buffers"][4]["piece_of"] = nullptr; }),
            prefix + "buffers[4]: 'X.0' is a piece without 'piece_of'");
  EXPECT_EQ(errorOf([](json &b) {
              b["buffers"][2]["piece_of"] = {{"buffer", 0}, {"byte_offset", 0}};
            }),
            prefix + "buffers[2]: 'XW' has 'piece_of' but is not a piece");
  EXPECT_EQ(errorOf([](json &b) { b["buffers"][5]["piece_of"]["buffer"] = 9; }),
            prefix + "buffers[5].piece_of.buffer: 9 is out of range (the "
                     "bundle has 6 buffers)");
  EXPECT_EQ(errorOf([](json &b) { b["buffers"][5]["piece_of"]["buffer"] = 4; }),
            prefix + "buffers[5]: 'X.1' is a piece of buffer 4 ('X.0'), "
                     "which is not a whole tensor (a piece or an alias)");
  EXPECT_EQ(errorOf([](json &b) { b["buffers"][5]["dtype"] = "i32"; }),
            prefix + "buffers[5]: piece 'X.1' is i32 but its tensor buffer 0 "
                     "('X') is f32");
  // A gap, an overlap, pieces out of order, bytes left over.
  EXPECT_EQ(errorOf([](json &b) {
              b["buffers"][5]["piece_of"]["byte_offset"] = 4100;
            }),
            prefix + "buffers[5]: piece 'X.1' starts at byte 4100 of buffer "
                     "0 ('X'), but its pieces so far end at byte 4096 "
                     "(pieces cover their tensor in order, without gaps or "
                     "overlaps)");
  EXPECT_EQ(errorOf([](json &b) {
              b["buffers"][5]["piece_of"]["byte_offset"] = 4092;
            }),
            prefix + "buffers[5]: piece 'X.1' starts at byte 4092 of buffer "
                     "0 ('X'), but its pieces so far end at byte 4096 "
                     "(pieces cover their tensor in order, without gaps or "
                     "overlaps)");
  EXPECT_EQ(errorOf([](json &b) {
              b["buffers"][4]["piece_of"]["byte_offset"] = 4096;
              b["buffers"][5]["piece_of"]["byte_offset"] = 0;
            }),
            prefix + "buffers[4]: piece 'X.0' starts at byte 4096 of buffer "
                     "0 ('X'), but its pieces so far end at byte 0 (pieces "
                     "cover their tensor in order, without gaps or "
                     "overlaps)");
  EXPECT_EQ(errorOf([](json &b) {
              b["buffers"][5]["shape"] = {15, 64};
            }),
            prefix + "buffers[0]: the pieces of 'X' cover 7936 of its 8192 "
                     "bytes");
  // A tensor stored as pieces has no storage: launches and aliases cannot
  // name it.
  EXPECT_EQ(errorOf([](json &b) { b["launches"][1]["args"][0] = 0; }),
            prefix + "launches[1].args[0]: buffer 0 ('X') is stored as "
                     "pieces; a launch takes its pieces");
  EXPECT_EQ(errorOf([](json &b) {
              b["buffers"][3]["alias_of"] = 0;
              b["buffers"][3]["shape"] = {2048};
            }),
            prefix + "buffers[3]: 'Y' is an alias of buffer 0 ('X'), which "
                     "is stored as pieces");
  EXPECT_EQ(errorOf([](json &b) {
              b["buffers"][3]["alias_of"] = 4;
              b["buffers"][3]["shape"] = {1024};
            }),
            prefix + "buffers[3]: 'Y' is an alias of buffer 4 ('X.0'), a "
                     "piece (aliases name a whole tensor)");
  EXPECT_EQ(errorOf([](json &b) {
              b["buffers"][4]["alias_of"] = 2;
              b["buffers"][4]["shape"] = {8, 64};
            }),
            prefix + "buffers[4]: piece 'X.0' cannot be an alias");
}
