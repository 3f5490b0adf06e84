//===- SPIRVExpandMath.cpp - Math builtins rebuilt for SPIR-V -------------===//
//
// MLIR's SPIR-V conversion translates each math op to its GLSL.std.450
// instruction. Where that instruction means something else than Tile's
// builtin (GLSL's Pow, Atan2 and InverseSqrt leave cases undefined that Tile
// defines, and SAbs the absolute value of the integer minimum, which NVIDIA's
// compiler took as non-negative: sign(abs(INT_MIN)) was 1, difftest seed
// 10208877), is too loose (asin, acos and atan in f32) or is 32-bit only (the
// transcendentals on f64), the pass tilec-spirv-expand-math builds the
// builtin from arithmetic instead (MathExpansions.h).
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/SPIRV/Passes.h"

#include "FloatBuilder.h"
#include "MathExpansions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <limits>

namespace tilec {
#define GEN_PASS_DEF_SPIRVEXPANDMATHPASS
#include "tilec/Target/SPIRV/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;

/// The element type of `op`'s one result, or null.
static Type resultElementType(Operation *op) {
  if (op->getNumResults() != 1)
    return {};
  return getElementTypeOrSelf(op->getResult(0).getType());
}

static bool isF64(Operation *op) {
  Type element = resultElementType(op);
  return element && element.isF64();
}

static bool isF32(Operation *op) {
  Type element = resultElementType(op);
  return element && element.isF32();
}

/// `x` has its sign bit set (-0 and negative NaNs included).
static Value hasSignBit(ImplicitLocOpBuilder &b, Value x) {
  Type bitsType = withElementType(
      x.getType(),
      b.getIntegerType(
          getElementTypeOrSelf(x.getType()).getIntOrFloatBitWidth()));
  Value bits = b.create<arith::BitcastOp>(bitsType, x);
  return b.create<arith::CmpIOp>(arith::CmpIPredicate::slt, bits,
                                 splatConstant(b, bitsType, 0));
}

/// C's pow: GLSL's Pow is undefined for a negative base and for a zero base
/// with y <= 0, and gives NaN for pow(1, inf). Only |x| > 0 reaches it here.
static Value expandPow(ImplicitLocOpBuilder &b, Value x, Value y) {
  Type type = x.getType();
  auto cmp = [&](arith::CmpFPredicate predicate, Value lhs, Value rhs) {
    return b.create<arith::CmpFOp>(predicate, lhs, rhs).getResult();
  };
  auto select = [&](Value condition, Value yes, Value no) {
    return b.create<arith::SelectOp>(condition, yes, no).getResult();
  };
  Value zero = splatConstant(b, type, 0);
  Value one = splatConstant(b, type, 1);
  Value infinity = splatConstant(b, type, INFINITY);
  Value nan = splatConstant(b, type, NAN);

  Value magnitude = b.create<math::AbsFOp>(x);
  // f64: e^(y log |x|), as GLSL's Pow is 32-bit only.
  Value power =
      getElementTypeOrSelf(type).isF64()
          ? buildExpF64(b,
                        b.create<arith::MulFOp>(y, buildLogF64(b, magnitude)))
          : b.create<math::PowFOp>(magnitude, y).getResult();
  if (getElementTypeOrSelf(type).isF32()) {
    // lavapipe's Pow of a subnormal base read its exponent field as a
    // normal number's, as its Log did (guardLogOfSubnormals): pow(1.4e-45,
    // -1) was 2^127, not inf (difftest seed 22401134). A subnormal |x| is
    // scaled by 2^24 first, exactly, and the power by pow(2^-24, y) after
    // (GLSL's Pow of a power of two: exp2 of -24 y).
    Value scaledBase =
        b.create<arith::MulFOp>(magnitude, splatConstant(b, type, 0x1p24));
    Value scaledPower = b.create<math::PowFOp>(scaledBase, y);
    Value correction =
        b.create<math::PowFOp>(splatConstant(b, type, 0x1p-24), y);
    Value subnormal = cmp(arith::CmpFPredicate::OLT, magnitude,
                          splatConstant(b, type, 0x1p-126));
    power = select(subnormal, b.create<arith::MulFOp>(scaledPower, correction),
                   power);
  }
  // pow(+-0, y) is +-inf for y < 0 and +-0 for y > 0.
  Value zeroBase =
      select(cmp(arith::CmpFPredicate::OLT, y, zero), infinity, zero);
  power =
      select(cmp(arith::CmpFPredicate::OEQ, magnitude, zero), zeroBase, power);
  // A negative base: the sign of |x|^y for an odd integer y; a finite one
  // gives NaN unless y is an integer (pow(-inf, y) is 0 or inf).
  Value isInteger =
      cmp(arith::CmpFPredicate::OEQ, b.create<math::FloorOp>(y), y);
  Value half = b.create<math::FloorOp>(
      b.create<arith::MulFOp>(y, splatConstant(b, type, 0.5)));
  Value isOdd = b.create<arith::AndIOp>(
      isInteger,
      cmp(arith::CmpFPredicate::ONE, b.create<arith::AddFOp>(half, half), y));
  Value negated = b.create<arith::NegFOp>(power);
  Value negativeOddPower = b.create<arith::AndIOp>(hasSignBit(b, x), isOdd);
  power = select(negativeOddPower, negated, power);
  Value belowZero = cmp(arith::CmpFPredicate::OLT, x, zero);
  Value aboveMinusInfinity =
      cmp(arith::CmpFPredicate::ONE, x, splatConstant(b, type, -INFINITY));
  Value negativeBase = b.create<arith::AndIOp>(belowZero, aboveMinusInfinity);
  power = select(b.create<arith::AndIOp>(
                     negativeBase,
                     b.create<arith::XOrIOp>(
                         isInteger, splatConstant(b, isInteger.getType(), 1))),
                 nan, power);
  power = select(cmp(arith::CmpFPredicate::UNO, x, y), nan, power);
  // pow(x, +-0) = 1, pow(1, y) = 1 and pow(-1, +-inf) = 1, NaNs included.
  Value yInfinite =
      cmp(arith::CmpFPredicate::OEQ, b.create<math::AbsFOp>(y), infinity);
  Value unitMagnitude = cmp(arith::CmpFPredicate::OEQ, magnitude, one);
  Value minusOneToInfinity = b.create<arith::AndIOp>(unitMagnitude, yInfinite);
  Value xOne = cmp(arith::CmpFPredicate::OEQ, x, one);
  Value oneBase = b.create<arith::OrIOp>(xOne, minusOneToInfinity);
  Value yZero = cmp(arith::CmpFPredicate::OEQ, y, zero);
  Value isOne = b.create<arith::OrIOp>(yZero, oneBase);
  return select(isOne, one, power);
}

/// atan(x): built from arithmetic for f32 and f64, GLSL's Atan otherwise
/// (f16).
static Value atanOfType(ImplicitLocOpBuilder &b, Value x) {
  if (getElementTypeOrSelf(x.getType()).isF16())
    return b.create<math::AtanOp>(x);
  return buildAtan(b, x);
}

/// The f32 or f64 inverse trigonometric builtin that `op` computes, from
/// arithmetic, or null (f16: GLSL's is precise enough).
static Value expandInverseTrigonometric(ImplicitLocOpBuilder &b,
                                        Operation *op) {
  if (!isF32(op) && !isF64(op))
    return {};
  Value x = op->getOperand(0);
  if (isa<math::AsinOp>(op))
    return buildAsin(b, x);
  if (isa<math::AcosOp>(op))
    return buildAcos(b, x);
  return buildAtan(b, x);
}

/// C's atan2 from atan(y / x): SPIR-V's GLSL.std.450 has no Atan2 in MLIR,
/// and the quotient loses the quadrant, the signed zeros and the cases of
/// two zeros (C: +-0 or +-pi) and two infinities (+-pi/4 or +-3pi/4).
static Value expandAtan2(ImplicitLocOpBuilder &b, Value y, Value x) {
  Type type = x.getType();
  auto cmp = [&](arith::CmpFPredicate predicate, Value lhs, Value rhs) {
    return b.create<arith::CmpFOp>(predicate, lhs, rhs).getResult();
  };
  Value zero = splatConstant(b, type, 0);
  Value infinity = splatConstant(b, type, INFINITY);
  Value xNegative = hasSignBit(b, x);
  // The angle for a negative x (-0 included) or a positive one, with y's
  // sign.
  auto signedAngle = [&](double ifPositive, double ifNegative) {
    Value positive = splatConstant(b, type, ifPositive);
    Value negative = splatConstant(b, type, ifNegative);
    Value angle = b.create<arith::SelectOp>(xNegative, negative, positive);
    return b.create<math::CopySignOp>(angle, y).getResult();
  };
  Value angle = atanOfType(b, b.create<arith::DivFOp>(y, x));
  angle = b.create<arith::SelectOp>(
      xNegative,
      b.create<arith::AddFOp>(
          angle, signedAngle(llvm::numbers::pi, llvm::numbers::pi)),
      angle);
  Value yZero = cmp(arith::CmpFPredicate::OEQ, y, zero);
  Value xZero = cmp(arith::CmpFPredicate::OEQ, x, zero);
  Value bothZero = b.create<arith::AndIOp>(xZero, yZero);
  angle = b.create<arith::SelectOp>(bothZero, signedAngle(0, llvm::numbers::pi),
                                    angle);
  Value yInfinite =
      cmp(arith::CmpFPredicate::OEQ, b.create<math::AbsFOp>(y), infinity);
  Value xInfinite =
      cmp(arith::CmpFPredicate::OEQ, b.create<math::AbsFOp>(x), infinity);
  Value bothInfinite = b.create<arith::AndIOp>(xInfinite, yInfinite);
  return b.create<arith::SelectOp>(
      bothInfinite,
      signedAngle(llvm::numbers::pi / 4, 3 * llvm::numbers::pi / 4), angle);
}

/// The f64 builtin that `op` computes, from arithmetic, or null.
static Value expandF64Builtin(ImplicitLocOpBuilder &b, Operation *op) {
  if (!isF64(op))
    return {};
  Value x = op->getOperand(0);
  if (isa<math::ExpOp>(op))
    return buildExpF64(b, x);
  if (isa<math::LogOp>(op))
    return buildLogF64(b, x);
  if (isa<math::TanhOp>(op))
    return buildTanhF64(b, x);
  if (isa<math::SinhOp>(op))
    return buildSinhF64(b, x);
  if (isa<math::CoshOp>(op))
    return buildCoshF64(b, x);
  if (isa<math::SinOp>(op))
    return buildSinF64(b, x);
  if (isa<math::CosOp>(op))
    return buildCosF64(b, x);
  if (isa<math::TanOp>(op))
    return buildTanF64(b, x);
  if (isa<math::ErfOp>(op))
    return buildErfF64(b, x);
  return {};
}

Value tilec::buildWrappingAbs(ImplicitLocOpBuilder &b, Value x, Value zero) {
  Value negative = b.create<arith::CmpIOp>(arith::CmpIPredicate::slt, x, zero);
  Value negated = b.create<arith::SubIOp>(zero, x);
  return b.create<arith::SelectOp>(negative, negated, x);
}

static Value expandIntegerAbs(ImplicitLocOpBuilder &b, Value x) {
  Value zero = b.create<arith::ConstantOp>(b.getZeroAttr(x.getType()));
  return buildWrappingAbs(b, x, zero);
}

/// Gives the uses that `op`'s result has now what `guard` builds after `op`
/// from its operand and that result: the builtin taken another way for some
/// operands, the instruction's result for the others.
static void
guardResult(ImplicitLocOpBuilder &b, Operation *op,
            llvm::function_ref<Value(FloatBuilder &, Value, Value)> guard) {
  Value result = op->getResult(0);
  SmallVector<OpOperand *> uses =
      llvm::to_vector(llvm::make_pointer_range(result.getUses()));
  b.setInsertionPointAfter(op);
  FloatBuilder f(b, result.getType());
  Value guarded = guard(f, op->getOperand(0), result);
  for (OpOperand *use : uses)
    use->set(guarded);
}

/// erf of -0 is -0, but MLIR's polynomial erf gives +0, whose sign a
/// division shows: 1 / erf(-0) was +inf on Vulkan. A zero operand therefore
/// passes through as the result.
static Value keepSignOfZero(FloatBuilder &f, Value x, Value erf) {
  Value isZero = f.cmp(arith::CmpFPredicate::OEQ, x, f.constant(0));
  return f.select(isZero, x, erf);
}

/// GLSL.std.450's Sinh and Cosh are as accurate as (e^x - e^-x) / 2 and
/// (e^x + e^-x) / 2, and so is what lavapipe and NVIDIA compute. Two ranges
/// of f32 and f16 take another formula:
/// - Near 0, sinh cancels: lavapipe's sinh(5.96e-8) was 8.9e-8, and
///   sinh(-0) +0, so 1 / sinh(-0) was +inf (difftest seeds 21500852,
///   20002567). Below |x| = 2^-5 sinh is the Taylor polynomial
///   x (1 + x^2/6 + x^4/120): its truncation is below 2e-13 relative, and it
///   keeps a zero's sign; above, the formula's error is below 4e-6 relative.
/// - Near overflow, e^|x| overflows first: cosh(89) is 2.2e38, but e^89 is
///   past the f32 range, and both devices gave inf (seed 31052678). Above
///   |x| = 64 (f16: 8), where e^-|x| is below the last bit, the magnitude is
///   (e^(|x|/2) / 2) e^(|x|/2), which overflows only where the result does.
static Value guardHyperbolic(FloatBuilder &f, Value x, Value formula,
                             bool isSinh) {
  Value magnitude = f.abs(x);
  Value root = f.b.create<math::ExpOp>(f.mul(magnitude, f.constant(0.5)));
  Value large = f.mul(f.mul(root, f.constant(0.5)), root);
  if (isSinh)
    large = f.b.create<math::CopySignOp>(large, x);
  double overflowing = getElementTypeOrSelf(x.getType()).isF16() ? 8.0 : 64.0;
  Value result = f.select(
      f.cmp(arith::CmpFPredicate::OGT, magnitude, f.constant(overflowing)),
      large, formula);
  if (!isSinh)
    return result;
  Value series = f.mul(x, f.polynomial(f.mul(x, x), {1.0 / 120, 1.0 / 6, 1}));
  Value small = f.cmp(arith::CmpFPredicate::OLT, magnitude, f.constant(0x1p-5));
  return f.select(small, series, result);
}

/// lavapipe's f32 Log of a subnormal was log(2^-127) = -88.03 whatever the
/// value (log(1.4e-45) is -103.28; difftest seeds 22102045, 22102247): it
/// reads the exponent field as a normal number's. Vulkan lets a device
/// without DenormPreserve flush the operand, which would give -inf, but not
/// that. A positive subnormal is scaled by 2^24 first, exactly, and 24 ln 2
/// subtracted from its logarithm; on a device that flushes it, the scaled
/// operand is 0 as well, and the result -inf.
static Value guardLogOfSubnormals(FloatBuilder &f, Value x, Value formula) {
  Value scaled = f.b.create<math::LogOp>(f.mul(x, f.constant(0x1p24)));
  Value shifted = f.sub(scaled, f.constant(24 * llvm::numbers::ln2));
  Value positive = f.cmp(arith::CmpFPredicate::OGT, x, f.constant(0));
  Value belowNormal = f.cmp(arith::CmpFPredicate::OLT, x, f.constant(0x1p-126));
  Value subnormal = f.b.create<arith::AndIOp>(positive, belowNormal);
  return f.select(subnormal, shifted, formula);
}

/// GLSL.std.450's InverseSqrt is undefined at and below 0, where Tile's
/// rsqrt, 1 / sqrt(x), is inf at +0, -inf at -0 and NaN below. lavapipe took
/// |rsqrt(x)| for rsqrt(x), as the instruction is not negative where it is
/// defined: abs(abs(rsqrt(-0))) was -inf (local difftest seed 25001669). So
/// zeros and negative operands get their results here, and positive ones
/// and NaN the instruction's.
static Value guardInverseSqrtOfNonPositives(FloatBuilder &f, Value x,
                                            Value formula) {
  Value isZero = f.cmp(arith::CmpFPredicate::OEQ, x, f.constant(0));
  Value infinity = f.b.create<math::CopySignOp>(
      f.constant(std::numeric_limits<double>::infinity()), x);
  Value negative = f.cmp(arith::CmpFPredicate::OLT, x, f.constant(0));
  Value nan = f.constant(std::numeric_limits<double>::quiet_NaN());
  return f.select(isZero, infinity, f.select(negative, nan, formula));
}

/// Each builtin rewritten once, by walking: the expansions contain the ops
/// they replace.
static void expandMath(gpu::GPUModuleOp kernels) {
  SmallVector<Operation *> ops;
  kernels.walk([&](Operation *op) {
    if (isa<math::PowFOp, math::Atan2Op, math::AsinOp, math::AcosOp,
            math::AtanOp, math::ExpOp, math::LogOp, math::TanhOp, math::SinhOp,
            math::CoshOp, math::SinOp, math::CosOp, math::TanOp, math::ErfOp,
            math::AbsIOp, math::RsqrtOp>(op))
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    ImplicitLocOpBuilder b(op->getLoc(), op);
    Value replacement;
    if (auto pow = dyn_cast<math::PowFOp>(op))
      replacement = expandPow(b, pow.getLhs(), pow.getRhs());
    else if (auto atan2 = dyn_cast<math::Atan2Op>(op))
      replacement = expandAtan2(b, atan2.getLhs(), atan2.getRhs());
    else if (auto abs = dyn_cast<math::AbsIOp>(op))
      replacement = expandIntegerAbs(b, abs.getOperand());
    else if (isa<math::AsinOp, math::AcosOp, math::AtanOp>(op))
      replacement = expandInverseTrigonometric(b, op);
    else if (isa<math::SinhOp, math::CoshOp>(op) && !isF64(op))
      guardResult(b, op, [&](FloatBuilder &f, Value x, Value formula) {
        return guardHyperbolic(f, x, formula, isa<math::SinhOp>(op));
      });
    else if (isa<math::ErfOp>(op) && !isF64(op))
      guardResult(b, op, keepSignOfZero);
    else if (isa<math::LogOp>(op) && isF32(op))
      guardResult(b, op, guardLogOfSubnormals);
    else if (isa<math::RsqrtOp>(op))
      guardResult(b, op, guardInverseSqrtOfNonPositives);
    else
      replacement = expandF64Builtin(b, op);
    if (!replacement)
      continue;
    op->getResult(0).replaceAllUsesWith(replacement);
    op->erase();
  }
}

namespace {
struct SPIRVExpandMathPass
    : tilec::impl::SPIRVExpandMathPassBase<SPIRVExpandMathPass> {
  void runOnOperation() override { expandMath(getOperation()); }
};
} // namespace
