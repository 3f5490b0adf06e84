//===- SPIRVUnsignedDivisions.cpp - Non-negative divisions unsigned -------===//
//
// The kernel IR divides coordinates with arith.divsi and arith.remsi (the
// OpenCL C's int / and %), though work-item and group ids, loop counters
// from them and the coordinates of an index space are never negative. A
// signed division by a constant costs the driver a sign correction that an
// unsigned one does not (a power of two: a shift and a mask instead of four
// instructions; 56: a multiply-high and a shift instead of five), and
// SPIR-V's OpSDiv and MLIR's expansion of remsi leave it to the driver to
// prove what OpenCL C's compiler proves from the ids' known ranges. Where
// MLIR's integer range analysis proves both operands non-negative, the
// quotient and remainder are the unsigned ones, exactly.
//
// The ranges are those of MLIR's integer range analysis, asked for on demand:
// each op's InferIntRangeInterface from its operands' ranges, a loop
// counter's from its bounds, as IntegerRangeAnalysis computes them. Only the
// divisions' operands and what they are computed from are visited, where
// the dataflow solver, with the dead code analysis and the constant
// propagation it needs, visited every op of the kernels: 15% of a
// convolution's translation (docs/codegen.md, "Compile time"). A value
// carried by a loop, or a result of a region op other than `scf.if`, gets
// the range of its type.
//
// The analysis computes `index` in 64 bits; the SPIR-V module computes it in
// the module's tile.index_bits, in which all index arithmetic of the kernels
// fits (docs/kernel-ir.md, "The module"), so the ranges hold there too.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/SPIRV/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/Interfaces/InferIntRangeInterface.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

namespace tilec {
#define GEN_PASS_DEF_SPIRVUNSIGNEDDIVISIONSPASS
#include "tilec/Target/SPIRV/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;

namespace {
/// The signed and unsigned ranges of integer values, each computed once,
/// when first asked for.
class IntegerRanges {
public:
  ConstantIntRanges of(Value value) {
    if (auto found = ranges.find(value); found != ranges.end())
      return found->second;
    ConstantIntRanges range = compute(value);
    ranges.try_emplace(value, range);
    return range;
  }

private:
  static ConstantIntRanges unknown(Value value) {
    return ConstantIntRanges::maxRange(
        ConstantIntRanges::getStorageBitwidth(value.getType()));
  }

  ConstantIntRanges compute(Value value) {
    if (auto argument = dyn_cast<BlockArgument>(value))
      return ofArgument(argument);
    Operation *op = value.getDefiningOp();
    if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
      unsigned index = cast<OpResult>(value).getResultNumber();
      if (ifOp.getElseRegion().empty())
        return unknown(value);
      return of(ifOp.thenYield().getOperand(index))
          .rangeUnion(of(ifOp.elseYield().getOperand(index)));
    }
    auto inferring = dyn_cast<InferIntRangeInterface>(op);
    auto isInteger = [](Value v) { return v.getType().isIntOrIndex(); };
    if (!inferring || !llvm::all_of(op->getOperands(), isInteger) ||
        !llvm::all_of(op->getResults(), isInteger))
      return unknown(value);
    SmallVector<ConstantIntRanges> operands;
    for (Value operand : op->getOperands())
      operands.push_back(of(operand));
    ConstantIntRanges result = unknown(value);
    inferring.inferResultRanges(
        operands, [&](Value inferred, const ConstantIntRanges &range) {
          if (inferred == value)
            result = range;
          else
            ranges.try_emplace(inferred, range);
        });
    return result;
  }

  /// A loop's counter lies between its bounds, from a lower bound's least
  /// to an upper bound's greatest value less one (the other way round for a
  /// negative step), as the analysis has it.
  ConstantIntRanges ofArgument(BlockArgument argument) {
    auto loop =
        dyn_cast<LoopLikeOpInterface>(argument.getOwner()->getParentOp());
    if (!loop || loop.getSingleInductionVar() != argument)
      return unknown(argument);
    std::optional<OpFoldResult> lower = loop.getSingleLowerBound();
    std::optional<OpFoldResult> upper = loop.getSingleUpperBound();
    std::optional<OpFoldResult> step = loop.getSingleStep();
    if (!lower || !upper || !step)
      return unknown(argument);
    unsigned width = ConstantIntRanges::getStorageBitwidth(argument.getType());
    auto bound = [&](OpFoldResult fold, bool greatest) {
      if (auto attr = dyn_cast_if_present<IntegerAttr>(
              dyn_cast_if_present<Attribute>(fold)))
        return attr.getValue();
      if (auto value = dyn_cast_if_present<Value>(fold)) {
        ConstantIntRanges range = of(value);
        return greatest ? range.smax() : range.smin();
      }
      return greatest ? APInt::getSignedMaxValue(width)
                      : APInt::getSignedMinValue(width);
    };
    APInt min = bound(*lower, false), max = bound(*upper, true);
    if (bound(*step, true).isNegative())
      std::swap(min, max);
    else
      max -= 1;
    if (max.slt(min))
      return unknown(argument);
    return ConstantIntRanges::fromSigned(min, max);
  }

  llvm::DenseMap<Value, ConstantIntRanges> ranges;
};
} // namespace

/// Replaces `op` (a signed division or remainder of non-negative operands)
/// with its unsigned `Unsigned`.
template <typename Unsigned> static void replaceWithUnsigned(Operation *op) {
  ImplicitLocOpBuilder b(op->getLoc(), op);
  Value result = b.create<Unsigned>(op->getOperand(0), op->getOperand(1));
  op->getResult(0).replaceAllUsesWith(result);
  op->erase();
}

namespace {
struct SPIRVUnsignedDivisionsPass
    : tilec::impl::SPIRVUnsignedDivisionsPassBase<SPIRVUnsignedDivisionsPass> {
  void runOnOperation() override {
    IntegerRanges ranges;
    SmallVector<Operation *> divisions;
    getOperation().walk([&](Operation *op) {
      if (isa<arith::DivSIOp, arith::RemSIOp>(op) &&
          llvm::all_of(op->getOperands(), [&](Value operand) {
            return ranges.of(operand).smin().isNonNegative();
          }))
        divisions.push_back(op);
    });
    for (Operation *division : divisions) {
      if (isa<arith::DivSIOp>(division))
        replaceWithUnsigned<arith::DivUIOp>(division);
      else
        replaceWithUnsigned<arith::RemUIOp>(division);
    }
  }
};
} // namespace
