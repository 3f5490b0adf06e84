//===- ScalarOps.cpp - Tile's scalar semantics in arith and math ----------===//
//
// Every elementwise operation, cast and aggregation of the language on one
// compute value. Where an MLIR op leaves a case undefined that Tile defines
// (or that the reference reports as an error at run time), the case is made
// explicit here so that a printer can translate each op literally:
// float -> int conversions saturate (NaN -> 0), integer division by zero
// yields 0, INT_MIN / -1 wraps, shift amounts are taken modulo the width.
//
//===----------------------------------------------------------------------===//

#include "KernelBodies/KernelEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace tilec;
using namespace tilec::lowering;

namespace {

using tile::ElementwiseKind;

/// Builds arith/math ops on compute values of one tile element type.
class ScalarBuilder {
public:
  ScalarBuilder(OpBuilder &builder, Location loc, Type tileType)
      : b(builder), loc(loc), tileType(tileType),
        type(getComputeType(tileType)) {}

  bool isFloat() const { return isa<FloatType>(type); }
  bool isBool() const { return type.isInteger(1); }
  /// Unsigned ints and bool compare as unsigned.
  bool isUnsigned() const { return isUnsignedTileType(tileType) || isBool(); }

  Value floatConstant(double value) {
    return b.create<arith::ConstantOp>(loc, b.getFloatAttr(type, value));
  }
  Value intConstant(int64_t value) {
    return b.create<arith::ConstantOp>(loc, b.getIntegerAttr(type, value));
  }
  /// 0 or `value` in this type.
  Value constant(int64_t value) {
    return isFloat() ? floatConstant(value) : intConstant(value);
  }
  Value select(Value c, Value x, Value y) {
    return b.create<arith::SelectOp>(loc, c, x, y);
  }
  Value cmpf(arith::CmpFPredicate p, Value x, Value y) {
    return b.create<arith::CmpFOp>(loc, p, x, y);
  }
  Value cmpi(arith::CmpIPredicate p, Value x, Value y) {
    return b.create<arith::CmpIOp>(loc, p, x, y);
  }
  /// An ordered comparison: float, signed or unsigned as the type says.
  Value compare(ElementwiseKind kind, Value x, Value y);
  Value divide(Value x, Value y, bool remainder);
  Value shift(ElementwiseKind kind, Value x, Value amount);
  Value sign(Value x);
  Value minMax(bool isMax, Value x, Value y);
  /// The float builtins (also the fallback for integer operands).
  Value floatBuiltin(ElementwiseKind kind, ValueRange x);
  Value apply(ElementwiseKind kind, ValueRange x);

  OpBuilder &b;
  Location loc;
  Type tileType;
  Type type;
};

} // namespace

Value ScalarBuilder::compare(ElementwiseKind kind, Value x, Value y) {
  using FP = arith::CmpFPredicate;
  using IP = arith::CmpIPredicate;
  bool u = isUnsigned();
  switch (kind) {
  case ElementwiseKind::Eq:
    return isFloat() ? cmpf(FP::OEQ, x, y) : cmpi(IP::eq, x, y);
  case ElementwiseKind::Ne:
    // NaN != x is true, as in C.
    return isFloat() ? cmpf(FP::UNE, x, y) : cmpi(IP::ne, x, y);
  case ElementwiseKind::Lt:
    return isFloat() ? cmpf(FP::OLT, x, y) : cmpi(u ? IP::ult : IP::slt, x, y);
  case ElementwiseKind::Gt:
    return isFloat() ? cmpf(FP::OGT, x, y) : cmpi(u ? IP::ugt : IP::sgt, x, y);
  case ElementwiseKind::Le:
    return isFloat() ? cmpf(FP::OLE, x, y) : cmpi(u ? IP::ule : IP::sle, x, y);
  default:
    return isFloat() ? cmpf(FP::OGE, x, y) : cmpi(u ? IP::uge : IP::sge, x, y);
  }
}

