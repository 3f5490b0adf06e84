//===- SourceTest.cpp - The interpreter on Tile source --------------------===//
//
// Tile programs parsed and specialised by the frontend, then interpreted;
// the expected values are computed by hand.
//
//===----------------------------------------------------------------------===//

#include "ProgramBuilder.h"

#include "tilec/Frontend/AST.h"
#include "tilec/Frontend/Frontend.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MemoryBuffer.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace tilec;
using namespace tilec::testing;

namespace {

struct SourceRun {
  std::optional<std::vector<HostTensor>> outputs;
  std::string diagnostics;
};

/// Compiles `source` for `inputs` (bound by parameter order) and runs it.
SourceRun
runSource(const std::string &source,
          const std::vector<std::pair<std::string, HostTensor>> &inputs,
          const InterpretProgress &progress = nullptr,
          Perturbation perturbation = {}) {
  SourceRun result;
  llvm::SourceMgr sourceMgr;
  captureDiagnostics(sourceMgr, result.diagnostics);
  unsigned bufferId = sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(source, "test.tile"), llvm::SMLoc());
  std::unique_ptr<ast::Module> module = parseModule(sourceMgr, bufferId);
  if (!module)
    return result;
  const ast::Function *function = selectFunction(*module, "", sourceMgr);
  if (!function)
    return result;
  std::vector<ArgBinding> bindings;
  std::vector<HostTensor> values;
  for (const auto &[name, tensor] : inputs) {
    bindings.push_back({name, tensor.dtype(), tensor.shape()});
    values.push_back(tensor);
  }
  std::optional<Program> program = specialize(*function, bindings, sourceMgr);
  if (!program)
    return result;
  result.outputs =
      interpret(*program, values, sourceMgr, progress, perturbation);
  return result;
}

HostTensor f32(Shape shape, const std::vector<double> &values) {
  return makeTensor(DType::F32, std::move(shape), values);
}

/// The elements of the only output, after checking that the run succeeded.
std::vector<double> only(const SourceRun &run) {
  EXPECT_TRUE(run.outputs) << run.diagnostics;
  if (!run.outputs || run.outputs->size() != 1)
    return {};
  return elements(run.outputs->front());
}

TEST(Source, PerturbationMovesInexactBuiltinsOnly) {
  // tilec run --perturb: an odd seed moves exp's results down by 8 to 16
  // ulps of f32 and a sum's terms by 1 to 2, an even one up, the same way on
  // every run; the exact arithmetic and a run without a seed keep the
  // correctly rounded values.
  const std::string source =
      "function f(A) -> (E, S, C) { E = exp(A); S = A * A + 1; "
      "C[] = +(A[i] * A[i]); }";
  std::vector<std::pair<std::string, HostTensor>> inputs = {
      {"A", f32({3}, {0.5, 1, 2})}};
  SourceRun exact = runSource(source, inputs);
  SourceRun down = runSource(source, inputs, nullptr, Perturbation{1});
  SourceRun again = runSource(source, inputs, nullptr, Perturbation{1});
  SourceRun up = runSource(source, inputs, nullptr, Perturbation{2});
  ASSERT_TRUE(exact.outputs && down.outputs && again.outputs && up.outputs);
  std::vector<double> e = elements((*exact.outputs)[0]);
  std::vector<double> d = elements((*down.outputs)[0]);
  std::vector<double> u = elements((*up.outputs)[0]);
  for (size_t i = 0; i < e.size(); ++i) {
    EXPECT_EQ(e[i], double(float(std::exp(0.5 * (1 << i)))));
    double ulp = std::ldexp(1.0, std::ilogb(e[i]) - 23);
    EXPECT_LE(d[i], e[i] - 7 * ulp);
    EXPECT_GE(d[i], e[i] - 17 * ulp);
    EXPECT_GE(u[i], e[i] + 7 * ulp);
    EXPECT_LE(u[i], e[i] + 17 * ulp);
  }
  EXPECT_EQ(elements((*again.outputs)[0]), d);
  EXPECT_EQ(elements((*down.outputs)[1]), elements((*exact.outputs)[1]));
  EXPECT_EQ(elements((*up.outputs)[1]), elements((*exact.outputs)[1]));
  // The sum's terms move by 1 to 2 ulps of f32 each, the same way.
  double sum = elements((*exact.outputs)[2])[0];
  EXPECT_EQ(sum, 5.25);
  EXPECT_LT(elements((*down.outputs)[2])[0], sum);
  EXPECT_GT(elements((*up.outputs)[2])[0], sum);
}

