//===- SPIRVInfinityOperands.cpp - Max and min of NaN, kept exact ---------===//
//
// arith.maxnumf and arith.minnumf ignore a NaN operand (C's fmax and fmin,
// the language's max and min): maxnumf(NaN, -inf) is -inf. MLIR 19's folder
// errs twice on them. It takes -inf for maxnumf's identity and +inf for
// minnumf's and folds maxnumf(x, -inf) to x, which is NaN for a NaN x: a `>`
// aggregation over one value starts at -inf, so on Vulkan such an element
// came out NaN where the reference and OpenCL give -inf. And it folds
// maxnumf of a NaN constant and another constant to NaN, as if it were
// maximumf: the SPIR-V preparation's expansion of acos folds acos(3.0) to a
// NaN constant, so max(acos(3.0), 3) came out NaN (difftest seed 10226614).
// Either operand may become such a constant only after other folds (an empty
// `<` aggregation is +inf, its conversions fold too: difftest seed
// 10227556), so every maxnumf(x, y) and minnumf(x, y) becomes
// isnan(x) ? y : (isnan(y) ? x : maxnumf(x, y)), which folds right
// whichever operands turn constant. After the conversion to SPIR-V the NaN
// tests are the ones MLIR's own lowering of maxnumf and minnumf makes, and
// CSE merges them: two selects more per max or min. The pass
// tilec-spirv-keep-infinity-operands-exact runs before every step that
// folds.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/SPIRV/Passes.h"

#include "Math/FloatBuilder.h"

namespace tilec {
#define GEN_PASS_DEF_SPIRVKEEPINFINITYOPERANDSEXACTPASS
#include "tilec/Target/SPIRV/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;

/// `op` (maxnumf or minnumf) with each operand's NaN case taken out before
/// it, so that the folder never decides what a NaN operand gives.
template <typename MaxOrMinOp>
static Value withNaNCasesFirst(ImplicitLocOpBuilder &b, MaxOrMinOp op) {
  Value lhs = op.getLhs(), rhs = op.getRhs();
  FloatBuilder f(b, lhs.getType());
  Value both = b.create<MaxOrMinOp>(lhs, rhs);
  Value rhsIsNaN = f.cmp(arith::CmpFPredicate::UNO, rhs, rhs);
  Value unlessRhsIsNaN = f.select(rhsIsNaN, lhs, both);
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
    Value replacement = isa<arith::MaxNumFOp>(op)
                            ? withNaNCasesFirst(b, cast<arith::MaxNumFOp>(op))
                            : withNaNCasesFirst(b, cast<arith::MinNumFOp>(op));
    op->getResult(0).replaceAllUsesWith(replacement);
    op->erase();
  }
}

namespace {
struct SPIRVKeepInfinityOperandsExactPass
    : tilec::impl::SPIRVKeepInfinityOperandsExactPassBase<
          SPIRVKeepInfinityOperandsExactPass> {
  void runOnOperation() override { keepInfinityOperandsExact(getOperation()); }
};
} // namespace
