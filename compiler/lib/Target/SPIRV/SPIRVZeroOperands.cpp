//===- SPIRVZeroOperands.cpp - Float operations on zeros, kept exact ------===//
//
// llvmpipe (lavapipe) builds its machine code with gallivm, whose helpers
// simplify by operand identity before any float-controls check: a product
// with the constant +0.0 is +0.0 (lp_build_mul), a quotient by it is undef
// (lp_build_div), a quotient of it is +0.0, a sum with it is the other
// operand (lp_build_add: -0 for -0 + 0), and x - x is +0.0 (lp_build_sub).
// So B / 0.0 came out NaN and atan2(B, 0.0) 0, with or without
// SignedZeroInfNanPreserve (Mesa 22.3). These rewrites give each such
// operation an exact IEEE equivalent that has no +0.0 operand and no repeated
// one; they cost a select or two, only where a kernel computes with a
// constant zero. The pass tilec-spirv-keep-zero-operands-exact runs after
// every step that folds.
//
// A zero that the driver alone would see as a constant meets the same
// simplifications: Mesa folds `x < x` to false, so `A / as_float(A < A)` was
// NaN instead of +inf and `atan2(A, as_float(A < A))` 0 instead of pi/2
// (difftest seed 11000990). The pass first folds a float comparison of a
// value with itself whose result does not depend on the value (x < x is
// false, also for NaN), then folds what follows from it, so that such a zero
// is a constant here too. Mesa likewise decides -|x| > 0 (false), so
// relu(-|x|) was its +0 and x / relu(-|x|) NaN (seed 25101006): comparisons
// that the sign of |x| or -|x| decides are folded as well. And Mesa knows the
// values of a choice among constants: shape(B) is a select of B's extents,
// none 0, so !as_float(shape(B), 64) was its +0 and x / !as_float(shape(B),
// 64) NaN (seed 27001540): a comparison whose operands are constants or
// choices among them (through conversions) is folded where every pair of
// their values gives the same result.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/SPIRV/Passes.h"

#include "Math/FloatBuilder.h"
#include "SPIRVIntegerMerging.h"

#include "mlir/IR/Dominance.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cmath>

namespace tilec {
#define GEN_PASS_DEF_SPIRVKEEPZEROOPERANDSEXACTPASS
#include "tilec/Target/SPIRV/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;

/// `x` is a constant +0.0 (scalar or splat).
static bool isPositiveZero(Value x) {
  return matchPattern(x, m_PosZeroFloat());
}

/// `zero` (a +-0 with `x`'s sign) where `x` is a number of the kind that
/// `keep` selects, else NaN.
static Value signedZeroOrNaN(FloatBuilder &f, Value keep, Value x) {
  Value zero = f.b.create<math::CopySignOp>(f.constant(0), x);
  return f.select(keep, zero, f.constant(NAN));
}

/// The exact replacement of `op`, or null where it needs none.
static Value replacementOf(ImplicitLocOpBuilder &b, Operation *op) {
  if (op->getNumOperands() != 2)
    return {};
  Value lhs = op->getOperand(0), rhs = op->getOperand(1);
  FloatBuilder f(b, lhs.getType());
  auto isFinite = [&](Value x) {
    Value infinity = f.constant(INFINITY);
    return f.cmp(arith::CmpFPredicate::OLT, f.abs(x), infinity);
  };
  if (isa<arith::DivFOp>(op)) {
    // x / +0 is x * +inf: +-inf for a non-zero x, NaN for 0 and NaN.
    if (isPositiveZero(rhs))
      return f.mul(lhs, f.constant(INFINITY));
    // +0 / y is +-0 with y's sign, NaN for a zero or NaN y.
    if (isPositiveZero(lhs)) {
      Value zero = f.constant(0);
      return signedZeroOrNaN(
          f, f.cmp(arith::CmpFPredicate::OGT, f.abs(rhs), zero), rhs);
    }
    return {};
  }
  if (isa<arith::AddFOp>(op)) {
    // x + +0 is x, but +0 for -0.
    if (isPositiveZero(rhs))
      std::swap(lhs, rhs);
    if (isPositiveZero(lhs)) {
      Value zero = f.constant(0);
      return f.select(f.cmp(arith::CmpFPredicate::OEQ, rhs, f.constant(0)),
                      zero, rhs);
    }
    return {};
  }
  if (isa<arith::MulFOp>(op)) {
    // x * +0 is +-0 with x's sign for a finite x, NaN otherwise.
    if (isPositiveZero(rhs))
      std::swap(lhs, rhs);
    if (isPositiveZero(lhs))
      return signedZeroOrNaN(f, isFinite(rhs), rhs);
    return {};
  }
  // x - x is +0 for a finite x, NaN otherwise.
  if (isa<arith::SubFOp>(op) && lhs == rhs) {
    Value nan = f.constant(NAN);
    Value zero = f.constant(0);
    return f.select(isFinite(lhs), zero, nan);
  }
  return {};
}

namespace {
/// A float comparison of a value with itself whose result is the same for
/// every value, NaN included, as the constant it is.
struct FoldSelfComparison : OpRewritePattern<arith::CmpFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::CmpFOp compare,
                                PatternRewriter &rewriter) const override {
    if (compare.getLhs() != compare.getRhs() || !compare.getType().isInteger(1))
      return failure();
    std::optional<bool> result;
    switch (compare.getPredicate()) {
    case arith::CmpFPredicate::OLT:
    case arith::CmpFPredicate::OGT:
    case arith::CmpFPredicate::ONE:
      result = false;
      break;
    case arith::CmpFPredicate::ULE:
    case arith::CmpFPredicate::UGE:
    case arith::CmpFPredicate::UEQ:
      result = true;
      break;
    default:
      return failure();
    }
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        compare, rewriter.getBoolAttr(*result));
    return success();
  }
};

