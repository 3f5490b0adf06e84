//===- ReductionContraction.cpp - One work-group per output element -------===//
//
// For contractions with few output elements and long reductions (a full
// sum, the row sums of a wide matrix): the work-group of an element shares
// its tuples (the work-items stride over the loop nest as the schedule's
// WorkSplit says), each keeps a partial aggregate, and the partials are
// combined by a tree in local memory, halving the active work-items at each
// step. Work-item 0 then applies the initial value (the identity or the
// `default` element), runs the fused epilogue and stores, so every element
// is still written by exactly one work-item. A column reduction on a GPU
// gives a work-group several neighbouring elements instead, one per
// neighbouring work-item (so that their loads coalesce), and the tree
// combines each element's work-items.
//
// Where the elements' work-groups alone would leave the device idle, or the
// device stops loops after a number of passes (llvmpipe), several
// work-groups share one element: each stores its partial aggregate in a
// temporary, and a second kernel combines them and finishes as work-item 0
// does above: one work-item per element for a few partials, a work-group
// per element sharing them and combining by a tree for many. Or, without a
// second kernel, the last of a block's work-groups to finish does: the
// first sharer of each element of the group adds its partial to the
// temporary, the group fences global memory, and work-item 0 counts the
// group in the block's counter with an atomic increment; the group that
// counts last fences again and combines every group's partials as that
// second kernel's work-group would, the sharers of each element taking its
// partials. The partials and counters are 32-bit words accessed only by
// atomics (so that Oclgrind sees no data race): a partial goes in by `or`
// onto a zeroed word and comes out by `and` with 0, which leaves the word
// zeroed again, as that group leaves the counter, for the next run.
//
//===----------------------------------------------------------------------===//

#include "KernelBodies/ContractionNest.h"
#include "KernelBodies/LocalTree.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"

#include <optional>

using namespace mlir;
using namespace tilec;
using namespace tilec::lowering;

/// Finishes element `element` (at `coords`) from the aggregate `total` of
/// its tuples: adds the initial value (the `default` element), rounds, runs
/// the fused epilogue and stores.
static void emitElementTail(KernelContext &context, Aggregator &aggregator,
                            IndexBuilder &index, ArrayRef<Value> coords,
                            SmallVector<Value> total, Value element) {
  auto op = cast<tile::ContractOp>(context.group.ops[0]);
  Type resultType = op.getType().getElementType();
  ElementEvaluator evaluator(index, op.getType().getShape(), coords,
                             context.bufferOf);
  if (Value init = op.getInit())
    total = aggregator.combine(total, aggregator.start(evaluator.get(init)));
  evaluator.define(op.getResult(),
                   emitRound(context.builder, context.loc,
                             aggregator.finish(total), resultType));
  emitGroupTail(context, evaluator, 1, element);
}

/// Orders the work-item's global memory accesses before the fence against
/// those after it, for every work-item of the device (docs/kernel-ir.md).
static void emitGlobalFence(OpBuilder &b, Location loc) {
  b.create<spirv::MemoryBarrierOp>(loc, spirv::Scope::Device,
                                   spirv::MemorySemantics::AcquireRelease |
                                       spirv::MemorySemantics::UniformMemory);
}

/// An atomic `kind` of `value` on the 32-bit word at `position` of
/// `buffer`; returns the word before.
static Value emitAtomic(OpBuilder &b, Location loc, arith::AtomicRMWKind kind,
                        Value value, Value buffer, Value position) {
  return b.create<memref::AtomicRMWOp>(loc, kind, value, buffer,
                                       ValueRange{position});
}

/// Where an element's work-item stands in the last work-group of its block
/// to finish (docs/scheduler.md, "Reduction"): `element` (at `coords`,
/// clamped into range), the work-item's `sharer` index among those of its
/// element, whether the element lies within the tensor (`valid`, null when
/// every element of the block does), and the `block` whose counter the
/// group counted in.
struct BlockPosition {
  ArrayRef<Value> coords;
  Value element, item, sharer, valid, block;
};

