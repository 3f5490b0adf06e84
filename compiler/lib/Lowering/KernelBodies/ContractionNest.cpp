//===- ContractionNest.cpp - One element's contraction loop nest ----------===//

#include "KernelBodies/ContractionNest.h"

#include "tilec/Lowering/KernelCost.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <cmath>
#include <numeric>

using namespace mlir;
using namespace tilec;
using namespace tilec::lowering;

/// The most tuples per element that the generic nest unrolls where a bound
/// depends on the output coordinate: a 5x5 window
/// (25 bodies) is; a 7x7 one keeps its outer loop. Unrolled, a window's
/// bounds become compile-time constants and its loads independent of one
/// another, so a GPU issues them all before the first returns instead of
/// one per trip of a loop whose bounds depend on the element.
constexpr double kUnrolledTuples = 32;

ContractionNest::ContractionNest(KernelContext &context, Aggregator &aggregator,
                                 ArrayRef<Value> coords,
                                 ArrayRef<int64_t> laneStrides)
    : context(context), op(cast<tile::ContractOp>(context.group.ops[0])),
      space(*context.space), system(*context.system), aggregator(aggregator),
      b(context.builder), loc(context.loc), index(b, loc),
      vars(coords.begin(), coords.end()),
      laneStrides(laneStrides.begin(), laneStrides.end()),
      lanes(laneStrides.empty() ? 1 : context.schedule.walk.width) {
  vars.resize(space.outputRank + space.numIndices);
  if (space.empty)
    return;
  TupleCount tuples = countTuples(space, system);
  firstUnrolled = space.freeVars.size();
  double unrolled = 1;
  while (firstUnrolled > 0) {
    auto [lower, upper] = tuples.levelRanges[firstUnrolled - 1];
    double trips = std::max(0.0, upper - lower + 1);
    if (!std::isfinite(lower) || !std::isfinite(upper) ||
        unrolled * trips > kUnrolledTuples)
      break;
    unrolled *= trips;
    --firstUnrolled;
    unrolledRanges.insert(unrolledRanges.begin(),
                          {int64_t(lower), int64_t(upper)});
  }
  // Loops with constant bounds all through are left to the device's
  // compiler, which unrolls constant trip counts itself.
  if (llvm::all_of(llvm::drop_begin(space.bounds, firstUnrolled),
                   [](const LoopBound &bound) {
                     return bound.constantRange.has_value();
                   })) {
    firstUnrolled = space.freeVars.size();
    unrolledRanges.clear();
  }
}

SmallVector<Value> ContractionNest::emit(ValueRange initial) {
  split = nullptr;
  return emitGuarded(initial);
}

SmallVector<Value> ContractionNest::emitShare(ValueRange initial,
                                              const WorkSplit &workSplit,
                                              Value workItem,
                                              int64_t workItems) {
  split = &workSplit;
  item = workItem;
  items = workItems;
  steps = workSplit.stepWidth;
  if (steps > 1) {
    std::string whyNot;
    stepStrides =
        *getSharedStepStrides(op, space, system, workSplit, steps, whyNot);
  }
  return emitGuarded(initial);
}

SmallVector<Value> ContractionNest::emitGuarded(ValueRange initial) {
  if (space.empty)
    return SmallVector<Value>(initial);
  Value guard = emitCoordinateGuard();
  if (!guard)
    return emitLoops(0, initial);
  return emitIf(guard, initial, [&] { return emitLoops(0, initial); });
}

