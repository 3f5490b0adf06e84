//===- DTypeTest.cpp - Tests of the dtype table ---------------------------===//

#include "tilec/Runtime/DType.h"

#include <gtest/gtest.h>

using namespace tilec;

TEST(DTypeTest, NamesRoundTrip) {
  for (DType type : kAllDTypes)
    EXPECT_EQ(parseDType(dtypeName(type)), type) << dtypeName(type);
  EXPECT_FALSE(parseDType("f128"));
  EXPECT_FALSE(parseDType(""));
}

TEST(DTypeTest, Sizes) {
  EXPECT_EQ(dtypeSize(DType::Bool), 1u);
  EXPECT_EQ(dtypeSize(DType::BF16), 2u);
  EXPECT_EQ(dtypeSize(DType::U64), 8u);
  EXPECT_EQ(dtypeBits(DType::Bool), 1u);
  EXPECT_TRUE(isFloat(DType::BF16));
  EXPECT_TRUE(isUnsignedInt(DType::U8));
  EXPECT_FALSE(isInteger(DType::Bool));
}

TEST(DTypeTest, NumElementsOverflow) {
  EXPECT_EQ(numElements({}), 1);
  EXPECT_EQ(numElements({3, 0, 5}), 0);
  EXPECT_EQ(numElements({1 << 20, 1 << 20}), int64_t(1) << 40);
  EXPECT_FALSE(numElements({INT64_MAX, 2}));
  EXPECT_FALSE(numElements({-1}));
}
