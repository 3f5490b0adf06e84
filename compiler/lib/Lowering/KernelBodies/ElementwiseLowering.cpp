//===- ElementwiseLowering.cpp - Elementwise and copy kernels -------------===//
//
// The per-element schedule (docs/scheduler.md, "Per element"): each
// work-item runs a loop over steps of `width` consecutive elements. A step
// loads the operands that lie in place in their buffers as one vector each
// (where their type has vectors), evaluates every fused op at each of its
// elements, and stores each stored value as one vector; broadcast operands,
// bf16 and the last, partial step are scalar. The one-work-item-per-
// element schedules of contractions share the linear id below.
//
//===----------------------------------------------------------------------===//

#include "KernelBodies/KernelBodies.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <deque>

using namespace mlir;
using namespace tilec;
using namespace tilec::lowering;

Value lowering::emitGuardedLinearId(KernelContext &context, IndexBuilder &index,
                                    int64_t lanes) {
  const Schedule &schedule = context.schedule;
  Value id = index.globalId(gpu::Dimension::x);
  if (schedule.numGroups[1] > 1) {
    // Work-groups spread over two dimensions for the device's group count:
    // group (x, y) is number y * groupsX + x.
    OpBuilder &b = context.builder;
    Value groupX = b.create<gpu::BlockIdOp>(context.loc, gpu::Dimension::x);
    Value groupY = b.create<gpu::BlockIdOp>(context.loc, gpu::Dimension::y);
    Value group = index.add(index.mul(groupY, schedule.numGroups[0]), groupX);
    Value thread = b.create<gpu::ThreadIdOp>(context.loc, gpu::Dimension::x);
    id = index.add(index.mul(group, schedule.localSize[0]), thread);
  }
  // The work-groups cover a multiple of their size.
  Value active = index.lessThan(id, schedule.activeItems);
  auto guard = context.builder.create<scf::IfOp>(context.loc, active,
                                                 /*withElseRegion=*/false);
  context.builder.setInsertionPointToStart(&guard.getThenRegion().front());
  Value first = index.mul(id, lanes);
  if (context.firstRow == 0)
    return first;
  RankedTensorType type = context.group.type;
  int64_t rowElements = type.getNumElements() / type.getDimSize(0);
  return index.add(first, index.constant(context.firstRow * rowElements));
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

static Type getElementType(Value tileValue) {
  return cast<RankedTensorType>(tileValue.getType()).getElementType();
}

/// Stores every value the group stores, of each evaluator at its position
/// (`positions`, consecutive): as one vector where `vectors` and the
/// buffer's type allow, else one element each.
static void emitLaneStores(KernelContext &context,
                           std::deque<ElementEvaluator> &evaluators,
                           ArrayRef<Value> positions, bool vectors) {
  OpBuilder &b = context.builder;
  Location loc = context.loc;
  for (Value value : context.group.stored) {
    Value buffer = context.bufferOf(value);
    Type tileType = getElementType(value);
    Type storage = cast<MemRefType>(buffer.getType()).getElementType();
    if (vectors && hasVectorAccess(storage)) {
      SmallVector<Value> elements;
      for (ElementEvaluator &evaluator : evaluators)
        elements.push_back(
            emitToStorage(b, loc, evaluator.get(value), tileType));
      auto type = VectorType::get({int64_t(elements.size())}, storage);
      Value vector = b.create<vector::FromElementsOp>(loc, type, elements);
      b.create<vector::StoreOp>(loc, vector, buffer, positions.front());
      continue;
    }
    for (auto [evaluator, position] : llvm::zip(evaluators, positions))
      emitStore(b, loc, evaluator.get(value), buffer, position, tileType);
  }
}

void lowering::emitLaneTails(KernelContext &context,
                             std::deque<ElementEvaluator> &evaluators,
                             unsigned firstOp, ArrayRef<Value> positions,
                             bool vectors) {
  for (ElementEvaluator &evaluator : evaluators)
    for (Operation *op : llvm::drop_begin(context.group.ops, firstOp))
      evaluator.compute(op);
  emitLaneStores(context, evaluators, positions, vectors);
}

/// Whether evaluating the group needs an element's coordinates: a
/// broadcast operand, or a generator other than a constant.
static bool needsCoordinates(const KernelGroup &group) {
  auto usesCoordinates = [](Operation *op) {
    return op && isa<tile::IndexOp, tile::ShapeOp>(op);
  };
  for (Operation *op : group.ops) {
    if (usesCoordinates(op))
      return true;
    for (Value operand : op->getOperands())
      if (usesCoordinates(operand.getDefiningOp()))
        return true;
  }
  return llvm::any_of(getLoadedValues(group), [&](Value value) {
    return !isLoadedInPlace(group, value);
  });
}

/// One step: the `lanes` elements from `first` (the group's linear
/// position), with vector accesses where `vectors` allows them.
static void emitStep(KernelContext &context, IndexBuilder &index, Value first,
                     int64_t lanes, bool vectors) {
  const KernelGroup &group = context.group;
  OpBuilder &b = context.builder;
  Location loc = context.loc;
  SmallVector<Value> linear;
  for (int64_t lane = 0; lane < lanes; ++lane)
    linear.push_back(index.add(first, index.constant(lane)));
  auto vectorTypeOf = [&](Value buffer) -> VectorType {
    Type storage = cast<MemRefType>(buffer.getType()).getElementType();
    if (!vectors || !hasVectorAccess(storage))
      return {};
    return VectorType::get({lanes}, storage);
  };

  if (group.kind == KernelKind::Copy) {
    // Same element type on both sides: the stored bits are copied.
    Value source = context.bufferOf(group.copySource);
    if (VectorType type = vectorTypeOf(source)) {
      Value vector = b.create<vector::LoadOp>(loc, type, source, first);
      b.create<vector::StoreOp>(loc, vector, context.copyTarget, first);
      return;
    }
    for (Value position : linear) {
      Value element = b.create<memref::LoadOp>(loc, source, position);
      b.create<memref::StoreOp>(loc, element, context.copyTarget, position);
    }
    return;
  }

  ArrayRef<int64_t> shape = group.type.getShape();
  bool coordinates = needsCoordinates(group);
  std::deque<ElementEvaluator> evaluators;
  for (Value position : linear)
    evaluators.emplace_back(index, shape, position,
                            coordinates ? index.delinearize(position, shape)
                                        : SmallVector<Value>(),
                            context.bufferOf);
  // Operands in place: one vector load each, taken apart per element.
  for (Value value : getLoadedValues(group)) {
    Value buffer = context.bufferOf(value);
    VectorType type = vectorTypeOf(buffer);
    if (!type || !isLoadedInPlace(group, value))
      continue;
    Value vector = b.create<vector::LoadOp>(loc, type, buffer, first);
    for (auto [lane, evaluator] : llvm::enumerate(evaluators))
      evaluator.define(
          value, emitFromStorage(b, loc,
                                 b.create<vector::ExtractOp>(loc, vector, lane),
                                 getElementType(value)));
  }
  emitLaneTails(context, evaluators, 0, linear, vectors);
}

void lowering::emitPerElementKernel(KernelContext &context) {
  const Schedule &schedule = context.schedule;
  const ElementWalk &walk = schedule.walk;
  OpBuilder &b = context.builder;
  Location loc = context.loc;
  IndexBuilder index(b, loc);
  int64_t groupSize = schedule.localSize[0];
  Value item = b.create<gpu::ThreadIdOp>(loc, gpu::Dimension::x);
  Value group = b.create<gpu::BlockIdOp>(loc, gpu::Dimension::x);

  // The work-item's steps: every N-th of all (N work-items in the launch),
  // or every work-group-size-th of its work-group's chunk.
  Value begin, end, stride;
  if (walk.groupSteps == 0) {
    begin = index.add(index.mul(group, groupSize), item);
    end = index.constant(walk.steps);
    stride = index.constant(schedule.numGroups[0] * groupSize);
  } else {
    Value chunk = index.mul(group, walk.groupSteps);
    begin = index.add(chunk, item);
    end = index.add(chunk, index.constant(walk.groupSteps));
    if (walk.groupSteps * schedule.numGroups[0] != walk.steps)
      end = index.min(end, index.constant(walk.steps));
    stride = index.constant(groupSize);
  }
  // One step per work-item is a guard, more a loop.
  Operation *walker;
  Value step = begin;
  if (takesOneStep(schedule)) {
    auto guard = b.create<scf::IfOp>(
        loc, index.cmp(arith::CmpIPredicate::slt, begin, end),
        /*withElseRegion=*/false);
    b.setInsertionPointToStart(&guard.getThenRegion().front());
    walker = guard;
  } else {
    auto loop = b.create<scf::ForOp>(loc, begin, end, stride);
    b.setInsertionPointToStart(loop.getBody());
    step = loop.getInductionVar();
    walker = loop;
  }
  Value first = index.mul(step, walk.width);
  if (context.firstRow != 0) {
    RankedTensorType type = context.group.type;
    int64_t rowElements = type.getNumElements() / type.getDimSize(0);
    first = index.add(first, index.constant(context.firstRow * rowElements));
  }
  // The last step holds the elements left over by the width.
  int64_t rest = schedule.activeItems % walk.width;
  if (rest == 0) {
    emitStep(context, index, first, walk.width, walk.width > 1);
  } else {
    Value whole = index.lessThan(step, walk.steps - 1);
    auto branch = b.create<scf::IfOp>(loc, whole, /*withElseRegion=*/true);
    b.setInsertionPointToStart(&branch.getThenRegion().front());
    emitStep(context, index, first, walk.width, /*vectors=*/true);
    b.setInsertionPointToStart(&branch.getElseRegion().front());
    emitStep(context, index, first, rest, /*vectors=*/false);
  }
  b.setInsertionPointAfter(walker);
}
