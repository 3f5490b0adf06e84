//===- ScalarTest.cpp - Element arithmetic of the interpreter -------------===//

#include "Scalar.h"

#include "gtest/gtest.h"

#include <cmath>
#include <limits>

using namespace tilec;
using namespace tilec::interp;

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

Value binary(BinaryOp op, DType type, Value a, Value b) {
  llvm::Expected<Value> result = applyBinary(op, type, a, b);
  EXPECT_TRUE(!!result) << llvm::toString(result.takeError());
  return result ? *result : Value();
}

std::string binaryError(BinaryOp op, DType type, Value a, Value b) {
  llvm::Expected<Value> result = applyBinary(op, type, a, b);
  return result ? "no error" : llvm::toString(result.takeError());
}

double builtin(Builtin fn, DType type, std::vector<Value> args) {
  llvm::Expected<Value> result = applyBuiltin(fn, type, args);
  EXPECT_TRUE(!!result) << llvm::toString(result.takeError());
  if (!result)
    return kNaN;
  if (const auto *d = std::get_if<double>(&*result))
    return *d;
  if (const auto *i = std::get_if<int64_t>(&*result))
    return double(*i);
  return double(std::get<uint64_t>(*result));
}

TEST(Scalar, IntegerDivisionTruncatesTowardZero) {
  EXPECT_EQ(binary(BinaryOp::Div, DType::I32, int64_t(-7), int64_t(2)),
            Value(int64_t(-3)));
  EXPECT_EQ(binary(BinaryOp::Rem, DType::I32, int64_t(-7), int64_t(2)),
            Value(int64_t(-1)));
  EXPECT_EQ(binary(BinaryOp::Div, DType::I32, int64_t(7), int64_t(-2)),
            Value(int64_t(-3)));
  EXPECT_EQ(binary(BinaryOp::Rem, DType::I32, int64_t(7), int64_t(-2)),
            Value(int64_t(1)));
  EXPECT_EQ(binary(BinaryOp::Div, DType::U8, uint64_t(200), uint64_t(7)),
            Value(uint64_t(28)));
  // The overflowing quotient wraps.
  EXPECT_EQ(
      binary(BinaryOp::Div, DType::I32, int64_t(-2147483648LL), int64_t(-1)),
      Value(int64_t(-2147483648LL)));
  EXPECT_EQ(binary(BinaryOp::Rem, DType::I64,
                   std::numeric_limits<int64_t>::min(), int64_t(-1)),
            Value(int64_t(0)));
}

TEST(Scalar, IntegerDivisionByZeroIsAnError) {
  EXPECT_EQ(binaryError(BinaryOp::Div, DType::I32, int64_t(1), int64_t(0)),
            "integer division by zero");
  EXPECT_EQ(binaryError(BinaryOp::Rem, DType::U32, uint64_t(1), uint64_t(0)),
            "integer remainder by zero");
  // Float division by zero is IEEE.
  EXPECT_EQ(binary(BinaryOp::Div, DType::F32, 1.0, 0.0), Value(kInf));
}

TEST(Scalar, IntegerArithmeticWraps) {
  EXPECT_EQ(binary(BinaryOp::Add, DType::I8, int64_t(100), int64_t(100)),
            Value(int64_t(-56)));
  EXPECT_EQ(binary(BinaryOp::Sub, DType::U8, uint64_t(0), uint64_t(1)),
            Value(uint64_t(255)));
  EXPECT_EQ(binary(BinaryOp::Mul, DType::I16, int64_t(300), int64_t(300)),
            Value(int64_t(90000 - 65536 * 1)));
  EXPECT_EQ(binary(BinaryOp::Add, DType::I64,
                   std::numeric_limits<int64_t>::max(), int64_t(1)),
            Value(std::numeric_limits<int64_t>::min()));
  EXPECT_EQ(llvm::cantFail(applyUnary(UnaryOp::Neg, DType::I8, int64_t(-128))),
            Value(int64_t(-128)));
}