/// The last work-group of a block to finish: the first sharers of each
/// element take its partials in `context.partials` (their words zeroed as
/// read), a tree combines them in `arrays`, work-item 0 zeroes the block's
/// counter and the first sharer of each element finishes it.
static void emitLastGroupCombination(KernelContext &context,
                                     Aggregator &aggregator,
                                     IndexBuilder &index, PartialArrays &arrays,
                                     const BlockPosition &at) {
  auto op = cast<tile::ContractOp>(context.group.ops[0]);
  OpBuilder &b = context.builder;
  Location loc = context.loc;
  const Schedule &schedule = context.schedule;
  int64_t parts = schedule.partialGroups;
  int64_t width = schedule.elementsPerGroup;
  int64_t elements = op.getType().getNumElements();
  Type type = aggregator.getType();
  Type word = b.getI32Type();
  Value zero = b.create<arith::ConstantIntOp>(loc, 0, 32);
  emitGlobalFence(b, loc);
  // Sharer t < `sharers` of an element takes parts t, t + sharers, ... in
  // order. The loop runs as many passes in every work-item, each guarded:
  // lavapipe (Mesa 22.3) loses the atomics of a loop whose work-items leave
  // it at different passes, and every store after them. A pass reads
  // kPartialsInFlight partials before it combines the first, so that their
  // round trips to memory overlap rather than add up (docs/scheduler.md).
  int64_t sharers = getCombiningSharers(schedule);
  int64_t reads = llvm::divideCeil(parts, sharers);
  int64_t inFlight = std::min(reads, kPartialsInFlight);
  Value sharing = index.lessThan(at.sharer, sharers);
  if (at.valid)
    sharing = index.land(sharing, at.valid);
  Value identity =
      emitIdentity(b, loc, op.getAggregation(), op.getType().getElementType());
  auto loop = b.create<scf::ForOp>(
      loc, index.constant(0), index.constant(llvm::divideCeil(reads, inFlight)),
      index.constant(1), aggregator.start(identity));
  SmallVector<Value> total(loop.getResults());
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    SmallVector<Value> guards;
    SmallVector<SmallVector<Value>> read;
    for (int64_t slot = 0; slot < inFlight; ++slot) {
      Value pass = index.add(index.mul(loop.getInductionVar(), inFlight),
                             index.constant(slot));
      Value part = index.add(at.sharer, index.mul(pass, sharers));
      guards.push_back(index.land(sharing, index.lessThan(part, parts)));
      SmallVector<Type> types(aggregator.size(), type);
      auto ifOp = b.create<scf::IfOp>(loc, types, guards.back(),
                                      /*withElseRegion=*/true);
      read.emplace_back(ifOp.getResults());
      OpBuilder::InsertionGuard branch(b);
      b.setInsertionPointToStart(&ifOp.getThenRegion().front());
      SmallVector<Value> values;
      for (unsigned value = 0; value < aggregator.size(); ++value) {
        Value bits = emitAtomic(b, loc, arith::AtomicRMWKind::andi, zero,
                                context.partials,
                                emitPartialPosition(index, value, at.element,
                                                    elements, part, parts));
        values.push_back(
            type == word ? bits : b.create<arith::BitcastOp>(loc, type, bits));
      }
      b.create<scf::YieldOp>(loc, values);
      b.setInsertionPointToStart(&ifOp.getElseRegion().front());
      b.create<scf::YieldOp>(loc, aggregator.start(identity));
    }
    SmallVector<Value> carried(loop.getRegionIterArgs());
    for (auto [valid, values] : llvm::zip(guards, read)) {
      SmallVector<Value> combined = aggregator.combine(carried, values);
      for (auto [next, old] : llvm::zip(combined, carried))
        old = b.create<arith::SelectOp>(loc, valid, next, old);
    }
    b.create<scf::YieldOp>(loc, carried);
  }
  arrays.store(total, at.item);
  emitTree(b, loc, index, aggregator, arrays, at.item, sharers, width);
  {
    auto itemZero = enterIf(
        b, loc,
        index.cmp(arith::CmpIPredicate::eq, at.item, index.constant(0)));
    emitAtomic(b, loc, arith::AtomicRMWKind::andi, zero, context.counters,
               at.block);
  }
  // The first sharer of each element holds its total.
  Value first = index.lessThan(at.item, width);
  auto firstOnly =
      enterIf(b, loc, at.valid ? index.land(first, at.valid) : first);
  emitElementTail(context, aggregator, index, at.coords, arrays.load(at.item),
                  at.element);
}

Value lowering::emitPartialPosition(IndexBuilder &index, unsigned value,
                                    Value element, int64_t elements, Value part,
                                    int64_t parts) {
  // [value][part][element]: the work-items that store or combine
  // neighbouring elements access neighbouring addresses.
  Value row = index.add(part, index.constant(int64_t(value) * parts));
  return index.add(index.mul(row, elements), element);
}

