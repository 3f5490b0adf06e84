//===- RowFusion.cpp - Finding the chains that run as row kernels ---------===//
//
// A chain starts at a reduction over the last axis of an `[M, N]` tensor,
// `R[i : M] = AGG(X[i, j])` (or of a product or sum of two such tensors), and
// takes, in program order, every later op that reads one of its values and
// whose other operands are ready when it starts:
// - reshapes of its per-row values between `[M]` and `[M, 1]`;
// - further reductions over the same rows;
// - elementwise ops over `[M, N]` (its per-row values broadcast as `[M, 1]`)
//   and over the rows (`[M]` or `[M, 1]`).
// It is a row kernel when one of its `[M, N]` ops reads a per-row value,
// i.e. a reduction's result is broadcast back over the rows (a lone row
// reduction keeps the reduction schedules), and a row fits on chip.
//
//===----------------------------------------------------------------------===//

#include "Formation/RowFusion.h"

#include "tilec/Lowering/KernelFormation.h"
#include "tilec/Lowering/Schedule.h"

#include "KernelBodies/KernelEmitter.h"

#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::lowering;

/// Whether result `result` of `map` is exactly dimension `dim`.
static bool isDim(tile::RationalMapAttr map, unsigned result, unsigned dim) {
  for (unsigned d = 0; d < map.getNumDims(); ++d)
    if (map.getCoefficient(result, d) != Rational{d == dim ? 1 : 0, 1})
      return false;
  return map.getConstant(result).isZero();
}

/// The `[M, N]` rows `op` reduces when it is `R[i] = AGG(X[i, j] ...)`: no
/// default, no constraint, `+ * > <` of one input, a product or a sum of
/// two, over non-bool tensors.
static std::optional<RankedTensorType> getReducedRows(tile::ContractOp op) {
  using tile::AggregationKind;
  using tile::CombinationKind;
  AggregationKind aggregation = op.getAggregation();
  CombinationKind combination = op.getCombination();
  if (aggregation == AggregationKind::Assign || op.getInit() ||
      op.getConstraints() || op.getIndexNames().size() != 2)
    return std::nullopt;
  size_t inputs = op.getInputs().size();
  if (!((combination == CombinationKind::None && inputs == 1) ||
        ((combination == CombinationKind::Mul ||
          combination == CombinationKind::Add) &&
         inputs == 2)))
    return std::nullopt;
  RankedTensorType result = op.getType();
  if (result.getRank() != 1 || result.getElementType().isInteger(1))
    return std::nullopt;
  tile::RationalMapAttr output = op.getOutputMap();
  if (output.getNumResults() != 1 || !isDim(output, 0, 0))
    return std::nullopt;
  auto rows = cast<RankedTensorType>(op.getInputs()[0].getType());
  if (rows.getRank() != 2 || rows.getDimSize(0) != result.getDimSize(0) ||
      rows.getNumElements() == 0)
    return std::nullopt;
  for (auto [input, mapAttr] :
       llvm::zip(op.getInputs(),
                 op.getInputMaps().getAsRange<tile::RationalMapAttr>())) {
    if (cast<RankedTensorType>(input.getType()) != rows ||
        mapAttr.getNumResults() != 2 || !isDim(mapAttr, 0, 0) ||
        !isDim(mapAttr, 1, 1))
      return std::nullopt;
  }
  return rows;
}

namespace {

/// Grows one chain from its reduction.
class ChainBuilder {
public:
  ChainBuilder(Operation *start, RankedTensorType rows,
               const llvm::DenseMap<Operation *, unsigned> &position)
      : start(start), rows(rows), position(position) {}

  /// Adds `op` when it belongs to the chain.
  void tryAdd(Operation *op);
  /// Whether an `[M, N]` op reads a per-row value: the pattern.
  bool broadcastsBack() const { return broadcast; }
  /// Whether every value of the chain that a later op outside it reads has
  /// a buffer of its own (not a reshape of a per-row value).
  bool reshapesStayInside() const;

  SmallVector<Operation *> ops;

private:
  enum class Kind { None, Full, PerRow };
  Kind getKind(Value value) const {
    auto it = kinds.find(value);
    return it == kinds.end() ? Kind::None : it->second;
  }
  /// A value outside the chain that is ready before it starts.
  bool isReady(Value value) const;
  ArrayRef<int64_t> getShape(Value value) const {
    return cast<RankedTensorType>(value.getType()).getShape();
  }
  bool isPerRowShape(ArrayRef<int64_t> shape) const {
    int64_t m = rows.getDimSize(0);
    return shape == ArrayRef<int64_t>{m} || shape == ArrayRef<int64_t>{m, 1};
  }

  Operation *start;
  RankedTensorType rows;
  const llvm::DenseMap<Operation *, unsigned> &position;
  llvm::DenseMap<Value, Kind> kinds;
  bool broadcast = false;
};

} // namespace

