//===- SPIRVInPlaceConversion.cpp - Ops converted before the conversion ---===//
//
// MLIR's dialect conversion rewrites each op through its pattern and keeps
// the books of every rewrite: the legality of each op it creates, and the
// log that a rollback would undo. For an op whose SPIR-V counterpart takes
// the same operand and result types, that bookkeeping costs several times
// the rewrite itself, and an unrolled kernel has thousands of them: the fmas,
// broadcasts and extracts of its register tile, and the integer arithmetic
// of its addresses and guards (docs/codegen.md, "Compile time"). They are
// made here in their place first; the conversion then takes them for legal
// and gives them the converted values of their operands as it gives any
// other user. The address arithmetic is on `index`, which the conversion
// makes i32 (or i64): the index values are given that type first, where
// every op that makes one is converted by a pattern that reads no more than
// its operands' converted values.
//
//===----------------------------------------------------------------------===//

#include "SPIRVInPlaceConversion.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

/// Whether the conversion of `op` reads no more than the converted values of
/// its operands where it makes `index` results: arith's patterns and
/// GPUToSPIRV's of the ids and sizes convert the result type, which is then
/// kept, and SCFToSPIRV's take the types of a loop's values and an if's
/// results from the converted operands and the converted result types.
static bool makesIndexConvertibly(Operation *op) {
  return isa<arith::ArithDialect>(op->getDialect()) ||
         isa<gpu::ThreadIdOp, gpu::BlockIdOp, gpu::BlockDimOp, gpu::GridDimOp,
             scf::ForOp, scf::IfOp>(op);
}

/// Whether every index value of `kernels` can take the integer type
/// `indexType` before the conversion: each comes from an op that
/// makesIndexConvertibly, or is a loop's counter or carried value, and each
/// index constant fits `indexType` as the conversion requires.
static bool canRetypeIndexValues(gpu::GPUModuleOp kernels,
                                 IntegerType indexType) {
  auto isIndex = [](Type type) {
    return isa<IndexType>(getElementTypeOrSelf(type));
  };
  return !kernels
              .walk([&](Operation *op) {
                if (!isa<scf::ForOp>(op))
                  for (Region &region : op->getRegions())
                    for (Block &block : region)
                      if (llvm::any_of(block.getArgumentTypes(), isIndex))
                        return WalkResult::interrupt();
                if (llvm::none_of(op->getResultTypes(), isIndex))
                  return WalkResult::advance();
                if (!makesIndexConvertibly(op) ||
                    llvm::any_of(op->getResultTypes(), [](Type type) {
                      return isa<ShapedType>(type);
                    }))
                  return WalkResult::interrupt();
                if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
                  const APInt &value =
                      cast<IntegerAttr>(constant.getValue()).getValue();
                  if (!value.isIntN(indexType.getWidth()) &&
                      !value.isSignedIntN(indexType.getWidth()))
                    return WalkResult::interrupt();
                }
                return WalkResult::advance();
              })
              .wasInterrupted();
}

/// Gives every index value of `kernels` the type `indexType` (see
/// canRetypeIndexValues), and drops the casts between index and an integer
/// of its width, which the conversion would replace by their operand.
static void retypeIndexValues(gpu::GPUModuleOp kernels, IntegerType indexType) {
  SmallVector<Operation *> sameWidthCasts;
  kernels.walk([&](Operation *op) {
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument argument : block.getArguments())
          if (argument.getType().isIndex())
            argument.setType(indexType);
    for (OpResult result : op->getResults())
      if (result.getType().isIndex())
        result.setType(indexType);
    if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      auto value = dyn_cast<IntegerAttr>(constant.getValue());
      if (value && value.getType().isIndex())
        constant.setValueAttr(IntegerAttr::get(
            indexType, value.getValue().trunc(indexType.getWidth())));
    }
    if (isa<arith::IndexCastOp, arith::IndexCastUIOp>(op) &&
        op->getOperand(0).getType() == op->getResult(0).getType())
      sameWidthCasts.push_back(op);
  });
  for (Operation *cast : sameWidthCasts) {
    cast->getResult(0).replaceAllUsesWith(cast->getOperand(0));
    cast->erase();
  }
}