SmallVector<Value>
ContractionNest::emitIf(Value condition, ValueRange state,
                        function_ref<SmallVector<Value>()> then) {
  auto ifOp = b.create<scf::IfOp>(loc, state.getTypes(), condition,
                                  /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  b.create<scf::YieldOp>(loc, then());
  b.setInsertionPointToStart(&ifOp.getElseRegion().front());
  b.create<scf::YieldOp>(loc, state);
  return SmallVector<Value>(ifOp.getResults());
}

SmallVector<Value> ContractionNest::emitFor(
    Value lower, Value upper, Value step, ValueRange state,
    function_ref<SmallVector<Value>(Value, ValueRange)> body) {
  auto loop = b.create<scf::ForOp>(loc, lower, upper, step, state);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  b.create<scf::YieldOp>(
      loc, body(loop.getInductionVar(), loop.getRegionIterArgs()));
  return SmallVector<Value>(loop.getResults());
}

Value ContractionNest::emitCoordinateGuard() {
  Value guard;
  for (const QuasiAffine &expr : space.coordinateEqualities) {
    Value zero = index.constant(0);
    guard = index.land(guard, index.cmp(arith::CmpIPredicate::eq,
                                        index.numerator(expr, vars), zero));
  }
  // 0 <= num / den with den > 0 is 0 <= num.
  for (const QuasiAffine &expr : space.coordinateInequalities) {
    Value zero = index.constant(0);
    guard = index.land(guard, index.cmp(arith::CmpIPredicate::sge,
                                        index.numerator(expr, vars), zero));
  }
  return guard;
}

std::tuple<Value, Value, Value> ContractionNest::emitShareOf(Value begin,
                                                             Value end) {
  if (!split->contiguous)
    return {index.add(begin, item), end, index.constant(items)};
  // Chunks of ceil(n / items) iterations, n clamped at 0 (an empty range).
  Value zero = index.constant(0);
  Value count = b.createOrFold<arith::MaxSIOp>(
      loc, b.createOrFold<arith::SubIOp>(loc, end, begin), zero);
  Value itemCount = index.constant(items);
  Value roundedUp = index.add(count, index.constant(items - 1));
  Value chunk = b.createOrFold<arith::DivSIOp>(loc, roundedUp, itemCount);
  Value first = index.add(begin, index.mul(item, chunk));
  Value last =
      b.createOrFold<arith::MinSIOp>(loc, end, index.add(first, chunk));
  return {first, last, index.constant(1)};
}

bool ContractionNest::isAddressedAlone(unsigned var) const {
  if (!isReadByAddressesAlone(space, var))
    return false;
  // Whole coefficients: emitAddress divides a row by its denominator.
  for (const IndexSystem::Access &access : system.inputs)
    for (const IndexSystem::Row &row : access.rows)
      if (row.num[var] != 0 &&
          llvm::any_of(row.den, [](int64_t den) { return den != 1; }))
        return false;
  return true;
}

int64_t ContractionNest::addressCoefficient(const IndexSystem::Access &access,
                                            unsigned var) const {
  int64_t coefficient = 0, stride = 1;
  for (unsigned dim = access.rows.size(); dim-- > 0;) {
    coefficient += access.rows[dim].num[var] * stride;
    stride *= access.extents[dim];
  }
  return coefficient;
}

SmallVector<Value> ContractionNest::emitMergedLoop(ValueRange state) {
  // Levels [0, merged) have constant ranges: the linear position t walks
  // their box in C order, the innermost level fastest.
  unsigned merged = split->mergedLevels;
  SmallVector<int64_t> lowers, trips;
  int64_t total = 1;
  for (unsigned level = 0; level < merged; ++level) {
    auto [lower, upper] = *space.bounds[level].constantRange;
    lowers.push_back(lower);
    trips.push_back(std::max<int64_t>(0, upper - lower + 1));
    total *= trips.back();
  }
  // A level joins the run of levels inside it when every input addresses
  // its variable as the run's outermost dimension, its coefficient the
  // inner one's times the run's trips (the y and x of an NCHW tensor), and
  // nothing else reads either: the run then needs no position of its own
  // per level, only the innermost variable walking the run's whole range
  // (the others 0), which gives the same addresses with one division fewer
  // per joined level and tuple.
  SmallVector<unsigned> runInner; // per run, its innermost level
  SmallVector<int64_t> runTrips;
  for (unsigned level = merged; level-- > 0;) {
    if (!runInner.empty() && lanes == 1 && lowers[level] == 0 &&
        lowers[runInner.back()] == 0) {
      unsigned outer = space.freeVars[level];
      unsigned inner = space.freeVars[runInner.back()];
      if (isAddressedAlone(outer) && isAddressedAlone(inner) &&
          llvm::all_of(system.inputs, [&](const IndexSystem::Access &access) {
            return addressCoefficient(access, outer) ==
                   addressCoefficient(access, inner) * runTrips.back();
          })) {
        runTrips.back() *= trips[level];
        vars[space.outputRank + outer] = index.constant(0);
        continue;
      }
    }
    runInner.push_back(level);
    runTrips.push_back(trips[level]);
  }
  std::reverse(runInner.begin(), runInner.end());
  std::reverse(runTrips.begin(), runTrips.end());
  // In steps of `steps` positions (getSharedStepStrides: the innermost
  // run is a multiple of them, so a step never crosses into the next run).
  Value begin = index.constant(0), end = index.constant(total / steps);
  Value step = index.constant(1);
  if (split->stridedLevel < merged)
    std::tie(begin, end, step) = emitShareOf(begin, end);
  return emitFor(
      begin, end, step, state, [&](Value iteration, ValueRange carried) {
        Value linear = index.mul(iteration, steps);
        SmallVector<Value> positions = index.delinearize(linear, runTrips);
        for (auto [run, level] : llvm::enumerate(runInner))
          vars[space.outputRank + space.freeVars[level]] =
              index.add(positions[run], index.constant(lowers[level]));
        return emitLoops(merged, carried);
      });
}

SmallVector<Value> ContractionNest::emitLoops(unsigned level,
                                              ValueRange state) {
  if (split && level == 0 && split->mergedLevels > 0)
    return emitMergedLoop(state);
  if (level == space.freeVars.size())
    return emitTuple(state);
  if (!split && level >= firstUnrolled)
    return emitUnrolled(level, state);
  const LoopBound &bound = space.bounds[level];
  Value lower, upper;
  if (bound.constantRange) {
    lower = index.constant(bound.constantRange->first);
    upper = index.constant(bound.constantRange->second + 1);
  } else {
    for (const QuasiAffine &expr : bound.lower) {
      Value value = index.ceilDiv(index.numerator(expr, vars), expr.den);
      lower = lower ? b.createOrFold<arith::MaxSIOp>(loc, lower, value) : value;
    }
    for (const QuasiAffine &expr : bound.upper) {
      Value value = index.floorDiv(index.numerator(expr, vars), expr.den);
      upper = upper ? b.createOrFold<arith::MinSIOp>(loc, upper, value) : value;
    }
    upper = index.add(upper, index.constant(1));
  }
  Value step = index.constant(1);
  if (split && level == split->stridedLevel)
    std::tie(lower, upper, step) = emitShareOf(lower, upper);
  return emitFor(lower, upper, step, state, [&](Value var, ValueRange carried) {
    vars[space.outputRank + space.freeVars[level]] = var;
    return emitLoops(level + 1, carried);
  });
}

SmallVector<Value> ContractionNest::emitUnrolled(unsigned level,
                                                 ValueRange state) {
  const LoopBound &bound = space.bounds[level];
  auto [first, last] = unrolledRanges[level - firstUnrolled];
  Value &var = vars[space.outputRank + space.freeVars[level]];
  SmallVector<Value> current(state);
  for (int64_t value = first; value <= last; ++value) {
    var = index.constant(value);
    // ceil(num / den) <= value (value <= floor(num / den)) is
    // num <= value * den (num >= value * den) for den > 0: no division.
    // Constant bounds are the range itself and need no check.
    Value valid;
    for (const QuasiAffine &expr : bound.lower) {
      Value scaled = index.constant(value * expr.den);
      valid = index.land(valid, index.cmp(arith::CmpIPredicate::sle,
                                          index.numerator(expr, vars), scaled));
    }
    for (const QuasiAffine &expr : bound.upper) {
      Value scaled = index.constant(value * expr.den);
      valid = index.land(valid, index.cmp(arith::CmpIPredicate::sge,
                                          index.numerator(expr, vars), scaled));
    }
    if (bound.constantRange || !valid)
      current = emitLoops(level + 1, current);
    else
      current =
          emitIf(valid, current, [&] { return emitLoops(level + 1, current); });
  }
  return current;
}

SmallVector<Value> ContractionNest::emitTuple(ValueRange state) {
  for (const Pivot &pivot : space.pivots) {
    Value numerator = index.numerator(pivot.value, vars);
    vars[space.outputRank + pivot.index] =
        pivot.value.den == 1
            ? numerator
            : b.createOrFold<arith::DivSIOp>(loc, numerator,
                                             index.constant(pivot.value.den));
  }
  Value valid;
  for (const QuasiAffine &check : space.integralityChecks)
    valid = index.land(valid,
                       index.divides(index.numerator(check, vars), check.den));
  if (!valid)
    return emitContribution(state);
  return emitIf(valid, state, [&] { return emitContribution(state); });
}

Value ContractionNest::emitAddress(const IndexSystem::Access &access) {
  Value address = index.constant(0);
  int64_t stride = 1;
  for (unsigned dim = access.rows.size(); dim-- > 0;) {
    const IndexSystem::Row &row = access.rows[dim];
    // Over a common denominator; exact at valid tuples.
    int64_t den = 1;
    for (int64_t d : row.den)
      den = std::lcm(den, d);
    QuasiAffine expr;
    expr.coeffs.assign(vars.size(), 0);
    for (unsigned var = 0; var < system.numIndices; ++var)
      expr.coeffs[space.outputRank + var] = row.num[var] * (den / row.den[var]);
    expr.constant =
        row.num[system.numIndices] * (den / row.den[system.numIndices]);
    Value value = index.numerator(expr, vars);
    if (den != 1)
      value = b.createOrFold<arith::DivSIOp>(loc, value, index.constant(den));
    address = index.add(address, index.mul(value, stride));
    stride *= access.extents[dim];
  }
  return address;
}

SmallVector<Value> ContractionNest::emitContribution(ValueRange state) {
  // Each lane's (or step position's) value of each input: a vector load
  // shared by the lanes where the input moves with them, one load for all
  // where it does not.
  int64_t width = std::max(lanes, steps);
  ArrayRef<int64_t> strides = lanes > 1 ? laneStrides : stepStrides;
  SmallVector<SmallVector<Value>> values(width);
  SmallVector<Type> types;
  for (auto [input, operand] : llvm::enumerate(op.getInputs())) {
    Type type = cast<RankedTensorType>(operand.getType()).getElementType();
    Value buffer = context.bufferOf(operand);
    Value address = emitAddress(system.inputs[input]);
    types.push_back(type);
    if (width > 1 && strides[input] != 0) {
      auto vectorType = VectorType::get({width}, getStorageType(type));
      Value vector = b.create<vector::LoadOp>(loc, vectorType, buffer, address);
      for (int64_t lane = 0; lane < width; ++lane) {
        Value element = b.create<vector::ExtractOp>(loc, vector, lane);
        values[lane].push_back(emitFromStorage(b, loc, element, type));
      }
      continue;
    }
    Value value = emitLoad(b, loc, buffer, address, type);
    for (SmallVector<Value> &laneValues : values)
      laneValues.push_back(value);
  }
  // A step's positions aggregate into the one state in order.
  if (steps > 1) {
    SmallVector<Value> next(state);
    for (ArrayRef<Value> positionValues : values)
      next = emitLaneContribution(next, positionValues, types);
    return next;
  }
  SmallVector<Value> next;
  size_t laneState = state.size() / lanes;
  for (auto [lane, laneValues] : llvm::enumerate(values))
    llvm::append_range(
        next, emitLaneContribution(state.slice(lane * laneState, laneState),
                                   laneValues, types));
  return next;
}

SmallVector<Value> ContractionNest::emitLaneContribution(ValueRange state,
                                                         ValueRange values,
                                                         TypeRange types) {
  // Products and sums are not rounded: the aggregate keeps the compute
  // type's precision until the store.
  Type computeType = aggregator.getType();
  switch (op.getCombination()) {
  case tile::CombinationKind::None:
    return aggregator.add(state, values[0]);
  case tile::CombinationKind::Mul:
    // The inputs have the output's type (the verifier checks it).
    return aggregator.addProduct(state, values[0], values[1]);
  case tile::CombinationKind::Add:
    return aggregator.add(state,
                          emitElementwise(b, loc, tile::ElementwiseKind::Add,
                                          values, types, computeType));
  case tile::CombinationKind::Eq:
    return aggregator.add(state,
                          emitEqual(b, loc, values[0], values[1], types[0]));
  case tile::CombinationKind::Cond: {
    // Only tuples where A == B contribute C.
    Value equal = emitEqual(b, loc, values[0], values[1], types[0]);
    SmallVector<Value> next = aggregator.add(state, values[2]);
    for (auto [value, old] : llvm::zip(next, state))
      value = b.create<arith::SelectOp>(loc, equal, value, old);
    return next;
  }
  }
  llvm_unreachable("unknown combination");
}