/// The predicate that compares the operands the other way round.
static arith::CmpFPredicate swapOperands(arith::CmpFPredicate predicate) {
  using P = arith::CmpFPredicate;
  switch (predicate) {
  case P::OGT:
    return P::OLT;
  case P::OLT:
    return P::OGT;
  case P::OGE:
    return P::OLE;
  case P::OLE:
    return P::OGE;
  case P::UGT:
    return P::ULT;
  case P::ULT:
    return P::UGT;
  case P::UGE:
    return P::ULE;
  case P::ULE:
    return P::UGE;
  default:
    return predicate;
  }
}

/// The sign that `x` has whatever its operand: +1 for |y| (>= 0 or NaN), -1
/// for -|y| (<= 0 or NaN), 0 where it is not decided.
static int decidedSignOf(Value x) {
  if (x.getDefiningOp<math::AbsFOp>())
    return 1;
  if (auto negate = x.getDefiningOp<arith::NegFOp>())
    if (negate.getOperand().getDefiningOp<math::AbsFOp>())
      return -1;
  return 0;
}

/// A float comparison of |y| or -|y| with a constant that its sign decides,
/// NaN included, as the constant it is: -|y| > c is false for every c >= 0,
/// so relu(-|y|) is +0 (difftest seed 25101006).
struct FoldSignDecidedComparison : OpRewritePattern<arith::CmpFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::CmpFOp compare,
                                PatternRewriter &rewriter) const override {
    Value lhs = compare.getLhs(), rhs = compare.getRhs();
    arith::CmpFPredicate predicate = compare.getPredicate();
    APFloat constant(0.0);
    if (!matchPattern(rhs, m_ConstantFloat(&constant))) {
      if (!matchPattern(lhs, m_ConstantFloat(&constant)))
        return failure();
      // c > x is x < c, and so on.
      std::swap(lhs, rhs);
      predicate = swapOperands(predicate);
    }
    int sign = decidedSignOf(lhs);
    if (!sign || constant.isNaN() ||
        (sign < 0 ? constant.isNegative() && !constant.isZero()
                  : !constant.isNegative() && !constant.isZero()))
      return failure();
    // -|y| against c >= 0: > is false and <= unordered true; |y| against
    // c <= 0: < is false and >= unordered true.
    std::optional<bool> result;
    if (predicate ==
        (sign < 0 ? arith::CmpFPredicate::OGT : arith::CmpFPredicate::OLT))
      result = false;
    else if (predicate ==
             (sign < 0 ? arith::CmpFPredicate::ULE : arith::CmpFPredicate::UGE))
      result = true;
    if (!result)
      return failure();
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        compare, rewriter.getBoolAttr(*result));
    return success();
  }
};

/// The most values of an operand that FoldChoiceComparison tries.
constexpr unsigned kMostChoices = 16;
/// How deep choicesOf follows operands.
constexpr unsigned kChoiceDepth = 12;

