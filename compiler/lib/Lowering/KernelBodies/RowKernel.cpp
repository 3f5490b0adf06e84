//===- RowKernel.cpp - Reductions over rows and their consumers -----------===//
//
// The body of a row kernel (docs/scheduler.md, "Row kernels"): a work-group
// takes `rowsPerGroup` rows at a time, `lanes` work-items per row. Lane l
// holds the elements l, l + lanes, ... of its row (`rowSteps` of them,
// unrolled, so they stay in registers), and the kernel's ops run in program
// order over them:
// - an op over the rows computes at each held element;
// - a reduction aggregates the lane's elements (those past the row's end
//   add nothing), stores the partial in local memory, combines the row's
//   lanes by a tree and reads the row's total back in every lane;
// - an op over the per-row values computes once per lane.
// Each buffer is read once and each stored value written once; the
// work-groups walk the blocks of rows. Every work-item reaches every
// barrier: rows past the end compute on the last row and store nothing.
//
//===----------------------------------------------------------------------===//

#include "KernelBodies/KernelBodies.h"
#include "KernelBodies/LocalTree.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <memory>

using namespace mlir;
using namespace tilec;
using namespace tilec::lowering;

namespace {

/// A reduction's aggregate and its partials in local memory.
struct RowReduction {
  std::unique_ptr<Aggregator> aggregator;
  std::unique_ptr<PartialArrays> partials;
};

class RowKernelEmitter {
public:
  explicit RowKernelEmitter(KernelContext &context)
      : context(context), b(context.builder), loc(context.loc), index(b, loc),
        schedule(context.schedule) {
    rowLength = context.group.type.getDimSize(1);
    lanes = schedule.localSize[0] / schedule.rowsPerGroup;
    rows = schedule.activeItems / lanes;
  }

  void emit();

private:
  /// The body of one block of rows, row `row` of the kernel's (relative to
  /// its first row) in this work-item's part.
  void emitBlock(Value row);
  void emitReduction(tile::ContractOp op, RowReduction &reduction);
  void emitPerRowOp(Operation *op);
  void defineRowValue(Value value, Value scalar);
  void emitStores(Value rowValid);

  KernelContext &context;
  OpBuilder &b;
  Location loc;
  IndexBuilder index;
  const Schedule &schedule;
  int64_t rowLength = 0, lanes = 0, rows = 0;

  llvm::DenseMap<Operation *, RowReduction> reductions;
  Value lane, slot, globalRow;
  /// Per held element: its evaluator and whether it lies inside the row
  /// (null when every lane's element does).
  std::vector<std::unique_ptr<ElementEvaluator>> elements;
  SmallVector<Value> columns, insideRow;
  llvm::DenseMap<Value, Value> rowValues;
};

} // namespace

void RowKernelEmitter::defineRowValue(Value value, Value scalar) {
  rowValues[value] = scalar;
  for (auto &element : elements)
    element->define(value, scalar);
}

void RowKernelEmitter::emitReduction(tile::ContractOp op,
                                     RowReduction &reduction) {
  Aggregator &aggregator = *reduction.aggregator;
  Type resultType = op.getType().getElementType();
  Type computeType = aggregator.getType();
  SmallVector<Value> state =
      aggregator.start(emitIdentity(b, loc, op.getAggregation(), resultType));
  for (auto [step, element] : llvm::enumerate(elements)) {
    SmallVector<Value> values;
    SmallVector<Type> types;
    for (Value input : op.getInputs()) {
      values.push_back(element->get(input));
      types.push_back(cast<RankedTensorType>(input.getType()).getElementType());
    }
    SmallVector<Value> next;
    switch (op.getCombination()) {
    case tile::CombinationKind::Mul:
      next = aggregator.addProduct(state, values[0], values[1]);
      break;
    case tile::CombinationKind::Add:
      next = aggregator.add(state,
                            emitElementwise(b, loc, tile::ElementwiseKind::Add,
                                            values, types, computeType));
      break;
    default:
      next = aggregator.add(state, values[0]);
      break;
    }
    // An element past the row's end adds nothing.
    if (Value inside = insideRow[step])
      for (auto [value, old] : llvm::zip(next, state))
        value = b.create<arith::SelectOp>(loc, inside, value, old);
    state = next;
  }
  Value item = b.create<gpu::ThreadIdOp>(loc, gpu::Dimension::x);
  reduction.partials->store(state, item);
  Value first = index.mul(slot, lanes);
  emitTree(b, loc, index, aggregator, *reduction.partials, lane, lanes,
           /*stride=*/1, first);
  b.create<gpu::BarrierOp>(loc);
  Value total = aggregator.finish(reduction.partials->load(first));
  defineRowValue(op.getResult(), emitRound(b, loc, total, resultType));
}

void RowKernelEmitter::emitPerRowOp(Operation *op) {
  Value result = op->getResult(0);
  if (auto reshape = dyn_cast<tile::ReshapeOp>(op)) {
    defineRowValue(result, rowValues.lookup(reshape.getInput()));
    return;
  }
  auto type = cast<RankedTensorType>(result.getType());
  SmallVector<Value> coords = {globalRow};
  if (type.getRank() == 2)
    coords.push_back(index.constant(0));
  ElementEvaluator evaluator(index, type.getShape(), coords, context.bufferOf);
  for (auto [value, scalar] : rowValues)
    evaluator.define(value, scalar);
  evaluator.compute(op);
  defineRowValue(result, evaluator.get(result));
}