void lowering::emitReductionContraction(KernelContext &context) {
  auto op = cast<tile::ContractOp>(context.group.ops[0]);
  const Schedule &schedule = context.schedule;
  OpBuilder &b = context.builder;
  Location loc = context.loc;
  Type resultType = op.getType().getElementType();
  IndexBuilder index(b, loc);
  Aggregator aggregator(b, loc, op.getAggregation(), resultType,
                        schedule.compensated);
  int64_t items = schedule.localSize[0];
  // Workgroup memory comes first in the kernel (docs/kernel-ir.md): the
  // tree's arrays, and where the last group combines, whether this is it.
  PartialArrays partials(b, loc, aggregator, items);
  Value lastFlag;
  if (schedule.lastGroupCombines)
    lastFlag = b.create<memref::AllocOp>(
        loc, MemRefType::get({1}, b.getI32Type(), MemRefLayoutAttrInterface(),
                             b.getI64IntegerAttr(3)));

  // `parts` work-groups per block of `width` neighbouring elements
  // (usually 1), exactly: no work-item is guarded off, so every one reaches
  // every barrier. Work-item `item` works on element item % width of the
  // block, as sharer item / width of the group's `sharers`; an element's
  // sharers are numbered across its work-groups.
  int64_t parts = schedule.partialGroups;
  int64_t width = schedule.elementsPerGroup;
  int64_t sharers = items / width;
  int64_t elements = op.getType().getNumElements();
  int64_t blocks = llvm::divideCeil(elements, width);
  Value item = b.create<gpu::ThreadIdOp>(loc, gpu::Dimension::x);
  SmallVector<Value> groupCoords = index.delinearize(
      b.create<gpu::BlockIdOp>(loc, gpu::Dimension::x), {blocks, parts});
  Value block = groupCoords[0], part = groupCoords[1];
  SmallVector<Value> itemCoords = index.delinearize(item, {sharers, width});
  Value element = index.add(index.mul(block, width), itemCoords[1]);
  // The last block may reach past the elements: those work-items aggregate
  // nothing (at the last element's coordinates, so that every address is
  // valid) and store nothing.
  Value valid;
  if (elements % width != 0) {
    valid = index.lessThan(element, elements);
    element = b.createOrFold<arith::MinSIOp>(loc, element,
                                             index.constant(elements - 1));
  }
  ArrayRef<int64_t> shape = op.getType().getShape();
  SmallVector<Value> coords = index.delinearize(element, shape);

  Value identity = emitIdentity(b, loc, op.getAggregation(), resultType);
  Value sharer = index.add(index.mul(part, sharers), itemCoords[0]);
  auto emitNest = [&] {
    return ContractionNest(context, aggregator, coords)
        .emitShare(aggregator.start(identity), schedule.split, sharer,
                   sharers * parts);
  };
  SmallVector<Value> partial;
  if (!valid) {
    partial = emitNest();
  } else {
    SmallVector<Value> start = aggregator.start(identity);
    auto ifOp = b.create<scf::IfOp>(loc, ValueRange(start).getTypes(), valid,
                                    /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&ifOp.getThenRegion().front());
      b.create<scf::YieldOp>(loc, emitNest());
      b.setInsertionPointToStart(&ifOp.getElseRegion().front());
      b.create<scf::YieldOp>(loc, start);
    }
    partial.assign(ifOp.getResults().begin(), ifOp.getResults().end());
  }
  partials.store(partial, item);

  emitTree(b, loc, index, aggregator, partials, item, sharers, width);

  // The first sharer of each element (the work-items below `width`) wrote
  // the group's total itself at the last step.
  Value first =
      width == 1 ? index.cmp(arith::CmpIPredicate::eq, item, index.constant(0))
                 : index.lessThan(item, width);
  if (schedule.lastGroupCombines) {
    Type word = b.getI32Type();
    Value itemZero =
        index.cmp(arith::CmpIPredicate::eq, item, index.constant(0));
    {
      auto firstOnly =
          enterIf(b, loc, valid ? index.land(first, valid) : first);
      for (auto [value, stored] : llvm::enumerate(
               partials.load(width == 1 ? index.constant(0) : item))) {
        Value bits = stored.getType() == word
                         ? stored
                         : b.create<arith::BitcastOp>(loc, word, stored);
        emitAtomic(
            b, loc, arith::AtomicRMWKind::ori, bits, context.partials,
            emitPartialPosition(index, value, element, elements, part, parts));
      }
    }
    emitGlobalFence(b, loc);
    // Several first sharers write: each has fenced its writes, and the
    // barrier holds work-item 0's count until all of them have, or another
    // group could count last and combine a partial still unwritten (PoCL
    // runs the work-items one after another between barriers).
    if (width > 1)
      b.create<gpu::BarrierOp>(loc);
    {
      auto zeroOnly = enterIf(b, loc, itemZero);
      Value counted = emitAtomic(b, loc, arith::AtomicRMWKind::addi,
                                 b.create<arith::ConstantIntOp>(loc, 1, 32),
                                 context.counters, block);
      Value last = b.create<arith::CmpIOp>(
          loc, arith::CmpIPredicate::eq, counted,
          b.create<arith::ConstantIntOp>(loc, parts - 1, 32));
      b.create<memref::StoreOp>(loc, b.create<arith::ExtUIOp>(loc, word, last),
                                lastFlag, index.constant(0));
    }
    b.create<gpu::BarrierOp>(loc);
    Value isLast = b.create<arith::CmpIOp>(
        loc, arith::CmpIPredicate::ne,
        b.create<memref::LoadOp>(loc, lastFlag, index.constant(0)),
        b.create<arith::ConstantIntOp>(loc, 0, 32));
    auto lastOnly = enterIf(b, loc, isLast);
    emitLastGroupCombination(
        context, aggregator, index, partials,
        {coords, element, item, itemCoords[0], valid, block});
    return;
  }
  auto firstOnly = enterIf(b, loc, valid ? index.land(first, valid) : first);
  SmallVector<Value> total =
      partials.load(width == 1 ? index.constant(0) : item);
  if (parts > 1) {
    for (auto [value, stored] : llvm::enumerate(total))
      b.create<memref::StoreOp>(
          loc, stored, context.partials,
          emitPartialPosition(index, value, element, elements, part, parts));
    return;
  }
  emitElementTail(context, aggregator, index, coords, total, element);
}

