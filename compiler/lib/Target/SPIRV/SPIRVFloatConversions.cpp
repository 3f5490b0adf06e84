//===- SPIRVFloatConversions.cpp - Float conversions that round once ------===//
//
// SPIR-V has no bf16, and Vulkan lets a device convert f64 to f32 and f32 to
// f16 rounding to nearest or toward zero, while the language rounds once, to
// nearest. The pass tilec-spirv-round-float-conversions rewrites the
// conversions that would round otherwise into ones that convert exactly or
// round as the language does.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/SPIRV/Passes.h"

#include "Math/FloatBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

namespace tilec {
#define GEN_PASS_DEF_SPIRVROUNDFLOATCONVERSIONSPASS
#include "tilec/Target/SPIRV/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;

/// `x` (f64) rounded to f32 *to odd*: truncated toward zero, with the lowest
/// bit set when that was inexact. Rounding this to a format at least two
/// bits narrower than f32 (f16, bf16) rounds `x` correctly, once. Vulkan lets a
/// device round f64 to f32 to nearest or toward zero; both are corrected
/// here.
static Value roundToOddF32(ImplicitLocOpBuilder &b, Value x) {
  Type f32 = withElementType(x.getType(), b.getF32Type());
  Type i32 = withElementType(x.getType(), b.getI32Type());
  Value rounded = b.create<arith::TruncFOp>(f32, x);
  Value magnitude = b.create<math::AbsFOp>(x);
  Value roundedMagnitude =
      b.create<math::AbsFOp>(b.create<arith::ExtFOp>(x.getType(), rounded));
  Value awayFromZero = b.create<arith::CmpFOp>(arith::CmpFPredicate::OGT,
                                               roundedMagnitude, magnitude);
  Value bits = b.create<arith::BitcastOp>(i32, rounded);
  // One ulp toward zero: the magnitude's bits minus one (inf becomes the
  // largest finite float).
  Value truncated = b.create<arith::SelectOp>(
      awayFromZero, b.create<arith::SubIOp>(bits, splatConstant(b, i32, 1)),
      bits);
  Value inexact = b.create<arith::CmpFOp>(
      arith::CmpFPredicate::UNE,
      b.create<arith::ExtFOp>(
          x.getType(), b.create<arith::BitcastOp>(f32, truncated).getResult()),
      x);
  Value odd = b.create<arith::SelectOp>(
      inexact, b.create<arith::OrIOp>(truncated, splatConstant(b, i32, 1)),
      truncated);
  return b.create<arith::BitcastOp>(f32, odd);
}

/// f64 to a 16-bit float (f16 or bf16) through f32 rounded to odd, so that
/// it rounds once: SPIR-V has no bf16, and a Vulkan driver may convert f64
/// to f16 through f32 rounded to nearest (Mesa does), rounding twice.
/// Null for other ops.
static Value expandF64ToHalf(ImplicitLocOpBuilder &b, Operation *op) {
  auto trunc = dyn_cast<arith::TruncFOp>(op);
  if (!trunc || !getElementTypeOrSelf(trunc.getIn().getType()).isF64() ||
      getElementTypeOrSelf(trunc.getType()).getIntOrFloatBitWidth() != 16)
    return {};
  return b.create<arith::TruncFOp>(trunc.getType(),
                                   roundToOddF32(b, trunc.getIn()));
}

/// Conversions to and from bf16 become conversions through f32, rounding
/// once; left out are f32 <-> bf16, which MLIR's bf16 expansion handles, and
/// f64 -> bf16 (expandF64ToHalf).
static Value expandBF16Conversion(ImplicitLocOpBuilder &b, Operation *op) {
  Type result = op->getResult(0).getType();
  Value operand = op->getOperand(0);
  Type source = operand.getType();
  Type f32 = withElementType(source, b.getF32Type());
  Type f64 = withElementType(source, b.getF64Type());
  bool toBF16 = getElementTypeOrSelf(result).isBF16();
  bool fromBF16 = getElementTypeOrSelf(source).isBF16();
  Type f32Result = withElementType(result, b.getF32Type());

  if (fromBF16 && !toBF16) {
    if (getElementTypeOrSelf(result).isF32())
      return {};
    Value wide = b.create<arith::ExtFOp>(f32, operand);
    OperationState state(op->getLoc(), op->getName(), ValueRange{wide},
                         TypeRange{result}, op->getAttrs());
    return b.create(state)->getResult(0);
  }
  // To bf16, the rest are conversions from integers (from floats: MLIR's
  // expansion and expandF64ToHalf).
  if (!toBF16 || !isa<arith::SIToFPOp, arith::UIToFPOp>(op))
    return {};
  unsigned width = getElementTypeOrSelf(source).getIntOrFloatBitWidth();
  bool isSigned = isa<arith::SIToFPOp>(op);
  auto convert = [&](Type to) -> Value {
    if (isSigned)
      return b.create<arith::SIToFPOp>(to, operand);
    return b.create<arith::UIToFPOp>(to, operand);
  };
  // Up to 16 bits convert to f32 exactly, 32 bits to f64 exactly; 64 bits
  // round to f64 first (docs/codegen.md).
  if (width <= 16)
    return b.create<arith::TruncFOp>(result, convert(f32Result));
  return b.create<arith::TruncFOp>(result, roundToOddF32(b, convert(f64)));
}

/// The conversions from f64 to 16 bits and to and from bf16 rewritten
/// once, by walking: the rewrites contain conversions of the same kinds.
static void expandConversions(gpu::GPUModuleOp kernels) {
  SmallVector<Operation *> ops;
  kernels.walk([&](Operation *op) {
    if (isa<arith::ExtFOp, arith::TruncFOp, arith::SIToFPOp, arith::UIToFPOp,
            arith::FPToSIOp, arith::FPToUIOp>(op))
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    ImplicitLocOpBuilder b(op->getLoc(), op);
    Value replacement = expandF64ToHalf(b, op);
    if (!replacement)
      replacement = expandBF16Conversion(b, op);
    if (!replacement)
      continue;
    op->getResult(0).replaceAllUsesWith(replacement);
    op->erase();
  }
}

/// `x` (f32) rounded to f16 to nearest, ties to even, from its bits: Vulkan
/// lets a device convert f32 to f16 rounding to nearest or toward zero (and
/// NVIDIA's driver does not round to nearest), while the language rounds to
/// nearest like the reference. The normal range rebiases the exponent and
/// rounds at bit 13 with integer adds; the subnormal range lets an f32 add of
/// 0.5 (correctly rounded in Vulkan) do the rounding; overflow becomes inf
/// and NaN stays a quiet NaN.
static Value roundToHalf(ImplicitLocOpBuilder &b, Value x, Type halfType) {
  Type i32 = withElementType(x.getType(), b.getI32Type());
  Type i16 = withElementType(x.getType(), b.getI16Type());
  auto constant = [&](uint32_t value) {
    return b.create<arith::ConstantOp>(
        i32, b.getIntegerAttr(getElementTypeOrSelf(i32), value));
  };
  auto below = [&](Value lhs, uint32_t bound) {
    return b.create<arith::CmpIOp>(arith::CmpIPredicate::ult, lhs,
                                   constant(bound));
  };
  Value bits = b.create<arith::BitcastOp>(i32, x);
  Value signMask = constant(0x8000);
  Value sign = b.create<arith::AndIOp>(
      b.create<arith::ShRUIOp>(bits, constant(16)), signMask);
  Value magnitude = b.create<arith::AndIOp>(bits, constant(0x7fffffff));
  Value mantissaTop = b.create<arith::ShRUIOp>(magnitude, constant(13));

  // Normal: exponent bias 127 -> 15 (adding 0xc8000000 subtracts 112 << 23),
  // plus 0xfff and the lowest kept bit to round half to even.
  Value thirteen = constant(13);
  Value lowestKept = b.create<arith::AndIOp>(mantissaTop, constant(1));
  Value rebiased = b.create<arith::AddIOp>(magnitude, constant(0xc8000fff));
  Value normal = b.create<arith::ShRUIOp>(
      b.create<arith::AddIOp>(rebiased, lowestKept), thirteen);
  // Subnormal (below 2^-14): 0.5 + |x| puts the f16 subnormal's bits at the
  // bottom of 0.5's mantissa.
  Value oneHalf = splatConstant(b, x.getType(), 0.5);
  Value shifted = b.create<arith::AddFOp>(
      b.create<arith::BitcastOp>(x.getType(), magnitude), oneHalf);
  Value oneHalfBits = constant(0x3f000000);
  Value subnormal = b.create<arith::SubIOp>(
      b.create<arith::BitcastOp>(i32, shifted), oneHalfBits);
  // Inf stays inf; NaN keeps the top of its payload and is made quiet.
  Value payload = b.create<arith::AndIOp>(mantissaTop, constant(0x3ff));
  Value nan = b.create<arith::OrIOp>(constant(0x7e00), payload);
  Value infinity = constant(0x7c00);
  Value infOrNan =
      b.create<arith::SelectOp>(below(magnitude, 0x7f800001), infinity, nan);

  Value overflow = constant(0x7c00);
  Value large = b.create<arith::SelectOp>(below(magnitude, 0x7f800000),
                                          overflow, infOrNan);
  Value normalOrLarge =
      b.create<arith::SelectOp>(below(magnitude, 0x477ff000), normal, large);
  Value half = b.create<arith::SelectOp>(below(magnitude, 0x38800000),
                                         subnormal, normalOrLarge);
  return b.create<arith::BitcastOp>(
      halfType,
      b.create<arith::TruncIOp>(i16, b.create<arith::OrIOp>(half, sign))
          .getResult());
}

/// Every f32 -> f16 conversion rounds to nearest even (roundToHalf).
static void roundHalvesToNearest(gpu::GPUModuleOp kernels) {
  SmallVector<arith::TruncFOp> truncs;
  kernels.walk([&](arith::TruncFOp trunc) {
    if (getElementTypeOrSelf(trunc.getIn().getType()).isF32() &&
        getElementTypeOrSelf(trunc.getType()).isF16())
      truncs.push_back(trunc);
  });
  for (arith::TruncFOp trunc : truncs) {
    ImplicitLocOpBuilder b(trunc.getLoc(), trunc);
    trunc.replaceAllUsesWith(roundToHalf(b, trunc.getIn(), trunc.getType()));
    trunc.erase();
  }
}

namespace {
struct SPIRVRoundFloatConversionsPass
    : tilec::impl::SPIRVRoundFloatConversionsPassBase<
          SPIRVRoundFloatConversionsPass> {
  void runOnOperation() override {
    expandConversions(getOperation());
    // After the expansion, whose f64 -> f16 conversions end in f32 -> f16.
    roundHalvesToNearest(getOperation());
  }
};
} // namespace