/// Appends `value` to `values` unless it is there already.
static void addChoice(SmallVectorImpl<APInt> &values, const APInt &value) {
  if (!llvm::is_contained(values, value))
    values.push_back(value);
}
static void addChoice(SmallVectorImpl<APFloat> &values, const APFloat &value) {
  if (llvm::none_of(values, [&](const APFloat &other) {
        return other.bitwiseIsEqual(value);
      }))
    values.push_back(value);
}

template <typename Number>
static std::optional<SmallVector<Number>> choicesOf(Value x, unsigned depth);

/// Appends the choices of `source` (of kind Source) to `values`, each
/// through `convert`; false where they are not known.
template <typename Source, typename Number, typename Convert>
static bool addChoicesOf(SmallVectorImpl<Number> &values, Value source,
                         unsigned depth, Convert convert) {
  std::optional<SmallVector<Source>> sources = choicesOf<Source>(source, depth);
  if (!sources)
    return false;
  for (const Source &value : *sources)
    addChoice(values, convert(value));
  return true;
}

/// The values that the scalar `x` (a float for APFloat, an integer but not
/// an index for APInt) may take where it is a constant, a select among such
/// values or a conversion of one (sitofp, uitofp, extf, truncf; extsi,
/// extui, trunci): every value it can take, perhaps more (a select's
/// condition is not looked at), or nothing where they are not known or
/// more than kMostChoices.
template <typename Number>
static std::optional<SmallVector<Number>> choicesOf(Value x, unsigned depth) {
  constexpr bool isFloat = std::is_same_v<Number, APFloat>;
  Type type = x.getType();
  if (depth == 0 || !(isFloat ? isa<FloatType>(type) : isa<IntegerType>(type)))
    return std::nullopt;
  Operation *op = x.getDefiningOp();
  SmallVector<Number> values;
  bool known = true;
  if constexpr (isFloat) {
    APFloat constant(0.0);
    if (matchPattern(x, m_ConstantFloat(&constant)))
      return SmallVector<Number>{constant};
    const llvm::fltSemantics &semantics =
        cast<FloatType>(type).getFloatSemantics();
    if (isa_and_nonnull<arith::SIToFPOp, arith::UIToFPOp>(op)) {
      bool isSigned = isa<arith::SIToFPOp>(op);
      known = addChoicesOf<APInt>(
          values, op->getOperand(0), depth - 1, [&](const APInt &integer) {
            APFloat value(semantics);
            value.convertFromAPInt(integer, isSigned,
                                   APFloat::rmNearestTiesToEven);
            return value;
          });
    } else if (isa_and_nonnull<arith::ExtFOp, arith::TruncFOp>(op)) {
      known = addChoicesOf<APFloat>(
          values, op->getOperand(0), depth - 1, [&](APFloat value) {
            bool losesInfo;
            value.convert(semantics, APFloat::rmNearestTiesToEven, &losesInfo);
            return value;
          });
    } else if (!isa_and_nonnull<arith::SelectOp>(op)) {
      return std::nullopt;
    }
  } else {
    APInt constant;
    if (matchPattern(x, m_ConstantInt(&constant)))
      return SmallVector<Number>{constant};
    unsigned width = cast<IntegerType>(type).getWidth();
    if (isa_and_nonnull<arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp>(op)) {
      bool isSigned = isa<arith::ExtSIOp>(op);
      known = addChoicesOf<APInt>(values, op->getOperand(0), depth - 1,
                                  [&](const APInt &source) {
                                    return isSigned ? source.sextOrTrunc(width)
                                                    : source.zextOrTrunc(width);
                                  });
    } else if (!isa_and_nonnull<arith::SelectOp>(op)) {
      return std::nullopt;
    }
  }
  if (auto select = dyn_cast_or_null<arith::SelectOp>(op))
    for (Value arm : {select.getTrueValue(), select.getFalseValue()})
      known = known &&
              addChoicesOf<Number>(values, arm, depth - 1,
                                   [](const Number &value) { return value; });
  if (!known || values.size() > kMostChoices)
    return std::nullopt;
  return values;
}

