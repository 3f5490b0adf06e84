//===- OnlineSums.cpp - Sums taken in an earlier reduction's pass ---------===//
//
// Matches the sums a streamed row kernel accumulates in an earlier
// reduction's pass (OnlineSums.h). Both rewrites are exact in real
// arithmetic: exp(a - m) = exp(a - m') * exp(m' - m) for any m', and
// sum (a - c)^2 = M2 + n (mean - c)^2 for any c. In floats an exponential
// term takes the roundings of two exps and a product instead of one exp, a
// few units in the last place of a sum of positive terms; the squares are
// summed about each chunk's mean rather than about c, as accurate as the
// two passes (docs/scheduler.md).
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

namespace {

/// The ops of a row kernel in program order, and what they need.
class KernelOps {
public:
  KernelOps(ArrayRef<Operation *> ops, RankedTensorType rowType)
      : ops(ops), rowType(rowType) {
    for (auto [i, op] : llvm::enumerate(ops))
      position[op] = i;
  }

  /// The elementwise op of `kind` over the rows that defines `value` in the
  /// kernel, or null.
  tile::ElementwiseOp getOverRows(Value value,
                                  tile::ElementwiseKind kind) const {
    auto op = value.getDefiningOp<tile::ElementwiseOp>();
    if (!op || op.getKind() != kind || !position.count(op) ||
        !isOverRows(op, rowType))
      return nullptr;
    return op;
  }

  /// Whether `value` is computed at the elements from values known before
  /// `op`: every op of the kernel it needs is over the rows or comes before
  /// `op`.
  bool isKnownBefore(Value value, Operation *op) const {
    size_t limit = position.lookup(op);
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
  }

  /// Whether `value` is a per-row value the kernel computes.
  bool isPerRow(Value value) const {
    Operation *producer = value.getDefiningOp();
    return producer && position.count(producer) &&
           cast<RankedTensorType>(value.getType()).getShape() !=
               rowType.getShape();
  }

  ArrayRef<Operation *> ops;
  RankedTensorType rowType;
  llvm::DenseMap<Operation *, size_t> position;
};

} // namespace

/// The sums of exp(a - max) of `kernel`, each maximum and each sum in at most
/// one.
static SmallVector<OnlineSum> findSumsOfExponentials(const KernelOps &kernel) {
  SmallVector<OnlineSum> found;
  llvm::DenseSet<Operation *> paired;
  for (auto [i, op] : llvm::enumerate(kernel.ops)) {
    auto max = dyn_cast<tile::ContractOp>(op);
    if (!max || !isPlainReduction(max, tile::AggregationKind::Max))
      continue;
    OnlineSum online;
    online.max = max;
    online.maxValues.push_back(max.getResult());
    for (Operation *later : kernel.ops.drop_front(i + 1)) {
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
      auto exp =
          kernel.getOverRows(sum.getInputs()[0], tile::ElementwiseKind::Exp);
      auto difference = exp ? kernel.getOverRows(exp.getOperands()[0],
                                                 tile::ElementwiseKind::Sub)
                            : nullptr;
      if (!difference ||
          !llvm::is_contained(online.maxValues, difference.getOperands()[1]) ||
          !kernel.isKnownBefore(difference.getOperands()[0], max))
        continue;
      online.sum = sum;
      paired.insert(sum);
      found.push_back(std::move(online));
      break;
    }
  }
  return found;
}

/// The value `sum` squares and adds, of its own type: D of
/// `+(D[i, j] * D[i, j])` or of `+(E[i, j])` with `E = D * D`, or null.
static Value getSquared(const KernelOps &kernel, tile::ContractOp sum) {
  Type type = sum.getType().getElementType();
  if (sum.getAggregation() != tile::AggregationKind::Add || sum.getInit() ||
      !(type.isF32() || type.isF64()))
    return nullptr;
  ValueRange inputs = sum.getInputs();
  Value squared;
  if (sum.getCombination() == tile::CombinationKind::Mul &&
      inputs.size() == 2 && inputs[0] == inputs[1]) {
    squared = inputs[0];
  } else if (isPlainReduction(sum, tile::AggregationKind::Add)) {
    auto square = kernel.getOverRows(inputs[0], tile::ElementwiseKind::Mul);
    if (square && square.getOperands()[0] == square.getOperands()[1])
      squared = square.getOperands()[0];
  }
  if (!squared ||
      cast<RankedTensorType>(squared.getType()).getElementType() != type)
    return nullptr;
  return squared;
}

/// The sums of squared differences from a per-row value of `kernel`, each
/// in the pass of the first earlier reduction that is not in `taken` and
/// knows the value centred; the sums join `taken`.
static SmallVector<OnlineSquareSum>
findSumsOfSquares(const KernelOps &kernel, llvm::DenseSet<Operation *> &taken) {
  SmallVector<OnlineSquareSum> found;
  for (auto [i, op] : llvm::enumerate(kernel.ops)) {
    auto sum = dyn_cast<tile::ContractOp>(op);
    if (!sum || taken.count(sum))
      continue;
    Value squared = getSquared(kernel, sum);
    auto difference =
        squared ? kernel.getOverRows(squared, tile::ElementwiseKind::Sub)
                : nullptr;
    if (!difference)
      continue;
    OnlineSquareSum online;
    online.sum = sum;
    for (unsigned side : {0, 1}) {
      Value centred = difference.getOperands()[side];
      Value centre = difference.getOperands()[1 - side];
      if (!kernel.isPerRow(centre) ||
          cast<RankedTensorType>(centred.getType()) !=
              cast<RankedTensorType>(squared.getType()))
        continue;
      online.centred = centred;
      online.centre = centre;
    }
    if (!online.centred)
      continue;
    for (Operation *earlier : kernel.ops.take_front(i)) {
      auto host = dyn_cast<tile::ContractOp>(earlier);
      if (!host || taken.count(host) ||
          !kernel.isKnownBefore(online.centred, host))
        continue;
      online.host = host;
      taken.insert(sum);
      found.push_back(online);
      break;
    }
  }
  return found;
}

OnlineSums lowering::findOnlineSums(ArrayRef<Operation *> ops,
                                    RankedTensorType rowType) {
  KernelOps kernel(ops, rowType);
  OnlineSums found;
  found.ofExponentials = findSumsOfExponentials(kernel);
  llvm::DenseSet<Operation *> taken;
  for (const OnlineSum &online : found.ofExponentials) {
    taken.insert(online.max);
    taken.insert(online.sum);
  }
  found.ofSquares = findSumsOfSquares(kernel, taken);
  return found;
}