TEST(Scalar, Shifts) {
  EXPECT_EQ(binary(BinaryOp::Shl, DType::I32, int64_t(1), int64_t(31)),
            Value(int64_t(-2147483648LL)));
  EXPECT_EQ(binary(BinaryOp::Shr, DType::I32, int64_t(-8), int64_t(1)),
            Value(int64_t(-4)));
  EXPECT_EQ(binary(BinaryOp::Shr, DType::U8, uint64_t(200), uint64_t(1)),
            Value(uint64_t(100)));
  EXPECT_EQ(binaryError(BinaryOp::Shl, DType::I32, int64_t(1), int64_t(32)),
            "shift amount 32 is out of range for i32 (0 to 31)");
  EXPECT_EQ(binaryError(BinaryOp::Shr, DType::I8, int64_t(1), int64_t(-1)),
            "shift amount -1 is out of range for i8 (0 to 7)");
}

TEST(Scalar, ComparisonsAndLogic) {
  EXPECT_EQ(binary(BinaryOp::Eq, DType::F32, kNaN, kNaN), Value(false));
  EXPECT_EQ(binary(BinaryOp::Ne, DType::F32, kNaN, kNaN), Value(true));
  EXPECT_EQ(binary(BinaryOp::Le, DType::F32, kNaN, 1.0), Value(false));
  EXPECT_EQ(binary(BinaryOp::Lt, DType::I32, int64_t(-1), int64_t(0)),
            Value(true));
  EXPECT_EQ(binary(BinaryOp::Gt, DType::U64, uint64_t(1) << 63, uint64_t(1)),
            Value(true));
  EXPECT_EQ(binary(BinaryOp::LogicalAnd, DType::Bool, true, false),
            Value(false));
  EXPECT_EQ(binary(BinaryOp::LogicalOr, DType::Bool, true, false), Value(true));
  EXPECT_EQ(binary(BinaryOp::BitXor, DType::U8, uint64_t(0xF0), uint64_t(0xFF)),
            Value(uint64_t(0x0F)));
  EXPECT_EQ(llvm::cantFail(applyUnary(UnaryOp::BitNot, DType::U8, uint64_t(1))),
            Value(uint64_t(254)));
  EXPECT_EQ(llvm::cantFail(applyUnary(UnaryOp::BitNot, DType::Bool, true)),
            Value(false));
  EXPECT_EQ(llvm::cantFail(applyUnary(UnaryOp::LogicalNot, DType::F32, kNaN)),
            Value(false));
  EXPECT_EQ(binaryError(BinaryOp::BitAnd, DType::F32, 1.0, 1.0),
            "bitwise operation on floating-point values");
}

TEST(Scalar, FloatToIntegerCastsTruncateAndSaturate) {
  EXPECT_EQ(convertValue(-2.7, DType::I32), Value(int64_t(-2)));
  EXPECT_EQ(convertValue(2.7, DType::U8), Value(uint64_t(2)));
  EXPECT_EQ(convertValue(300.0, DType::I8), Value(int64_t(127)));
  EXPECT_EQ(convertValue(-300.0, DType::I8), Value(int64_t(-128)));
  EXPECT_EQ(convertValue(-1.5, DType::U8), Value(uint64_t(0)));
  EXPECT_EQ(convertValue(kNaN, DType::I64), Value(int64_t(0)));
  EXPECT_EQ(convertValue(kInf, DType::U64),
            Value(std::numeric_limits<uint64_t>::max()));
  EXPECT_EQ(convertValue(1e19, DType::I64),
            Value(std::numeric_limits<int64_t>::max()));
}

TEST(Scalar, IntegerCastsWrapAndBoolIsNonZero) {
  EXPECT_EQ(convertValue(int64_t(300), DType::U8), Value(uint64_t(44)));
  EXPECT_EQ(convertValue(int64_t(-1), DType::U16), Value(uint64_t(65535)));
  EXPECT_EQ(convertValue(uint64_t(255), DType::I8), Value(int64_t(-1)));
  EXPECT_EQ(convertValue(int64_t(-5), DType::Bool), Value(true));
  EXPECT_EQ(convertValue(kNaN, DType::Bool), Value(true));
  EXPECT_EQ(convertValue(true, DType::I32), Value(int64_t(1)));
  EXPECT_EQ(convertValue(false, DType::F32), Value(0.0));
}

