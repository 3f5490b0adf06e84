//===- IndexSpaceTest.cpp - Index spaces of hand-written contractions ----===//
//
// Each contraction's enumerated tuples must equal the definition's; the
// tests also pin the shape of the loop nest where the scheduler relies on
// it (free variables, constant bounds, isDenseBox).
//
//===----------------------------------------------------------------------===//

#include "SpaceChecks.h"

#include <gtest/gtest.h>

using namespace tilec;
using namespace tilec::testing;

namespace {

class IndexSpaceTest : public ::testing::Test {
protected:
  /// The checked space of the contraction (see parseContract).
  ContractionSpace analyze(const std::string &body,
                           const std::vector<std::string> &inputShapes,
                           const std::string &resultShape) {
    IndexSystem system = parseContract(context, body, inputShapes, resultShape);
    std::optional<ContractionSpace> space = expectMatchesDefinition(system);
    return space ? *space : ContractionSpace();
  }

  /// The analysis's error for the contraction, or "" when it succeeds.
  std::string analysisError(const std::string &body,
                            const std::vector<std::string> &inputShapes,
                            const std::string &resultShape) {
    IndexSystem system = parseContract(context, body, inputShapes, resultShape);
    std::string error;
    if (analyzeIndexSpace(system, error))
      return "";
    return error;
  }

