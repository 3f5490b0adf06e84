//===- ContractionLowering.cpp - The generic contraction kernel -----------===//
//
// One work-item per output element, so that no two work-items write one
// element (no atomics) and the work-item also writes the initial value. It
// runs the loop nest of the contraction's index space (IndexSpace.h):
// coordinate guards, one scf.for per free index with exact ceil/floor
// bounds, integrality checks, then the pivots, loads, combination and
// aggregation. The accumulator is an iter_arg in the compute type (f32 for
// f16/bf16, rounded once when stored).
//
//===----------------------------------------------------------------------===//

#include "KernelBodies.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <numeric>

using namespace mlir;
using namespace tilec;
using namespace tilec::lowering;

namespace {

class GenericContraction {
public:
  GenericContraction(KernelContext &context)
      : context(context), op(cast<tile::ContractOp>(context.group.ops[0])),
        space(*context.space), system(*context.system), b(context.builder),
        loc(context.loc), index(b, loc),
        resultType(op.getType().getElementType()) {}

  void emit();

private:
  /// The conjunction of the coordinate conditions, or null when none.
  Value emitCoordinateGuard();
  Value emitLoops(unsigned level, Value accumulator);
  Value emitTuple(Value accumulator);
  Value emitContribution(Value accumulator);
  /// The linear address of `access` at the current tuple.
  Value emitAddress(const IndexSystem::Access &access);
  /// `then` under `condition`, else `accumulator` unchanged.
  Value emitIf(Value condition, Value accumulator,
               llvm::function_ref<Value()> then);

  KernelContext &context;
  tile::ContractOp op;
  const ContractionSpace &space;
  const IndexSystem &system;
  OpBuilder &b;
  Location loc;
  IndexBuilder index;
  Type resultType;
  /// [o_0..o_{R-1}, x_0..x_{N-1}] at the current tuple.
  SmallVector<Value> vars;
};

} // namespace

Value GenericContraction::emitIf(Value condition, Value accumulator,
                                 llvm::function_ref<Value()> then) {
  auto ifOp = b.create<scf::IfOp>(loc, accumulator.getType(), condition,
                                  /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  b.create<scf::YieldOp>(loc, then());
  b.setInsertionPointToStart(&ifOp.getElseRegion().front());
  b.create<scf::YieldOp>(loc, accumulator);
  return ifOp.getResult(0);
}

Value GenericContraction::emitCoordinateGuard() {
  Value guard;
  for (const QuasiAffine &expr : space.coordinateEqualities)
    guard = index.land(guard, index.cmp(arith::CmpIPredicate::eq,
                                        index.numerator(expr, vars),
                                        index.constant(0)));
  // 0 <= num / den with den > 0 is 0 <= num.
  for (const QuasiAffine &expr : space.coordinateInequalities)
    guard = index.land(guard, index.cmp(arith::CmpIPredicate::sge,
                                        index.numerator(expr, vars),
                                        index.constant(0)));
  return guard;
}

Value GenericContraction::emitLoops(unsigned level, Value accumulator) {
  if (level == space.freeVars.size())
    return emitTuple(accumulator);
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
  auto loop = b.create<scf::ForOp>(loc, lower, upper, index.constant(1),
                                   ValueRange{accumulator});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  vars[space.outputRank + space.freeVars[level]] = loop.getInductionVar();
  Value next = emitLoops(level + 1, loop.getRegionIterArgs()[0]);
  b.create<scf::YieldOp>(loc, next);
  return loop.getResult(0);
}

Value GenericContraction::emitTuple(Value accumulator) {
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
    return emitContribution(accumulator);
  return emitIf(valid, accumulator,
                [&] { return emitContribution(accumulator); });
}

Value GenericContraction::emitAddress(const IndexSystem::Access &access) {
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

Value GenericContraction::emitContribution(Value accumulator) {
  SmallVector<Value> values;
  SmallVector<Type> types;
  for (auto [input, operand] : llvm::enumerate(op.getInputs())) {
    Type type = cast<RankedTensorType>(operand.getType()).getElementType();
    values.push_back(emitLoad(b, loc, context.bufferOf(operand),
                              emitAddress(system.inputs[input]), type));
    types.push_back(type);
  }
  tile::AggregationKind aggregation = op.getAggregation();
  auto aggregate = [&](Value value) {
    return emitAggregate(b, loc, aggregation, resultType, accumulator, value);
  };
  // Products and sums are not rounded: the accumulator keeps the compute
  // type's precision until the store.
  Type computeType = getComputeType(resultType);
  switch (op.getCombination()) {
  case tile::CombinationKind::None:
    return aggregate(values[0]);
  case tile::CombinationKind::Mul:
    return aggregate(emitElementwise(b, loc, tile::ElementwiseKind::Mul, values,
                                     types, computeType));
  case tile::CombinationKind::Add:
    return aggregate(emitElementwise(b, loc, tile::ElementwiseKind::Add, values,
                                     types, computeType));
  case tile::CombinationKind::Eq:
    return aggregate(emitEqual(b, loc, values[0], values[1], types[0]));
  case tile::CombinationKind::Cond: {
    // Only tuples where A == B contribute C.
    Value equal = emitEqual(b, loc, values[0], values[1], types[0]);
    return b.create<arith::SelectOp>(loc, equal, aggregate(values[2]),
                                     accumulator);
  }
  }
  llvm_unreachable("unknown combination");
}

void GenericContraction::emit() {
  Value id = emitGuardedLinearId(context, index);
  ArrayRef<int64_t> shape = op.getType().getShape();
  SmallVector<Value> coords = index.delinearize(id, shape);
  ElementEvaluator evaluator(index, shape, coords, context.bufferOf);

  Value initial = op.getInit()
                      ? evaluator.get(op.getInit())
                      : emitIdentity(b, loc, op.getAggregation(), resultType);
  Value result = initial;
  if (!space.empty) {
    vars.assign(coords.begin(), coords.end());
    vars.resize(space.outputRank + space.numIndices);
    Value guard = emitCoordinateGuard();
    result = guard
                 ? emitIf(guard, initial, [&] { return emitLoops(0, initial); })
                 : emitLoops(0, initial);
  }
  evaluator.define(op.getResult(), emitRound(b, loc, result, resultType));
  emitGroupTail(context, evaluator, 1, id);
}

void lowering::emitGenericContraction(KernelContext &context) {
  GenericContraction(context).emit();
}
