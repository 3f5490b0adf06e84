//===- RationalTest.cpp - Exact rationals of tilec/Support ----------------===//

#include "tilec/Support/Rational.h"

#include <gtest/gtest.h>

#include <limits>

using namespace tilec;

namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

TEST(RationalTest, NormalisesSignAndCommonFactors) {
  EXPECT_EQ(Rational::get(2, -4), (Rational{-1, 2}));
  EXPECT_EQ(Rational::get(0, 7), (Rational{0, 1}));
  EXPECT_EQ(Rational::get(-6), (Rational{-6, 1}));
  EXPECT_FALSE(Rational::get(1, 0));
  EXPECT_FALSE(Rational::get(kMin, -1));
}

TEST(RationalTest, NormalFormExcludesTheLeastInt64) {
  // Negation of a normalised value is always exact.
  EXPECT_FALSE(Rational::get(kMin, 1));
  EXPECT_FALSE(Rational::get(1, kMin));
  EXPECT_FALSE((Rational{kMin, 1}).isNormalized());
  EXPECT_TRUE((Rational{-kMax, 1}).isNormalized());
  EXPECT_FALSE((Rational{2, 4}).isNormalized());
  EXPECT_FALSE((Rational{1, -2}).isNormalized());
}

TEST(RationalTest, AddDetectsOverflow) {
  EXPECT_EQ(add({1, 2}, {1, 3}), (Rational{5, 6}));
  EXPECT_EQ(add({1, 2}, {-1, 2}), (Rational{0, 1}));
  EXPECT_FALSE(add({kMax, 1}, {1, 1}));
  // The least common denominator keeps exact sums in range.
  EXPECT_EQ(add({1, kMax}, {1, kMax}), (Rational{2, kMax}));
}

TEST(RationalTest, SubMulDivAreExact) {
  EXPECT_EQ(sub({1, 2}, {1, 3}), (Rational{1, 6}));
  EXPECT_EQ(mul({2, 3}, {3, 4}), (Rational{1, 2}));
  // Cross-reduction before multiplying: (kMax/2) * (2/kMax) == 1.
  EXPECT_EQ(mul({kMax, 2}, {2, kMax}), (Rational{1, 1}));
  EXPECT_FALSE(mul({kMax, 1}, {2, 1}));
  EXPECT_EQ(div({1, 2}, {-1, 4}), (Rational{-2, 1}));
  EXPECT_FALSE(div({1, 2}, {0, 1}));
}

} // namespace