/// `T` on `op`'s operands with `op`'s result type, in its place.
template <typename T>
static void replaceWith(IRRewriter &rewriter, Operation *op) {
  rewriter.replaceOpWithNewOp<T>(op, op->getResult(0).getType(),
                                 op->getOperands());
}

/// The spirv op of a comparison of integers (not booleans), as MLIR 19's
/// CmpIOpPattern makes it.
static void replaceComparison(IRRewriter &rewriter, arith::CmpIOp compare) {
  using P = arith::CmpIPredicate;
  switch (compare.getPredicate()) {
  case P::eq:
    return replaceWith<spirv::IEqualOp>(rewriter, compare);
  case P::ne:
    return replaceWith<spirv::INotEqualOp>(rewriter, compare);
  case P::slt:
    return replaceWith<spirv::SLessThanOp>(rewriter, compare);
  case P::sle:
    return replaceWith<spirv::SLessThanEqualOp>(rewriter, compare);
  case P::sgt:
    return replaceWith<spirv::SGreaterThanOp>(rewriter, compare);
  case P::sge:
    return replaceWith<spirv::SGreaterThanEqualOp>(rewriter, compare);
  case P::ult:
    return replaceWith<spirv::ULessThanOp>(rewriter, compare);
  case P::ule:
    return replaceWith<spirv::ULessThanEqualOp>(rewriter, compare);
  case P::ugt:
    return replaceWith<spirv::UGreaterThanOp>(rewriter, compare);
  case P::uge:
    return replaceWith<spirv::UGreaterThanEqualOp>(rewriter, compare);
  }
}

/// Replaces `op` by the spirv op that MLIR 19's arith patterns make of it
/// where that op takes the same types: integer arithmetic (not on booleans,
/// and without the remainder of a signed division, which its pattern
/// expands), bitwise and logical operations, integer comparisons, selects
/// and scalar integer constants; leaves the others to the conversion.
static void replaceArithmetic(IRRewriter &rewriter, Operation *op) {
  Type type = op->getNumResults() == 1 ? op->getResult(0).getType() : Type();
  bool isBoolean =
      op->getNumOperands() > 0 &&
      getElementTypeOrSelf(op->getOperand(0).getType()).isInteger(1);
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    auto value = dyn_cast<IntegerAttr>(constant.getValue());
    if (!value)
      return;
    Attribute attribute = value;
    if (type.isInteger(1))
      attribute = rewriter.getBoolAttr(value.getValue().getBoolValue());
    rewriter.replaceOpWithNewOp<spirv::ConstantOp>(op, type, attribute);
  } else if (auto select = dyn_cast<arith::SelectOp>(op)) {
    if (!isa<VectorType>(select.getCondition().getType()))
      rewriter.replaceOpWithNewOp<spirv::SelectOp>(
          op, type, select.getCondition(), select.getTrueValue(),
          select.getFalseValue());
  } else if (isa<arith::AndIOp>(op)) {
    isBoolean ? replaceWith<spirv::LogicalAndOp>(rewriter, op)
              : replaceWith<spirv::BitwiseAndOp>(rewriter, op);
  } else if (isa<arith::OrIOp>(op)) {
    isBoolean ? replaceWith<spirv::LogicalOrOp>(rewriter, op)
              : replaceWith<spirv::BitwiseOrOp>(rewriter, op);
  } else if (isBoolean) {
    return;
  } else if (auto compare = dyn_cast<arith::CmpIOp>(op)) {
    replaceComparison(rewriter, compare);
  } else if (isa<arith::AddIOp>(op)) {
    replaceWith<spirv::IAddOp>(rewriter, op);
  } else if (isa<arith::SubIOp>(op)) {
    replaceWith<spirv::ISubOp>(rewriter, op);
  } else if (isa<arith::MulIOp>(op)) {
    replaceWith<spirv::IMulOp>(rewriter, op);
  } else if (isa<arith::DivUIOp>(op)) {
    replaceWith<spirv::UDivOp>(rewriter, op);
  } else if (isa<arith::RemUIOp>(op)) {
    replaceWith<spirv::UModOp>(rewriter, op);
  } else if (isa<arith::DivSIOp>(op)) {
    replaceWith<spirv::SDivOp>(rewriter, op);
  }
}