TEST(Scalar, IntegerToFloatRoundsOnceToNearestEven) {
  // 2049 lies halfway between the f16 values 2048 and 2050: ties to even.
  EXPECT_EQ(convertValue(int64_t(2049), DType::F16), Value(2048.0));
  EXPECT_EQ(convertValue(int64_t(2051), DType::F16), Value(2052.0));
  EXPECT_EQ(convertValue(int64_t(16777217), DType::F32), Value(16777216.0));
  // 2^62 + 2^38 + 1 is just above the midpoint 2^62 + 2^38 between two f32
  // values: rounding through double would land on the midpoint and then round
  // to even (down); the exact rounding goes up.
  int64_t justAbove = (int64_t(1) << 62) + (int64_t(1) << 38) + 1;
  EXPECT_EQ(convertValue(justAbove, DType::F32),
            Value(std::ldexp(1.0, 62) + std::ldexp(1.0, 39)));
  EXPECT_EQ(convertValue(std::numeric_limits<uint64_t>::max(), DType::F64),
            Value(std::ldexp(1.0, 64)));
  EXPECT_EQ(convertValue(int64_t(-3), DType::BF16), Value(-3.0));
}

TEST(Scalar, HalfPrecisionRounding) {
  // 1 + 2^-11 is halfway between f16 neighbours 1 and 1 + 2^-10.
  EXPECT_EQ(roundToFloat(1 + std::ldexp(1.0, -11), DType::F16), 1.0);
  EXPECT_EQ(roundToFloat(1 + 3 * std::ldexp(1.0, -11), DType::F16),
            1 + std::ldexp(1.0, -9));
  EXPECT_EQ(roundToFloat(1 + std::ldexp(1.0, -8), DType::BF16), 1.0);
  EXPECT_EQ(roundToFloat(1 + 3 * std::ldexp(1.0, -8), DType::BF16),
            1 + std::ldexp(1.0, -6));
  EXPECT_EQ(roundToFloat(70000.0, DType::F16), kInf);
  EXPECT_EQ(roundToFloat(0.1, DType::F32), double(0.1f));
}

TEST(Scalar, FloatBuiltins) {
  DType f64 = DType::F64;
  EXPECT_EQ(builtin(Builtin::Exp, f64, {1.0}), std::exp(1.0));
  EXPECT_EQ(builtin(Builtin::Log, f64, {2.0}), std::log(2.0));
  EXPECT_EQ(builtin(Builtin::Sqrt, f64, {2.0}), std::sqrt(2.0));
  EXPECT_EQ(builtin(Builtin::Rsqrt, f64, {4.0}), 0.5);
  EXPECT_EQ(builtin(Builtin::Pow, f64, {2.0, 10.0}), 1024.0);
  EXPECT_EQ(builtin(Builtin::Sin, f64, {0.5}), std::sin(0.5));
  EXPECT_EQ(builtin(Builtin::Cos, f64, {0.5}), std::cos(0.5));
  EXPECT_EQ(builtin(Builtin::Tan, f64, {0.5}), std::tan(0.5));
  EXPECT_EQ(builtin(Builtin::Sinh, f64, {0.5}), std::sinh(0.5));
  EXPECT_EQ(builtin(Builtin::Cosh, f64, {0.5}), std::cosh(0.5));
  EXPECT_EQ(builtin(Builtin::Tanh, f64, {0.5}), std::tanh(0.5));
  EXPECT_EQ(builtin(Builtin::Asin, f64, {0.5}), std::asin(0.5));
  EXPECT_EQ(builtin(Builtin::Acos, f64, {0.5}), std::acos(0.5));
  EXPECT_EQ(builtin(Builtin::Atan, f64, {0.5}), std::atan(0.5));
  EXPECT_EQ(builtin(Builtin::Atan2, f64, {1.0, -1.0}), std::atan2(1.0, -1.0));
  EXPECT_EQ(builtin(Builtin::Erf, f64, {0.5}), std::erf(0.5));
  EXPECT_EQ(builtin(Builtin::Floor, f64, {-1.5}), -2.0);
  EXPECT_EQ(builtin(Builtin::Ceil, f64, {-1.5}), -1.0);
  EXPECT_EQ(builtin(Builtin::Round, f64, {2.5}), 3.0);
  EXPECT_EQ(builtin(Builtin::Round, f64, {-2.5}), -3.0);
  EXPECT_EQ(builtin(Builtin::Abs, f64, {-3.0}), 3.0);
  EXPECT_EQ(builtin(Builtin::Sign, f64, {-3.0}), -1.0);
  EXPECT_EQ(builtin(Builtin::Sign, f64, {0.0}), 0.0);
  EXPECT_EQ(builtin(Builtin::Sign, f64, {kNaN}), 0.0);
  EXPECT_EQ(builtin(Builtin::Min, f64, {kNaN, 1.0}), 1.0);
  EXPECT_EQ(builtin(Builtin::Max, f64, {2.0, kNaN}), 2.0);
  EXPECT_EQ(builtin(Builtin::Max, f64, {2.0, 3.0}), 3.0);
  // Of zeros of both signs, max is +0 and min -0, in either order.
  EXPECT_FALSE(std::signbit(builtin(Builtin::Max, f64, {-0.0, 0.0})));
  EXPECT_FALSE(std::signbit(builtin(Builtin::Max, f64, {0.0, -0.0})));
  EXPECT_TRUE(std::signbit(builtin(Builtin::Min, f64, {0.0, -0.0})));
  EXPECT_TRUE(std::signbit(builtin(Builtin::Min, f64, {-0.0, 0.0})));
  EXPECT_EQ(builtin(Builtin::Relu, f64, {-1.0}), 0.0);
  EXPECT_EQ(builtin(Builtin::Relu, f64, {1.5}), 1.5);
  EXPECT_EQ(builtin(Builtin::Relu, f64, {kNaN}), 0.0);
  EXPECT_EQ(builtin(Builtin::Sigmoid, f64, {0.0}), 0.5);
  EXPECT_TRUE(std::isnan(builtin(Builtin::Log, f64, {-1.0})));
}

