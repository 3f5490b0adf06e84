//===- ContractionTest.cpp - Contractions in the interpreter --------------===//
//
// Every expected value here is computed by hand from the language definition.
//
//===----------------------------------------------------------------------===//

#include "ProgramBuilder.h"

#include "gtest/gtest.h"

#include <cmath>
#include <limits>

using namespace tilec;
using namespace tilec::testing;

namespace {

constexpr AggregationKind Sum = AggregationKind::Sum;
constexpr AggregationKind Product = AggregationKind::Product;
constexpr AggregationKind Max = AggregationKind::Max;
constexpr AggregationKind Min = AggregationKind::Min;
constexpr AggregationKind Assign = AggregationKind::Assign;
constexpr CombinationKind None = CombinationKind::None;
constexpr CombinationKind Mul = CombinationKind::Mul;

/// Runs a one-input, one-statement program `O = <contraction over I>`.
std::vector<double>
runUnary(DType dtype, Shape inputShape, const std::vector<double> &input,
         Shape outputShape, const std::vector<std::string> &indexNames,
         const std::string &outputIndices, AggregationKind aggregation,
         const std::string &inputIndices,
         const std::vector<std::pair<std::string, int64_t>> &constraints = {}) {
  ProgramBuilder builder;
  unsigned in = builder.input("I", dtype, inputShape);
  unsigned out = builder.tensor("O", dtype, outputShape);
  builder.contraction(out, indexNames, outputIndices, aggregation, None,
                      {{in, inputIndices}}, constraints);
  builder.output(out);
  RunResult result = run(builder.get(), {makeTensor(dtype, inputShape, input)});
  EXPECT_TRUE(result.outputs) << result.diagnostics;
  if (!result.outputs)
    return {};
  return elements(result.outputs->front());
}

/// Runs `O = +(I * K)` with the given accesses.
std::vector<double>
runSumOfProducts(Shape inputShape, const std::vector<double> &input,
                 Shape kernelShape, const std::vector<double> &kernel,
                 Shape outputShape, const std::vector<std::string> &indexNames,
                 const std::string &outputIndices,
                 const std::string &inputIndices,
                 const std::string &kernelIndices) {
  ProgramBuilder builder;
  unsigned in = builder.input("I", DType::F32, inputShape);
  unsigned k = builder.input("K", DType::F32, kernelShape);
  unsigned out = builder.tensor("O", DType::F32, outputShape);
  builder.contraction(out, indexNames, outputIndices, Sum, Mul,
                      {{in, inputIndices}, {k, kernelIndices}});
  builder.output(out);
  RunResult result =
      run(builder.get(), {makeTensor(DType::F32, inputShape, input),
                          makeTensor(DType::F32, kernelShape, kernel)});
  EXPECT_TRUE(result.outputs) << result.diagnostics;
  if (!result.outputs)
    return {};
  return elements(result.outputs->front());
}

TEST(Contraction, Matmul) {
  EXPECT_EQ(runSumOfProducts({2, 3}, {1, 2, 3, 4, 5, 6}, {3, 2},
                             {7, 8, 9, 10, 11, 12}, {2, 2}, {"i", "j", "k"},
                             "i, j", "i, k", "k, j"),
            (std::vector<double>{58, 64, 139, 154}));
}

TEST(Contraction, PaddedConvolutionSkipsOutOfBoundsTuples) {
  // O[x] = sum_k I[x + k - 1] * K[k]; at the edges the tuples that read
  // I[-1] and I[4] are skipped, not clamped (clamping would give 443 last).
  EXPECT_EQ(runSumOfProducts({4}, {1, 2, 3, 4}, {3}, {1, 10, 100}, {4},
                             {"x", "k"}, "x", "x + k - 1", "k"),
            (std::vector<double>{210, 321, 432, 43}));
}

TEST(Contraction, StridedDilatedConvolution) {
  // Stride 2, dilation 2: O[x] = I[2x] * K[0] + I[2x + 2] * K[1].
  EXPECT_EQ(runSumOfProducts({7}, {1, 2, 3, 4, 5, 6, 7}, {2}, {1, 10}, {3},
                             {"x", "k"}, "x", "2*x + 2*k", "k"),
            (std::vector<double>{31, 53, 75}));
}

TEST(Contraction, Convolution2D) {
  // A 3x3 input, 2x2 kernel, valid convolution: O[x, y] = sum I[x+i, y+j] *
  // K[i, j] with K = [[1, 0], [0, -1]] gives I[x, y] - I[x+1, y+1] = -4.
  EXPECT_EQ(runSumOfProducts({3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9}, {2, 2},
                             {1, 0, 0, -1}, {2, 2}, {"x", "y", "i", "j"},
                             "x, y", "x + i, y + j", "i, j"),
            (std::vector<double>{-4, -4, -4, -4}));
}

TEST(Contraction, TransposedConvolutionUsesOnlyIntegerPoints) {
  // O[x] = sum_k I[(x - k)/2] * K[k]: only tuples with x - k even count.
  EXPECT_EQ(runSumOfProducts({3}, {1, 2, 3}, {2}, {1, 10}, {5}, {"x", "k"}, "x",
                             "x/2 - k/2", "k"),
            (std::vector<double>{1, 10, 2, 20, 3}));
}

TEST(Contraction, FractionalIndexPicksEvenOutputs) {
  EXPECT_EQ(runUnary(DType::F32, {3}, {1, 2, 3}, {6}, {"i"}, "i", Sum, "i/2"),
            (std::vector<double>{1, 0, 2, 0, 3, 0}));
}

TEST(Contraction, FractionalConstraintComparesRationally) {
  // 0 <= i/2 < 2 holds for i in 0..3 (i/2 = 1.5 < 2).
  EXPECT_EQ(runUnary(DType::F32, {6}, {1, 2, 3, 4, 5, 6}, {6}, {"i"}, "i", Sum,
                     "i", {{"i/2", 2}}),
            (std::vector<double>{1, 2, 3, 4, 0, 0}));
}

TEST(Contraction, MaxPooling) {
  // Window 2, stride 2; the last window holds only I[4].
  EXPECT_EQ(runUnary(DType::F32, {5}, {1, 5, 3, 2, 9}, {3}, {"x", "k"}, "x",
                     Max, "2*x + k", {{"k", 2}}),
            (std::vector<double>{5, 3, 9}));
}

TEST(Contraction, CumulativeSum) {
  // O[i : N] = +(I[k]), i - k < N: the constraint means 0 <= i - k < N.
  EXPECT_EQ(runUnary(DType::F32, {4}, {1, 2, 3, 4}, {4}, {"i", "k"}, "i", Sum,
                     "k", {{"i - k", 4}}),
            (std::vector<double>{1, 3, 6, 10}));
}

TEST(Contraction, Argmax) {
  // M[i] = >(I[i, j]); A[i] = >(I[i, j] == M[i] ? J[i, j]) with J = index(I,
  // 1): the largest column holding the row's maximum.
  ProgramBuilder builder;
  unsigned in = builder.input("I", DType::F32, {2, 3});
  unsigned maxima = builder.tensor("M", DType::F32, {2});
  unsigned columns = builder.tensor("J", DType::I32, {2, 3});
  unsigned argmax = builder.tensor("A", DType::I32, {2});
  builder.contraction(maxima, {"i", "j"}, "i", Max, None, {{in, "i, j"}});
  builder.elementwise(columns, indexOf(builder.get(), in, 1));
  builder
      .contraction(argmax, {"i", "j"}, "i", Max, CombinationKind::Cond,
                   {{in, "i, j"}, {maxima, "i"}, {columns, "i, j"}})
      .comparisonType = DType::F32;
  builder.output(argmax);
  RunResult result =
      run(builder.get(), {makeTensor(DType::F32, {2, 3}, {1, 7, 3, 9, 2, 9})});
  ASSERT_TRUE(result.outputs) << result.diagnostics;
  EXPECT_EQ(elements(result.outputs->front()), (std::vector<double>{1, 2}));
}

TEST(Contraction, EqualityCombinationIsBool) {
  // O[i] = +(A[i, j] == B[j]): true where some j matches (bool sum is "any").
  ProgramBuilder builder;
  unsigned a = builder.input("A", DType::I32, {2, 2});
  unsigned b = builder.input("B", DType::F32, {2});
  unsigned out = builder.tensor("O", DType::Bool, {2});
  builder
      .contraction(out, {"i", "j"}, "i", Sum, CombinationKind::Eq,
                   {{a, "i, j"}, {b, "j"}})
      .comparisonType = DType::F32;
  builder.output(out);
  RunResult result =
      run(builder.get(), {makeTensor(DType::I32, {2, 2}, {1, 2, 3, 4}),
                          makeTensor(DType::F32, {2}, {1, 5})});
  ASSERT_TRUE(result.outputs) << result.diagnostics;
  EXPECT_EQ(elements(result.outputs->front()), (std::vector<double>{1, 0}));
}

TEST(Contraction, DefaultIsTheInitialValue) {
  ProgramBuilder builder;
  unsigned in = builder.input("I", DType::F32, {3});
  unsigned defaults = builder.input("D", DType::F32, {3});
  unsigned summed = builder.tensor("S", DType::F32, {3});
  unsigned assigned = builder.tensor("A", DType::F32, {3});
  builder.contraction(summed, {"i"}, "i", Sum, None, {{in, "i - 1"}})
      .defaultTensor = defaults;
  builder.contraction(assigned, {"i"}, "i", Assign, None, {{in, "i + 1"}})
      .defaultTensor = defaults;
  builder.output(summed);
  builder.output(assigned);
  RunResult result =
      run(builder.get(), {makeTensor(DType::F32, {3}, {1, 2, 3}),
                          makeTensor(DType::F32, {3}, {10, 20, 30})});
  ASSERT_TRUE(result.outputs) << result.diagnostics;
  EXPECT_EQ(elements((*result.outputs)[0]), (std::vector<double>{10, 21, 32}));
  EXPECT_EQ(elements((*result.outputs)[1]), (std::vector<double>{2, 3, 30}));
}

TEST(Contraction, AssignConflictIsAnError) {
  ProgramBuilder builder;
  unsigned in = builder.input("I", DType::F32, {2, 2});
  unsigned out = builder.tensor("O", DType::F32, {2});
  builder.contraction(out, {"i", "j"}, "i", Assign, None, {{in, "i, j"}});
  builder.output(out);
  RunResult result =
      run(builder.get(), {makeTensor(DType::F32, {2, 2}, {1, 2, 3, 4})});
  EXPECT_FALSE(result.outputs);
  EXPECT_NE(result.diagnostics.find(
                "element [0] of 'O' is assigned by more than one index tuple "
                "(again by i = 0, j = 1)"),
            std::string::npos)
      << result.diagnostics;
}

TEST(Contraction, TransposeByAssign) {
  EXPECT_EQ(runUnary(DType::F32, {2, 3}, {1, 2, 3, 4, 5, 6}, {3, 2}, {"i", "j"},
                     "j, i", Assign, "i, j"),
            (std::vector<double>{1, 4, 2, 5, 3, 6}));
}

TEST(Contraction, EmptyReductionsKeepTheIdentity) {
  double inf = std::numeric_limits<double>::infinity();
  // I[i - 3] is never in bounds for i < 3.
  auto empty = [&](DType dtype, AggregationKind aggregation) {
    return runUnary(dtype, {3}, {1, 2, 3}, {3}, {"i"}, "i", aggregation,
                    "i - 3")
        .front();
  };
  EXPECT_EQ(empty(DType::F32, Max), -inf);
  EXPECT_EQ(empty(DType::F16, Min), inf);
  EXPECT_EQ(empty(DType::I32, Max), -2147483648.0);
  EXPECT_EQ(empty(DType::I8, Min), 127);
  EXPECT_EQ(empty(DType::U8, Max), 0);
  EXPECT_EQ(empty(DType::U16, Min), 65535);
  EXPECT_EQ(empty(DType::F32, Sum), 0);
  EXPECT_EQ(empty(DType::F32, Product), 1);
  EXPECT_EQ(empty(DType::F32, Assign), 0);
}

TEST(Contraction, ProductAndMin) {
  EXPECT_EQ(runUnary(DType::F32, {3}, {2, 3, 4}, {}, {"i"}, "", Product, "i"),
            (std::vector<double>{24}));
  EXPECT_EQ(runUnary(DType::I32, {3}, {2, -3, 4}, {}, {"i"}, "", Min, "i"),
            (std::vector<double>{-3}));
}

TEST(Contraction, FloatSumsAccumulateInF64) {
  // Rounded to f32 at every step this would give 0.
  EXPECT_EQ(runUnary(DType::F32, {3}, {1e8, 1, -1e8}, {}, {"i"}, "", Sum, "i"),
            (std::vector<double>{1}));
}

TEST(Contraction, IntegerSumsWrap) {
  EXPECT_EQ(runUnary(DType::I8, {2}, {100, 100}, {}, {"i"}, "", Sum, "i"),
            (std::vector<double>{-56}));
}

TEST(Contraction, ScalarOutputsAndMultipleOutputs) {
  ProgramBuilder builder;
  unsigned in = builder.input("A", DType::F64, {2, 2});
  unsigned total = builder.tensor("S", DType::F64, {});
  unsigned largest = builder.tensor("M", DType::F64, {});
  builder.contraction(total, {"i", "j"}, "", Sum, None, {{in, "i, j"}});
  builder.contraction(largest, {"i", "j"}, "", Max, None, {{in, "i, j"}});
  builder.output(largest);
  builder.output(total);
  RunResult result =
      run(builder.get(), {makeTensor(DType::F64, {2, 2}, {1, -2, 8, 3})});
  ASSERT_TRUE(result.outputs) << result.diagnostics;
  ASSERT_EQ(result.outputs->size(), 2u);
  EXPECT_EQ((*result.outputs)[0].shape(), Shape{});
  EXPECT_EQ(elements((*result.outputs)[0]), (std::vector<double>{8}));
  EXPECT_EQ(elements((*result.outputs)[1]), (std::vector<double>{10}));
}

TEST(Contraction, UnboundedIndexIsAnError) {
  ProgramBuilder builder;
  unsigned in = builder.input("I", DType::F32, {3});
  unsigned out = builder.tensor("O", DType::F32, {3});
  builder.contraction(out, {"i", "j", "k"}, "i", Sum, None, {{in, "j - k"}});
  builder.output(out);
  RunResult result = run(builder.get(), {makeTensor(DType::F32, {3}, {})});
  EXPECT_FALSE(result.outputs);
  EXPECT_NE(
      result.diagnostics.find("index variable 'j' has no finite lower bound"),
      std::string::npos)
      << result.diagnostics;
}

TEST(Contraction, LargeMatmul) {
  // 256x128x64 (2M tuples): A = 1 everywhere, B[k, j] = k + j, so
  // C[i, j] = sum_k (k + j) = 128 * 127 / 2 + 128 * j.
  ProgramBuilder builder;
  unsigned a = builder.input("A", DType::F32, {256, 128});
  unsigned b = builder.input("B", DType::F32, {128, 64});
  unsigned c = builder.tensor("C", DType::F32, {256, 64});
  builder.contraction(c, {"i", "j", "k"}, "i, j", Sum, Mul,
                      {{a, "i, k"}, {b, "k, j"}});
  builder.output(c);
  HostTensor ones(DType::F32, {256, 128});
  for (int64_t i = 0; i < ones.numElements(); ++i)
    ones.setDouble(i, 1);
  HostTensor ramp(DType::F32, {128, 64});
  for (int64_t k = 0; k < 128; ++k)
    for (int64_t j = 0; j < 64; ++j)
      ramp.setDouble(k * 64 + j, k + j);
  RunResult result = run(builder.get(), {ones, ramp});
  ASSERT_TRUE(result.outputs) << result.diagnostics;
  const HostTensor &product = result.outputs->front();
  for (int64_t i : {0, 100, 255})
    for (int64_t j : {0, 1, 63})
      EXPECT_EQ(product.getDouble(i * 64 + j), 8128 + 128 * j);
}

TEST(Contraction, MismatchedInputIsAnError) {
  ProgramBuilder builder;
  unsigned in = builder.input("I", DType::F32, {3});
  unsigned out = builder.tensor("O", DType::F32, {});
  builder.contraction(out, {"i"}, "", Sum, None, {{in, "i"}});
  builder.output(out);
  RunResult result = run(builder.get(), {makeTensor(DType::F64, {3}, {})});
  EXPECT_FALSE(result.outputs);
  EXPECT_NE(
      result.diagnostics.find("input 'I' is bound as f32[3] but given f64[3]"),
      std::string::npos)
      << result.diagnostics;
}

} // namespace
