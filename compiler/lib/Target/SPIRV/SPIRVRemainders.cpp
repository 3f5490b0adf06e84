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
//===----------------------------------------------------------------------===//

#include "tilec/Target/SPIRV/Passes.h"

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

namespace {
struct SPIRVRemaindersFromQuotientsPass
    : tilec::impl::SPIRVRemaindersFromQuotientsPassBase<
          SPIRVRemaindersFromQuotientsPass> {
  void runOnOperation() override {
    SmallVector<Operation *> remainders;
    getOperation().walk([&](Operation *op) {
      if ((isa<arith::RemSIOp>(op) &&
           isSafeConstantDivisor(op->getOperand(1))) ||
          (isa<arith::RemUIOp>(op) && isNonMaskDivisor(op->getOperand(1))))
        remainders.push_back(op);
    });
    for (Operation *remainder : remainders) {
      if (isa<arith::RemSIOp>(remainder))
        computeFromQuotient<arith::DivSIOp>(remainder);
      else
        computeFromQuotient<arith::DivUIOp>(remainder);
    }
  }
};
} // namespace
