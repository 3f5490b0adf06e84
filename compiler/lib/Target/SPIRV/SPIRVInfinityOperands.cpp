//===- SPIRVInfinityOperands.cpp - Max and min of an infinity, kept exact -===//
//
// arith.maxnumf and arith.minnumf ignore a NaN operand (C's fmax and fmin,
// the language's max and min): maxnumf(NaN, -inf) is -inf. MLIR 19's folder
// takes -inf for maxnumf's identity and +inf for minnumf's and folds
// maxnumf(x, -inf) to x, which is NaN for a NaN x. Every greedy rewrite of
// the SPIR-V preparation folds, and a `>` aggregation over one value starts
// at -inf, so on Vulkan such an element came out NaN where the reference and
// OpenCL give -inf. This pass gives each max with -inf and min with +inf its
// exact equivalent, a select on x being NaN, which nothing folds.
//
// The folder errs on constants too: it folds maxnumf(NaN, 3.0) and
// maxnumf(3.0, NaN) to NaN, as if maxnumf were maximumf (minnumf it folds
// right). The SPIR-V preparation expands acos and others into selects that
// fold to a NaN constant for a constant argument out of the domain, so
// max(acos(3.0), 3) came out NaN on Vulkan (difftest seed 10226614). Every
// other maxnumf(x, y) becomes isnan(x) ? y : (isnan(y) ? x : maxnumf(x, y)),
// which folds right whichever operands turn constant; after the conversion
// to SPIR-V, the NaN tests are the ones MLIR's own lowering of maxnumf
// makes, and CSE merges them. The pass
// tilec-spirv-keep-infinity-operands-exact runs before every step that
// folds.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/SPIRV/Passes.h"

#include "Math/FloatBuilder.h"

#include "mlir/IR/Matchers.h"

#include <cmath>

namespace tilec {
#define GEN_PASS_DEF_SPIRVKEEPINFINITYOPERANDSEXACTPASS
#include "tilec/Target/SPIRV/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;

/// The exact replacement of a max with -inf or a min with +inf (either
/// operand), or null for any other max or min: x, or the infinity where x
/// is NaN.
template <typename MaxOrMinOp>
static Value replacementOf(ImplicitLocOpBuilder &b, MaxOrMinOp op,
                           double identity) {
  Value lhs = op.getLhs(), rhs = op.getRhs();
  auto isIdentity = [&](Value x) {
    return matchPattern(x, identity < 0 ? m_NegInfFloat() : m_PosInfFloat());
  };
  if (isIdentity(lhs))
    std::swap(lhs, rhs);
  if (!isIdentity(rhs))
    return {};
  FloatBuilder f(b, lhs.getType());
  return f.select(f.cmp(arith::CmpFPredicate::UNO, lhs, lhs), rhs, lhs);
}

/// maxnumf(x, y) with each operand's NaN case taken out before it, so that
/// the folder never sees a NaN operand of maxnumf.
static Value withNaNCasesFirst(ImplicitLocOpBuilder &b, arith::MaxNumFOp op) {
  Value lhs = op.getLhs(), rhs = op.getRhs();
  FloatBuilder f(b, lhs.getType());
  Value max = b.create<arith::MaxNumFOp>(lhs, rhs);
  Value rhsIsNaN = f.cmp(arith::CmpFPredicate::UNO, rhs, rhs);
  Value unlessRhsIsNaN = f.select(rhsIsNaN, lhs, max);
  Value lhsIsNaN = f.cmp(arith::CmpFPredicate::UNO, lhs, lhs);
  return f.select(lhsIsNaN, rhs, unlessRhsIsNaN);
}

static void keepInfinityOperandsExact(gpu::GPUModuleOp kernels) {
  SmallVector<Operation *> candidates;
  kernels.walk([&](Operation *op) {
    if (isa<arith::MaxNumFOp, arith::MinNumFOp>(op))
      candidates.push_back(op);
  });
  for (Operation *op : candidates) {
    ImplicitLocOpBuilder b(op->getLoc(), op);
    Value replacement =
        isa<arith::MaxNumFOp>(op)
            ? replacementOf(b, cast<arith::MaxNumFOp>(op), -INFINITY)
            : replacementOf(b, cast<arith::MinNumFOp>(op), INFINITY);
    if (!replacement && isa<arith::MaxNumFOp>(op))
      replacement = withNaNCasesFirst(b, cast<arith::MaxNumFOp>(op));
    if (replacement) {
      op->getResult(0).replaceAllUsesWith(replacement);
      op->erase();
    }
  }
}

namespace {
struct SPIRVKeepInfinityOperandsExactPass
    : tilec::impl::SPIRVKeepInfinityOperandsExactPassBase<
          SPIRVKeepInfinityOperandsExactPass> {
  void runOnOperation() override { keepInfinityOperandsExact(getOperation()); }
};
} // namespace
