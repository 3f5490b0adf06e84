//===- SPIRVRemainders.cpp - Remainders from their quotients --------------===//
//
// MLIR 19 converts arith.remsi to SPIR-V as |x| umod |y| with the sign of x
// put back by a select (GLSL leaves % undefined for negative operands, and
// drivers differ on OpSRem), beside the OpSDiv of the quotient that the
// kernel IR computes from the same operands: two divisions where OpenCL C's
// x / y and x % y are one. The address arithmetic of kernels walking a
// multi-dimensional index space does this for every coordinate, inside the
// loops of reductions and generic contractions. By a constant other than 0
// and -1, x rem y is exactly x - (x div y) * y (truncated division; the
// product never exceeds |x|), and the CSE of the next pass merges the
// quotient with the kernel's own. The unsigned remainders that
// SPIRVUnsignedDivisions.cpp makes of them (x and y non-negative) are
// computed the same way, except by a power of two, which is one mask (an
// OpUMod that every driver turns into a bitwise and).
//
// Every other signed remainder is expanded here too, as |x| urem |y|
// negated where x < 0: MLIR 19's conversion tests the sign as x == |x|,
// which holds for the minimum of the type (its absolute value wraps to
// itself), so INT_MIN rem 5 came out +3 instead of -3 (found by the
// difftest on Vulkan). The absolute values are exact as unsigned numbers.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/SPIRV/Passes.h"

#include "Math/MathExpansions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/Matchers.h"

namespace tilec {
#define GEN_PASS_DEF_SPIRVREMAINDERSFROMQUOTIENTSPASS
#include "tilec/Target/SPIRV/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;

/// Whether `divisor` is a constant whose truncated division is defined for
/// every dividend (not 0, and not -1, whose quotient of the minimum
/// overflows).
static bool isSafeConstantDivisor(Value divisor) {
  APInt value;
  return matchPattern(divisor, m_ConstantInt(&value)) && !value.isZero() &&
         !value.isAllOnes();
}

/// Whether `divisor` is a constant whose unsigned remainder is not one mask
/// (not 0, not a power of two).
static bool isNonMaskDivisor(Value divisor) {
  APInt value;
  return matchPattern(divisor, m_ConstantInt(&value)) && !value.isZero() &&
         !value.isPowerOf2();
}

/// Replaces `remainder` (of a signed or unsigned `Division`) with
/// x - (x div y) * y.
template <typename Division>
static void computeFromQuotient(Operation *remainder) {
  ImplicitLocOpBuilder b(remainder->getLoc(), remainder);
  Value dividend = remainder->getOperand(0);
  Value divisor = remainder->getOperand(1);
  Value quotient = b.create<Division>(dividend, divisor);
  Value multiple = b.create<arith::MulIOp>(quotient, divisor);
  remainder->getResult(0).replaceAllUsesWith(
      b.create<arith::SubIOp>(dividend, multiple).getResult());
  remainder->erase();
}

/// Replaces the signed `remainder` with |x| urem |y|, negated where x < 0.
/// Each value is a named local: the order of the ops must not depend on the
/// compiler's order of evaluating arguments.
static void expandSignedRemainder(arith::RemSIOp remainder) {
  ImplicitLocOpBuilder b(remainder.getLoc(), remainder);
  Value zero = b.create<arith::ConstantOp>(b.getZeroAttr(remainder.getType()));
  Value dividend = remainder.getLhs();
  Value dividendAbs = buildWrappingAbs(b, dividend, zero);
  Value divisorAbs = buildWrappingAbs(b, remainder.getRhs(), zero);
  Value magnitude = b.create<arith::RemUIOp>(dividendAbs, divisorAbs);
  Value negative =
      b.create<arith::CmpIOp>(arith::CmpIPredicate::slt, dividend, zero);
  Value negated = b.create<arith::SubIOp>(zero, magnitude);
  remainder.replaceAllUsesWith(
      b.create<arith::SelectOp>(negative, negated, magnitude).getResult());
  remainder.erase();
}

namespace {
struct SPIRVRemaindersFromQuotientsPass
    : tilec::impl::SPIRVRemaindersFromQuotientsPassBase<
          SPIRVRemaindersFromQuotientsPass> {
  void runOnOperation() override {
    SmallVector<Operation *> remainders;
    getOperation().walk([&](Operation *op) {
      if (isa<arith::RemSIOp>(op) ||
          (isa<arith::RemUIOp>(op) && isNonMaskDivisor(op->getOperand(1))))
        remainders.push_back(op);
    });
    for (Operation *remainder : remainders) {
      if (auto signedRemainder = dyn_cast<arith::RemSIOp>(remainder)) {
        if (isSafeConstantDivisor(signedRemainder.getRhs()))
          computeFromQuotient<arith::DivSIOp>(remainder);
        else
          expandSignedRemainder(signedRemainder);
        continue;
      }
      computeFromQuotient<arith::DivUIOp>(remainder);
    }
  }
};
} // namespace
