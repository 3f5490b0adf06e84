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
// Each buffer is read once and each stored value written once; each
// work-group takes a block of rows, or walks them where the device allows
// fewer work-groups than blocks. Every work-item reaches every
// barrier: rows past the end compute on the last row and store nothing.
//
// A streamed row (`rowChunks` above 1) is too long for the registers: each
// reduction loops over the row's chunks (`rowSteps` elements per lane each),
// computing the elementwise ops it needs from the inputs, and a last loop
// computes every elementwise op again and stores the results. The per-row
// ops run between the loops, as above. A sum of exp(a - max) after the row's
// maximum accumulates in the maximum's loop (OnlineSums.h).
//
//===----------------------------------------------------------------------===//

#include "KernelBodies/KernelBodies.h"
#include "KernelBodies/LocalTree.h"
#include "KernelBodies/OnlineSums.h"

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
  /// The evaluators of the elements this lane takes: all of its row's, or
  /// those of chunk `chunk` of a streamed row.
  void makeElements(Value chunk);
  /// `op`'s aggregate of the elements, from `state`.
  SmallVector<Value> aggregateElements(tile::ContractOp op,
                                       RowReduction &reduction,
                                       ValueRange state);
  /// Combines the lanes' aggregates `state` of `op` by the tree and defines
  /// the row's total.
  void combineLanes(tile::ContractOp op, RowReduction &reduction,
                    ValueRange state);
  void emitReduction(tile::ContractOp op, RowReduction &reduction);
  void emitStreamedReduction(tile::ContractOp op, RowReduction &reduction);
  /// A loop over a streamed row's chunks that carries `initial`: `step`
  /// makes the chunk's elements' next values from the carried ones.
  scf::ForOp
  createChunkLoop(ValueRange initial,
                  llvm::function_ref<SmallVector<Value>(ValueRange)> step);
  /// The loop of a streamed row that takes `online`'s maximum and its sum
  /// together, then the maximum's tree; the sum's lane aggregates, rescaled
  /// to the row's maximum, wait in `laneSums` for the sum's tree.
  void emitOnlineReductions(const OnlineSum &online);
  /// exp(from - to) in `type`, or 1 where from == to (both infinite
  /// included, whose difference would be NaN).
  Value getRescaling(Value from, Value to, Type type);
  /// The maximum a lane's terms are taken against: its running maximum,
  /// or the lowest finite value while that is -inf (every element so far
  /// -inf, as in a masked row), so that their terms are exp(-inf) = 0,
  /// not exp(-inf + inf) = NaN.
  Value getPivot(Value max, Type type);
  /// Computes the ops over the rows that `op` needs at each element.
  void computeOperandsOf(tile::ContractOp op);
  void emitPerRowOp(Operation *op);
  void defineRowValue(Value value, Value scalar);
  void emitElementStores(Value rowValid);
  void emitRowStores(Value rowValid);

  KernelContext &context;
  OpBuilder &b;
  Location loc;
  IndexBuilder index;
  const Schedule &schedule;
  int64_t rowLength = 0, lanes = 0, rows = 0;

  llvm::DenseMap<Operation *, RowReduction> reductions;
  /// The online sums of a streamed row (Schedule::onlineSums), by maximum.
  llvm::DenseMap<Operation *, OnlineSum> onlineSumOfMax;
  /// An online sum's lane aggregates once its maximum's tree has run.
  llvm::DenseMap<Operation *, SmallVector<Value>> laneSums;
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

bool lowering::isOverRows(Operation *op, RankedTensorType rowType) {
  // With rows of one element, [M, 1] is both the rows' shape and the
  // per-row one: a reshape is always per row.
  return !isa<tile::ReshapeOp, tile::ContractOp>(op) &&
         cast<RankedTensorType>(op->getResult(0).getType()).getShape() ==
             rowType.getShape();
}

SmallVector<Value> RowKernelEmitter::aggregateElements(tile::ContractOp op,
                                                       RowReduction &reduction,
                                                       ValueRange initial) {
  Aggregator &aggregator = *reduction.aggregator;
  Type computeType = aggregator.getType();
  SmallVector<Value> state(initial);
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
  return state;
}

void RowKernelEmitter::combineLanes(tile::ContractOp op,
                                    RowReduction &reduction, ValueRange state) {
  Aggregator &aggregator = *reduction.aggregator;
  Type resultType = op.getType().getElementType();
  Value item = b.create<gpu::ThreadIdOp>(loc, gpu::Dimension::x);
  reduction.partials->store(state, item);
  Value first = index.mul(slot, lanes);
  emitTree(b, loc, index, aggregator, *reduction.partials, lane, lanes,
           /*stride=*/1, first);
  b.create<gpu::BarrierOp>(loc);
  Value total = aggregator.finish(reduction.partials->load(first));
  defineRowValue(op.getResult(), emitRound(b, loc, total, resultType));
}

