//===- JITFixture.h - Tests of the JIT on the default device ----*- C++ -*-===//
//
// A fixture whose contexts open the default device with a disk cache in a
// fresh directory of their own, and the programs and host computations the
// tests check results with.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TESTS_UNIT_JIT_JITFIXTURE_H
#define TILEC_TESTS_UNIT_JIT_JITFIXTURE_H

#include "tilec/tilec.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace tilec::jit::testing {

inline const char *const kMatmul = R"(function matmul(A[M, K], B[K, N]) -> (C) {
  C[i, j : M, N] = +(A[i, k] * B[k, j]);
}
)";

inline const char *const kBiasRelu =
    R"(function bias_relu(X[M, N], B[N]) -> (Y) {
  Y = relu(X + B);
}
)";

inline const char *const kScale = R"(function scale(X) -> (Y) {
  Y = X * 3;
}
)";

/// A f32 tensor of `shape` whose element i is `value(i)`.
inline HostTensor makeTensor(const Shape &shape,
                             const std::function<double(int64_t)> &value) {
  HostTensor tensor(DType::F32, shape);
  for (int64_t i = 0; i < tensor.numElements(); ++i)
    tensor.setDouble(i, value(i));
  return tensor;
}

/// Small exact values (multiples of 1/4 in [-2, 2]), so that sums of
/// products are exact in f32 and results compare for equality.
inline double patternValue(int64_t i, int64_t seed) {
  return static_cast<double>((i * 7 + seed * 13) % 17 - 8) / 4;
}

/// The options that bind matmul to A f32[m, k] and B f32[k, n].
inline CompileOptions matmulOptions(int64_t m, int64_t k, int64_t n) {
  return {"", {{"A", DType::F32, {m, k}}, {"B", DType::F32, {k, n}}}};
}

/// The host's matrix product of `a` (m x k) and `b` (k x n).
inline HostTensor hostMatmul(const HostTensor &a, const HostTensor &b) {
  int64_t m = a.shape()[0], k = a.shape()[1], n = b.shape()[1];
  HostTensor c(DType::F32, {m, n});
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double sum = 0;
      for (int64_t l = 0; l < k; ++l)
        sum += a.getDouble(i * k + l) * b.getDouble(l * n + j);
      c.setDouble(i * n + j, sum);
    }
  return c;
}

/// Expects `actual` to hold exactly `expected`'s dtype, shape and values.
inline void expectSameTensor(const HostTensor &actual,
                             const HostTensor &expected) {
  ASSERT_EQ(actual.dtype(), expected.dtype());
  ASSERT_EQ(actual.shape(), expected.shape());
  for (int64_t i = 0; i < expected.numElements(); ++i)
    ASSERT_EQ(actual.getDouble(i), expected.getDouble(i)) << "element " << i;
}

class JITFixture : public ::testing::Test {
protected:
  void SetUp() override {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "tilec-jit-test-XXXXXX")
            .string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    cacheDir = pattern;
  }
  void TearDown() override {
    std::error_code ignored;
    std::filesystem::remove_all(cacheDir, ignored);
  }

  /// Options of a context on the default device caching in cacheDir.
  ContextOptions options() const {
    ContextOptions options;
    options.cache.directory = cacheDir;
    return options;
  }
  /// Opens a context with `contextOptions` into `context`:
  /// ASSERT_TRUE(open(options(), context)).
  static ::testing::AssertionResult open(const ContextOptions &contextOptions,
                                         std::optional<Context> &context) {
    Expected<Context> opened = Context::create(contextOptions);
    if (!opened)
      return ::testing::AssertionFailure() << opened.error().describe();
    context.emplace(*opened);
    return ::testing::AssertionSuccess();
  }

  /// The cache entries in cacheDir.
  std::vector<std::filesystem::path> entryFiles() const {
    std::vector<std::filesystem::path> files;
    for (const auto &entry : std::filesystem::directory_iterator(cacheDir))
      if (entry.path().extension() == ".tkc")
        files.push_back(entry.path());
    return files;
  }

  std::string cacheDir;
};

} // namespace tilec::jit::testing

#endif // TILEC_TESTS_UNIT_JIT_JITFIXTURE_H