bool ChainBuilder::isReady(Value value) const {
  Operation *producer = value.getDefiningOp();
  if (!producer || isGenerator(producer))
    return true;
  return position.lookup(producer) < position.lookup(start);
}

void ChainBuilder::tryAdd(Operation *op) {
  if (op->getNumResults() != 1)
    return;
  bool readsChain = false;
  for (Value operand : op->getOperands()) {
    if (getKind(operand) != Kind::None)
      readsChain = true;
    else if (!isReady(operand))
      return;
  }
  if (op != start && !readsChain)
    return;
  Value result = op->getResult(0);
  ArrayRef<int64_t> shape = getShape(result);
  if (auto contract = dyn_cast<tile::ContractOp>(op)) {
    std::optional<RankedTensorType> reduced = getReducedRows(contract);
    if (!reduced || *reduced != rows)
      return;
    for (Value input : contract.getInputs())
      if (getKind(input) == Kind::PerRow)
        return;
    kinds[result] = Kind::PerRow;
  } else if (isa<tile::ReshapeOp>(op)) {
    if (!isPerRowShape(shape) || getKind(op->getOperand(0)) != Kind::PerRow)
      return;
    kinds[result] = Kind::PerRow;
  } else if (isa<tile::ElementwiseOp, tile::CastOp>(op)) {
    bool full = shape == rows.getShape();
    if (!full && !isPerRowShape(shape))
      return;
    bool readsPerRow = false;
    for (Value operand : op->getOperands()) {
      Kind kind = getKind(operand);
      if (kind == Kind::Full && !full)
        return;
      if (kind != Kind::PerRow)
        continue;
      // Over the rows a per-row value broadcasts as [M, 1] only; over the
      // per-row values it has the result's shape.
      if (full ? getShape(operand) != ArrayRef<int64_t>{rows.getDimSize(0), 1}
               : getShape(operand) != shape)
        return;
      readsPerRow = true;
    }
    broadcast |= full && readsPerRow;
    kinds[result] = full ? Kind::Full : Kind::PerRow;
  } else {
    return;
  }
  ops.push_back(op);
}

bool ChainBuilder::reshapesStayInside() const {
  llvm::DenseSet<Operation *> inside(ops.begin(), ops.end());
  for (Operation *op : ops)
    if (isa<tile::ReshapeOp>(op))
      for (Operation *user : op->getUsers())
        if (!inside.count(user))
          return false;
  return true;
}

/// Why the tensors of a row kernel over `rows` cannot be whole buffers of
/// `profile`, if so: split tensors keep the kernels of the other schedules,
/// which run in chunks.
static std::optional<std::string> whyTooLarge(RankedTensorType rows,
                                              const DeviceProfile &profile) {
  MemRefType buffer = getBufferType(rows);
  uint64_t bytes = uint64_t(buffer.getNumElements()) *
                   std::max<unsigned>(1, buffer.getElementTypeBitWidth() / 8);
  if (!profile.maxAllocBytes || bytes <= profile.maxAllocBytes)
    return std::nullopt;
  return "its rows need " + std::to_string(bytes) +
         " bytes, more than one buffer of the device holds (" +
         std::to_string(profile.maxAllocBytes) +
         "): the split tensor's kernels run in chunks";
}

std::vector<RowChain> lowering::findRowChains(func::FuncOp function,
                                              const DeviceProfile &profile) {
  Block &body = function.getBody().front();
  llvm::DenseMap<Operation *, unsigned> position;
  for (Operation &op : body)
    position[&op] = position.size();
  std::vector<RowChain> chains;
  llvm::DenseSet<Operation *> claimed;
  for (Operation &startOp : body.without_terminator()) {
    auto contract = dyn_cast<tile::ContractOp>(startOp);
    if (!contract || claimed.count(&startOp))
      continue;
    std::optional<RankedTensorType> rows = getReducedRows(contract);
    if (!rows)
      continue;
    ChainBuilder builder(&startOp, *rows, position);
    for (Operation &op : llvm::make_range(startOp.getIterator(),
                                          body.without_terminator().end()))
      if (!claimed.count(&op))
        builder.tryAdd(&op);
    if (!builder.broadcastsBack() || !builder.reshapesStayInside())
      continue;
    RowChain chain;
    chain.ops = std::move(builder.ops);
    chain.rowType = *rows;
    RowWork work = getRowWork(chain.ops, *rows);
    if (std::optional<std::string> why = whyTooLarge(*rows, profile))
      chain.whyNotFused = *why;
    else if (!scheduleRow(work, profile, chain.whyNotFused))
      assert(!chain.whyNotFused.empty() && "scheduleRow says why not");
    if (chain.whyNotFused.empty())
      claimed.insert(chain.ops.begin(), chain.ops.end());
    chains.push_back(std::move(chain));
  }
  return chains;
}
