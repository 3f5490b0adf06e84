//===- HostTensorTest.cpp - Tests of HostTensor and f16/bf16 conversion ---===//

#include "tilec/Runtime/HostTensor.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>

#include <gtest/gtest.h>

using namespace tilec;

static const double kInf = std::numeric_limits<double>::infinity();
static const double kNaN = std::numeric_limits<double>::quiet_NaN();

static uint32_t floatBits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

static float bitsToFloat(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

/// Random doubles for the conversion tests: random sign and significand,
/// exponent uniform in [minExp, maxExp] (splitmix64 steps, so the test is
/// the same everywhere).
static std::vector<double> randomDoubles(int minExp, int maxExp, int count) {
  std::vector<double> values;
  uint64_t state = 12345;
  for (int i = 0; i < count; ++i) {
    state += 0x9E3779B97F4A7C15;
    uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EB;
    z ^= z >> 31;
    double significand = 1.0 + std::ldexp(double(z >> 12), -52);
    int exponent = minExp + int((z & 0x7FF) % uint64_t(maxExp - minExp + 1));
    double value = std::ldexp(significand, exponent);
    values.push_back(z & 0x800 ? -value : value);
  }
  return values;
}

/// For a NaN produced from a NaN: still a NaN, quiet, same sign.
static void expectQuietNaN(uint16_t bits, uint16_t sign, unsigned expBits,
                           unsigned mantBits) {
  uint16_t expMask = ((1u << expBits) - 1) << mantBits;
  EXPECT_EQ(bits & expMask, expMask) << std::hex << bits;
  EXPECT_NE(bits & (1u << (mantBits - 1)), 0u) << std::hex << bits;
  EXPECT_EQ(bits & 0x8000, sign) << std::hex << bits;
}

TEST(HalfTest, EveryPatternRoundTrips) {
  for (uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
    double value = halfToDouble(uint16_t(bits));
    uint16_t back = doubleToHalf(value);
    if (std::isnan(value)) {
      expectQuietNaN(back, bits & 0x8000, 5, 10);
      // A quiet NaN keeps its payload.
      if (bits & 0x200) {
        EXPECT_EQ(back, bits);
      }
    } else {
      EXPECT_EQ(back, bits) << value;
    }
  }
}

TEST(BFloat16Test, EveryPatternRoundTrips) {
  for (uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
    double value = bfloat16ToDouble(uint16_t(bits));
    // bf16 is the top half of an f32: an independent decoding.
    double expected = bitsToFloat(bits << 16);
    uint16_t back = doubleToBFloat16(value);
    if (std::isnan(expected)) {
      EXPECT_TRUE(std::isnan(value));
      expectQuietNaN(back, bits & 0x8000, 8, 7);
      if (bits & 0x40) {
        EXPECT_EQ(back, bits);
      }
    } else {
      EXPECT_EQ(value, expected) << std::hex << bits;
      EXPECT_EQ(back, bits) << value;
    }
  }
}

#ifdef __FLT16_MAX__
// The compiler's _Float16 conversions are an independent oracle.
TEST(HalfTest, MatchesCompilerFloat16) {
  for (uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
    uint16_t pattern = uint16_t(bits);
    _Float16 half;
    std::memcpy(&half, &pattern, sizeof half);
    double value = halfToDouble(pattern);
    if (!std::isnan(value)) {
      EXPECT_EQ(value, double(half)) << std::hex << bits;
    }
  }
  // Values spanning subnormals, normals and overflow of f16.
  for (double value : randomDoubles(-27, 17, 200000)) {
    _Float16 half = static_cast<_Float16>(value);
    uint16_t expected;
    std::memcpy(&expected, &half, sizeof expected);
    EXPECT_EQ(doubleToHalf(value), expected) << value;
  }
}
#endif

TEST(BFloat16Test, MatchesRoundingOfExactFloats) {
  // For a double that is exactly an f32, rounding its bits' top half to
  // nearest-even is the well-known integer formula.
  for (double value : randomDoubles(-140, 127, 200000)) {
    uint32_t bits = floatBits(float(value));
    uint16_t expected = uint16_t((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16);
    EXPECT_EQ(doubleToBFloat16(float(value)), expected) << float(value);
  }
}

TEST(HalfTest, RoundsTiesToEven) {
  EXPECT_EQ(doubleToHalf(1.0 + std::ldexp(1, -11)), 0x3C00);
  EXPECT_EQ(doubleToHalf(1.0 + 3 * std::ldexp(1, -11)), 0x3C02);
  EXPECT_EQ(doubleToHalf(-(1.0 + std::ldexp(1, -11))), 0xBC00);
}

TEST(HalfTest, RoundsOnceFromDouble) {
  // Just above a tie by less than f32 can hold: rounding through f32 would
  // make it a tie and round down to even.
  EXPECT_EQ(doubleToHalf(1.0 + std::ldexp(1, -11) + std::ldexp(1, -40)),
            0x3C01);
  EXPECT_EQ(doubleToHalf(std::ldexp(1, -25) + std::ldexp(1, -60)), 0x0001);
}

TEST(HalfTest, Subnormals) {
  EXPECT_EQ(doubleToHalf(std::ldexp(1, -24)), 0x0001);
  EXPECT_EQ(halfToDouble(0x0001), std::ldexp(1, -24));
  EXPECT_EQ(halfToDouble(0x03FF), std::ldexp(1023, -24));
  // Half the smallest subnormal is a tie with zero: even is zero.
  EXPECT_EQ(doubleToHalf(std::ldexp(1, -25)), 0x0000);
  EXPECT_EQ(doubleToHalf(-std::ldexp(1, -25)), 0x8000);
  EXPECT_EQ(doubleToHalf(3 * std::ldexp(1, -25)), 0x0002);
  // The largest subnormal rounds up into the smallest normal.
  EXPECT_EQ(doubleToHalf(std::ldexp(1, -14) - std::ldexp(1, -25)), 0x0400);
  EXPECT_EQ(doubleToHalf(5e-324), 0x0000);
  EXPECT_EQ(doubleToHalf(-0.0), 0x8000);
}

TEST(HalfTest, OverflowAndSpecials) {
  EXPECT_EQ(doubleToHalf(65504), 0x7BFF);
  EXPECT_EQ(doubleToHalf(65519.99), 0x7BFF);
  EXPECT_EQ(doubleToHalf(65520), 0x7C00);
  EXPECT_EQ(doubleToHalf(1e300), 0x7C00);
  EXPECT_EQ(doubleToHalf(-DBL_MAX), 0xFC00);
  EXPECT_EQ(doubleToHalf(kInf), 0x7C00);
  EXPECT_EQ(doubleToHalf(-kInf), 0xFC00);
  EXPECT_EQ(halfToDouble(0xFC00), -kInf);
  expectQuietNaN(doubleToHalf(kNaN), 0, 5, 10);
  expectQuietNaN(doubleToHalf(-kNaN), 0x8000, 5, 10);
  // A signalling NaN whose payload does not fit still becomes a NaN.
  double signalling;
  uint64_t signallingBits = 0x7FF0000000000001;
  std::memcpy(&signalling, &signallingBits, sizeof signalling);
  expectQuietNaN(doubleToHalf(signalling), 0, 5, 10);
  EXPECT_TRUE(std::isnan(halfToDouble(0x7C01)));
}

TEST(BFloat16Test, RoundingCases) {
  EXPECT_EQ(doubleToBFloat16(1.0), 0x3F80);
  EXPECT_EQ(doubleToBFloat16(1.0 + std::ldexp(1, -8)), 0x3F80);
  EXPECT_EQ(doubleToBFloat16(1.0 + 3 * std::ldexp(1, -8)), 0x3F82);
  // Rounding through f32 would turn this into a tie and round down.
  EXPECT_EQ(doubleToBFloat16(1.0 + std::ldexp(1, -8) + std::ldexp(1, -30)),
            0x3F81);
  EXPECT_EQ(doubleToBFloat16(std::ldexp(1, -133)), 0x0001);
  EXPECT_EQ(doubleToBFloat16(std::ldexp(1, -134)), 0x0000);
  EXPECT_EQ(doubleToBFloat16(std::ldexp(1, -134) + std::ldexp(1, -180)),
            0x0001);
  EXPECT_EQ(doubleToBFloat16(FLT_MAX), 0x7F80); // A tie up to infinity.
  EXPECT_EQ(doubleToBFloat16(std::ldexp(255, 120)), 0x7F7F);
  EXPECT_EQ(doubleToBFloat16(1e300), 0x7F80);
  EXPECT_EQ(doubleToBFloat16(-kInf), 0xFF80);
  expectQuietNaN(doubleToBFloat16(kNaN), 0, 8, 7);
}

TEST(HostTensorTest, ConstructsZeroFilled) {
  HostTensor tensor(DType::I16, {2, 3});
  EXPECT_EQ(tensor.rank(), 2);
  EXPECT_EQ(tensor.numElements(), 6);
  EXPECT_EQ(tensor.sizeInBytes(), 12u);
  for (int64_t i = 0; i < 6; ++i)
    EXPECT_EQ(tensor.getInt(i), 0);

  HostTensor scalar(DType::F64, {});
  EXPECT_EQ(scalar.rank(), 0);
  EXPECT_EQ(scalar.numElements(), 1);
  HostTensor empty(DType::F32, {4, 0});
  EXPECT_EQ(empty.numElements(), 0);
  EXPECT_EQ(empty.sizeInBytes(), 0u);

  HostTensor other(DType::I16, {2, 3});
  EXPECT_TRUE(tensor == other);
  other.setInt(5, 1);
  EXPECT_FALSE(tensor == other);
  EXPECT_FALSE(tensor == HostTensor(DType::U16, {2, 3}));
  EXPECT_FALSE(tensor == HostTensor(DType::I16, {3, 2}));
}

// The bytes come zeroed from the allocator (ZeroedByteAllocator.h), with no
// pass over them: small tensors from calloc, large ones mapped whole. Storage
// freed after poisoning and taken again must read as zeros all the same.
TEST(HostTensorTest, ZeroFilledAfterPoisonedStorageIsFreed) {
  // 12 bytes, 64 KiB and 4 MiB plus 12 bytes (mapped, not whole pages).
  for (int64_t columns : {3, 1 << 14, (1 << 20) + 3}) {
    Shape shape = {1, columns};
    for (int round = 0; round < 3; ++round) {
      HostTensor tensor(DType::F32, shape);
      const uint8_t *bytes = tensor.data();
      ASSERT_TRUE(std::all_of(bytes, bytes + tensor.sizeInBytes(),
                              [](uint8_t byte) { return byte == 0; }))
          << columns << " columns, round " << round;
      tensor.poison();
    }
    HostTensor tensor(DType::F32, shape);
    tensor.setDouble(columns - 1, 2.5);
    HostTensor copy = tensor;
    EXPECT_TRUE(copy == tensor);
    EXPECT_EQ(copy.getDouble(columns - 1), 2.5);
    EXPECT_EQ(copy.getDouble(0), 0.0);
    HostTensor moved = std::move(copy);
    EXPECT_TRUE(moved == tensor);
  }
}

TEST(HostTensorTest, StoresLittleEndian) {
  HostTensor tensor(DType::U32, {1});
  tensor.setUInt(0, 0x01020304);
  EXPECT_EQ(tensor.data()[0], 0x04);
  EXPECT_EQ(tensor.data()[3], 0x01);
  HostTensor half(DType::F16, {1});
  half.setDouble(0, 1.0);
  EXPECT_EQ(half.data()[0], 0x00);
  EXPECT_EQ(half.data()[1], 0x3C);
}

TEST(HostTensorTest, IntegersWrap) {
  HostTensor i8(DType::I8, {1});
  i8.setInt(0, 300);
  EXPECT_EQ(i8.getInt(0), 44);
  i8.setInt(0, -129);
  EXPECT_EQ(i8.getInt(0), 127);
  i8.setUInt(0, 0xFF);
  EXPECT_EQ(i8.getInt(0), -1);
  EXPECT_EQ(i8.getUInt(0), UINT64_MAX);
  EXPECT_EQ(i8.getDouble(0), -1.0);

  HostTensor u16(DType::U16, {1});
  u16.setInt(0, -1);
  EXPECT_EQ(u16.getUInt(0), 0xFFFFu);
  EXPECT_EQ(u16.getInt(0), 0xFFFF);
  u16.setUInt(0, 0x12345678);
  EXPECT_EQ(u16.getUInt(0), 0x5678u);

  HostTensor i64(DType::I64, {1});
  i64.setUInt(0, UINT64_MAX);
  EXPECT_EQ(i64.getInt(0), -1);
  i64.setInt(0, INT64_MIN);
  EXPECT_EQ(i64.getInt(0), INT64_MIN);
  EXPECT_EQ(i64.getDouble(0), -std::ldexp(1, 63));

  HostTensor u64(DType::U64, {1});
  u64.setUInt(0, UINT64_MAX);
  EXPECT_EQ(u64.getUInt(0), UINT64_MAX);
  EXPECT_EQ(u64.getInt(0), -1);
  EXPECT_EQ(u64.getDouble(0), std::ldexp(1, 64));

  HostTensor i32(DType::I32, {1});
  i32.setInt(0, int64_t(1) << 40 | 5);
  EXPECT_EQ(i32.getInt(0), 5);
}

TEST(HostTensorTest, FloatToIntegerTruncatesAndSaturates) {
  HostTensor i8(DType::I8, {1});
  const std::pair<double, int64_t> signedCases[] = {
      {3.9, 3},      {-3.9, -3},     {127.99, 127},  {128, 127},
      {1000.7, 127}, {-128.5, -128}, {-1e300, -128}, {kInf, 127},
      {-kInf, -128}, {kNaN, 0},      {-0.0, 0}};
  for (auto [value, expected] : signedCases) {
    i8.setDouble(0, value);
    EXPECT_EQ(i8.getInt(0), expected) << value;
  }
  HostTensor u8(DType::U8, {1});
  const std::pair<double, uint64_t> unsignedCases[] = {
      {255.5, 255}, {256, 255}, {-0.5, 0}, {-5, 0}, {kNaN, 0}, {7.99, 7}};
  for (auto [value, expected] : unsignedCases) {
    u8.setDouble(0, value);
    EXPECT_EQ(u8.getUInt(0), expected) << value;
  }

  HostTensor i64(DType::I64, {1});
  i64.setDouble(0, 9.3e18);
  EXPECT_EQ(i64.getInt(0), INT64_MAX);
  i64.setDouble(0, -std::ldexp(1, 63));
  EXPECT_EQ(i64.getInt(0), INT64_MIN);
  i64.setDouble(0, std::ldexp(1, 62) + 1024);
  EXPECT_EQ(i64.getInt(0), (int64_t(1) << 62) + 1024);
  HostTensor u64(DType::U64, {1});
  u64.setDouble(0, 1e30);
  EXPECT_EQ(u64.getUInt(0), UINT64_MAX);
  u64.setDouble(0, std::ldexp(1, 63));
  EXPECT_EQ(u64.getUInt(0), uint64_t(1) << 63);

  // Reading floats as integers follows the same rule.
  HostTensor f32(DType::F32, {1});
  f32.setDouble(0, -2.75);
  EXPECT_EQ(f32.getInt(0), -2);
  EXPECT_EQ(f32.getUInt(0), 0u);
  f32.setDouble(0, 1e30);
  EXPECT_EQ(f32.getInt(0), INT64_MAX);
  EXPECT_EQ(f32.getUInt(0), UINT64_MAX);
  f32.setDouble(0, kNaN);
  EXPECT_EQ(f32.getInt(0), 0);
}

TEST(HostTensorTest, IntegerToFloatRoundsOnce) {
  // 2^60 + 2^52 + 1 is just above a bf16 tie; through double it would become
  // the tie 2^60 + 2^52 and round down to 2^60.
  HostTensor bf16(DType::BF16, {1});
  bf16.setInt(0, (int64_t(1) << 60) + (int64_t(1) << 52) + 1);
  EXPECT_EQ(bf16.getDouble(0), std::ldexp(1, 60) + std::ldexp(1, 53));
  bf16.setInt(0, -((int64_t(1) << 60) + (int64_t(1) << 52) + 1));
  EXPECT_EQ(bf16.getDouble(0), -(std::ldexp(1, 60) + std::ldexp(1, 53)));

  HostTensor f32(DType::F32, {1});
  f32.setUInt(0, (uint64_t(1) << 60) + (uint64_t(1) << 36) + 1);
  EXPECT_EQ(f32.getDouble(0), std::ldexp(1, 60) + std::ldexp(1, 37));
  f32.setUInt(0, UINT64_MAX);
  EXPECT_EQ(f32.getDouble(0), std::ldexp(1, 64));

  HostTensor f16(DType::F16, {1});
  f16.setInt(0, 65519);
  EXPECT_EQ(f16.getDouble(0), 65504);
  f16.setInt(0, 65520);
  EXPECT_EQ(f16.getDouble(0), kInf);
  f16.setInt(0, -2049); // A tie between -2048 and -2050: even is -2048.
  EXPECT_EQ(f16.getDouble(0), -2048);

  HostTensor f64(DType::F64, {1});
  f64.setInt(0, INT64_MIN);
  EXPECT_EQ(f64.getDouble(0), -std::ldexp(1, 63));
  f64.setInt(0, (int64_t(1) << 53) + 1);
  EXPECT_EQ(f64.getDouble(0), std::ldexp(1, 53));
  f64.setInt(0, 0);
  EXPECT_EQ(f64.getDouble(0), 0.0);
  EXPECT_FALSE(std::signbit(f64.getDouble(0)));
}

TEST(HostTensorTest, FloatStorage) {
  HostTensor f32(DType::F32, {1});
  // In range, the compiler's conversion is the oracle.
  for (double value : randomDoubles(-160, 127, 20000)) {
    f32.setDouble(0, value);
    EXPECT_EQ(f32.getDouble(0), double(float(value))) << value;
  }
  // Half an ulp above FLT_MAX is a tie, and FLT_MAX's significand is odd.
  f32.setDouble(0, double(FLT_MAX) + std::ldexp(1, 103));
  EXPECT_EQ(f32.getDouble(0), kInf);
  f32.setDouble(0, -1e39);
  EXPECT_EQ(f32.getDouble(0), -kInf);
  f32.setDouble(0, double(FLT_MAX) + std::ldexp(1, 102));
  EXPECT_EQ(f32.getDouble(0), double(FLT_MAX));

  HostTensor f64(DType::F64, {1});
  f64.setDouble(0, -0.0);
  EXPECT_TRUE(std::signbit(f64.getDouble(0)));
  f64.setDouble(0, 5e-324);
  EXPECT_EQ(f64.getDouble(0), 5e-324);
}

TEST(HostTensorTest, Bool) {
  HostTensor flag(DType::Bool, {1});
  const std::pair<double, int64_t> cases[] = {
      {0.5, 1}, {-0.0, 0}, {0.0, 0}, {kNaN, 1}, {-3, 1}};
  for (auto [value, expected] : cases) {
    flag.setDouble(0, value);
    EXPECT_EQ(flag.getInt(0), expected) << value;
    EXPECT_EQ(flag.data()[0], expected) << value;
  }
  flag.setInt(0, -3);
  EXPECT_EQ(flag.data()[0], 1);
  EXPECT_EQ(flag.getDouble(0), 1.0);
  flag.setUInt(0, uint64_t(1) << 63);
  EXPECT_EQ(flag.getUInt(0), 1u);
  flag.setInt(0, 0);
  EXPECT_EQ(flag.getUInt(0), 0u);
}

TEST(HostTensorTest, Poison) {
  for (DType type : {DType::F16, DType::BF16, DType::F32, DType::F64}) {
    HostTensor tensor(type, {3});
    tensor.poison();
    for (int64_t i = 0; i < 3; ++i)
      EXPECT_TRUE(std::isnan(tensor.getDouble(i))) << dtypeName(type);
  }
  HostTensor i32(DType::I32, {2});
  i32.poison();
  EXPECT_EQ(i32.getInt(1), -1);
  HostTensor u16(DType::U16, {2});
  u16.poison(0xAB);
  EXPECT_EQ(u16.getUInt(1), 0xABABu);
  HostTensor flag(DType::Bool, {1});
  flag.poison();
  EXPECT_EQ(flag.getInt(0), 1);
}