Value ScalarBuilder::divide(Value x, Value y, bool remainder) {
  if (isFloat())
    return remainder ? b.create<arith::RemFOp>(loc, x, y).getResult()
                     : b.create<arith::DivFOp>(loc, x, y).getResult();
  // Bool: x / true == x and x % true == false; by false the reference
  // reports an error and the device yields the same as for other ints, 0.
  if (isBool())
    return remainder ? intConstant(0) : b.create<arith::AndIOp>(loc, x, y);
  // Division by zero (a run-time error in the reference) yields 0; the
  // divisor is replaced so that the division itself is always defined.
  Value zero = intConstant(0);
  Value byZero = cmpi(arith::CmpIPredicate::eq, y, zero);
  if (isUnsigned()) {
    Value divisor = select(byZero, intConstant(1), y);
    Value result = remainder
                       ? b.create<arith::RemUIOp>(loc, x, divisor).getResult()
                       : b.create<arith::DivUIOp>(loc, x, divisor).getResult();
    return select(byZero, zero, result);
  }
  // INT_MIN / -1 overflows in C: x / -1 is computed as 0 - x (wrapping).
  Value byMinusOne = cmpi(arith::CmpIPredicate::eq, y, intConstant(-1));
  Value special = b.create<arith::OrIOp>(loc, byZero, byMinusOne);
  Value divisor = select(special, intConstant(1), y);
  if (remainder) {
    Value result = b.create<arith::RemSIOp>(loc, x, divisor);
    return select(special, zero, result);
  }
  Value result = b.create<arith::DivSIOp>(loc, x, divisor);
  Value negated = b.create<arith::SubIOp>(loc, zero, x);
  return select(byMinusOne, negated, select(byZero, zero, result));
}

Value ScalarBuilder::shift(ElementwiseKind kind, Value x, Value amount) {
  // The reference rejects amounts outside [0, width); the device takes them
  // modulo the width (OpenCL C's rule), which agrees on every valid amount.
  unsigned width = type.getIntOrFloatBitWidth();
  Value masked =
      b.create<arith::AndIOp>(loc, amount, intConstant(int64_t(width) - 1));
  if (kind == ElementwiseKind::Shl)
    return b.create<arith::ShLIOp>(loc, x, masked);
  if (isUnsigned())
    return b.create<arith::ShRUIOp>(loc, x, masked);
  return b.create<arith::ShRSIOp>(loc, x, masked);
}

Value ScalarBuilder::sign(Value x) {
  if (isBool())
    return x;
  Value zero = constant(0);
  if (!isFloat() && !isUnsigned()) {
    // x >> (w - 1) is -1 for a negative x, else 0, and (0 - x) >>u (w - 1)
    // is 1 for a positive x (and for the minimum, where -1 | 1 is -1), else
    // 0. Not two selects: NVIDIA's Vulkan compiler (driver 580) failed to
    // create the pipeline (VK_ERROR_UNKNOWN, "NVVM compilation failed") of
    // nine difftest programs with those, and of none with this form.
    Value shift = constant(type.getIntOrFloatBitWidth() - 1);
    Value negative = b.create<arith::ShRSIOp>(loc, x, shift);
    Value negated = b.create<arith::SubIOp>(loc, zero, x);
    Value positiveBit = b.create<arith::ShRUIOp>(loc, negated, shift);
    return b.create<arith::OrIOp>(loc, negative, positiveBit);
  }
  Value positive = compare(ElementwiseKind::Gt, x, zero);
  Value one = constant(1);
  if (isUnsigned())
    return select(positive, one, zero);
  // NaN and -0 compare neither greater nor less: sign is +0. The -1 is the
  // outer choice: Mesa rewrites a select of -1.0 or -0.0 to -(float)c and
  // takes +0.0 for -0.0 when it matches, so `c ? -1 : +0` gave -0 for a
  // false c on lavapipe (SignedZeroInfNanPreserve or not); a select of 1.0
  // or +0.0 becomes (float)c, +0.
  Value negative = compare(ElementwiseKind::Lt, x, zero);
  Value positiveOrZero = select(positive, one, zero);
  return select(negative, constant(-1), positiveOrZero);
}