TEST(Source, Matmul) {
  EXPECT_EQ(only(runSource(R"(
    function (A[M, K], B[K, N]) -> (C) {
      C[i, j : M, N] = +(A[i, k] * B[k, j]);
    })",
                           {{"A", f32({2, 3}, {1, 2, 3, 4, 5, 6})},
                            {"B", f32({3, 2}, {7, 8, 9, 10, 11, 12})}})),
            (std::vector<double>{58, 64, 139, 154}));
}

TEST(Source, PaddedStridedDilatedConvolutions) {
  std::vector<std::pair<std::string, HostTensor>> inputs = {
      {"I", f32({7}, {1, 2, 3, 4, 5, 6, 7})}, {"K", f32({2}, {1, 10})}};
  // Padding 1: the tuples reading I[-1] and I[7] are skipped.
  EXPECT_EQ(only(runSource(R"(
    function (I[N], K[KN]) -> (O) {
      O[x : N + 1] = +(I[x + k - 1] * K[k]);
    })",
                           inputs)),
            (std::vector<double>{10, 21, 32, 43, 54, 65, 76, 7}));
  // Stride 2 and dilation 2.
  EXPECT_EQ(only(runSource(R"(
    function (I[N], K[KN]) -> (O) {
      O[x : 3] = +(I[2*x + 2*k] * K[k]);
    })",
                           inputs)),
            (std::vector<double>{31, 53, 75}));
}

TEST(Source, MaxPoolingAndCumsum) {
  EXPECT_EQ(only(runSource(R"(
    function (I[N]) -> (O) {
      O[x : (N + 1) / 2] = >(I[2*x + k]), k < 2;
    })",
                           {{"I", f32({5}, {1, 5, 3, 2, 9})}})),
            (std::vector<double>{5, 3, 9}));
  EXPECT_EQ(only(runSource(R"(
    function (I[N]) -> (O) {
      O[i : N] = +(I[k]), i - k < N;
    })",
                           {{"I", f32({4}, {1, 2, 3, 4})}})),
            (std::vector<double>{1, 3, 6, 10}));
}

TEST(Source, Argmax) {
  EXPECT_EQ(only(runSource(R"(
    function (I[N, C]) -> (A) {
      M[n : N] = >(I[n, c]);
      J = index(I, 1);
      A[n : N] = >(I[n, c] == M[n] ? J[n, c]);
    })",
                           {{"I", f32({2, 3}, {1, 7, 3, 9, 2, 9})}})),
            (std::vector<double>{1, 2}));
}

TEST(Source, FractionalIndexesAndDefault) {
  EXPECT_EQ(only(runSource(R"(
    function (I[N]) -> (O) {
      O[i : 2*N] = +(I[i/2]);
    })",
                           {{"I", f32({3}, {1, 2, 3})}})),
            (std::vector<double>{1, 0, 2, 0, 3, 0}));
  EXPECT_EQ(only(runSource(
                R"(
    function (I[N], D[N]) -> (O) {
      O[i : N] = +(I[i - 1]) default D;
    })",
                {{"I", f32({3}, {1, 2, 3})}, {"D", f32({3}, {10, 20, 30})}})),
            (std::vector<double>{10, 21, 32}));
}

TEST(Source, AssignConflictIsReportedAtTheStatement) {
  // j and k move together (j == k), so sema does not prove the conflict of
  // (i = 0, j = k = 0) and (i = 0, j = k = 1); the reference finds it.
  SourceRun run = runSource(R"(
    function (I[N, M]) -> (O) {
      O[i : N] = =(I[i, j + k]), j - k < 1, k - j < 1;
    })",
                            {{"I", f32({2, 4}, {1, 2, 3, 4, 5, 6, 7, 8})}});
  EXPECT_FALSE(run.outputs);
  EXPECT_NE(run.diagnostics.find("test.tile:3:"), std::string::npos)
      << run.diagnostics;
  EXPECT_NE(run.diagnostics.find("assigned by more than one index tuple"),
            std::string::npos)
      << run.diagnostics;
}