void RowKernelEmitter::emitStores(Value rowValid) {
  ArrayRef<int64_t> shape = context.group.type.getShape();
  for (Value value : context.group.stored) {
    auto type = cast<RankedTensorType>(value.getType());
    Type elementType = type.getElementType();
    Value buffer = context.bufferOf(value);
    if (type.getShape() != shape) {
      // One element per row: its first lane stores it.
      Value firstLane =
          index.cmp(arith::CmpIPredicate::eq, lane, index.constant(0));
      auto guard = enterIf(
          b, loc, rowValid ? index.land(rowValid, firstLane) : firstLane);
      emitStore(b, loc, rowValues.lookup(value), buffer, globalRow,
                elementType);
      continue;
    }
    for (auto [step, element] : llvm::enumerate(elements)) {
      Value scalar = element->get(value);
      Value guardCondition = rowValid;
      if (Value inside = insideRow[step])
        guardCondition =
            guardCondition ? index.land(guardCondition, inside) : inside;
      Value position =
          index.add(index.mul(globalRow, rowLength), columns[step]);
      if (!guardCondition) {
        emitStore(b, loc, scalar, buffer, position, elementType);
        continue;
      }
      auto guard = enterIf(b, loc, guardCondition);
      emitStore(b, loc, scalar, buffer, position, elementType);
    }
  }
}

void RowKernelEmitter::emitBlock(Value row) {
  // Rows past the kernel's compute on its last row and store nothing.
  Value rowValid;
  if (rows % schedule.rowsPerGroup != 0) {
    rowValid = index.lessThan(row, rows);
    row = b.createOrFold<arith::MinSIOp>(loc, row, index.constant(rows - 1));
  }
  globalRow = index.add(row, index.constant(context.firstRow));
  ArrayRef<int64_t> shape = context.group.type.getShape();
  elements.clear();
  columns.clear();
  insideRow.clear();
  rowValues.clear();
  for (int64_t step = 0; step < schedule.rowSteps; ++step) {
    Value column = index.add(index.constant(step * lanes), lane);
    Value inside;
    // Only the last step can reach past the row's end.
    if ((step + 1) * lanes > rowLength) {
      inside = index.lessThan(column, rowLength);
      column = b.createOrFold<arith::MinSIOp>(loc, column,
                                              index.constant(rowLength - 1));
    }
    columns.push_back(column);
    insideRow.push_back(inside);
    elements.push_back(std::make_unique<ElementEvaluator>(
        index, shape, ArrayRef<Value>{globalRow, column}, context.bufferOf));
  }
  for (Operation *op : context.group.ops) {
    if (auto contract = dyn_cast<tile::ContractOp>(op)) {
      emitReduction(contract, reductions[op]);
      continue;
    }
    // With rows of one element, [M, 1] is both the rows' shape and the
    // per-row one: a reshape is always per row.
    if (!isa<tile::ReshapeOp>(op) &&
        cast<RankedTensorType>(op->getResult(0).getType()).getShape() ==
            shape) {
      for (auto &element : elements)
        element->compute(op);
      continue;
    }
    emitPerRowOp(op);
  }
  emitStores(rowValid);
  // The next block's partials overwrite this block's totals.
  b.create<gpu::BarrierOp>(loc);
}

void RowKernelEmitter::emit() {
  // Workgroup memory comes first in the kernel (docs/kernel-ir.md).
  for (Operation *op : context.group.ops) {
    auto contract = dyn_cast<tile::ContractOp>(op);
    if (!contract)
      continue;
    Type resultType = contract.getType().getElementType();
    bool compensated =
        schedule.compensated &&
        contract.getAggregation() == tile::AggregationKind::Add &&
        isa<FloatType>(getComputeType(resultType));
    RowReduction &reduction = reductions[op];
    reduction.aggregator = std::make_unique<Aggregator>(
        b, loc, contract.getAggregation(), resultType, compensated);
    reduction.partials = std::make_unique<PartialArrays>(
        b, loc, *reduction.aggregator, schedule.localSize[0]);
  }
  Value item = b.create<gpu::ThreadIdOp>(loc, gpu::Dimension::x);
  SmallVector<Value> parts =
      index.delinearize(item, {schedule.rowsPerGroup, lanes});
  slot = parts[0];
  lane = parts[1];
  // The work-groups walk the blocks of rows; the trip count depends on the
  // work-group only, so the barriers inside stay uniform.
  int64_t blocks = llvm::divideCeil(rows, schedule.rowsPerGroup);
  Value group = b.create<gpu::BlockIdOp>(loc, gpu::Dimension::x);
  Value step = index.constant(schedule.numGroups[0]);
  auto loop = b.create<scf::ForOp>(loc, group, index.constant(blocks), step);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  emitBlock(index.add(index.mul(loop.getInductionVar(), schedule.rowsPerGroup),
                      slot));
}

void lowering::emitRowKernel(KernelContext &context) {
  RowKernelEmitter(context).emit();
}