Value ScalarBuilder::minMax(bool isMax, Value x, Value y) {
  if (isFloat())
    // fmin/fmax: a NaN operand is ignored.
    return isMax ? b.create<arith::MaxNumFOp>(loc, x, y).getResult()
                 : b.create<arith::MinNumFOp>(loc, x, y).getResult();
  if (isBool())
    return isMax ? b.create<arith::OrIOp>(loc, x, y).getResult()
                 : b.create<arith::AndIOp>(loc, x, y).getResult();
  if (isUnsigned())
    return isMax ? b.create<arith::MaxUIOp>(loc, x, y).getResult()
                 : b.create<arith::MinUIOp>(loc, x, y).getResult();
  return isMax ? b.create<arith::MaxSIOp>(loc, x, y).getResult()
               : b.create<arith::MinSIOp>(loc, x, y).getResult();
}

Value ScalarBuilder::floatBuiltin(ElementwiseKind kind, ValueRange x) {
  // Integer operands (pow of ints) are computed in f64 and converted back
  // with the float -> int rule, as the reference does.
  if (!isFloat()) {
    Type f64 = b.getF64Type();
    SmallVector<Value> reals;
    for (Value operand : x)
      reals.push_back(emitCast(b, loc, operand, tileType, f64));
    Value real = ScalarBuilder(b, loc, f64).floatBuiltin(kind, reals);
    return emitCast(b, loc, real, f64, tileType);
  }
  switch (kind) {
  case ElementwiseKind::Exp:
    return b.create<math::ExpOp>(loc, x[0]);
  case ElementwiseKind::Log:
    return b.create<math::LogOp>(loc, x[0]);
  case ElementwiseKind::Sqrt:
    return b.create<math::SqrtOp>(loc, x[0]);
  case ElementwiseKind::Rsqrt:
    return b.create<math::RsqrtOp>(loc, x[0]);
  case ElementwiseKind::Pow:
    return b.create<math::PowFOp>(loc, x[0], x[1]);
  case ElementwiseKind::Sin:
    return b.create<math::SinOp>(loc, x[0]);
  case ElementwiseKind::Cos:
    return b.create<math::CosOp>(loc, x[0]);
  case ElementwiseKind::Tan:
    return b.create<math::TanOp>(loc, x[0]);
  case ElementwiseKind::Sinh:
    return b.create<math::SinhOp>(loc, x[0]);
  case ElementwiseKind::Cosh:
    return b.create<math::CoshOp>(loc, x[0]);
  case ElementwiseKind::Tanh:
    return b.create<math::TanhOp>(loc, x[0]);
  case ElementwiseKind::Asin:
    return b.create<math::AsinOp>(loc, x[0]);
  case ElementwiseKind::Acos:
    return b.create<math::AcosOp>(loc, x[0]);
  case ElementwiseKind::Atan:
    return b.create<math::AtanOp>(loc, x[0]);
  case ElementwiseKind::Atan2:
    return b.create<math::Atan2Op>(loc, x[0], x[1]);
  case ElementwiseKind::Erf:
    return b.create<math::ErfOp>(loc, x[0]);
  default: {
    // Sigmoid: 1 / (1 + exp(-x)).
    Value negated = b.create<arith::NegFOp>(loc, x[0]);
    Value exp = b.create<math::ExpOp>(loc, negated);
    Value one = floatConstant(1.0);
    Value denominator = b.create<arith::AddFOp>(loc, one, exp);
    return b.create<arith::DivFOp>(loc, one, denominator);
  }
  }
}

