//===- ElementwiseLowering.cpp - Elementwise and copy kernels -------------===//
//
// One work-item per element: the coordinates come from the linear id, every
// fused op is evaluated in order, and each stored value is written.
//
//===----------------------------------------------------------------------===//

#include "KernelBodies.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::lowering;

Value lowering::emitGuardedLinearId(KernelContext &context,
                                    IndexBuilder &index) {
  Value id = index.globalId(gpu::Dimension::x);
  // The global size is rounded up to a multiple of the work-group size.
  Value active = index.lessThan(id, context.schedule.activeItems);
  auto guard = context.builder.create<scf::IfOp>(context.loc, active,
                                                 /*withElseRegion=*/false);
  context.builder.setInsertionPointToStart(&guard.getThenRegion().front());
  if (context.firstRow == 0)
    return id;
  RankedTensorType type = context.group.type;
  int64_t rowElements = type.getNumElements() / type.getDimSize(0);
  return index.add(id, index.constant(context.firstRow * rowElements));
}

void lowering::emitGroupTail(KernelContext &context,
                             ElementEvaluator &evaluator, unsigned firstOp,
                             Value linear) {
  for (Operation *op : llvm::drop_begin(context.group.ops, firstOp))
    evaluator.compute(op);
  for (Value value : context.group.stored)
    emitStore(context.builder, context.loc, evaluator.get(value),
              context.bufferOf(value), linear,
              cast<RankedTensorType>(value.getType()).getElementType());
}

void lowering::emitPerElementKernel(KernelContext &context) {
  IndexBuilder index(context.builder, context.loc);
  Value id = emitGuardedLinearId(context, index);
  if (context.group.kind == KernelKind::Copy) {
    // Same element type on both sides: the stored bits are copied.
    Value element = context.builder.create<memref::LoadOp>(
        context.loc, context.bufferOf(context.group.copySource), id);
    context.builder.create<memref::StoreOp>(context.loc, element,
                                            context.copyTarget, id);
    return;
  }
  ArrayRef<int64_t> shape = context.group.type.getShape();
  SmallVector<Value> coords = index.delinearize(id, shape);
  ElementEvaluator evaluator(index, shape, coords, context.bufferOf);
  emitGroupTail(context, evaluator, 0, id);
}
