//===- CompareTest.cpp - Tests of the agreement rule ----------------------===//

#include "tilec/Runtime/Compare.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace tilec;

static HostTensor makeTensor(DType dtype,
                             std::initializer_list<double> values) {
  HostTensor tensor(dtype, {static_cast<int64_t>(values.size())});
  int64_t i = 0;
  for (double value : values)
    tensor.setDouble(i++, value);
  return tensor;
}

TEST(CompareTest, FloatsUseRelativeNorm) {
  HostTensor expected = makeTensor(DType::F64, {3, 4});
  HostTensor close = makeTensor(DType::F64, {3, 4 + 5e-6});
  Comparison result = compareTensors(close, expected, 1e-5);
  EXPECT_TRUE(result.agrees) << result.summary;
  EXPECT_NEAR(result.relativeError, 1e-6, 1e-9);

  HostTensor far = makeTensor(DType::F64, {3, 4.01});
  result = compareTensors(far, expected, 1e-5);
  EXPECT_FALSE(result.agrees);
  EXPECT_NE(result.summary.find("exceeds the tolerance"), std::string::npos);
}

TEST(CompareTest, NonFiniteValuesMustMatchInPlace) {
  double nan = std::numeric_limits<double>::quiet_NaN();
  double inf = std::numeric_limits<double>::infinity();
  HostTensor expected = makeTensor(DType::F32, {nan, -inf, 1});
  EXPECT_TRUE(
      compareTensors(makeTensor(DType::F32, {nan, -inf, 1}), expected, 1e-5)
          .agrees);
  Comparison result =
      compareTensors(makeTensor(DType::F32, {1, -inf, 1}), expected, 1e-5);
  EXPECT_FALSE(result.agrees);
  EXPECT_EQ(result.firstMismatch, 0);
  // A poisoned (NaN) output element never agrees with a finite reference.
  result =
      compareTensors(makeTensor(DType::F32, {nan, -inf, nan}), expected, 1e-5);
  EXPECT_FALSE(result.agrees);
  EXPECT_EQ(result.firstMismatch, 2);
}

TEST(CompareTest, IntegersAreExact) {
  HostTensor expected = makeTensor(DType::I32, {1, 2, 3});
  Comparison result =
      compareTensors(makeTensor(DType::I32, {1, 2, 4}), expected, 1.0);
  EXPECT_FALSE(result.agrees);
  EXPECT_EQ(result.mismatches, 1);
  EXPECT_EQ(result.firstMismatch, 2);
  EXPECT_EQ(result.summary, "differs: 1 element, the first at flat index 2");
  EXPECT_EQ(
      compareTensors(makeTensor(DType::I32, {0, 2, 4}), expected, 1.0).summary,
      "differs: 2 elements, the first at flat index 0");
  EXPECT_TRUE(compareTensors(expected, expected, 0).agrees);
}

TEST(CompareTest, ShapeOrDtypeDifferencesNeverAgree) {
  HostTensor expected = makeTensor(DType::F32, {1, 2});
  Comparison result =
      compareTensors(makeTensor(DType::F64, {1, 2}), expected, 1);
  EXPECT_FALSE(result.agrees);
  EXPECT_EQ(result.summary, "differs: got f64[2], expected f32[2]");
  EXPECT_FALSE(
      compareTensors(makeTensor(DType::F32, {1, 2, 3}), expected, 1).agrees);
}
