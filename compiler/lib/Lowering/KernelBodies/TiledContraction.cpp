//===- TiledContraction.cpp - The tiled matrix-product kernel -------------===//
//
// The classic SGEMM design: a work-group computes a blockM x blockN tile of
// the output, each work-item a regM x regN register tile. The reduction
// advances blockK at a time: the work-group stages the A slice transposed
// (k-major) and the B slice in local memory, synchronises, and every
// work-item runs blockK rank-1 updates of its register tile (a loop marked
// for full unrolling), each element one fma (the contract allows fusing a
// multiply-accumulate). The register tile's rows are vectors of
// `vectorWidth` columns, updated by one vector fma each: a quarter of the
// operations for the compiler and the drivers to translate at width 4. A
// tile of fewer columns than rows (8x2) keeps its columns as vectors of
// rows instead, so that a rank-1 update broadcasts each of its few columns
// of B rather than each of its many rows of A.
//
// A work-item's rows (and columns) come in groups of `vectorWidth`
// consecutive ones, the groups strided by the work-group's extent times the
// width: each group is one vector read from local memory, neighbouring
// work-items read neighbouring vectors (no bank conflicts) and write
// neighbouring outputs. The global loads that stage a slice walk the
// operand's contiguous index across neighbouring work-items (coalesced), one
// vector per load where the schedule proved it aligned and wholly in or out
// of bounds, else one element. Loads are guarded (zero beyond M, N, K) and
// stores too, wherever an extent is not a multiple of the tile's, so any
// size works. A chunk of a split launch computes the rows (batches) from
// context.firstRow on; the schedule proved its vectors legal in its pieces.
//
// A split reduction (split-K, the schedule's partialGroups above 1) gives
// each work-group along z one part of the slices of one tile (and batch):
// it stores its tile's sums in the partials temporary, and the second
// kernel (emitPartialCombination) adds the parts, then runs the epilogue.
//
// A double-buffered schedule keeps two copies of the slices in local memory:
// each work-item loads its share of slice s + 1 into registers, the
// work-group computes slice s from one copy, and the registers are stored
// into the other copy, so the global loads' latency hides behind the rank-1
// updates and each slice needs one barrier.
//
// An implicit GEMM (ImplicitGemm.h) runs the same kernel over its flattened
// view: each staged element's flattened row (column) and k are decomposed
// into the contraction's indices, which give its address and its guards
// (an element that fails one is staged as 0), and each output's row and
// column into the output's coordinates.
//
//===----------------------------------------------------------------------===//

#include "KernelBodies/KernelBodies.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::lowering;

namespace {

class TiledContraction {
public:
  TiledContraction(KernelContext &context)
      : context(context), op(cast<tile::ContractOp>(context.group.ops[0])),
        matmul(*context.schedule.matmul),
        gemm(context.schedule.implicitGemm ? &*context.schedule.implicitGemm
                                           : nullptr),
        tile(context.schedule.tile), b(context.builder), loc(context.loc),
        index(b, loc), resultType(op.getType().getElementType()),
        computeType(getComputeType(resultType)) {}

  void emit();

private:
  /// One operand as the kernel stages it.
  struct StagedOperand {
    const DenseMatmul::Operand &operand;
    /// Consecutive elements of its contiguous index per global load.
    int64_t width;
    /// Its slices in local memory, rows of `localStride` (two copies of
    /// blockK rows when double-buffered).
    Value local;
    /// The kernel's rows (columns) of the operand end at `outerBound`,
    /// `outerExtent` of them from `outerBase`'s first value; a work-group
    /// stages `blockOuter` of them.
    Value outerBase;
    int64_t outerBound, outerExtent, blockOuter, localStride;
  };

