//===- CheckedArithmeticTest.cpp - int64 arithmetic of tilec/Support ------===//

#include "tilec/Support/CheckedArithmetic.h"

#include <gtest/gtest.h>

#include <limits>

using namespace tilec;

namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

TEST(CheckedArithmeticTest, OptionalOperationsReportOverflow) {
  EXPECT_EQ(checkedAdd(2, 3), 5);
  EXPECT_FALSE(checkedAdd(kMax, 1));
  EXPECT_FALSE(checkedSub(kMin, 1));
  EXPECT_FALSE(checkedMul(kMax, 2));
  EXPECT_EQ(checkedDiv(-7, 2), -3);
  EXPECT_FALSE(checkedDiv(1, 0));
  EXPECT_FALSE(checkedDiv(kMin, -1));
  EXPECT_EQ(checkedRem(-7, 2), -1);
  EXPECT_EQ(checkedRem(kMin, -1), 0);
  EXPECT_FALSE(checkedRem(1, 0));
}

TEST(CheckedArithmeticTest, StickyFlagCountsTheLeastInt64AsOverflow) {
  CheckedArithmetic arith;
  EXPECT_EQ(arith.mul(6, 7), 42);
  EXPECT_EQ(arith.lcm(4, 6), 12);
  EXPECT_FALSE(arith.overflowed());
  EXPECT_EQ(arith.sub(-kMax, 1), 0);
  EXPECT_TRUE(arith.overflowed());
  // The flag stays set after a result that fits.
  EXPECT_EQ(arith.add(1, 1), 2);
  EXPECT_TRUE(arith.overflowed());

  CheckedArithmetic other;
  other.check(kMin);
  EXPECT_TRUE(other.overflowed());
}

TEST(CheckedArithmeticTest, FloorAndCeilDivisionRoundTowardInfinities) {
  EXPECT_EQ(floorDiv<int64_t>(7, 2), 3);
  EXPECT_EQ(floorDiv<int64_t>(-7, 2), -4);
  EXPECT_EQ(floorDiv<int64_t>(7, -2), -4);
  EXPECT_EQ(floorDiv<int64_t>(-7, -2), 3);
  EXPECT_EQ(floorDiv<int64_t>(-8, 2), -4);
  EXPECT_EQ(ceilDiv<int64_t>(7, 2), 4);
  EXPECT_EQ(ceilDiv<int64_t>(-7, 2), -3);
  EXPECT_EQ(ceilDiv<int64_t>(7, -2), -3);
  EXPECT_EQ(ceilDiv<int64_t>(-7, -2), 4);
  EXPECT_EQ(ceilDiv<int64_t>(0, 5), 0);
  __int128 big = __int128(kMax) * 4 + 1;
  EXPECT_TRUE(floorDiv<__int128>(big, 4) == kMax);
  EXPECT_TRUE(ceilDiv<__int128>(-big, 4) == -kMax);
}

TEST(CheckedArithmeticTest, GcdModAndMagnitude) {
  EXPECT_EQ(gcd(-12, 18), 6);
  EXPECT_EQ(gcd(0, -5), 5);
  EXPECT_EQ(positiveMod(-7, 3), 2);
  EXPECT_EQ(positiveMod(7, 3), 1);
  EXPECT_EQ(magnitude(kMin), uint64_t(kMax) + 1);
  EXPECT_EQ(magnitude(int64_t(-3)), 3u);
  EXPECT_TRUE(magnitude(__int128(-5)) == 5);
}

} // namespace