Value ScalarBuilder::apply(ElementwiseKind kind, ValueRange x) {
  switch (kind) {
  case ElementwiseKind::Neg:
    if (isFloat())
      return b.create<arith::NegFOp>(loc, x[0]);
    // -true is true (-1 != 0).
    if (isBool())
      return x[0];
    return b.create<arith::SubIOp>(loc, intConstant(0), x[0]);
  case ElementwiseKind::Not:
  case ElementwiseKind::BitNot:
    // ~ on bool is logical not; all-ones of i1 is true.
    return b.create<arith::XOrIOp>(loc, x[0], intConstant(-1));
  case ElementwiseKind::Add:
    if (isFloat())
      return b.create<arith::AddFOp>(loc, x[0], x[1]);
    if (isBool())
      return b.create<arith::OrIOp>(loc, x[0], x[1]);
    return b.create<arith::AddIOp>(loc, x[0], x[1]);
  case ElementwiseKind::Sub:
    if (isFloat())
      return b.create<arith::SubFOp>(loc, x[0], x[1]);
    if (isBool())
      return b.create<arith::XOrIOp>(loc, x[0], x[1]);
    return b.create<arith::SubIOp>(loc, x[0], x[1]);
  case ElementwiseKind::Mul:
    if (isFloat())
      return b.create<arith::MulFOp>(loc, x[0], x[1]);
    if (isBool())
      return b.create<arith::AndIOp>(loc, x[0], x[1]);
    return b.create<arith::MulIOp>(loc, x[0], x[1]);
  case ElementwiseKind::Div:
    return divide(x[0], x[1], /*remainder=*/false);
  case ElementwiseKind::Rem:
    return divide(x[0], x[1], /*remainder=*/true);
  case ElementwiseKind::Eq:
  case ElementwiseKind::Ne:
  case ElementwiseKind::Lt:
  case ElementwiseKind::Gt:
  case ElementwiseKind::Le:
  case ElementwiseKind::Ge:
    return compare(kind, x[0], x[1]);
  case ElementwiseKind::And:
  case ElementwiseKind::BitAnd:
    return b.create<arith::AndIOp>(loc, x[0], x[1]);
  case ElementwiseKind::Or:
  case ElementwiseKind::BitOr:
    return b.create<arith::OrIOp>(loc, x[0], x[1]);
  case ElementwiseKind::BitXor:
    return b.create<arith::XOrIOp>(loc, x[0], x[1]);
  case ElementwiseKind::Shl:
  case ElementwiseKind::Shr:
    return shift(kind, x[0], x[1]);
  case ElementwiseKind::Select:
    return select(x[0], x[1], x[2]);
  case ElementwiseKind::Floor:
    return isFloat() ? b.create<math::FloorOp>(loc, x[0]).getResult() : x[0];
  case ElementwiseKind::Ceil:
    return isFloat() ? b.create<math::CeilOp>(loc, x[0]).getResult() : x[0];
  case ElementwiseKind::Round:
    // C round: halfway cases away from zero.
    return isFloat() ? b.create<math::RoundOp>(loc, x[0]).getResult() : x[0];
  case ElementwiseKind::Abs:
    if (isFloat())
      return b.create<math::AbsFOp>(loc, x[0]);
    if (isUnsigned())
      return x[0];
    return b.create<math::AbsIOp>(loc, x[0]);
  case ElementwiseKind::Sign:
    return sign(x[0]);
  case ElementwiseKind::Min:
    return minMax(/*isMax=*/false, x[0], x[1]);
  case ElementwiseKind::Max:
    return minMax(/*isMax=*/true, x[0], x[1]);
  case ElementwiseKind::Relu: {
    // x > 0 ? x : 0, so relu(NaN) is 0.
    if (isUnsigned())
      return x[0];
    Value zero = constant(0);
    return select(compare(ElementwiseKind::Gt, x[0], zero), x[0], zero);
  }
  default:
    return floatBuiltin(kind, x);
  }
}