  mlir::MLIRContext context;
};

/// x = o_d exactly.
void expectPivotIsCoordinate(const ContractionSpace &space, unsigned pivot,
                             unsigned index, unsigned coordinate) {
  ASSERT_LT(pivot, space.pivots.size());
  EXPECT_EQ(space.pivots[pivot].index, index);
  const QuasiAffine &value = space.pivots[pivot].value;
  std::vector<int64_t> expected(value.coeffs.size(), 0);
  expected[coordinate] = 1;
  EXPECT_EQ(value.coeffs, expected);
  EXPECT_EQ(value.constant, 0);
  EXPECT_EQ(value.den, 1);
}

TEST_F(IndexSpaceTest, MatmulIsADenseBox) {
  ContractionSpace space =
      analyze("add, mul (i, j, k) [i, j] = %a0[i, k], %a1[k, j]",
              {"3x4", "4x5"}, "3x5");
  expectPivotIsCoordinate(space, 0, 0, 0);
  expectPivotIsCoordinate(space, 1, 1, 1);
  EXPECT_EQ(space.freeVars, std::vector<unsigned>{2});
  ASSERT_EQ(space.bounds.size(), 1u);
  EXPECT_EQ(space.bounds[0].constantRange,
            std::make_pair(int64_t(0), int64_t(3)));
  EXPECT_TRUE(space.isDenseBox());
}

TEST_F(IndexSpaceTest, TransposedOutputIsADenseBox) {
  ContractionSpace space =
      analyze("add, mul (i, j, k) [j, i] = %a0[i, k], %a1[k, j]",
              {"3x4", "4x5"}, "5x3");
  expectPivotIsCoordinate(space, 0, 1, 0);
  expectPivotIsCoordinate(space, 1, 0, 1);
  EXPECT_TRUE(space.isDenseBox());
}

TEST_F(IndexSpaceTest, TransposeWithoutReduction) {
  ContractionSpace space =
      analyze("assign (i, j) [j, i] = %a0[i, j]", {"3x4"}, "4x3");
  EXPECT_TRUE(space.freeVars.empty());
  EXPECT_TRUE(space.isDenseBox());
}

TEST_F(IndexSpaceTest, ScalarSumIsADenseBox) {
  ContractionSpace space = analyze("add (i, j) [] = %a0[i, j]", {"3x4"}, "");
  EXPECT_EQ(space.freeVars, (std::vector<unsigned>{0, 1}));
  EXPECT_TRUE(space.isDenseBox());
}

TEST_F(IndexSpaceTest, UnpaddedConvolutionHasConstantWindow) {
  // The window bounds from I's extent never bind inside the output.
  ContractionSpace space =
      analyze("add, mul (x, k) [x] = %a0[x + k], %a1[k]", {"7", "3"}, "5");
  ASSERT_EQ(space.bounds.size(), 1u);
  EXPECT_EQ(space.bounds[0].constantRange,
            std::make_pair(int64_t(0), int64_t(2)));
  EXPECT_TRUE(space.isDenseBox());
}

TEST_F(IndexSpaceTest, PaddedConvolutionIsNotADenseBox) {
  ContractionSpace space =
      analyze("add, mul (n, x, y, kx, ky, ci, co) [n, x, y, co] = "
              "%a0[n, x + kx - 1, y + ky - 1, ci], %a1[kx, ky, ci, co]",
              {"2x5x4x2", "3x3x2x3"}, "2x5x4x3");
  EXPECT_EQ(space.freeVars, (std::vector<unsigned>{3, 4, 5}));
  ASSERT_EQ(space.bounds.size(), 3u);
  EXPECT_FALSE(space.bounds[0].constantRange);
  EXPECT_TRUE(space.bounds[2].constantRange);
  EXPECT_FALSE(space.isDenseBox());
}

TEST_F(IndexSpaceTest, StridedConvolution) {
  ContractionSpace space =
      analyze("add, mul (x, k) [x] = %a0[2*x + k], %a1[k]", {"9", "3"}, "4");
  EXPECT_TRUE(space.integralityChecks.empty());
}

TEST_F(IndexSpaceTest, StridedPaddedConvolution) {
  analyze("add, mul (x, k) [x] = %a0[2*x + k - 1], %a1[k]", {"8", "3"}, "5");
}

TEST_F(IndexSpaceTest, DilatedConvolution) {
  analyze("add, mul (x, k) [x] = %a0[x + 2*k - 2], %a1[k]", {"8", "3"}, "8");
}

TEST_F(IndexSpaceTest, PoolingWithWindowConstraint) {
  ContractionSpace space =
      analyze("max (x, k) [x] = %a0[2*x + k] where k < 2", {"7"}, "4");
  ASSERT_EQ(space.bounds.size(), 1u);
  EXPECT_FALSE(space.bounds[0].constantRange)
      << "the last window is cut by the input's end";
}

TEST_F(IndexSpaceTest, TwoDimensionalPoolingWithConstraints) {
  analyze("max (x, y, i, j) [x, y] = %a0[2*x + i - 1, 2*y + j - 1] "
          "where i < 3, j < 3, i + j < 4",
          {"6x5"}, "3x3");
}

TEST_F(IndexSpaceTest, CumulativeSum) {
  ContractionSpace space =
      analyze("add (i, k) [i] = %a0[k] where i - 1*k < 6", {"6"}, "6");
  ASSERT_EQ(space.bounds.size(), 1u);
  EXPECT_FALSE(space.bounds[0].constantRange);
}

TEST_F(IndexSpaceTest, FractionalConstraintIsAnInequalityOnly) {
  // k/2 < 2 admits k = 3: a constraint need not be an integer.
  ContractionSpace space =
      analyze("add (i, k) [i] = %a0[i, k] where k div 2 < 2", {"2x6"}, "2");
  EXPECT_TRUE(space.integralityChecks.empty());
  ASSERT_EQ(space.bounds.size(), 1u);
  EXPECT_EQ(space.bounds[0].constantRange,
            std::make_pair(int64_t(0), int64_t(3)));
}

TEST_F(IndexSpaceTest, TransposedConvolutionWithFractionalAccess) {
  ContractionSpace space =
      analyze("add, mul (x, k) [x] = %a0[x div 2 - 1*k div 2], %a1[k]",
              {"4", "3"}, "9");
  EXPECT_EQ(space.integralityChecks.size(), 1u);
  EXPECT_FALSE(space.isDenseBox());
}

TEST_F(IndexSpaceTest, FractionalTwoDimensionalAccess) {
  analyze("add, mul (x, y, i, j) [x, y] = "
          "%a0[x div 2 + i div 2, y div 3 - 1*j div 3 + 1], %a1[i, j]",
          {"4x4", "2x3"}, "6x7");
}

TEST_F(IndexSpaceTest, DiagonalOutputNeedsEqualCoordinates) {
  ContractionSpace space = analyze("assign (i) [i, i] = %a0[i]", {"4"}, "4x4");
  ASSERT_EQ(space.coordinateEqualities.size(), 1u);
  const QuasiAffine &equality = space.coordinateEqualities[0];
  EXPECT_EQ(equality.coeffs[0], -equality.coeffs[1]);
  EXPECT_NE(equality.coeffs[0], 0);
  EXPECT_EQ(equality.constant, 0);
  EXPECT_FALSE(space.isDenseBox());
}

TEST_F(IndexSpaceTest, StridedOutputChecksIntegrality) {
  ContractionSpace space = analyze("assign (i) [2*i] = %a0[i]", {"4"}, "8");
  ASSERT_EQ(space.pivots.size(), 1u);
  EXPECT_EQ(space.pivots[0].value.den, 2);
  EXPECT_EQ(space.integralityChecks.size(), 1u);
}

TEST_F(IndexSpaceTest, OutputSumSolvesOneVariable) {
  // Polynomial multiplication: O[i + j] = A[i] * B[j].
  ContractionSpace space =
      analyze("add, mul (i, j) [i + j] = %a0[i], %a1[j]", {"3", "4"}, "6");
  ASSERT_EQ(space.pivots.size(), 1u);
  EXPECT_EQ(space.pivots[0].index, 0u);
  EXPECT_EQ(space.freeVars, std::vector<unsigned>{1});
}

TEST_F(IndexSpaceTest, OutputPivotPrefersAnIntegralSolution) {
  // j = o_0 - 2*i needs no integrality check; i = (o_0 - j)/2 would.
  ContractionSpace space =
      analyze("add, mul (i, j) [2*i + j] = %a0[i], %a1[j]", {"3", "2"}, "6");
  ASSERT_EQ(space.pivots.size(), 1u);
  EXPECT_EQ(space.pivots[0].index, 1u);
  EXPECT_TRUE(space.integralityChecks.empty());
}

TEST_F(IndexSpaceTest, FractionalOutput) {
  ContractionSpace space = analyze("add (i) [i div 2] = %a0[i]", {"7"}, "4");
  ASSERT_EQ(space.pivots.size(), 1u);
  EXPECT_EQ(space.pivots[0].value.den, 1);
  EXPECT_EQ(space.pivots[0].value.coeffs[0], 2);
}

TEST_F(IndexSpaceTest, DependentOutputsWithFractions) {
  analyze("add (i, j) [i div 2 + j, 2*j - 1*i, i] = %a0[i, j]", {"6x3"},
          "5x6x6");
}

TEST_F(IndexSpaceTest, ConditionalCombination) {
  analyze("max, cond (i, j) [i] = %a0[i], %a1[0], %a2[j]", {"8", "8", "8"},
          "4");
}

TEST_F(IndexSpaceTest, ZeroConstraintBoundIsEmpty) {
  EXPECT_TRUE(
      analyze("add (i, k) [i] = %a0[i, k] where k < 0", {"3x4"}, "3").empty);
}

TEST_F(IndexSpaceTest, ZeroExtentIsEmpty) {
  EXPECT_TRUE(analyze("add, mul (i, j, k) [i, j] = %a0[i, k], %a1[k, j]",
                      {"3x0", "0x5"}, "3x5")
                  .empty);
}

TEST_F(IndexSpaceTest, DisjointWindowsAreEmpty) {
  // k in [0, 3] and k + 5 in [0, 3] never meet.
  EXPECT_TRUE(
      analyze("add, mul (i, k) [i] = %a0[k], %a1[k + 5]", {"4", "4"}, "2")
          .empty);
}

TEST_F(IndexSpaceTest, AccessOutsideTheOutputIsEmpty) {
  // o_0 would need to be in [10, 12]; the output has [0, 4].
  EXPECT_TRUE(analyze("assign (i) [i] = %a0[i - 10]", {"3"}, "5").empty);
}

TEST_F(IndexSpaceTest, FractionalConstantOutputIsEmpty) {
  EXPECT_TRUE(analyze("add (i) [1 div 2] = %a0[i]", {"3"}, "1").empty);
}

TEST_F(IndexSpaceTest, IntegerEmptyWindowIsEmpty) {
  // 1 <= 2*k <= 1 has a real solution but no integer one.
  EXPECT_TRUE(
      analyze("add (i, k) [i] = %a0[i, 2*k - 1] where 2*k < 2", {"2x1"}, "2")
          .empty);
}

TEST_F(IndexSpaceTest, UnusedIndexIsUnbounded) {
  EXPECT_EQ(analysisError("add (i, k) [i] = %a0[i]", {"4"}, "4"),
            "index variable 'k' is unbounded");
}

TEST_F(IndexSpaceTest, IndexBoundedOnlyInSumIsUnbounded) {
  EXPECT_EQ(analysisError("add (i, j, k) [i] = %a0[i, j + k]", {"4x4"}, "4"),
            "index variable 'j' is unbounded");
}

TEST_F(IndexSpaceTest, EmptySystemWithUnusedIndexIsNotAnError) {
  EXPECT_EQ(analysisError("add (i, k) [i] = %a0[i] where i < 0", {"4"}, "4"),
            "");
}

TEST_F(IndexSpaceTest, OverflowIsAnError) {
  IndexSystem system;
  system.numIndices = 2;
  int64_t big = int64_t(1) << 62;
  system.output.rows.push_back({{1, 0, 0}, {1, 1, 1}});
  system.output.extents = {4};
  system.inputs.push_back(
      {{{{big, 3, 0}, {1, 1, 1}}, {{3, big, 0}, {1, 1, 1}}}, {4, 4}});
  system.inputs.push_back({{{{0, 1, 0}, {1, 1, 1}}}, {4}});
  std::string error;
  EXPECT_FALSE(analyzeIndexSpace(system, error));
  EXPECT_EQ(error, "the index space's arithmetic overflows 64-bit integers");
}

TEST_F(IndexSpaceTest, MalformedSystemIsAnError) {
  IndexSystem system;
  system.numIndices = 1;
  system.output.rows.push_back({{1, 0}, {1, 0}});
  system.output.extents = {4};
  std::string error;
  EXPECT_FALSE(analyzeIndexSpace(system, error));
  EXPECT_EQ(error, "malformed index system");
}

} // namespace

namespace {

TEST_F(IndexSpaceTest, TuplesPerElement) {
  // A reduction assigned with `=`: every element gets 4 tuples, provably.
  EXPECT_EQ(
      analyze("assign (i, j) [i] = %a0[i, j]", {"3x4"}, "3").tuplesPerElement(),
      4);
  // A transpose writes each element once.
  EXPECT_EQ(analyze("assign (i, j) [j, i] = %a0[i, j]", {"3x4"}, "4x3")
                .tuplesPerElement(),
            1);
  // Padding makes the count depend on the element.
  EXPECT_EQ(
      analyze("add, mul (x, k) [x] = %a0[x + k - 1], %a1[k]", {"5", "3"}, "5")
          .tuplesPerElement(),
      std::nullopt);
}

} // namespace
