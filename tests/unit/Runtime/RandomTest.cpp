//===- RandomTest.cpp - Tests of random tensors ---------------------------===//

#include "tilec/Runtime/Random.h"

#include <cmath>
#include <limits>
#include <set>

#include <gtest/gtest.h>

using namespace tilec;

TEST(RandomTest, IsSplitMix64) {
  // The first outputs of splitmix64 seeded with 0 are published; a u64
  // element is the top four bits of one output.
  HostTensor tensor = *randomTensor(DType::U64, {3}, 0);
  EXPECT_EQ(tensor.getUInt(0), 0xEu); // 0xE220A8397B1DCDAF
  EXPECT_EQ(tensor.getUInt(1), 0x6u); // 0x6E789E6AA1B965F4
  EXPECT_EQ(tensor.getUInt(2), 0x0u); // 0x06C45D188009454F
}

TEST(RandomTest, IsDeterministic) {
  for (DType type : kAllDTypes) {
    EXPECT_TRUE(*randomTensor(type, {4, 5}, 3) ==
                *randomTensor(type, {4, 5}, 3))
        << dtypeName(type);
    EXPECT_FALSE(*randomTensor(type, {4, 5}, 3) ==
                 *randomTensor(type, {4, 5}, 4))
        << dtypeName(type);
  }
  // A pinned value, so that a change of the derivation is noticed.
  EXPECT_EQ(
      randomTensor(DType::F64, {1}, 0)->getDouble(0),
      std::ldexp(double(int64_t(0xE220A8397B1DCDAF >> 10) - (int64_t(1) << 53)),
                 -53));
  // f32 and f64 are stored without HostTensor::setDouble: the same values.
  EXPECT_EQ(
      randomTensor(DType::F32, {1}, 0)->getDouble(0),
      std::ldexp(double(int64_t(0xE220A8397B1DCDAF >> 39) - (int64_t(1) << 24)),
                 -24));
}

TEST(RandomTest, FloatsAreNonzeroExactAndInRange) {
  const std::pair<DType, int> types[] = {
      {DType::F16, 11}, {DType::BF16, 8}, {DType::F32, 24}, {DType::F64, 53}};
  for (auto [type, precision] : types) {
    HostTensor tensor = *randomTensor(type, {100, 100}, 11);
    double sum = 0;
    bool sawNegative = false, sawPositive = false;
    for (int64_t i = 0; i < tensor.numElements(); ++i) {
      double value = tensor.getDouble(i);
      ASSERT_GE(value, -1.0) << dtypeName(type);
      ASSERT_LT(value, 1.0) << dtypeName(type);
      ASSERT_NE(value, 0.0) << dtypeName(type);
      // A multiple of 2^-precision, so storing it did not round.
      double scaled = std::ldexp(value, precision);
      ASSERT_EQ(scaled, std::trunc(scaled)) << dtypeName(type);
      sum += value;
      sawNegative |= value < 0;
      sawPositive |= value > 0;
    }
    EXPECT_TRUE(sawNegative && sawPositive) << dtypeName(type);
    EXPECT_LT(std::fabs(sum / 10000), 0.05) << dtypeName(type);
  }
}

TEST(RandomTest, IntegerRanges) {
  for (DType type : {DType::I8, DType::I16, DType::I32, DType::I64}) {
    HostTensor tensor = *randomTensor(type, {1000}, 5);
    std::set<int64_t> seen;
    for (int64_t i = 0; i < tensor.numElements(); ++i)
      seen.insert(tensor.getInt(i));
    EXPECT_EQ(seen.size(), 16u) << dtypeName(type);
    EXPECT_EQ(*seen.begin(), -8) << dtypeName(type);
    EXPECT_EQ(*seen.rbegin(), 7) << dtypeName(type);
  }
  for (DType type : {DType::U8, DType::U16, DType::U32, DType::U64}) {
    HostTensor tensor = *randomTensor(type, {1000}, 5);
    std::set<uint64_t> seen;
    for (int64_t i = 0; i < tensor.numElements(); ++i)
      seen.insert(tensor.getUInt(i));
    EXPECT_EQ(seen.size(), 16u) << dtypeName(type);
    EXPECT_EQ(*seen.rbegin(), 15u) << dtypeName(type);
  }
  HostTensor flags = *randomTensor(DType::Bool, {1000}, 5);
  std::set<uint8_t> seen(flags.data(), flags.data() + flags.sizeInBytes());
  EXPECT_EQ(seen, (std::set<uint8_t>{0, 1}));
}

TEST(RandomTest, SizesBeyondTheHostAreErrorsNotCrashes) {
  // f32[2^62, 1] has 2^64 bytes, which wrapped to 0 and then crashed on the
  // first store; f32[2^63 - 1, 1] threw std::length_error; 2^40 elements
  // (4 TiB) fit 64 bits but no host's memory.
  const Shape overflowing[] = {{int64_t(1) << 62, 1},
                               {std::numeric_limits<int64_t>::max(), 1}};
  for (const Shape &shape : overflowing) {
    Expected<HostTensor> tensor = randomTensor(DType::F32, shape, 1);
    ASSERT_FALSE(tensor);
    EXPECT_NE(tensor.error().message().find(
                  "is too large: its size in bytes does not fit 64 bits"),
              std::string::npos)
        << tensor.error().message();
  }
  Expected<HostTensor> huge =
      randomTensor(DType::F32, {int64_t(1) << 20, int64_t(1) << 20}, 1);
  ASSERT_FALSE(huge);
  EXPECT_NE(huge.error().message().find(
                "f32[1048576, 1048576] is too large: it needs 4398046511104 "
                "bytes, and the host has "),
            std::string::npos)
      << huge.error().message();
  EXPECT_NE(huge.error().message().find(" bytes of memory available"),
            std::string::npos);
}
