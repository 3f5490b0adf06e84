//===- SPIRVIntegerExtensions.cpp - Extensions used in the narrow type ----===//
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
// compares the narrow value, and a conversion to float converts the narrow
// value, the same integer. No 64-bit value is left there for the driver to
// get wrong.
//
// A comparison of an extension with a constant that no value of the narrow
// type can change is its constant result: `(int)b < 0` of a bool is false.
// Left to the driver, which found that out itself, the zero it made of
// `(float)((int)b < 0)` was folded into atan2's expansion by lavapipe's
// rules for a constant +0.0, which do not keep infinities: atan2(1, x) was
// 0, not pi/2 (seed 22200520). A constant before the expansions gets the
// exact forms of tilec-spirv-keep-zero-operands-exact.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/SPIRV/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/Matchers.h"

namespace tilec {
#define GEN_PASS_DEF_SPIRVNARROWINTEGEREXTENSIONSPASS
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
  using arith::CmpIPredicate;
  switch (predicate) {
  case CmpIPredicate::slt:
    return CmpIPredicate::sgt;
  case CmpIPredicate::sle:
    return CmpIPredicate::sge;
  case CmpIPredicate::sgt:
    return CmpIPredicate::slt;
  case CmpIPredicate::sge:
    return CmpIPredicate::sle;
  case CmpIPredicate::ult:
    return CmpIPredicate::ugt;
  case CmpIPredicate::ule:
    return CmpIPredicate::uge;
  case CmpIPredicate::ugt:
    return CmpIPredicate::ult;
  case CmpIPredicate::uge:
    return CmpIPredicate::ule;
  case CmpIPredicate::eq:
  case CmpIPredicate::ne:
    return predicate;
  }
  llvm_unreachable("unknown predicate");
}

/// The constant, or narrow comparison, that `predicate` of `extended` (an
/// integer extension) and `bound` (a constant), in that order, means; null
/// where they are not of that form or mean neither.
static Value narrowComparison(ImplicitLocOpBuilder &b,
                              arith::CmpIPredicate predicate, Value extended,
                              Value bound) {
  Operation *extension = extended.getDefiningOp();
  APInt wide;
  if (!isa_and_nonnull<arith::ExtSIOp, arith::ExtUIOp>(extension) ||
      !matchPattern(bound, m_ConstantInt(&wide)))
    return {};
  bool isSigned = isa<arith::ExtSIOp>(extension);
  // A sign extension keeps the signed order only.
  if (isSigned && !keepsSignExtension(predicate))
    return {};
  Value narrow = extension->getOperand(0);
  unsigned bits = narrow.getType().getIntOrFloatBitWidth();
  unsigned wideBits = wide.getBitWidth();
  // The extension's values, in the wide type, from `lowest` to `highest`:
  // ordered alike as signed and as unsigned for a zero extension.
  APInt lowest = isSigned ? APInt::getSignedMinValue(bits).sext(wideBits)
                          : APInt::getZero(wideBits);
  APInt highest = isSigned ? APInt::getSignedMaxValue(bits).sext(wideBits)
                           : APInt::getMaxValue(bits).zext(wideBits);
  bool inRange = isSigned ? wide.isSignedIntN(bits) : wide.isIntN(bits);
  bool isEquality = predicate == arith::CmpIPredicate::eq ||
                    predicate == arith::CmpIPredicate::ne;
  bool atLowest = arith::applyCmpPredicate(predicate, lowest, wide);
  if (isEquality
          ? !inRange
          : atLowest == arith::applyCmpPredicate(predicate, highest, wide))
    return b.create<arith::ConstantOp>(b.getBoolAttr(atLowest));
  if (!isSigned)
    return {};
  Value constant = b.create<arith::ConstantOp>(
      b.getIntegerAttr(narrow.getType(), wide.trunc(bits)));
  return b.create<arith::CmpIOp>(predicate, narrow, constant);
}

namespace {
struct SPIRVNarrowIntegerExtensionsPass
    : tilec::impl::SPIRVNarrowIntegerExtensionsPassBase<
          SPIRVNarrowIntegerExtensionsPass> {
  void runOnOperation() override {
    SmallVector<arith::CmpIOp> comparisons;
    getOperation().walk([&](Operation *op) {
      if (auto convert = dyn_cast<arith::SIToFPOp>(op)) {
        if (auto extension = convert.getIn().getDefiningOp<arith::ExtSIOp>())
          convert.getInMutable().assign(extension.getIn());
      } else if (auto compare = dyn_cast<arith::CmpIOp>(op)) {
        if (compare.getType().isInteger(1))
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