TEST(Source, TensorLargerThanHostMemoryIsAnError) {
  // 2^40 f32 elements (4 TiB): reported before anything is allocated.
  SourceRun run = runSource(R"(
    function (I[N]) -> (O) {
      O[i : 1099511627776] = +(I[i]);
    })",
                            {{"I", f32({2}, {1, 2})}});
  EXPECT_FALSE(run.outputs);
  EXPECT_NE(run.diagnostics.find("test.tile:3:7: error: too large for the "
                                 "reference interpreter: "
                                 "f32[1099511627776] needs "),
            std::string::npos)
      << run.diagnostics;
  EXPECT_NE(run.diagnostics.find("bytes of memory available on this host"),
            std::string::npos)
      << run.diagnostics;
}

// The reference splits contractions by their outermost index and elementwise
// nodes by elements over the host's cores; results and errors must be those
// of a single thread.
TEST(Source, ParallelContractionSumsInSequentialOrder) {
  const int64_t m = 37, k = 53, n = 29;
  std::vector<double> a(m * k), b(k * n);
  for (int64_t i = 0; i < m * k; ++i)
    a[i] = std::sin(double(i)) * 1e3;
  for (int64_t i = 0; i < k * n; ++i)
    b[i] = std::cos(double(i)) / 7;
  SourceRun run = runSource(R"(
    function (A[M, K], B[K, N]) -> (C) {
      C[i, j : M, N] = +(A[i, k] * B[k, j]);
    })",
                            {{"A", makeTensor(DType::F64, {m, k}, a)},
                             {"B", makeTensor(DType::F64, {k, n}, b)}});
  std::vector<double> expected(m * n);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double sum = 0;
      for (int64_t x = 0; x < k; ++x)
        sum += a[i * k + x] * b[x * n + j];
      expected[i * n + j] = sum;
    }
  // Bitwise: the same additions in the same order.
  EXPECT_EQ(only(run), expected);
}

TEST(Source, ParallelEvaluationReportsTheFirstError) {
  for (int repeat = 0; repeat < 5; ++repeat) {
    // Every row has a conflict; the first is row 0's.
    SourceRun conflict =
        runSource(R"(
    function (I[N, M]) -> (O) {
      O[i : N] = =(I[i, j + k]), j - k < 1, k - j < 1;
    })",
                  {{"I", f32({64, 4}, std::vector<double>(64 * 4, 1))}});
    EXPECT_NE(conflict.diagnostics.find(
                  "element [0] of 'O' is assigned by more than one index "
                  "tuple (again by i = 0, j = 1, k = 1)"),
              std::string::npos)
        << conflict.diagnostics;

    std::vector<double> divisors(100000, 1);
    divisors[70000] = divisors[90000] = divisors[99999] = 0;
    SourceRun division =
        runSource(R"(
    function (A, B) -> (O) {
      O = A / B;
    })",
                  {{"A", makeTensor(DType::I32, {100000}, divisors)},
                   {"B", makeTensor(DType::I32, {100000}, divisors)}});
    EXPECT_NE(division.diagnostics.find(
                  "integer division by zero at element [70000]"),
              std::string::npos)
        << division.diagnostics;
  }
}

TEST(Source, ScalarAndMultipleOutputs) {
  SourceRun run = runSource(R"(
    function (A[M, N]) -> (Mean, Largest) {
      S[] = +(A[i, j]);
      Largest[] = >(A[i, j]);
      Mean = S / (M * N);
    })",
                            {{"A", f32({2, 2}, {1, -2, 8, 3})}});
  ASSERT_TRUE(run.outputs) << run.diagnostics;
  ASSERT_EQ(run.outputs->size(), 2u);
  EXPECT_EQ(elements((*run.outputs)[0]), (std::vector<double>{2.5}));
  EXPECT_EQ(elements((*run.outputs)[1]), (std::vector<double>{8}));
}

TEST(Source, BroadcastingAndBuiltins) {
  EXPECT_EQ(only(runSource(
                R"(
    function (A[M, N], B[N]) -> (O) {
      O = relu(A - B) + max(A, 2.5) * sign(B);
    })",
                {{"A", f32({2, 2}, {1, 2, 3, 4})}, {"B", f32({2}, {-1, 3})}})),
            // relu(A - B) = [2, 0, 4, 1]; max(A, 2.5) * sign(B) =
            // [-2.5, 2.5, -3, 4].
            (std::vector<double>{-0.5, 2.5, 1, 5}));
}