  /// The global loads a work-item makes per slice of `staged`.
  int64_t getStageLoads(const StagedOperand &staged) const;
  /// The k and outer index, within a slice, of a work-item's `load`-th
  /// staging load: neighbouring work-items take neighbouring addresses.
  std::pair<Value, Value> getStagePosition(const StagedOperand &staged,
                                           int64_t load);
  /// A work-item's share of the k-slice from `kBase` of one operand, loaded
  /// from global memory `width` consecutive elements of its contiguous
  /// index at a time (0 where out of bounds or failing a guard).
  SmallVector<Value> emitSliceLoads(const StagedOperand &staged, Value kBase);
  /// Stores the values emitSliceLoads loaded into the copy of the slice in
  /// local memory that starts at `copyStart`.
  void emitSliceStores(const StagedOperand &staged, ValueRange loaded,
                       Value copyStart);
  /// The first k of slice `slice`.
  Value getSliceK(Value slice);
  /// The slices [firstSlice, endSlice) staged one at a time between two
  /// barriers; returns the accumulators.
  SmallVector<Value> emitSingleBufferedSlices(Value firstSlice, Value endSlice,
                                              ValueRange initial);
  /// The slices [firstSlice, endSlice) double-buffered, one barrier each;
  /// returns the accumulators.
  SmallVector<Value> emitDoubleBufferedSlices(Value firstSlice, Value endSlice,
                                              ValueRange initial);
  /// The offset from a work-item's first row (column) of its `i`-th one:
  /// groups of vectorWidth consecutive ones, strided by `threads` groups.
  int64_t getRegisterOffset(int64_t threads, int64_t i) const;
  /// The `count` register-tile operands of a work-item whose first one is
  /// at `start` in `local`, read vectorWidth at a time: as scalars where
  /// `asLanes`, else as the vectors read.
  SmallVector<Value> emitLocalReads(Value local, Value start, int64_t threads,
                                    int64_t count, bool asLanes);
  /// The type of a group of vectorWidth consecutive rows or columns of the
  /// register tile (a scalar for a width of 1): a vector read from local
  /// memory, and an accumulator (a row's group of columns, or a column's
  /// group of rows where accumulatesColumns()).
  Type getGroupType() const;
  /// Whether the accumulators are vectors of rows, one per column and group
  /// of rows: where the tile has fewer columns than rows, each rank-1 update
  /// then takes its vectors of A as read and broadcasts the lanes of B.
  bool accumulatesColumns() const;
  /// The accumulator that holds output (row r, column c), and its lane: the
  /// one layout of the register tile, for its updates and its stores.
  std::pair<int64_t, int64_t> getAccumulatorLane(int64_t r, int64_t c) const;
  /// blockK rank-1 updates of the register tile from the copy of the
  /// slices where a work-item's first row of A is at `startA` and its first
  /// column of B at `startB`.
  SmallVector<Value> emitSliceProduct(ValueRange accumulators, Value startA,
                                      Value startB);
  /// Combines, runs the epilogue and stores output (row r, column c); of a
  /// split reduction, stores the part's sum in the partials.
  void emitOutput(unsigned r, unsigned c, Value accumulator);
  /// An implicit GEMM's output position (C order in `shape`) from its index
  /// variables, as the sum of its row's part and its column's part.
  Value emitImplicitGemmOutputPosition(ArrayRef<Value> vars,
                                       ArrayRef<int64_t> shape);
  /// `a && b`, where a null condition is true (a guard proven unneeded).
  Value emitBoth(Value a, Value b);
  /// `position < bound`, or null when `extent % blockExtent == 0` proves
  /// that every position the tiles reach is below `bound`.
  Value emitBoundCheck(Value position, int64_t bound, int64_t extent,
                       int64_t blockExtent);

