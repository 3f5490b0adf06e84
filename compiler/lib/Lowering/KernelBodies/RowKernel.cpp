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
// maximum accumulates in the maximum's loop, and a sum of (a - c)^2, c per
// row, from statistics of a gathered in an earlier reduction's loop
// (OnlineSums.h).
//
//===----------------------------------------------------------------------===//

#include "KernelBodies/KernelBodies.h"
#include "KernelBodies/LocalTree.h"
#include "KernelBodies/OnlineSums.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include "llvm/ADT/SetVector.h"

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

/// An online square sum whose host's loop has run: the per-row value its
/// differences take, and the lane's statistics of the centred value's
/// elements: their count, their mean relative to `shift` and their sum of
/// squared deviations from it.
struct LaneStatistics {
  Value centre, count, shift, mean, deviations;
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
  /// The loop of a streamed row that takes `op`, and the statistics of
  /// the centred values of the square sums it hosts, for their trees
  /// (`laneStatistics`).
  void emitStreamedReduction(tile::ContractOp op, RowReduction &reduction);
  /// `state`, a lane's LaneStatistics of `value` from `count` on, with the
  /// chunk's elements of `value` merged in: their own statistics, about
  /// their mean, combined by Chan, Golub and LeVeque's update.
  SmallVector<Value> mergeChunkStatistics(Value value, ValueRange state);
  /// Combines the lanes' shares of the online square sum `sum`,
  /// M2 + n (mean - c)^2 of their statistics, by its tree.
  void combineSquareSum(tile::ContractOp sum);
  /// A loop over a streamed row's chunks that carries `initial`: `step`
  /// makes the chunk's elements' next values from the carried ones. The
  /// loops of a row walk its chunks forward and backward in turn, so that
  /// each starts on the chunks its predecessor read last, the likeliest to
  /// be still in the cache.
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
  /// Computes the ops over the rows that `values` need at each element,
  /// but those in `computed` (the ops computed already in the same chunk),
  /// and adds them to it.
  void computeOperandsOf(ValueRange values,
                         llvm::DenseSet<Operation *> &computed);
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
  /// The online sums of squares of a streamed row, by host, and the
  /// statistics of their centred values once their host's loop has run, by
  /// sum.
  llvm::DenseMap<Operation *, SmallVector<OnlineSquareSum>> squareSumsOfHost;
  llvm::DenseMap<Operation *, LaneStatistics> laneStatistics;
  Value lane, slot, globalRow;
  /// Whether the row's next chunk loop walks its chunks from the last.
  bool chunksBackward = false;
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

void RowKernelEmitter::computeOperandsOf(
    ValueRange values, llvm::DenseSet<Operation *> &computed) {
  // The ops over the rows that compute `values`, directly or through each
  // other.
  llvm::DenseSet<Operation *> needed;
  SmallVector<Value> pending(values);
  while (!pending.empty()) {
    Operation *producer = pending.pop_back_val().getDefiningOp();
    if (!producer || !isOverRows(producer, context.group.type) ||
        !llvm::is_contained(context.group.ops, producer) ||
        computed.contains(producer) || !needed.insert(producer).second)
      continue;
    llvm::append_range(pending, producer->getOperands());
  }
  for (Operation *producer : context.group.ops)
    if (needed.count(producer)) {
      for (auto &element : elements)
        element->compute(producer);
      computed.insert(producer);
    }
}

void RowKernelEmitter::emitStreamedReduction(tile::ContractOp op,
                                             RowReduction &reduction) {
  Type resultType = op.getType().getElementType();
  SmallVector<Value> initial = reduction.aggregator->start(
      emitIdentity(b, loc, op.getAggregation(), resultType));
  size_t size = initial.size();
  // The statistics of each value the hosted square sums centre, four
  // values each after the reduction's.
  SmallVector<OnlineSquareSum> squares = squareSumsOfHost.lookup(op);
  llvm::SetVector<Value> centred;
  for (const OnlineSquareSum &online : squares)
    centred.insert(online.centred);
  for (Value value : centred) {
    Type type = cast<RankedTensorType>(value.getType()).getElementType();
    initial.append(4,
                   b.create<arith::ConstantOp>(loc, b.getFloatAttr(type, 0)));
  }
  scf::ForOp loop = createChunkLoop(initial, [&](ValueRange state) {
    llvm::DenseSet<Operation *> computed;
    computeOperandsOf(op.getInputs(), computed);
    SmallVector<Value> next =
        aggregateElements(op, reduction, state.take_front(size));
    computeOperandsOf(centred.getArrayRef(), computed);
    for (auto [i, value] : llvm::enumerate(centred))
      llvm::append_range(
          next, mergeChunkStatistics(value, state.slice(size + 4 * i, 4)));
    return next;
  });
  ValueRange results = loop.getResults();
  combineLanes(op, reduction, results.take_front(size));
  for (const OnlineSquareSum &online : squares) {
    size_t first =
        size + 4 * (llvm::find(centred, online.centred) - centred.begin());
    laneStatistics[online.sum] = {online.centre, results[first],
                                  results[first + 1], results[first + 2],
                                  results[first + 3]};
  }
}

scf::ForOp RowKernelEmitter::createChunkLoop(
    ValueRange initial,
    llvm::function_ref<SmallVector<Value>(ValueRange)> step) {
  bool backward = chunksBackward;
  chunksBackward = !chunksBackward;
  return b.create<scf::ForOp>(
      loc, index.constant(0), index.constant(schedule.rowChunks),
      index.constant(1), initial,
      [&](OpBuilder &, Location, Value trip, ValueRange state) {
        makeElements(
            backward ? b.createOrFold<arith::SubIOp>(
                           loc, index.constant(schedule.rowChunks - 1), trip)
                     : trip);
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
    // The sum's terms depend on the new pivot, which the maximum's inputs
    // cannot: what both read is computed once, before it.
    llvm::DenseSet<Operation *> computed;
    computeOperandsOf(max.getInputs(), computed);
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
    computeOperandsOf(sum.getInputs(), computed);
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

SmallVector<Value> RowKernelEmitter::mergeChunkStatistics(Value value,
                                                          ValueRange state) {
  Type type = cast<RankedTensorType>(value.getType()).getElementType();
  auto constant = [&](double x) -> Value {
    return b.create<arith::ConstantOp>(loc, b.getFloatAttr(type, x));
  };
  auto add = [&](Value x, Value y) -> Value {
    return b.createOrFold<arith::AddFOp>(loc, x, y);
  };
  auto mul = [&](Value x, Value y) -> Value {
    return b.createOrFold<arith::MulFOp>(loc, x, y);
  };
  auto fma = [&](Value x, Value y, Value z) -> Value {
    return b.create<math::FmaOp>(loc, x, y, z);
  };
  auto compare = [&](arith::CmpFPredicate predicate, Value x, Value y) {
    return b.create<arith::CmpFOp>(loc, predicate, x, y);
  };
  // Zero outside the row.
  auto inside = [&](size_t step, Value x) {
    if (Value valid = insideRow[step])
      return Value(b.create<arith::SelectOp>(loc, valid, x, constant(0)));
    return x;
  };
  // How many of the chunk's elements lie inside the row, and the mean of
  // `terms` over them.
  Value count = constant(0);
  for (size_t step = 0; step < elements.size(); ++step)
    count = add(count, inside(step, constant(1)));
  Value inverse = b.createOrFold<arith::DivFOp>(loc, constant(1), count);
  auto estimateMean = [&](ArrayRef<Value> terms) {
    Value mean = constant(0);
    for (Value term : terms)
      mean = fma(term, inverse, mean);
    return mean;
  };
  Value seen = state[0], shift = state[1];
  // The lane's values are taken relative to a shift, its first chunk's
  // mean: rows whose mean is large beside their spread keep their
  // deviations' digits (x - shift is exact where x lies within a factor 2
  // of it), as the two passes, which subtract the row's mean, do.
  SmallVector<Value> terms;
  for (size_t step = 0; step < elements.size(); ++step)
    terms.push_back(inside(step, elements[step]->get(value)));
  shift = b.create<arith::SelectOp>(
      loc, compare(arith::CmpFPredicate::OEQ, seen, constant(0)),
      estimateMean(terms), shift);
  for (auto [step, term] : llvm::enumerate(terms))
    term = inside(step, b.create<arith::SubFOp>(loc, term, shift));
  // The chunk's mean about a first estimate p: mean = p + t1 / k and
  // M2 = t2 - t1^2 / k with t1, t2 the sums of x - p and (x - p)^2, so that
  // p's rounding is corrected.
  Value estimate = estimateMean(terms);
  Value t1 = constant(0), t2 = constant(0);
  for (auto [step, term] : llvm::enumerate(terms)) {
    Value deviation =
        inside(step, b.create<arith::SubFOp>(loc, term, estimate));
    t1 = add(t1, deviation);
    t2 = fma(deviation, deviation, t2);
  }
  Value chunkMean = fma(t1, inverse, estimate);
  Value chunkDeviations =
      fma(b.create<arith::NegFOp>(loc, mul(t1, inverse)), t1, t2);
  // Rounding may take it below 0, where a sum of squares cannot be (NaN
  // stays NaN).
  chunkDeviations = b.create<arith::SelectOp>(
      loc, compare(arith::CmpFPredicate::OLT, chunkDeviations, constant(0)),
      constant(0), chunkDeviations);
  // The merge: n' = n + k, mean' = mean n / n' + chunk mean k / n' (a
  // convex combination, which cannot overflow), M2' = M2 + chunk M2 +
  // delta^2 n k / n'. A chunk with no element inside the row leaves the
  // state as it is.
  Value total = add(seen, count);
  Value share = b.createOrFold<arith::DivFOp>(loc, count, total);
  Value kept = b.createOrFold<arith::DivFOp>(loc, seen, total);
  Value delta = b.create<arith::SubFOp>(loc, chunkMean, state[2]);
  Value mean = fma(chunkMean, share, mul(state[2], kept));
  Value deviations =
      fma(mul(delta, mul(seen, share)), delta, add(state[3], chunkDeviations));
  SmallVector<Value> next = {total, shift, mean, deviations};
  if (llvm::any_of(insideRow, [](Value valid) { return bool(valid); })) {
    Value any = compare(arith::CmpFPredicate::OGT, count, constant(0));
    for (auto [value, old] : llvm::zip(next, state))
      value = b.create<arith::SelectOp>(loc, any, value, old);
  }
  return next;
}

void RowKernelEmitter::combineSquareSum(tile::ContractOp sum) {
  const LaneStatistics &statistics = laneStatistics.find(sum)->second;
  RowReduction &reduction = reductions[sum];
  // (shift - c) first: exact where c lies near the shift.
  Value offset = b.create<arith::AddFOp>(
      loc,
      b.create<arith::SubFOp>(loc, statistics.shift,
                              rowValues.lookup(statistics.centre)),
      statistics.mean);
  Value share = b.create<math::FmaOp>(
      loc, b.create<arith::MulFOp>(loc, statistics.count, offset), offset,
      statistics.deviations);
  // The lane's aggregate starts from its share.
  combineLanes(sum, reduction, reduction.aggregator->start(share));
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
  laneStatistics.clear();
  chunksBackward = false;
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
      else if (contract && laneStatistics.count(op))
        combineSquareSum(contract);
      else if (contract)
        emitStreamedReduction(contract, reductions[op]);
      else if (!isOverRows(op, context.group.type))
        emitPerRowOp(op);
    }
    // The results: every op over the rows once more, chunk by chunk.
    createChunkLoop(ValueRange(), [&](ValueRange) {
      for (Operation *op : context.group.ops)
        if (isOverRows(op, context.group.type))
          for (auto &element : elements)
            element->compute(op);
      emitElementStores(rowValid);
      return SmallVector<Value>();
    });
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
  if (schedule.onlineSums) {
    OnlineSums online = findOnlineSums(context.group.ops, context.group.type);
    for (OnlineSum &sum : online.ofExponentials)
      onlineSumOfMax[sum.max] = std::move(sum);
    for (const OnlineSquareSum &sum : online.ofSquares)
      squareSumsOfHost[sum.host].push_back(sum);
  }
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
