//===- SPIRVSignExtensions.cpp - Sign extensions used in the narrow type --===//
//
// lavapipe (Mesa 22.3) lost the sign of an i32 that the kernel sign-extends
// to i64, in two uses:
// - compared with a constant, as if the comparison were unsigned:
//   `sext(x) > 7` was true for x = -1, and `sext(x) < 0` false for every x,
//   so `relu(as_int(B, 64))` kept -1 (difftest seed 22001178);
// - converted to f32 and fed to erf, whose expansion takes the magnitude
//   as `x < 0 ? -x : x`: it took x itself, so `erf(as_int(B, 64))` was
//   0.70 for B = -3, not -0.99998 (seed 22201354).
// The same uses of a loaded i64, and the sign extension alone, were right.
// Both mean the same in the narrow type: a comparison with a constant
// compares the narrow value (a constant outside the narrow type's range
// decides the result by itself), and a conversion to float converts the
// narrow value, the same integer. No 64-bit value is left there for the
// driver to get wrong.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/SPIRV/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/Matchers.h"

namespace tilec {
#define GEN_PASS_DEF_SPIRVNARROWSIGNEXTENSIONSPASS
#include "tilec/Target/SPIRV/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;

/// Whether `predicate` compares as signed integers or for equality, which
/// a sign extension preserves.
static bool keepsSignExtension(arith::CmpIPredicate predicate) {
  using arith::CmpIPredicate;
  return llvm::is_contained({CmpIPredicate::eq, CmpIPredicate::ne,
                             CmpIPredicate::slt, CmpIPredicate::sle,
                             CmpIPredicate::sgt, CmpIPredicate::sge},
                            predicate);
}

/// `predicate` with its operands exchanged: a < b is b > a.
static arith::CmpIPredicate swapOperands(arith::CmpIPredicate predicate) {
  switch (predicate) {
  case arith::CmpIPredicate::slt:
    return arith::CmpIPredicate::sgt;
  case arith::CmpIPredicate::sle:
    return arith::CmpIPredicate::sge;
  case arith::CmpIPredicate::sgt:
    return arith::CmpIPredicate::slt;
  case arith::CmpIPredicate::sge:
    return arith::CmpIPredicate::sle;
  default:
    return predicate;
  }
}

/// The narrow comparison, or constant, that `predicate` of `extended` (a
/// sign extension) and `bound` (a constant), in that order, means; null
/// where they are not of that form.
static Value narrowComparison(ImplicitLocOpBuilder &b,
                              arith::CmpIPredicate predicate, Value extended,
                              Value bound) {
  auto extension = extended.getDefiningOp<arith::ExtSIOp>();
  APInt wide;
  if (!extension || !matchPattern(bound, m_ConstantInt(&wide)))
    return {};
  Value narrow = extension.getIn();
  unsigned bits = narrow.getType().getIntOrFloatBitWidth();
  if (wide.isSignedIntN(bits)) {
    Value constant = b.create<arith::ConstantOp>(
        b.getIntegerAttr(narrow.getType(), wide.trunc(bits)));
    return b.create<arith::CmpIOp>(predicate, narrow, constant);
  }
  // Every narrow value lies on one side of the bound: any one decides.
  APInt someValue = APInt::getSignedMinValue(bits).sext(wide.getBitWidth());
  return b.create<arith::ConstantOp>(
      b.getBoolAttr(arith::applyCmpPredicate(predicate, someValue, wide)));
}

namespace {
struct SPIRVNarrowSignExtensionsPass
    : tilec::impl::SPIRVNarrowSignExtensionsPassBase<
          SPIRVNarrowSignExtensionsPass> {
  void runOnOperation() override {
    SmallVector<arith::CmpIOp> comparisons;
    getOperation().walk([&](Operation *op) {
      if (auto convert = dyn_cast<arith::SIToFPOp>(op)) {
        if (auto extension = convert.getIn().getDefiningOp<arith::ExtSIOp>())
          convert.getInMutable().assign(extension.getIn());
      } else if (auto compare = dyn_cast<arith::CmpIOp>(op)) {
        if (compare.getType().isInteger(1) &&
            keepsSignExtension(compare.getPredicate()))
          comparisons.push_back(compare);
      }
    });
    for (arith::CmpIOp compare : comparisons) {
      ImplicitLocOpBuilder b(compare.getLoc(), compare);
      arith::CmpIPredicate predicate = compare.getPredicate();
      Value narrowed =
          narrowComparison(b, predicate, compare.getLhs(), compare.getRhs());
      if (!narrowed)
        narrowed = narrowComparison(b, swapOperands(predicate),
                                    compare.getRhs(), compare.getLhs());
      if (!narrowed)
        continue;
      compare.replaceAllUsesWith(narrowed);
      compare.erase();
    }
  }
};
} // namespace