void RowKernelEmitter::emitReduction(tile::ContractOp op,
                                     RowReduction &reduction) {
  Type resultType = op.getType().getElementType();
  SmallVector<Value> initial = reduction.aggregator->start(
      emitIdentity(b, loc, op.getAggregation(), resultType));
  combineLanes(op, reduction, aggregateElements(op, reduction, initial));
}

void RowKernelEmitter::computeOperandsOf(tile::ContractOp op) {
  // The ops over the rows before `op` that it reads, directly or through
  // each other.
  llvm::DenseSet<Operation *> needed;
  SmallVector<Value> pending(op.getInputs());
  while (!pending.empty()) {
    Operation *producer = pending.pop_back_val().getDefiningOp();
    if (!producer || !isOverRows(producer, context.group.type) ||
        !llvm::is_contained(context.group.ops, producer) ||
        !needed.insert(producer).second)
      continue;
    llvm::append_range(pending, producer->getOperands());
  }
  for (Operation *producer : context.group.ops)
    if (needed.count(producer))
      for (auto &element : elements)
        element->compute(producer);
}

void RowKernelEmitter::emitStreamedReduction(tile::ContractOp op,
                                             RowReduction &reduction) {
  Type resultType = op.getType().getElementType();
  SmallVector<Value> initial = reduction.aggregator->start(
      emitIdentity(b, loc, op.getAggregation(), resultType));
  scf::ForOp loop = createChunkLoop(initial, [&](ValueRange state) {
    computeOperandsOf(op);
    return aggregateElements(op, reduction, state);
  });
  combineLanes(op, reduction, loop.getResults());
}

scf::ForOp RowKernelEmitter::createChunkLoop(
    ValueRange initial,
    llvm::function_ref<SmallVector<Value>(ValueRange)> step) {
  return b.create<scf::ForOp>(
      loc, index.constant(0), index.constant(schedule.rowChunks),
      index.constant(1), initial,
      [&](OpBuilder &, Location, Value chunk, ValueRange state) {
        makeElements(chunk);
        b.create<scf::YieldOp>(loc, step(state));
      });
}

Value RowKernelEmitter::getRescaling(Value from, Value to, Type type) {
  Value difference = emitElementwise(b, loc, tile::ElementwiseKind::Sub,
                                     {from, to}, {type, type}, type);
  Value factor = emitElementwise(b, loc, tile::ElementwiseKind::Exp,
                                 {difference}, {type}, type);
  Value one = b.create<arith::ConstantOp>(loc, b.getFloatAttr(type, 1.0));
  return b.create<arith::SelectOp>(loc, emitEqual(b, loc, from, to, type), one,
                                   factor);
}

Value RowKernelEmitter::getPivot(Value max, Type type) {
  const llvm::fltSemantics &semantics =
      cast<FloatType>(type).getFloatSemantics();
  Value minusInfinity = b.create<arith::ConstantOp>(
      loc, b.getFloatAttr(type, llvm::APFloat::getInf(semantics, true)));
  Value lowest = b.create<arith::ConstantOp>(
      loc, b.getFloatAttr(type, llvm::APFloat::getLargest(semantics, true)));
  return b.create<arith::SelectOp>(
      loc, emitEqual(b, loc, max, minusInfinity, type), lowest, max);
}