TEST(Scalar, IntegerBuiltinsAreExact) {
  DType i32 = DType::I32;
  EXPECT_EQ(builtin(Builtin::Abs, i32, {int64_t(-5)}), 5);
  EXPECT_EQ(builtin(Builtin::Abs, i32, {int64_t(-2147483648LL)}),
            -2147483648.0);
  EXPECT_EQ(builtin(Builtin::Sign, i32, {int64_t(-7)}), -1);
  EXPECT_EQ(builtin(Builtin::Sign, DType::U8, {uint64_t(7)}), 1);
  EXPECT_EQ(builtin(Builtin::Min, i32, {int64_t(-7), int64_t(3)}), -7);
  EXPECT_EQ(builtin(Builtin::Max, DType::U64, {uint64_t(1) << 63, uint64_t(1)}),
            std::ldexp(1.0, 63));
  EXPECT_EQ(builtin(Builtin::Relu, i32, {int64_t(-3)}), 0);
  EXPECT_EQ(builtin(Builtin::Floor, i32, {int64_t(9)}), 9);
  // Others compute in f64 and convert back (truncating).
  EXPECT_EQ(builtin(Builtin::Sqrt, i32, {int64_t(10)}), 3);
}

TEST(Scalar, AggregationIdentities) {
  EXPECT_EQ(aggregationIdentity(AggregationKind::Max, DType::F16),
            Value(-kInf));
  EXPECT_EQ(aggregationIdentity(AggregationKind::Min, DType::I16),
            Value(int64_t(32767)));
  EXPECT_EQ(aggregationIdentity(AggregationKind::Max, DType::I64),
            Value(std::numeric_limits<int64_t>::min()));
  EXPECT_EQ(aggregationIdentity(AggregationKind::Min, DType::U32),
            Value(uint64_t(4294967295u)));
  EXPECT_EQ(aggregationIdentity(AggregationKind::Product, DType::Bool),
            Value(true));
  EXPECT_EQ(aggregationIdentity(AggregationKind::Sum, DType::U8),
            Value(uint64_t(0)));
}

TEST(Scalar, MaxAndMinAggregationsOrderSignedZeros) {
  auto folded = [](AggregationKind kind, double a, double b) {
    return std::get<double>(aggregate(kind, DType::F32, Value(a), Value(b)));
  };
  EXPECT_FALSE(std::signbit(folded(AggregationKind::Max, -0.0, 0.0)));
  EXPECT_TRUE(std::signbit(folded(AggregationKind::Min, 0.0, -0.0)));
  EXPECT_EQ(folded(AggregationKind::Max, kNaN, 1.0), 1.0);
}

} // namespace