  KernelContext &context;
  tile::ContractOp op;
  const DenseMatmul &matmul;
  /// Set for an implicit GEMM, which `matmul` views.
  const ImplicitGemm *gemm;
  const TileSizes &tile;
  OpBuilder &b;
  Location loc;
  IndexBuilder index;
  Type resultType, computeType;
  std::optional<StagedOperand> stagedA, stagedB;
  Value threadLinear, batch, rowBase, colBase;
  /// The part of a split reduction this work-group computes (null: whole).
  Value part;
  /// A work-item's first row and column within the work-group's tile.
  Value rowOffset, colOffset;
  int64_t threadsX = 0, threadsY = 0;
  /// The end of the rows this kernel computes.
  int64_t rowEnd = 0;
};

} // namespace

Value TiledContraction::emitBoth(Value a, Value b) {
  if (!a)
    return b;
  if (!b)
    return a;
  return index.land(a, b);
}

Value TiledContraction::emitBoundCheck(Value position, int64_t bound,
                                       int64_t extent, int64_t blockExtent) {
  if (extent % blockExtent == 0)
    return Value();
  return index.lessThan(position, bound);
}

int64_t TiledContraction::getStageLoads(const StagedOperand &staged) const {
  return staged.blockOuter * tile.blockK / (threadsX * threadsY * staged.width);
}

std::pair<Value, Value>
TiledContraction::getStagePosition(const StagedOperand &staged, int64_t load) {
  bool alongK = staged.operand.kStride == 1;
  int64_t fastExtent =
      (alongK ? tile.blockK : staged.blockOuter) / staged.width;
  int64_t step = load * threadsX * threadsY;
  // Where the loads advance by whole rows of the slice, each keeps the
  // work-item's first fast position and moves the slow one by a constant:
  // all share one remainder and one quotient, and an implicit GEMM one
  // decomposition of that k (or row), not one per load.
  Value element = step % fastExtent == 0
                      ? threadLinear
                      : index.add(threadLinear, index.constant(step));
  Value extent = index.constant(fastExtent);
  Value fast =
      index.mul(index.create<arith::RemSIOp>(element, extent), staged.width);
  Value slow = index.create<arith::DivSIOp>(element, extent);
  if (step % fastExtent == 0)
    slow = index.add(slow, index.constant(step / fastExtent));
  return alongK ? std::pair{fast, slow} : std::pair{slow, fast};
}