void RowKernelEmitter::emitOnlineReductions(const OnlineSum &online) {
  tile::ContractOp max = online.max, sum = online.sum;
  RowReduction &maxReduction = reductions[max];
  RowReduction &sumReduction = reductions[sum];
  Type type = max.getType().getElementType();
  SmallVector<Value> initial = maxReduction.aggregator->start(
      emitIdentity(b, loc, tile::AggregationKind::Max, type));
  size_t maxSize = initial.size();
  llvm::append_range(initial, sumReduction.aggregator->start(emitIdentity(
                                  b, loc, tile::AggregationKind::Add, type)));
  scf::ForOp loop = createChunkLoop(initial, [&](ValueRange state) {
    computeOperandsOf(max);
    SmallVector<Value> maxState =
        aggregateElements(max, maxReduction, state.take_front(maxSize));
    // The terms so far were taken against the old pivot.
    Value pivot = getPivot(maxState.front(), type);
    SmallVector<Value> sumState = sumReduction.aggregator->scale(
        state.drop_front(maxSize),
        getRescaling(getPivot(state.front(), type), pivot, type));
    for (Value value : online.maxValues)
      for (auto &element : elements)
        element->define(value, pivot);
    computeOperandsOf(sum);
    SmallVector<Value> next = maxState;
    llvm::append_range(next, aggregateElements(sum, sumReduction, sumState));
    return next;
  });
  ValueRange results = loop.getResults();
  combineLanes(max, maxReduction, results.take_front(maxSize));
  Value rowMax = rowValues.lookup(max.getResult());
  // A row of -inf only keeps its NaN sum: exp(lowest + inf) is inf, and 0
  // times inf NaN, as exp(-inf + inf) in each term.
  laneSums[sum] = sumReduction.aggregator->scale(
      results.drop_front(maxSize),
      getRescaling(getPivot(results.front(), type), rowMax, type));
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

void RowKernelEmitter::emitRowStores(Value rowValid) {
  for (Value value : context.group.stored) {
    auto type = cast<RankedTensorType>(value.getType());
    if (type.getShape() == context.group.type.getShape())
      continue;
    // One element per row: its first lane stores it.
    Value firstLane =
        index.cmp(arith::CmpIPredicate::eq, lane, index.constant(0));
    auto guard =
        enterIf(b, loc, rowValid ? index.land(rowValid, firstLane) : firstLane);
    emitStore(b, loc, rowValues.lookup(value), context.bufferOf(value),
              globalRow, type.getElementType());
  }
}

void RowKernelEmitter::emitElementStores(Value rowValid) {
  for (Value value : context.group.stored) {
    auto type = cast<RankedTensorType>(value.getType());
    if (type.getShape() != context.group.type.getShape())
      continue;
    Type elementType = type.getElementType();
    Value buffer = context.bufferOf(value);
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

void RowKernelEmitter::makeElements(Value chunk) {
  ArrayRef<int64_t> shape = context.group.type.getShape();
  elements.clear();
  columns.clear();
  insideRow.clear();
  int64_t chunkLength = schedule.rowSteps * lanes;
  // Any step of a streamed row's chunk may reach past the row's end unless
  // its chunks divide it; only the last step of a held row can.
  bool everyStepGuarded = chunk && rowLength % chunkLength != 0;
  Value first = chunk ? index.add(index.mul(chunk, chunkLength), lane) : lane;
  for (int64_t step = 0; step < schedule.rowSteps; ++step) {
    Value column = index.add(first, index.constant(step * lanes));
    Value inside;
    if (everyStepGuarded || (!chunk && (step + 1) * lanes > rowLength)) {
      inside = index.lessThan(column, rowLength);
      column = b.createOrFold<arith::MinSIOp>(loc, column,
                                              index.constant(rowLength - 1));
    }
    columns.push_back(column);
    insideRow.push_back(inside);
    elements.push_back(std::make_unique<ElementEvaluator>(
        index, shape, ArrayRef<Value>{globalRow, column}, context.bufferOf));
    for (auto [value, scalar] : rowValues)
      elements.back()->define(value, scalar);
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
  rowValues.clear();
  laneSums.clear();
  if (schedule.rowChunks == 1) {
    makeElements(Value());
    for (Operation *op : context.group.ops) {
      if (auto contract = dyn_cast<tile::ContractOp>(op))
        emitReduction(contract, reductions[op]);
      else if (isOverRows(op, context.group.type))
        for (auto &element : elements)
          element->compute(op);
      else
        emitPerRowOp(op);
    }
    emitElementStores(rowValid);
  } else {
    for (Operation *op : context.group.ops) {
      auto contract = dyn_cast<tile::ContractOp>(op);
      if (contract && onlineSumOfMax.count(op))
        emitOnlineReductions(onlineSumOfMax.find(op)->second);
      else if (contract && laneSums.count(op))
        combineLanes(contract, reductions[op], laneSums.lookup(op));
      else if (contract)
        emitStreamedReduction(contract, reductions[op]);
      else if (!isOverRows(op, context.group.type))
        emitPerRowOp(op);
    }
    // The results: every op over the rows once more, chunk by chunk.
    auto storeChunk = [&](OpBuilder &, Location, Value chunk, ValueRange) {
      makeElements(chunk);
      for (Operation *op : context.group.ops)
        if (isOverRows(op, context.group.type))
          for (auto &element : elements)
            element->compute(op);
      emitElementStores(rowValid);
      b.create<scf::YieldOp>(loc);
    };
    b.create<scf::ForOp>(loc, index.constant(0),
                         index.constant(schedule.rowChunks), index.constant(1),
                         ValueRange(), storeChunk);
  }
  emitRowStores(rowValid);
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
  if (schedule.onlineSums)
    for (OnlineSum &online :
         findOnlineSums(context.group.ops, context.group.type))
      onlineSumOfMax[online.max] = std::move(online);
  Value item = b.create<gpu::ThreadIdOp>(loc, gpu::Dimension::x);
  SmallVector<Value> parts =
      index.delinearize(item, {schedule.rowsPerGroup, lanes});
  slot = parts[0];
  lane = parts[1];
  // The work-groups walk the blocks of rows; the trip count depends on the
  // work-group only, so the barriers inside stay uniform. Where there are
  // as many work-groups as blocks, each takes its own without a loop: in a
  // loop of one trip, the SPIR-V preparation's loop-invariant code motion
  // moved the lanes' offsets out of the body, and NVIDIA's Vulkan driver ran
  // softmax over rows of 1024 1.5x slower for it (docs/scheduler.md).
  int64_t blocks = llvm::divideCeil(rows, schedule.rowsPerGroup);
  Value group = b.create<gpu::BlockIdOp>(loc, gpu::Dimension::x);
  if (schedule.numGroups[0] == blocks) {
    emitBlock(index.add(index.mul(group, schedule.rowsPerGroup), slot));
    return;
  }
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
