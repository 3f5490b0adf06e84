//===- SPIRVRemainders.cpp - Signed remainders from their quotients -------===//
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
// quotient with the kernel's own.
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

namespace {
struct SPIRVRemaindersFromQuotientsPass
    : tilec::impl::SPIRVRemaindersFromQuotientsPassBase<
          SPIRVRemaindersFromQuotientsPass> {
  void runOnOperation() override {
    SmallVector<arith::RemSIOp> remainders;
    getOperation().walk([&](arith::RemSIOp remainder) {
      if (isSafeConstantDivisor(remainder.getRhs()))
        remainders.push_back(remainder);
    });
    for (arith::RemSIOp remainder : remainders) {
      ImplicitLocOpBuilder b(remainder.getLoc(), remainder);
      Value quotient =
          b.create<arith::DivSIOp>(remainder.getLhs(), remainder.getRhs());
      Value multiple = b.create<arith::MulIOp>(quotient, remainder.getRhs());
      remainder.replaceAllUsesWith(
          b.create<arith::SubIOp>(remainder.getLhs(), multiple).getResult());
      remainder.erase();
    }
  }
};
} // namespace
