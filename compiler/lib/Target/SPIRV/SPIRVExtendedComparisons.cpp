//===- SPIRVExtendedComparisons.cpp - Comparisons of sign extensions ------===//
//
// lavapipe (Mesa 22.3) compared an i32 that the kernel sign-extends to i64
// with a constant as if the comparison were unsigned: `sext(x) > 7` was
// true for x = -1, and `sext(x) < 0` false for every x, so
// `relu(as_int(B, 64))` kept -1 (difftest seed 22001178). The same
// comparison with a loaded i64, or with a value that is not a constant, was
// right, and so was the sign extension itself. Compared in the narrow type,
// where it means the same, no 64-bit comparison is left for the driver to
// get wrong; a constant outside the narrow type's range decides the result
// by itself.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/SPIRV/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/Matchers.h"

namespace tilec {
#define GEN_PASS_DEF_SPIRVNARROWEXTENDEDCOMPARISONSPASS
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
struct SPIRVNarrowExtendedComparisonsPass
    : tilec::impl::SPIRVNarrowExtendedComparisonsPassBase<
          SPIRVNarrowExtendedComparisonsPass> {
  void runOnOperation() override {
    SmallVector<arith::CmpIOp> comparisons;
    getOperation().walk([&](arith::CmpIOp compare) {
      if (compare.getType().isInteger(1) &&
          keepsSignExtension(compare.getPredicate()))
        comparisons.push_back(compare);
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
