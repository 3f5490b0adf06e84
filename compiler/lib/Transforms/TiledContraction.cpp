//===- TiledContraction.cpp - The tiled matrix-product kernel -------------===//
//
// The classic SGEMM design: a work-group computes a blockM x blockN tile of
// the output, each work-item a regM x regN register tile whose rows and
// columns are strided by the work-group's extent (so that neighbouring
// work-items read neighbouring local memory words and write neighbouring
// output elements). The reduction advances blockK at a time: the work-group
// stages the A slice transposed (k-major) and the B slice in local memory,
// synchronises, and every work-item runs blockK rank-1 updates of its
// register tile, fully unrolled. Loads are guarded (zero beyond M, N, K), so
// any size works, and a global load walks the operand's contiguous index
// across neighbouring work-items (coalesced). A chunk of a split launch
// computes the rows (batches) from context.firstRow on.
//
//===----------------------------------------------------------------------===//

#include "KernelBodies.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::lowering;

namespace {

class TiledContraction {
public:
  TiledContraction(KernelContext &context)
      : context(context), op(cast<tile::ContractOp>(context.group.ops[0])),
        matmul(*context.schedule.matmul), tile(context.schedule.tile),
        b(context.builder), loc(context.loc), index(b, loc),
        resultType(op.getType().getElementType()),
        computeType(getComputeType(resultType)) {}

  void emit();

private:
  /// Copies the current k-slice of one operand into local memory.
  void emitStageOperand(const DenseMatmul::Operand &operand, Value local,
                        Value outerBase, int64_t outerExtent,
                        int64_t blockOuter, int64_t localStride, Value kBase);
  /// blockK rank-1 updates of the register tile.
  SmallVector<Value> emitSliceProduct(ValueRange accumulators);
  /// Combines, runs the epilogue and stores output (row r, column c).
  void emitOutput(unsigned r, unsigned c, Value accumulator);

  KernelContext &context;
  tile::ContractOp op;
  const DenseMatmul &matmul;
  const TileSizes &tile;
  OpBuilder &b;
  Location loc;
  IndexBuilder index;
  Type resultType, computeType;
  Value localA, localB;
  Value threadX, threadY, threadLinear, batch, rowBase, colBase;
  int64_t threadsX = 0, threadsY = 0;
  /// The end of the rows this kernel computes.
  int64_t rowEnd = 0;
};

} // namespace

void TiledContraction::emitStageOperand(const DenseMatmul::Operand &operand,
                                        Value local, Value outerBase,
                                        int64_t outerExtent, int64_t blockOuter,
                                        int64_t localStride, Value kBase) {
  int64_t threads = threadsX * threadsY;
  int64_t perThread = blockOuter * tile.blockK / threads;
  // Neighbouring work-items take neighbouring addresses of the operand.
  bool alongK = operand.kStride == 1;
  Value buffer = context.bufferOf(op.getInputs()[operand.input]);
  Type operandType =
      cast<RankedTensorType>(op.getInputs()[operand.input].getType())
          .getElementType();
  Value base = index.add(index.constant(operand.constant),
                         index.mul(batch, operand.batchStride));
  for (int64_t step = 0; step < perThread; ++step) {
    Value element = index.add(threadLinear, index.constant(step * threads));
    int64_t fastExtent = alongK ? tile.blockK : blockOuter;
    Value fast = b.createOrFold<arith::RemSIOp>(loc, element,
                                                index.constant(fastExtent));
    Value slow = b.createOrFold<arith::DivSIOp>(loc, element,
                                                index.constant(fastExtent));
    Value k = alongK ? fast : slow;
    Value outer = alongK ? slow : fast;
    Value globalOuter = index.add(outerBase, outer);
    Value globalK = index.add(kBase, k);
    Value inBounds =
        index.land(index.lessThan(globalOuter, outerExtent),
                   index.lessThan(globalK, matmul.kBegin + matmul.k));
    auto ifOp = b.create<scf::IfOp>(loc, computeType, inBounds,
                                    /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&ifOp.getThenRegion().front());
      Value address =
          index.add(base, index.add(index.mul(globalOuter, operand.outerStride),
                                    index.mul(globalK, operand.kStride)));
      b.create<scf::YieldOp>(loc,
                             emitLoad(b, loc, buffer, address, operandType));
      b.setInsertionPointToStart(&ifOp.getElseRegion().front());
      b.create<scf::YieldOp>(
          loc, emitIdentity(b, loc, tile::AggregationKind::Add, resultType));
    }
    Value position = index.add(index.mul(k, localStride), outer);
    b.create<memref::StoreOp>(loc, ifOp.getResult(0), local, position);
  }
}