/// Replaces the fma, broadcast of a scalar or extract of a lane at a
/// constant position `op` with the GLSLPattern's GL.Fma
/// (SPIRVConversion.cpp), or the CompositeConstruct or CompositeExtract
/// that MLIR 19's VectorToSPIRV patterns make.
static void replaceVectorOrFma(IRRewriter &rewriter, Operation *op) {
  if (auto fma = dyn_cast<math::FmaOp>(op)) {
    replaceWith<spirv::GLFmaOp>(rewriter, fma);
  } else if (auto broadcast = dyn_cast<vector::BroadcastOp>(op)) {
    if (isa<VectorType>(broadcast.getSourceType()))
      return;
    SmallVector<Value, 4> lanes(
        broadcast.getResultVectorType().getNumElements(),
        broadcast.getSource());
    rewriter.replaceOpWithNewOp<spirv::CompositeConstructOp>(
        broadcast, broadcast.getType(), lanes);
  } else if (auto extract = dyn_cast<vector::ExtractOp>(op)) {
    std::optional<int64_t> lane =
        extract.hasDynamicPosition()
            ? std::nullopt
            : getConstantIntValue(extract.getMixedPosition()[0]);
    if (!lane || extract.getSourceVectorType().getRank() != 1)
      return;
    rewriter.replaceOpWithNewOp<spirv::CompositeExtractOp>(
        extract, extract.getType(), extract.getVector(),
        rewriter.getI32ArrayAttr({static_cast<int32_t>(*lane)}));
  }
}

void tilec::convertOpsInPlace(gpu::GPUModuleOp kernels,
                              const TypeConverter &types,
                              IntegerType indexType) {
  if (canRetypeIndexValues(kernels, indexType))
    retypeIndexValues(kernels, indexType);
  llvm::DenseMap<Type, bool> kept;
  auto isKept = [&](Type type) {
    auto [known, inserted] = kept.try_emplace(type, false);
    if (inserted)
      known->second = types.convertType(type) == type;
    return known->second;
  };
  IRRewriter rewriter(kernels.getContext());
  // The conversion folds an op before it tries the patterns (a select of
  // one value either way is that value, and a constant operand of a sum
  // goes to the right), while the ops before it are still there unconverted
  // (x - y + y is x); so do the folds here, all before any conversion.
  SmallVector<Operation *> arithmetic;
  kernels.walk([&](Operation *op) {
    if (isa<arith::ArithDialect>(op->getDialect()))
      arithmetic.push_back(op);
  });
  for (Operation *op : arithmetic) {
    SmallVector<Value, 1> folded;
    rewriter.setInsertionPoint(op);
    if (succeeded(rewriter.tryFold(op, folded)) && !folded.empty())
      rewriter.replaceOp(op, folded);
  }
  kernels.walk([&](Operation *op) {
    if (!isa<arith::ArithDialect, math::MathDialect, vector::VectorDialect>(
            op->getDialect()) ||
        !llvm::all_of(op->getOperandTypes(), isKept) ||
        !llvm::all_of(op->getResultTypes(), isKept))
      return;
    rewriter.setInsertionPoint(op);
    if (!isa<arith::ArithDialect>(op->getDialect())) {
      replaceVectorOrFma(rewriter, op);
      return;
    }
    replaceArithmetic(rewriter, op);
  });
}