void lowering::emitPartialCombination(KernelContext &context) {
  auto op = cast<tile::ContractOp>(context.group.ops[0]);
  const Schedule &schedule = context.schedule;
  OpBuilder &b = context.builder;
  Location loc = context.loc;
  Type resultType = op.getType().getElementType();
  IndexBuilder index(b, loc);
  Aggregator aggregator(b, loc, op.getAggregation(), resultType,
                        schedule.compensated);
  int64_t parts = schedule.partialGroups;
  int64_t elements = op.getType().getNumElements();
  // Many partials: the element's work-group shares them, work-item t taking
  // t, t + G, ... in order, and a tree combines the work-items'.
  int64_t items = schedule.treeCombination ? schedule.localSize[0] : 1;
  std::optional<PartialArrays> shared;
  if (schedule.treeCombination)
    shared.emplace(b, loc, aggregator, items);

  Value element, item;
  if (schedule.treeCombination) {
    element = b.create<gpu::BlockIdOp>(loc, gpu::Dimension::x);
    item = b.create<gpu::ThreadIdOp>(loc, gpu::Dimension::x);
  } else {
    element = emitGuardedLinearId(context, index);
    item = index.constant(0);
  }
  ArrayRef<int64_t> shape = op.getType().getShape();
  SmallVector<Value> coords = index.delinearize(element, shape);
  Value identity = emitIdentity(b, loc, op.getAggregation(), resultType);
  auto loop =
      b.create<scf::ForOp>(loc, item, index.constant(parts),
                           index.constant(items), aggregator.start(identity));
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    SmallVector<Value> partial;
    for (unsigned value = 0; value < aggregator.size(); ++value)
      partial.push_back(b.create<memref::LoadOp>(
          loc, context.partials,
          emitPartialPosition(index, value, element, elements,
                              loop.getInductionVar(), parts)));
    b.create<scf::YieldOp>(
        loc, aggregator.combine(loop.getRegionIterArgs(), partial));
  }
  SmallVector<Value> total(loop.getResults());
  if (schedule.treeCombination) {
    shared->store(total, item);
    emitTree(b, loc, index, aggregator, *shared, item, items);
    auto first = enterIf(
        b, loc, index.cmp(arith::CmpIPredicate::eq, item, index.constant(0)));
    emitElementTail(context, aggregator, index, coords,
                    shared->load(index.constant(0)), element);
    return;
  }
  emitElementTail(context, aggregator, index, coords, total, element);
}
