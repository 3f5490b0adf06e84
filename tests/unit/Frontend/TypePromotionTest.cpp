//===- TypePromotionTest.cpp - Tests of the dtype promotion rules ---------===//

#include "tilec/Sema/TypePromotion.h"

#include <gtest/gtest.h>

using namespace tilec;

TEST(TypePromotionTest, FloatBeatsIntAndWiderWins) {
  EXPECT_EQ(promoteTypes(DType::I32, DType::F16), DType::F16);
  EXPECT_EQ(promoteTypes(DType::F64, DType::F32), DType::F64);
  EXPECT_EQ(promoteTypes(DType::I8, DType::I32), DType::I32);
  EXPECT_EQ(promoteTypes(DType::U16, DType::U64), DType::U64);
}

TEST(TypePromotionTest, HalfAndBFloat16MeetInF32) {
  EXPECT_EQ(promoteTypes(DType::F16, DType::BF16), DType::F32);
}

TEST(TypePromotionTest, SignedAndUnsigned) {
  EXPECT_EQ(promoteTypes(DType::U8, DType::I8), DType::I16);
  EXPECT_EQ(promoteTypes(DType::U32, DType::I32), DType::I64);
  EXPECT_EQ(promoteTypes(DType::U64, DType::I64), DType::I64);
  EXPECT_EQ(promoteTypes(DType::U8, DType::I32), DType::I32);
  EXPECT_EQ(promoteTypes(DType::I8, DType::U32), DType::I64);
}

TEST(TypePromotionTest, BoolGivesWay) {
  EXPECT_EQ(promoteTypes(DType::Bool, DType::U16), DType::U16);
  EXPECT_EQ(promoteTypes(DType::Bool, DType::Bool), DType::Bool);
  EXPECT_EQ(promoteArithmetic(DType::Bool, DType::Bool), DType::I32);
}
