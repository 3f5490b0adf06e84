//===- ContractionLowering.cpp - The generic contraction kernel -----------===//
//
// One work-item per output element, so that no two work-items write one
// element (no atomics) and the work-item also writes the initial value. It
// runs the whole loop nest of the contraction's index space
// (ContractionNest.h). The aggregate is carried in the compute type (f32 for
// f16/bf16, rounded once when stored); long float sums are compensated.
//
//===----------------------------------------------------------------------===//

#include "KernelBodies/ContractionNest.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::lowering;

void lowering::emitGenericContraction(KernelContext &context) {
  auto op = cast<tile::ContractOp>(context.group.ops[0]);
  OpBuilder &b = context.builder;
  Location loc = context.loc;
  Type resultType = op.getType().getElementType();
  IndexBuilder index(b, loc);

  Value id = emitGuardedLinearId(context, index);
  ArrayRef<int64_t> shape = op.getType().getShape();
  SmallVector<Value> coords = index.delinearize(id, shape);
  ElementEvaluator evaluator(index, shape, coords, context.bufferOf);

  Aggregator aggregator(b, loc, op.getAggregation(), resultType,
                        context.schedule.compensated);
  Value initial = op.getInit()
                      ? evaluator.get(op.getInit())
                      : emitIdentity(b, loc, op.getAggregation(), resultType);
  SmallVector<Value> aggregate = ContractionNest(context, aggregator, coords)
                                     .emit(aggregator.start(initial));
  evaluator.define(op.getResult(),
                   emitRound(b, loc, aggregator.finish(aggregate), resultType));
  emitGroupTail(context, evaluator, 1, id);
}
