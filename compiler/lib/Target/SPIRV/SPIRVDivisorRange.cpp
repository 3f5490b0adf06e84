//===- SPIRVDivisorRange.cpp - Divisions kept within Vulkan's range -------===//
//
// Vulkan bounds the error of OpFDiv (2.5 ulp) only for a divisor whose
// magnitude lies in the normal range [2^-126, 2^126] (f16: [2^-14, 2^14]).
// NVIDIA's driver divides as x * (1 / y), and with subnormals flushed the
// reciprocal of a larger divisor is 0: x / x for x = -3.4e38 came out 0
// instead of 1 (found by the difftest on the H200, seed 9300165). A divisor
// beyond 2^126 is scaled by 1/4 together with the dividend, which keeps the
// quotient: both products are exact, but for a dividend so small that the
// quotient is below the smallest subnormal anyway. The same select, two
// multiplications and a comparison per division everywhere; a division by a
// constant of the range stays as it is.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/SPIRV/Passes.h"

#include "Math/FloatBuilder.h"

#include "mlir/IR/Matchers.h"

#include <cmath>

namespace tilec {
#define GEN_PASS_DEF_SPIRVDIVISORRANGEPASS
#include "tilec/Target/SPIRV/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;

/// 2^126 for f32: the reciprocal of the smallest normal number of `type`'s
/// element type, the largest divisor that Vulkan's accuracy covers.
static double largestDivisorInRange(Type type) {
  auto element = cast<FloatType>(getElementTypeOrSelf(type));
  return std::ldexp(
      1.0, -APFloat::semanticsMinExponent(element.getFloatSemantics()));
}

/// Whether `divisor` is a constant (scalar or splat) within the range.
static bool isConstantInRange(Value divisor) {
  FloatAttr::ValueType value(0.0);
  if (!matchPattern(divisor, m_ConstantFloat(&value)))
    return false;
  return std::fabs(value.convertToDouble()) <=
         largestDivisorInRange(divisor.getType());
}

static void keepDivisorsInRange(gpu::GPUModuleOp kernels) {
  SmallVector<arith::DivFOp> divisions;
  kernels.walk([&](arith::DivFOp division) {
    if (!isConstantInRange(division.getRhs()))
      divisions.push_back(division);
  });
  for (arith::DivFOp division : divisions) {
    ImplicitLocOpBuilder b(division.getLoc(), division);
    FloatBuilder f(b, division.getType());
    Value divisor = division.getRhs();
    // Named locals: the ops' order must not depend on the compiler's order
    // of evaluating arguments.
    Value magnitude = f.abs(divisor);
    Value limit = f.constant(largestDivisorInRange(division.getType()));
    Value beyond = f.cmp(arith::CmpFPredicate::OGT, magnitude, limit);
    Value quarter = f.constant(0.25);
    Value one = f.constant(1.0);
    Value scale = f.select(beyond, quarter, one);
    Value dividend = f.mul(division.getLhs(), scale);
    Value scaledDivisor = f.mul(divisor, scale);
    Value quotient = f.div(dividend, scaledDivisor);
    division.replaceAllUsesWith(quotient);
    division.erase();
  }
}

namespace {
struct SPIRVDivisorRangePass
    : tilec::impl::SPIRVDivisorRangePassBase<SPIRVDivisorRangePass> {
  void runOnOperation() override { keepDivisorsInRange(getOperation()); }
};
} // namespace
