//===- ContractionLowering.cpp - The generic contraction kernel -----------===//
//
// One work-item per output element, so that no two work-items write one
// element (no atomics) and the work-item also writes the initial value. It
// runs the whole loop nest of the contraction's index space
// (ContractionNest.h). The aggregate is carried in the compute type (f32 for
// f16/bf16, rounded once when stored); long float sums are compensated. A
// work-item with lanes (docs/scheduler.md, "Generic") takes that many
// consecutive elements of the last axis, each with its own aggregate and
// epilogue, through one nest.
//
//===----------------------------------------------------------------------===//

#include "KernelBodies/ContractionNest.h"

#include <deque>

using namespace mlir;
using namespace tilec;
using namespace tilec::lowering;

void lowering::emitGenericContraction(KernelContext &context) {
  auto op = cast<tile::ContractOp>(context.group.ops[0]);
  OpBuilder &b = context.builder;
  Location loc = context.loc;
  Type resultType = op.getType().getElementType();
  IndexBuilder index(b, loc);
  int64_t lanes = context.schedule.walk.width;

  Value first = emitGuardedLinearId(context, index, lanes);
  ArrayRef<int64_t> shape = op.getType().getShape();
  SmallVector<Value> coords = index.delinearize(first, shape);
  SmallVector<Value> positions;
  std::deque<ElementEvaluator> evaluators;
  for (int64_t lane = 0; lane < lanes; ++lane) {
    SmallVector<Value> laneCoords(coords);
    if (lane > 0)
      laneCoords.back() = index.add(coords.back(), index.constant(lane));
    positions.push_back(lane ? index.add(first, index.constant(lane)) : first);
    evaluators.emplace_back(index, shape, laneCoords, context.bufferOf);
  }

  Aggregator aggregator(b, loc, op.getAggregation(), resultType,
                        context.schedule.compensated);
  SmallVector<Value> initial;
  for (ElementEvaluator &evaluator : evaluators)
    llvm::append_range(
        initial, aggregator.start(
                     op.getInit() ? evaluator.get(op.getInit())
                                  : emitIdentity(b, loc, op.getAggregation(),
                                                 resultType)));
  SmallVector<int64_t> laneStrides;
  if (lanes > 1) {
    std::string whyNot;
    laneStrides = *getGenericLaneStrides(op, *context.space, *context.system,
                                         lanes, whyNot);
  }
  SmallVector<Value> aggregate =
      ContractionNest(context, aggregator, coords, laneStrides).emit(initial);
  size_t laneState = aggregate.size() / lanes;
  for (auto [lane, evaluator] : llvm::enumerate(evaluators))
    evaluator.define(op.getResult(),
                     emitRound(b, loc,
                               aggregator.finish(ArrayRef(aggregate).slice(
                                   lane * laneState, laneState)),
                               resultType));
  emitLaneTails(context, evaluators, 1, positions, /*vectors=*/lanes > 1);
}
