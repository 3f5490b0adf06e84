//===- NpyNumPyTest.cpp - .npy files agree with NumPy's -------------------===//
//
// NumPy writes files that readNpy must read, and reads the files writeNpy
// writes. Skipped where /usr/bin/python3 lacks numpy.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/Npy.h"

#include "ScopedTempDir.h"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>

#include <gtest/gtest.h>

using namespace tilec;

namespace {

/// One array, spelled both in NumPy and as the values tilec must see.
struct NumPyCase {
  const char *name;
  /// A NumPy expression for the array; bf16, which NumPy lacks, is its bit
  /// patterns viewed as 'V2'.
  const char *python;
  DType type;
  Shape shape;
  std::vector<double> values;
};

} // namespace

static const double kInf = std::numeric_limits<double>::infinity();

static const NumPyCase kCases[] = {
    {"bool", "np.array([True, False, True])", DType::Bool, {3}, {1, 0, 1}},
    {"i8",
     "np.array([-128, 127, -1], np.int8)",
     DType::I8,
     {3},
     {-128, 127, -1}},
    {"i16",
     "np.array([[-32768, 32767], [-1, 2]], np.int16)",
     DType::I16,
     {2, 2},
     {-32768, 32767, -1, 2}},
    {"i32",
     "np.array([-2**31, 2**31 - 1], np.int32)",
     DType::I32,
     {2},
     {-2147483648.0, 2147483647.0}},
    {"i64",
     "np.array([-2**63, 2**63 - 1024, -1], np.int64)",
     DType::I64,
     {3},
     {-std::ldexp(1, 63), std::ldexp(1, 63) - 1024, -1}},
    {"u8", "np.array([0, 255, 7], np.uint8)", DType::U8, {3}, {0, 255, 7}},
    {"u16", "np.array([65535, 1], np.uint16)", DType::U16, {2}, {65535, 1}},
    {"u32",
     "np.array([2**32 - 1, 1], np.uint32)",
     DType::U32,
     {2},
     {4294967295.0, 1}},
    {"u64",
     "np.array([2**64 - 2048, 1], np.uint64)",
     DType::U64,
     {2},
     {std::ldexp(1, 64) - 2048, 1}},
    {"f16",
     "np.array([1.5, -65504, 2**-24, np.inf], np.float16)",
     DType::F16,
     {4},
     {1.5, -65504, std::ldexp(1, -24), kInf}},
    {"bf16",
     "np.array([0x3F80, 0xC020, 0x0001, 0xFF80], np.uint16).view('V2')",
     DType::BF16,
     {4},
     {1, -2.5, std::ldexp(1, -133), -kInf}},
    {"f32",
     "np.array([0.1, -3e38, 1e-45], np.float32)",
     DType::F32,
     {3},
     {double(0.1f), double(-3e38f), double(1e-45f)}},
    {"f64",
     "np.array([3.141592653589793, -0.0, 1e300, 5e-324])",
     DType::F64,
     {4},
     {3.141592653589793, -0.0, 1e300, 5e-324}},
    {"scalar", "np.array(2.5, np.float32)", DType::F32, {}, {2.5}},
    {"empty", "np.zeros((2, 0, 3), np.int32)", DType::I32, {2, 0, 3}, {}},
};

class NpyNumPyTest : public testing::Test {
protected:
  void SetUp() override {
    if (std::system("/usr/bin/python3 -c 'import numpy' 2>/dev/null") != 0)
      GTEST_SKIP() << "/usr/bin/python3 with numpy is not available";
  }

  /// Runs `body` as a Python script after a prelude that defines `cases`
  /// (name -> array) and `directory`; returns its exit status.
  int runPython(const std::string &body) {
    std::string script = "import sys\nimport numpy as np\n"
                         "from numpy.lib import format\n"
                         "directory = sys.argv[1]\ncases = {\n";
    for (const NumPyCase &test : kCases)
      script += "    '" + std::string(test.name) + "': " + test.python + ",\n";
    script += "}\n" + body;
    std::string scriptPath = dir.file("script.py");
    std::ofstream(scriptPath) << script;
    return std::system(
        ("/usr/bin/python3 '" + scriptPath + "' '" + dir.path().string() + "'")
            .c_str());
  }

  ScopedTempDir dir;
};

static void expectMatches(const HostTensor &tensor, const NumPyCase &test,
                          const std::string &file) {
  EXPECT_EQ(tensor.dtype(), test.type) << file;
  ASSERT_EQ(tensor.shape(), test.shape) << file;
  for (int64_t i = 0; i < tensor.numElements(); ++i) {
    EXPECT_EQ(tensor.getDouble(i), test.values[i]) << file << " [" << i << "]";
    EXPECT_EQ(std::signbit(tensor.getDouble(i)), std::signbit(test.values[i]))
        << file << " [" << i << "]";
  }
}

TEST_F(NpyNumPyTest, ReadsWhatNumPyWrites) {
  ASSERT_EQ(runPython(R"(
for name, array in cases.items():
    np.save(f'{directory}/{name}-v1.npy', array)
    for version in [(2, 0), (3, 0)]:
        with open(f'{directory}/{name}-v{version[0]}.npy', 'wb') as file:
            format.write_array(file, array, version=version)
)"),
            0);
  for (const NumPyCase &test : kCases) {
    for (const char *version : {"v1", "v2", "v3"}) {
      std::string path =
          dir.file(std::string(test.name) + "-" + version + ".npy");
      std::string error;
      std::optional<HostTensor> tensor = readNpy(path, error);
      ASSERT_TRUE(tensor) << error;
      expectMatches(*tensor, test, path);
    }
  }
}

TEST_F(NpyNumPyTest, NumPyReadsWhatWeWrite) {
  for (const NumPyCase &test : kCases) {
    HostTensor tensor(test.type, test.shape);
    for (int64_t i = 0; i < tensor.numElements(); ++i)
      tensor.setDouble(i, test.values[i]);
    std::string error;
    ASSERT_TRUE(
        writeNpy(dir.file(std::string(test.name) + ".npy"), tensor, error))
        << error;
  }
  // Byte equality compares dtype, shape, signed zeros and bit patterns.
  EXPECT_EQ(runPython(R"(
failed = False
for name, want in cases.items():
    got = np.load(f'{directory}/{name}.npy')
    if (got.dtype, got.shape, got.tobytes()) != (want.dtype, want.shape,
                                                 want.tobytes()):
        print(f'{name}: NumPy read {got!r} ({got.dtype}), expected {want!r}')
        failed = True
sys.exit(1 if failed else 0)
)"),
            0);
}