Value lowering::emitElementwise(OpBuilder &builder, Location loc,
                                tile::ElementwiseKind kind, ValueRange operands,
                                TypeRange operandTypes, Type resultType) {
  // select's operand type is that of its values, not of the condition.
  Type operandType =
      kind == ElementwiseKind::Select ? operandTypes[1] : operandTypes[0];
  Value result = ScalarBuilder(builder, loc, operandType).apply(kind, operands);
  return emitRound(builder, loc, result, resultType);
}

Value lowering::emitRound(OpBuilder &builder, Location loc, Value value,
                          Type tileType) {
  if (!tileType.isF16() && !tileType.isBF16())
    return value;
  Value rounded = builder.create<arith::TruncFOp>(loc, tileType, value);
  return builder.create<arith::ExtFOp>(loc, value.getType(), rounded);
}

Value lowering::emitConstant(OpBuilder &builder, Location loc, TypedAttr attr) {
  Type computeType = getComputeType(attr.getType());
  if (auto floatAttr = dyn_cast<FloatAttr>(attr))
    return builder.create<arith::ConstantOp>(
        loc, builder.getFloatAttr(computeType, floatAttr.getValueAsDouble()));
  auto intAttr = cast<IntegerAttr>(attr);
  return builder.create<arith::ConstantOp>(
      loc, IntegerAttr::get(computeType, intAttr.getValue()));
}

/// Truncating, saturating float -> int with NaN -> 0. The conversion op
/// itself only ever sees in-range values (it is undefined beyond them).
static Value emitFloatToInt(OpBuilder &b, Location loc, Value value,
                            IntegerType target, bool isUnsigned) {
  ScalarBuilder real(b, loc, value.getType());
  ScalarBuilder integer(b, loc, target);
  unsigned width = target.getWidth();
  using FP = arith::CmpFPredicate;
  // Exclusive limits, powers of two, exact in every float type used.
  double low = isUnsigned ? -1.0 : -std::ldexp(1.0, width - 1);
  double high = std::ldexp(1.0, isUnsigned ? width : width - 1);
  Value lowValue = real.floatConstant(low);
  Value highValue = real.floatConstant(high);
  Value aboveLow = isUnsigned ? real.cmpf(FP::OGT, value, lowValue)
                              : real.cmpf(FP::OGE, value, lowValue);
  Value belowHigh = real.cmpf(FP::OLT, value, highValue);
  Value inRange = b.create<arith::AndIOp>(loc, aboveLow, belowHigh);
  Value safe = real.select(inRange, value, real.floatConstant(0.0));
  Value converted =
      isUnsigned ? b.create<arith::FPToUIOp>(loc, target, safe).getResult()
                 : b.create<arith::FPToSIOp>(loc, target, safe).getResult();
  Value zero = integer.intConstant(0);
  Value maxValue =
      integer.intConstant(isUnsigned ? -1 : int64_t(llvm::maxIntN(width)));
  Value result = integer.select(inRange, converted, zero);
  result =
      integer.select(real.cmpf(FP::OGE, value, highValue), maxValue, result);
  if (!isUnsigned) {
    Value minValue = integer.intConstant(llvm::minIntN(width));
    result =
        integer.select(real.cmpf(FP::OLT, value, lowValue), minValue, result);
  }
  return result;
}

