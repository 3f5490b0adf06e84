//===- OnlineSums.cpp - Sums of exponentials in their maximum's pass ------===//
//
// Matches the sums a streamed row kernel accumulates in their maximum's
// pass (OnlineSums.h). The rescaling is exact in real arithmetic:
// exp(a - m) = exp(a - m') * exp(m' - m) for any m'; in floats each term
// takes the roundings of two exps and a product instead of one exp, a few
// units in the last place of a sum of positive terms, within the e2e
// suite's relative tolerances (docs/scheduler.md).
//
//===----------------------------------------------------------------------===//

#include "KernelBodies/OnlineSums.h"
#include "KernelBodies/KernelBodies.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::lowering;

/// A plain row reduction of one input, of an f32 or f64 result.
static bool isPlainReduction(tile::ContractOp op,
                             tile::AggregationKind aggregation) {
  Type type = op.getType().getElementType();
  return op.getAggregation() == aggregation &&
         op.getCombination() == tile::CombinationKind::None &&
         op.getInputs().size() == 1 && !op.getInit() &&
         (type.isF32() || type.isF64());
}

/// The elementwise op of `kind` over the rows that defines `value` in the
/// kernel, or null.
static tile::ElementwiseOp
getOverRows(Value value, tile::ElementwiseKind kind,
            const llvm::DenseMap<Operation *, size_t> &position,
            RankedTensorType rowType) {
  auto op = value.getDefiningOp<tile::ElementwiseOp>();
  if (!op || op.getKind() != kind || !position.count(op) ||
      !isOverRows(op, rowType))
    return nullptr;
  return op;
}

SmallVector<OnlineSum> lowering::findOnlineSums(ArrayRef<Operation *> ops,
                                                RankedTensorType rowType) {
  llvm::DenseMap<Operation *, size_t> position;
  for (auto [i, op] : llvm::enumerate(ops))
    position[op] = i;
  // Whether `value` is computed at the elements from values known before
  // the op at `limit`: every op of the kernel it needs is over the rows or
  // comes before `limit`.
  auto knownBefore = [&](Value value, size_t limit) {
    SmallVector<Value> pending = {value};
    llvm::DenseSet<Operation *> seen;
    while (!pending.empty()) {
      Operation *producer = pending.pop_back_val().getDefiningOp();
      if (!producer || !position.count(producer) ||
          !seen.insert(producer).second)
        continue;
      if (!isOverRows(producer, rowType)) {
        if (position.lookup(producer) >= limit)
          return false;
        continue;
      }
      llvm::append_range(pending, producer->getOperands());
    }
    return true;
  };

  SmallVector<OnlineSum> found;
  llvm::DenseSet<Operation *> paired;
  for (Operation *op : ops) {
    auto max = dyn_cast<tile::ContractOp>(op);
    if (!max || !isPlainReduction(max, tile::AggregationKind::Max))
      continue;
    OnlineSum online;
    online.max = max;
    online.maxValues.push_back(max.getResult());
    for (Operation *later : ops.drop_front(position.lookup(op) + 1)) {
      if (auto reshape = dyn_cast<tile::ReshapeOp>(later)) {
        if (llvm::is_contained(online.maxValues, reshape.getInput()))
          online.maxValues.push_back(reshape.getResult());
        continue;
      }
      auto sum = dyn_cast<tile::ContractOp>(later);
      if (!sum || paired.count(sum) ||
          !isPlainReduction(sum, tile::AggregationKind::Add) ||
          sum.getType().getElementType() != max.getType().getElementType())
        continue;
      auto exp = getOverRows(sum.getInputs()[0], tile::ElementwiseKind::Exp,
                             position, rowType);
      auto difference =
          exp ? getOverRows(exp.getOperands()[0], tile::ElementwiseKind::Sub,
                            position, rowType)
              : nullptr;
      if (!difference ||
          !llvm::is_contained(online.maxValues, difference.getOperands()[1]) ||
          !knownBefore(difference.getOperands()[0], position.lookup(op)))
        continue;
      online.sum = sum;
      paired.insert(sum);
      found.push_back(std::move(online));
      break;
    }
  }
  return found;
}