TEST(Source, IntegerSemantics) {
  HostTensor a = makeTensor(DType::I32, {4}, {-7, 7, -7, 7});
  HostTensor b = makeTensor(DType::I32, {4}, {2, -2, -2, 2});
  EXPECT_EQ(only(runSource("function (A[N], B[N]) -> (Q) { Q = A / B; }",
                           {{"A", a}, {"B", b}})),
            (std::vector<double>{-3, -3, 3, 3}));
  EXPECT_EQ(only(runSource("function (A[N], B[N]) -> (R) { R = A % B; }",
                           {{"A", a}, {"B", b}})),
            (std::vector<double>{-1, 1, -1, 1}));
  EXPECT_EQ(
      only(runSource("function (A[N]) -> (S) { S = A << 29; }", {{"A", a}})),
      // -7 << 29 and 7 << 29 wrap in i32.
      (std::vector<double>{536870912, -536870912, 536870912, -536870912}));
}

TEST(Source, DivisionByZeroIsReportedAtTheExpression) {
  SourceRun run = runSource(R"(function (A[N], B[N]) -> (Q) {
  Q = A / B;
})",
                            {{"A", makeTensor(DType::I32, {2}, {1, 2})},
                             {"B", makeTensor(DType::I32, {2}, {1, 0})}});
  EXPECT_FALSE(run.outputs);
  EXPECT_NE(run.diagnostics.find("test.tile:2:"), std::string::npos)
      << run.diagnostics;
  EXPECT_NE(run.diagnostics.find("integer division by zero at element [1]"),
            std::string::npos)
      << run.diagnostics;
}

TEST(Source, Casts) {
  EXPECT_EQ(only(runSource("function (A[N]) -> (O) { O = as_int(A, 8); }",
                           {{"A", f32({4}, {-2.7, 300, -300, NAN})}})),
            (std::vector<double>{-2, 127, -128, 0}));
  EXPECT_EQ(only(runSource("function (A[N]) -> (O) { O = as_float(A, 16); }",
                           {{"A", makeTensor(DType::I32, {2}, {2049, 2051})}})),
            (std::vector<double>{2048, 2052}));
  EXPECT_EQ(only(runSource("function (A[N]) -> (O) { O = as_uint(A, 8); }",
                           {{"A", makeTensor(DType::I32, {2}, {-1, 300})}})),
            (std::vector<double>{255, 44}));
}

TEST(Source, EmptyMaxReductionIsMinusInfinity) {
  EXPECT_EQ(only(runSource(R"(
    function (I[N]) -> (O) {
      O[i : N] = >(I[i - N]);
    })",
                           {{"I", f32({2}, {1, 2})}})),
            (std::vector<double>{-INFINITY, -INFINITY}));
}

} // namespace

TEST(Source, ProgressCountsOutputElementsInOrder) {
  // C weighs 64 * 5 units, reported as its 64 rows finish; D weighs as many,
  // reported when it ends.
  std::vector<std::pair<uint64_t, uint64_t>> reports;
  SourceRun run = runSource(
      R"(
    function (A[M, K], B[K, N]) -> (D) {
      C[i, j : M, N] = +(A[i, k] * B[k, j]);
      D = C + 1;
    })",
      {{"A", f32({64, 1}, std::vector<double>(64, 1))},
       {"B", f32({1, 5}, std::vector<double>(5, 2))}},
      [&](uint64_t done, uint64_t total) {
        reports.push_back({done, total});
      });
  EXPECT_EQ(only(run), std::vector<double>(64 * 5, 3));
  ASSERT_FALSE(reports.empty());
  for (size_t i = 0; i < reports.size(); ++i) {
    EXPECT_EQ(reports[i].second, 640u);
    if (i)
      EXPECT_LT(reports[i - 1].first, reports[i].first);
  }
  EXPECT_LT(reports.front().first, 320u);
  EXPECT_TRUE(llvm::is_contained(reports,
                                 std::make_pair(uint64_t(320), uint64_t(640))));
  EXPECT_EQ(reports.back().first, 640u);
}