Value lowering::emitCast(OpBuilder &b, Location loc, Value value, Type from,
                         Type to) {
  if (from == to)
    return value;
  Type toCompute = getComputeType(to);
  bool fromFloat = isa<FloatType>(from);
  if (to.isInteger(1)) {
    // != 0; NaN is true.
    ScalarBuilder source(b, loc, from);
    return source.compare(ElementwiseKind::Ne, value, source.constant(0));
  }
  if (auto toFloat = dyn_cast<FloatType>(toCompute)) {
    Value converted;
    if (fromFloat) {
      // f16/bf16 round straight from the source (no double rounding).
      if (to.isF16() || to.isBF16()) {
        Value narrow =
            value.getType().getIntOrFloatBitWidth() > to.getIntOrFloatBitWidth()
                ? b.create<arith::TruncFOp>(loc, to, value).getResult()
                : value;
        return narrow.getType() == toCompute
                   ? narrow
                   : b.create<arith::ExtFOp>(loc, toCompute, narrow)
                         .getResult();
      }
      unsigned fromWidth = value.getType().getIntOrFloatBitWidth();
      if (fromWidth == toFloat.getWidth())
        return value;
      converted =
          fromWidth < toFloat.getWidth()
              ? b.create<arith::ExtFOp>(loc, toFloat, value).getResult()
              : b.create<arith::TruncFOp>(loc, toFloat, value).getResult();
      return converted;
    }
    // To f16/bf16 straight from the integer: through f32 would round twice
    // above 2^24.
    bool unsignedSource = isUnsignedTileType(from) || from.isInteger(1);
    Type direct = to.isF16() || to.isBF16() ? to : toFloat;
    converted = unsignedSource
                    ? b.create<arith::UIToFPOp>(loc, direct, value).getResult()
                    : b.create<arith::SIToFPOp>(loc, direct, value).getResult();
    if (direct == toFloat)
      return converted;
    return b.create<arith::ExtFOp>(loc, toFloat, converted);
  }
  auto target = cast<IntegerType>(toCompute);
  if (fromFloat)
    return emitFloatToInt(b, loc, value, target, isUnsignedTileType(to));
  unsigned fromWidth = value.getType().getIntOrFloatBitWidth();
  if (fromWidth == target.getWidth())
    return value;
  if (fromWidth > target.getWidth())
    return b.create<arith::TruncIOp>(loc, target, value);
  if (isUnsignedTileType(from) || from.isInteger(1))
    return b.create<arith::ExtUIOp>(loc, target, value);
  return b.create<arith::ExtSIOp>(loc, target, value);
}

Value lowering::emitIdentity(OpBuilder &builder, Location loc,
                             tile::AggregationKind kind, Type tileType) {
  ScalarBuilder s(builder, loc, tileType);
  unsigned width = s.type.getIntOrFloatBitWidth();
  bool isMax = kind == tile::AggregationKind::Max;
  switch (kind) {
  case tile::AggregationKind::Add:
  case tile::AggregationKind::Assign:
    return s.constant(0);
  case tile::AggregationKind::Mul:
    return s.constant(1);
  case tile::AggregationKind::Max:
  case tile::AggregationKind::Min:
    if (s.isFloat())
      return s.floatConstant(isMax ? -std::numeric_limits<double>::infinity()
                                   : std::numeric_limits<double>::infinity());
    if (s.isUnsigned())
      return s.intConstant(isMax ? 0 : -1);
    return s.intConstant(isMax ? llvm::minIntN(width) : llvm::maxIntN(width));
  }
  llvm_unreachable("unknown aggregation");
}

Value lowering::emitAggregate(OpBuilder &builder, Location loc,
                              tile::AggregationKind kind, Type tileType,
                              Value accumulator, Value value) {
  ScalarBuilder s(builder, loc, tileType);
  switch (kind) {
  case tile::AggregationKind::Assign:
    return value;
  case tile::AggregationKind::Add:
    return s.apply(ElementwiseKind::Add, {accumulator, value});
  case tile::AggregationKind::Mul:
    return s.apply(ElementwiseKind::Mul, {accumulator, value});
  case tile::AggregationKind::Max:
    return s.minMax(/*isMax=*/true, accumulator, value);
  case tile::AggregationKind::Min:
    return s.minMax(/*isMax=*/false, accumulator, value);
  }
  llvm_unreachable("unknown aggregation");
}

Value lowering::emitEqual(OpBuilder &builder, Location loc, Value a, Value b,
                          Type tileType) {
  return ScalarBuilder(builder, loc, tileType)
      .compare(ElementwiseKind::Eq, a, b);
}