SmallVector<Value> TiledContraction::emitSliceLoads(const StagedOperand &staged,
                                                    Value kBase) {
  const DenseMatmul::Operand &operand = staged.operand;
  int64_t width = staged.width;
  Value buffer = context.bufferOf(op.getInputs()[operand.input]);
  Type operandType =
      cast<RankedTensorType>(op.getInputs()[operand.input].getType())
          .getElementType();
  Type loadedType =
      width > 1 ? VectorType::get({width}, computeType) : computeType;
  Value base = index.add(index.constant(operand.constant),
                         index.mul(batch, operand.batchStride));
  // Slices start at multiples of blockK: where blockK divides the range of
  // K's innermost index, a slice lies in one run of it. An outer product
  // has no K index.
  bool sliceInInnermost =
      gemm && !gemm->k.empty() && gemm->k.back().extent % tile.blockK == 0;
  SmallVector<Value> values;
  for (int64_t load = 0, loads = getStageLoads(staged); load < loads; ++load) {
    auto [k, outer] = getStagePosition(staged, load);
    Value globalOuter = index.add(staged.outerBase, outer);
    Value globalK = index.add(kBase, k);
    // The schedule chose `width` so that a vector is wholly in or out of
    // bounds: checking its first element checks all.
    Value outerInBounds = emitBoundCheck(globalOuter, staged.outerBound,
                                         staged.outerExtent, staged.blockOuter);
    Value kInBounds = emitBoundCheck(globalK, matmul.kBegin + matmul.k,
                                     matmul.k, tile.blockK);
    Value inBounds = emitBoth(outerInBounds, kInBounds);
    // An implicit GEMM's address, its guards beside the bound checks.
    Value implicitAddress;
    if (gemm) {
      auto [address, valid] =
          emitImplicitGemmAccess(index, *gemm, &operand == &matmul.a, batch,
                                 globalOuter, kBase, k, sliceInInnermost);
      implicitAddress = address;
      inBounds = emitBoth(inBounds, valid);
    }
    auto emitGlobalLoad = [&]() -> Value {
      Value address =
          gemm
              ? implicitAddress
              : index.add(base,
                          index.add(index.mul(globalOuter, operand.outerStride),
                                    index.mul(globalK, operand.kStride)));
      if (width == 1)
        return emitLoad(b, loc, buffer, address, operandType);
      return b.create<vector::LoadOp>(loc, loadedType, buffer,
                                      ValueRange{address});
    };
    if (!inBounds) {
      values.push_back(emitGlobalLoad());
      continue;
    }
    auto ifOp = b.create<scf::IfOp>(loc, loadedType, inBounds,
                                    /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    b.create<scf::YieldOp>(loc, emitGlobalLoad());
    b.setInsertionPointToStart(&ifOp.getElseRegion().front());
    Value zero = emitIdentity(b, loc, tile::AggregationKind::Add, resultType);
    if (width > 1)
      zero = b.create<vector::BroadcastOp>(loc, loadedType, zero);
    b.create<scf::YieldOp>(loc, zero);
    values.push_back(ifOp.getResult(0));
  }
  return values;
}

void TiledContraction::emitSliceStores(const StagedOperand &staged,
                                       ValueRange loaded, Value copyStart) {
  bool alongK = staged.operand.kStride == 1;
  int64_t width = staged.width;
  for (auto [load, value] : llvm::enumerate(loaded)) {
    auto [k, outer] = getStagePosition(staged, load);
    Value position = index.add(
        copyStart, index.add(index.mul(k, staged.localStride), outer));
    if (width == 1) {
      b.create<memref::StoreOp>(loc, value, staged.local, position);
    } else if (!alongK) {
      // Along the outer index local memory has the global layout.
      b.create<vector::StoreOp>(loc, value, staged.local, ValueRange{position});
    } else {
      // Along k, the lanes are transposed into consecutive rows.
      // Named locals fix the order of the ops (C++ leaves the order of
      // sibling arguments unspecified).
      for (int64_t lane = 0; lane < width; ++lane) {
        Value row =
            index.add(position, index.constant(lane * staged.localStride));
        Value element = b.create<vector::ExtractOp>(loc, value, lane);
        b.create<memref::StoreOp>(loc, element, staged.local, row);
      }
    }
  }
}

int64_t TiledContraction::getRegisterOffset(int64_t threads, int64_t i) const {
  int64_t width = tile.vectorWidth;
  return i / width * threads * width + i % width;
}

SmallVector<Value> TiledContraction::emitLocalReads(Value local, Value start,
                                                    int64_t threads,
                                                    int64_t count,
                                                    bool asLanes) {
  int64_t width = tile.vectorWidth;
  SmallVector<Value> values;
  for (int64_t i = 0; i < count; i += width) {
    Value position =
        index.add(start, index.constant(getRegisterOffset(threads, i)));
    if (width == 1) {
      values.push_back(b.create<memref::LoadOp>(loc, local, position));
      continue;
    }
    Value vector = b.create<vector::LoadOp>(loc, getGroupType(), local,
                                            ValueRange{position});
    if (!asLanes) {
      values.push_back(vector);
      continue;
    }
    for (int64_t lane = 0; lane < width; ++lane)
      values.push_back(b.create<vector::ExtractOp>(loc, vector, lane));
  }
  return values;
}

Type TiledContraction::getGroupType() const {
  if (tile.vectorWidth == 1)
    return computeType;
  return VectorType::get({tile.vectorWidth}, computeType);
}

bool TiledContraction::accumulatesColumns() const {
  return tile.vectorWidth > 1 && tile.regN < tile.regM;
}

std::pair<int64_t, int64_t>
TiledContraction::getAccumulatorLane(int64_t r, int64_t c) const {
  int64_t width = tile.vectorWidth;
  if (accumulatesColumns())
    return {(c * tile.regM + r) / width, r % width};
  return {(r * tile.regN + c) / width, c % width};
}

SmallVector<Value> TiledContraction::emitSliceProduct(ValueRange initial,
                                                      Value startA,
                                                      Value startB) {
  auto loop =
      b.create<scf::ForOp>(loc, index.constant(0), index.constant(tile.blockK),
                           index.constant(1), initial);
  // Carrying the register tile, it is unrolled (docs/kernel-ir.md).
  loop->setAttr("tile.unroll", b.getUnitAttr());
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value k = loop.getInductionVar();
  bool columns = accumulatesColumns();
  SmallVector<Value> a = emitLocalReads(
      stagedA->local, index.add(index.mul(k, tile.strideA), startA), threadsY,
      tile.regM, /*asLanes=*/!columns);
  SmallVector<Value> bVectors = emitLocalReads(
      stagedB->local, index.add(index.mul(k, tile.strideB), startB), threadsX,
      tile.regN, /*asLanes=*/columns);
  SmallVector<Value> next;
  ValueRange accumulators = loop.getRegionIterArgs();
  Type groupType = getGroupType();
  if (columns) {
    // Here `bVectors` holds B's lanes and `a` the vectors of A's rows.
    for (int64_t c = 0; c < tile.regN; ++c) {
      Value column = b.create<vector::BroadcastOp>(loc, groupType, bVectors[c]);
      for (auto [group, aVector] : llvm::enumerate(a)) {
        int64_t r = group * tile.vectorWidth;
        next.push_back(b.create<math::FmaOp>(
            loc, aVector, column,
            accumulators[getAccumulatorLane(r, c).first]));
      }
    }
    b.create<scf::YieldOp>(loc, next);
    return SmallVector<Value>(loop.getResults());
  }
  for (int64_t r = 0; r < tile.regM; ++r) {
    Value row = a[r];
    if (tile.vectorWidth > 1)
      row = b.create<vector::BroadcastOp>(loc, groupType, row);
    for (auto [group, bVector] : llvm::enumerate(bVectors)) {
      // One correctly rounded fma per multiply-accumulate (docs/codegen.md),
      // a vector of them per group of columns.
      int64_t c = group * tile.vectorWidth;
      next.push_back(b.create<math::FmaOp>(
          loc, row, bVector, accumulators[getAccumulatorLane(r, c).first]));
    }
  }
  b.create<scf::YieldOp>(loc, next);
  return SmallVector<Value>(loop.getResults());
}

void TiledContraction::emitOutput(unsigned r, unsigned c, Value accumulator) {
  Value row = index.add(
      rowBase,
      index.add(rowOffset, index.constant(getRegisterOffset(threadsY, r))));
  Value col = index.add(
      colBase,
      index.add(colOffset, index.constant(getRegisterOffset(threadsX, c))));
  Value rowInBounds = emitBoundCheck(row, rowEnd, matmul.m, tile.blockM);
  Value colInBounds = emitBoundCheck(col, matmul.n, matmul.n, tile.blockN);
  Value inBounds = emitBoth(rowInBounds, colInBounds);
  OpBuilder::InsertionGuard insertion(b);
  if (inBounds) {
    auto guard = b.create<scf::IfOp>(loc, inBounds, /*withElseRegion=*/false);
    b.setInsertionPointToStart(&guard.getThenRegion().front());
  }
  SmallVector<Value> coords;
  ArrayRef<int64_t> shape = op.getType().getShape();
  SmallVector<Value> vars(gemm ? gemm->numIndices : 0);
  if (gemm) {
    emitImplicitGemmDecompose(index, gemm->m, row, vars);
    emitImplicitGemmDecompose(index, gemm->n, col, vars);
    if (matmul.batched)
      emitImplicitGemmDecompose(index, gemm->batch, batch, vars);
    for (unsigned var : gemm->outputVars)
      coords.push_back(vars[var]);
  } else {
    if (matmul.batched)
      coords.push_back(batch);
    coords.push_back(row);
    coords.push_back(col);
  }
  Value linear;
  if (gemm) {
    linear = emitImplicitGemmOutputPosition(vars, shape);
  } else {
    int64_t rows = shape[shape.size() - 2];
    linear = index.add(
        index.mul(index.add(index.mul(batch, rows), row), matmul.n), col);
  }
  if (part) {
    b.create<memref::StoreOp>(
        loc, accumulator, context.partials,
        emitPartialPosition(index, 0, linear, op.getType().getNumElements(),
                            part, context.schedule.partialGroups));
    return;
  }
  ElementEvaluator evaluator(index, shape, coords, context.bufferOf);
  Value result = accumulator;
  if (Value init = op.getInit())
    result = emitAggregate(b, loc, tile::AggregationKind::Add, resultType,
                           evaluator.get(init), result);
  evaluator.define(op.getResult(), emitRound(b, loc, result, resultType));
  emitGroupTail(context, evaluator, 1, linear);
}

Value TiledContraction::emitImplicitGemmOutputPosition(
    ArrayRef<Value> vars, ArrayRef<int64_t> shape) {
  // Summed side by side, a work-item's regM x regN stores share each row's
  // part and each column's and add one to the other: one add a store,
  // where a sum of the output's terms in C order took one a term.
  Value rowPart = index.constant(0), colPart = index.constant(0);
  int64_t stride = 1;
  for (unsigned i = shape.size(); i-- > 0; stride *= shape[i]) {
    // An extent of 1 has only coordinate 0.
    if (shape[i] == 1)
      continue;
    unsigned var = gemm->outputVars[i];
    Value term = index.mul(vars[var], stride);
    if (llvm::any_of(gemm->n, [&](const ImplicitGemm::Dim &dim) {
          return dim.var == var;
        }))
      colPart = index.add(colPart, term);
    else
      rowPart = index.add(rowPart, term);
  }
  return index.add(rowPart, colPart);
}

Value TiledContraction::getSliceK(Value slice) {
  return index.add(index.constant(matmul.kBegin),
                   index.mul(slice, tile.blockK));
}

SmallVector<Value>
TiledContraction::emitSingleBufferedSlices(Value firstSlice, Value endSlice,
                                           ValueRange initial) {
  auto loop = b.create<scf::ForOp>(loc, firstSlice, endSlice, index.constant(1),
                                   initial);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value kBase = getSliceK(loop.getInductionVar());
  SmallVector<Value> loadedA = emitSliceLoads(*stagedA, kBase);
  SmallVector<Value> loadedB = emitSliceLoads(*stagedB, kBase);
  Value copyStart = index.constant(0);
  emitSliceStores(*stagedA, loadedA, copyStart);
  emitSliceStores(*stagedB, loadedB, copyStart);
  b.create<gpu::BarrierOp>(loc);
  SmallVector<Value> next =
      emitSliceProduct(loop.getRegionIterArgs(), rowOffset, colOffset);
  // The next slice overwrites local memory only after everyone read it.
  b.create<gpu::BarrierOp>(loc);
  b.create<scf::YieldOp>(loc, next);
  return SmallVector<Value>(loop.getResults());
}

SmallVector<Value>
TiledContraction::emitDoubleBufferedSlices(Value firstSlice, Value endSlice,
                                           ValueRange initial) {
  Value zero = index.constant(0);
  Value lastSlice =
      b.createOrFold<arith::SubIOp>(loc, endSlice, index.constant(1));
  // The prologue stages the first slice into the first copy (where there is
  // one: an empty range stages nothing and loops zero times).
  {
    OpBuilder::InsertionGuard guard(b);
    std::optional<int64_t> first = getConstantIntValue(firstSlice);
    std::optional<int64_t> end = getConstantIntValue(endSlice);
    if (!first || !end || *first >= *end) {
      auto nonEmpty = b.create<scf::IfOp>(
          loc, index.cmp(arith::CmpIPredicate::slt, firstSlice, endSlice),
          /*withElseRegion=*/false);
      b.setInsertionPointToStart(&nonEmpty.getThenRegion().front());
    }
    Value kBase = getSliceK(firstSlice);
    SmallVector<Value> loadedA = emitSliceLoads(*stagedA, kBase);
    SmallVector<Value> loadedB = emitSliceLoads(*stagedB, kBase);
    emitSliceStores(*stagedA, loadedA, zero);
    emitSliceStores(*stagedB, loadedB, zero);
  }
  b.create<gpu::BarrierOp>(loc);

  // The loop counts the slices t from 0, slice firstSlice + t being read
  // from copy t % 2: unrolled by 2 from 0, the pair's copies are constants
  // (0 and 1), and every local address is a work-item's base plus a constant.
  Value count = b.createOrFold<arith::SubIOp>(loc, endSlice, firstSlice);
  auto loop =
      b.create<scf::ForOp>(loc, zero, count, index.constant(1), initial);
  // NVIDIA's Vulkan compiler runs the pairs faster (matmul 4096^3: 3.43 to
  // 3.13 ms on the H200); its OpenCL compiler ran OpenCL C with the pairs
  // written out 15 to 17% slower (docs/codegen.md, "Vulkan and OpenCL
  // speed"), so the OpenCL C printer leaves it a loop.
  loop->setAttr("tile.unroll_factor", b.getI64IntegerAttr(2));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value sliceIndex = loop.getInductionVar();
  Value slice = index.add(firstSlice, sliceIndex);
  // Slice s + 1's global loads go out first, so that their latency hides
  // behind slice s's rank-1 updates. The last slice loads itself again
  // rather than reading past the range: no branch, and always in bounds.
  Value nextK =
      getSliceK(index.min(index.add(slice, index.constant(1)), lastSlice));
  SmallVector<Value> loadedA = emitSliceLoads(*stagedA, nextK);
  SmallVector<Value> loadedB = emitSliceLoads(*stagedB, nextK);
  int64_t copyA = tile.blockK * tile.strideA;
  int64_t copyB = tile.blockK * tile.strideB;
  // Slice s is in copy t % 2; slice s + 1 goes to the other.
  Value parity =
      b.createOrFold<arith::RemUIOp>(loc, sliceIndex, index.constant(2));
  Value readA = index.mul(parity, copyA);
  Value readB = index.mul(parity, copyB);
  SmallVector<Value> next =
      emitSliceProduct(loop.getRegionIterArgs(), index.add(rowOffset, readA),
                       index.add(colOffset, readB));
  Value writeA =
      b.createOrFold<arith::SubIOp>(loc, index.constant(copyA), readA);
  Value writeB =
      b.createOrFold<arith::SubIOp>(loc, index.constant(copyB), readB);
  emitSliceStores(*stagedA, loadedA, writeA);
  emitSliceStores(*stagedB, loadedB, writeB);
  // One barrier per slice is enough. It orders this slice's stores into the
  // other copy before the next slice's reads of it. And the next slice's
  // stores go into the copy read here, which every work-item has finished
  // reading once it has passed this barrier; the copy they read next was
  // last written before the previous barrier.
  b.create<gpu::BarrierOp>(loc);
  b.create<scf::YieldOp>(loc, next);
  return SmallVector<Value>(loop.getResults());
}

void TiledContraction::emit() {
  threadsX = context.schedule.localSize[0];
  threadsY = context.schedule.localSize[1];
  // Workgroup memory comes first in the kernel (docs/kernel-ir.md).
  Attribute workgroupSpace = b.getI64IntegerAttr(3);
  int64_t copies = tile.doubleBuffered ? 2 : 1;
  auto allocLocal = [&](int64_t stride) -> Value {
    return b.create<memref::AllocOp>(
        loc, MemRefType::get({copies * tile.blockK * stride}, computeType,
                             MemRefLayoutAttrInterface(), workgroupSpace));
  };
  Value localA = allocLocal(tile.strideA);
  Value localB = allocLocal(tile.strideB);

  Value threadX = b.create<gpu::ThreadIdOp>(loc, gpu::Dimension::x);
  Value threadY = b.create<gpu::ThreadIdOp>(loc, gpu::Dimension::y);
  threadLinear = index.add(index.mul(threadY, threadsX), threadX);
  rowOffset = index.mul(threadY, tile.vectorWidth);
  colOffset = index.mul(threadX, tile.vectorWidth);
  int64_t firstBatch = matmul.batched ? context.firstRow : 0;
  int64_t firstRow = matmul.batched ? 0 : context.firstRow;
  rowEnd = firstRow + matmul.m;
  // Along z: the batch and, of a split reduction, the part.
  Value groupZ = b.create<gpu::BlockIdOp>(loc, gpu::Dimension::z);
  int64_t parts = context.schedule.partialGroups;
  if (parts > 1) {
    SmallVector<Value> zCoords =
        index.delinearize(groupZ, {matmul.batch, parts});
    groupZ = zCoords[0];
    part = zCoords[1];
  }
  batch = matmul.batched ? index.add(groupZ, index.constant(firstBatch))
                         : index.constant(0);
  rowBase = index.add(
      index.constant(firstRow),
      index.mul(b.create<gpu::BlockIdOp>(loc, gpu::Dimension::y), tile.blockM));
  colBase =
      index.mul(b.create<gpu::BlockIdOp>(loc, gpu::Dimension::x), tile.blockN);
  stagedA.emplace(StagedOperand{matmul.a, tile.stageWidthA, localA, rowBase,
                                rowEnd, matmul.m, tile.blockM, tile.strideA});
  stagedB.emplace(StagedOperand{matmul.b, tile.stageWidthB, localB, colBase,
                                matmul.n, matmul.n, tile.blockN, tile.strideB});

  // A work-item's accumulators are a vector per row and group of columns
  // (or per column and group of rows).
  Value zero = emitIdentity(b, loc, tile::AggregationKind::Add, resultType);
  if (tile.vectorWidth > 1)
    zero = b.create<vector::BroadcastOp>(loc, getGroupType(), zero);
  SmallVector<Value> zeros(tile.regM * tile.regN / tile.vectorWidth, zero);
  // The slices of the reduction, or of the work-group's part of it (the
  // scheduler made every part nonempty).
  int64_t slices = llvm::divideCeil(matmul.k, tile.blockK);
  Value firstSlice = index.constant(0), endSlice = index.constant(slices);
  if (part) {
    int64_t perPart = llvm::divideCeil(slices, parts);
    firstSlice = index.mul(part, perPart);
    endSlice =
        index.min(index.add(firstSlice, index.constant(perPart)), endSlice);
  }
  SmallVector<Value> accumulators =
      tile.doubleBuffered
          ? emitDoubleBufferedSlices(firstSlice, endSlice, zeros)
          : emitSingleBufferedSlices(firstSlice, endSlice, zeros);
  for (int64_t r = 0; r < tile.regM; ++r)
    for (int64_t c = 0; c < tile.regN; ++c) {
      auto [vector, lane] = getAccumulatorLane(r, c);
      Value accumulator = accumulators[vector];
      if (tile.vectorWidth > 1)
        accumulator = b.create<vector::ExtractOp>(loc, accumulator, lane);
      emitOutput(r, c, accumulator);
    }
}

void lowering::emitTiledContraction(KernelContext &context) {
  TiledContraction(context).emit();
}