SmallVector<Value> TiledContraction::emitSliceProduct(ValueRange initial) {
  auto loop =
      b.create<scf::ForOp>(loc, index.constant(0), index.constant(tile.blockK),
                           index.constant(1), initial);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value k = loop.getInductionVar();
  Value rowA = index.mul(k, tile.strideA);
  Value rowB = index.mul(k, tile.strideB);
  SmallVector<Value> a, bValues;
  for (int64_t r = 0; r < tile.regM; ++r)
    a.push_back(b.create<memref::LoadOp>(
        loc, localA,
        ValueRange{index.add(
            rowA, index.add(threadY, index.constant(r * threadsY)))}));
  for (int64_t c = 0; c < tile.regN; ++c)
    bValues.push_back(b.create<memref::LoadOp>(
        loc, localB,
        ValueRange{index.add(
            rowB, index.add(threadX, index.constant(c * threadsX)))}));
  SmallVector<Value> next;
  ValueRange accumulators = loop.getRegionIterArgs();
  for (int64_t r = 0; r < tile.regM; ++r)
    for (int64_t c = 0; c < tile.regN; ++c) {
      Value product = b.create<arith::MulFOp>(loc, a[r], bValues[c]);
      next.push_back(b.create<arith::AddFOp>(
          loc, accumulators[r * tile.regN + c], product));
    }
  b.create<scf::YieldOp>(loc, next);
  return SmallVector<Value>(loop.getResults());
}

void TiledContraction::emitOutput(unsigned r, unsigned c, Value accumulator) {
  Value row =
      index.add(rowBase, index.add(threadY, index.constant(r * threadsY)));
  Value col =
      index.add(colBase, index.add(threadX, index.constant(c * threadsX)));
  Value inBounds =
      index.land(index.lessThan(row, rowEnd), index.lessThan(col, matmul.n));
  auto guard = b.create<scf::IfOp>(loc, inBounds, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard insertion(b);
  b.setInsertionPointToStart(&guard.getThenRegion().front());
  SmallVector<Value> coords;
  if (matmul.batched)
    coords.push_back(batch);
  coords.push_back(row);
  coords.push_back(col);
  ArrayRef<int64_t> shape = op.getType().getShape();
  ElementEvaluator evaluator(index, shape, coords, context.bufferOf);
  Value result = accumulator;
  if (Value init = op.getInit())
    result = emitAggregate(b, loc, tile::AggregationKind::Add, resultType,
                           evaluator.get(init), result);
  evaluator.define(op.getResult(), emitRound(b, loc, result, resultType));
  int64_t rows = shape[shape.size() - 2];
  Value linear = index.add(
      index.mul(index.add(index.mul(batch, rows), row), matmul.n), col);
  emitGroupTail(context, evaluator, 1, linear);
}

void TiledContraction::emit() {
  threadsX = context.schedule.localSize[0];
  threadsY = context.schedule.localSize[1];
  // Workgroup memory comes first in the kernel (docs/kernel-ir.md).
  Attribute workgroupSpace = b.getI64IntegerAttr(3);
  auto localType = [&](int64_t stride) {
    return MemRefType::get({tile.blockK * stride}, computeType,
                           MemRefLayoutAttrInterface(), workgroupSpace);
  };
  localA = b.create<memref::AllocOp>(loc, localType(tile.strideA));
  localB = b.create<memref::AllocOp>(loc, localType(tile.strideB));

  threadX = b.create<gpu::ThreadIdOp>(loc, gpu::Dimension::x);
  threadY = b.create<gpu::ThreadIdOp>(loc, gpu::Dimension::y);
  threadLinear = index.add(index.mul(threadY, threadsX), threadX);
  int64_t firstBatch = matmul.batched ? context.firstRow : 0;
  int64_t firstRow = matmul.batched ? 0 : context.firstRow;
  rowEnd = firstRow + matmul.m;
  batch = matmul.batched
              ? index.add(b.create<gpu::BlockIdOp>(loc, gpu::Dimension::z),
                          index.constant(firstBatch))
              : index.constant(0);
  rowBase = index.add(
      index.constant(firstRow),
      index.mul(b.create<gpu::BlockIdOp>(loc, gpu::Dimension::y), tile.blockM));
  colBase =
      index.mul(b.create<gpu::BlockIdOp>(loc, gpu::Dimension::x), tile.blockN);

  SmallVector<Value> zeros(
      tile.regM * tile.regN,
      emitIdentity(b, loc, tile::AggregationKind::Add, resultType));
  int64_t slices = llvm::divideCeil(matmul.k, tile.blockK);
  auto loop = b.create<scf::ForOp>(
      loc, index.constant(0), index.constant(slices), index.constant(1), zeros);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value kBase = index.add(index.constant(matmul.kBegin),
                            index.mul(loop.getInductionVar(), tile.blockK));
    emitStageOperand(matmul.a, localA, rowBase, rowEnd, tile.blockM,
                     tile.strideA, kBase);
    emitStageOperand(matmul.b, localB, colBase, matmul.n, tile.blockN,
                     tile.strideB, kBase);
    b.create<gpu::BarrierOp>(loc);
    SmallVector<Value> next = emitSliceProduct(loop.getRegionIterArgs());
    // The next slice overwrites local memory only after everyone read it.
    b.create<gpu::BarrierOp>(loc);
    b.create<scf::YieldOp>(loc, next);
  }
  for (int64_t r = 0; r < tile.regM; ++r)
    for (int64_t c = 0; c < tile.regN; ++c)
      emitOutput(r, c, loop.getResult(r * tile.regN + c));
}

void lowering::emitTiledContraction(KernelContext &context) {
  TiledContraction(context).emit();
}