/// A comparison of two operands whose values are known, constants or
/// choices among them, as the constant it is where every pair of values
/// gives the same result: shape(B) != 0 is true (difftest seed 27001540).
template <typename CmpOp>
struct FoldChoiceComparison : OpRewritePattern<CmpOp> {
  using OpRewritePattern<CmpOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(CmpOp compare,
                                PatternRewriter &rewriter) const override {
    if (!compare.getType().isInteger(1))
      return failure();
    using Number = std::conditional_t<std::is_same_v<CmpOp, arith::CmpFOp>,
                                      APFloat, APInt>;
    auto lhs = choicesOf<Number>(compare.getLhs(), kChoiceDepth);
    auto rhs = choicesOf<Number>(compare.getRhs(), kChoiceDepth);
    if (!lhs || !rhs)
      return failure();
    std::optional<bool> result;
    for (const auto &left : *lhs)
      for (const auto &right : *rhs) {
        bool value =
            arith::applyCmpPredicate(compare.getPredicate(), left, right);
        if (result && *result != value)
          return failure();
        result = value;
      }
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        compare, rewriter.getBoolAttr(*result));
    return success();
  }
};
} // namespace

/// Whether every arith or math op of `kernels` that has a float operand or
/// result is an fma or a constant.
static bool computesFloatsOnlyThroughFma(gpu::GPUModuleOp kernels) {
  auto isFloat = [](Type type) {
    return isa<FloatType>(getElementTypeOrSelf(type));
  };
  return !kernels
              .walk([&](Operation *op) {
                if (!isa_and_nonnull<arith::ArithDialect, math::MathDialect>(
                        op->getDialect()) ||
                    isa<math::FmaOp, arith::ConstantOp>(op))
                  return WalkResult::advance();
                if (llvm::any_of(op->getOperandTypes(), isFloat) ||
                    llvm::any_of(op->getResultTypes(), isFloat))
                  return WalkResult::interrupt();
                return WalkResult::advance();
              })
              .wasInterrupted();
}

static void keepZeroOperandsExact(gpu::GPUModuleOp kernels) {
  RewritePatternSet patterns(kernels.getContext());
  patterns.add<FoldSelfComparison, FoldSignDecidedComparison,
               FoldChoiceComparison<arith::CmpFOp>,
               FoldChoiceComparison<arith::CmpIOp>>(kernels.getContext());
  // The driver starts from every op but the fmas of variables. Each pattern
  // starts at a comparison, and a folded op's users join the worklist. An
  // fma folds only where its operands are constants, and the thousands of
  // an unrolled product are not: the driver's attempts to fold them took
  // half of the pass (docs/codegen.md, "Compile time"). Folding that stops
  // before a fixed point leaves correct code behind.
  SmallVector<Operation *> folded;
  kernels.walk([&](Operation *op) {
    if (!isa<math::FmaOp>(op) || llvm::all_of(op->getOperands(), [](Value x) {
          return matchPattern(x, m_Constant());
        }))
      folded.push_back(op);
  });
  // In order: the driver takes its worklist from the back.
  std::reverse(folded.begin(), folded.end());
  (void)applyOpPatternsAndFold(folded, std::move(patterns));
  // Values the driver would merge (x / 0 - x / 0) are merged first, so that
  // its x - x shows here. A kernel that computes with floats only through
  // fma and constants (a contraction without an epilogue: the unrolled, long
  // kernels) has no operation to rewrite below; what the preparation
  // computes twice in it is integer arithmetic, which a merge of the integer
  // ops alone removes at a sixteenth of CSE's cost (docs/codegen.md, "Compile
  // time").
  if (computesFloatsOnlyThroughFma(kernels)) {
    mergeEqualIntegerArithmetic(kernels);
    return;
  }
  IRRewriter rewriter(kernels.getContext());
  DominanceInfo dominance(kernels);
  eliminateCommonSubExpressions(rewriter, dominance, kernels);
  SmallVector<Operation *> candidates;
  kernels.walk([&](Operation *op) {
    if (isa<arith::AddFOp, arith::DivFOp, arith::MulFOp, arith::SubFOp>(op))
      candidates.push_back(op);
  });
  for (Operation *op : candidates) {
    ImplicitLocOpBuilder b(op->getLoc(), op);
    if (Value replacement = replacementOf(b, op)) {
      op->getResult(0).replaceAllUsesWith(replacement);
      op->erase();
    }
  }
}

namespace {
struct SPIRVKeepZeroOperandsExactPass
    : tilec::impl::SPIRVKeepZeroOperandsExactPassBase<
          SPIRVKeepZeroOperandsExactPass> {
  void runOnOperation() override { keepZeroOperandsExact(getOperation()); }
};
} // namespace
