//===- OpenCLLanes.cpp - Vector arithmetic printed lane by lane -----------===//
//
// The kernel IR computes with vectors in one place: the tiled product's
// register tile, a vector of columns per row, which scf.for loops carry and
// math.fma updates (docs/kernel-ir.md). That quarters the ops that the SPIR-V
// translation and the Vulkan driver handle, but NVIDIA's OpenCL compiler ran
// the same kernel printed with float4 accumulators and vector fma() 6% to 8%
// slower (the matrix product 4096^3 and the 3x3 NCHW convolution on an H100,
// 2026-12-05; docs/codegen.md). So before printing, every lane of such a
// vector becomes a scalar of its own, as the tiled kernel was written before:
// each vector fma one scalar fma a lane, each vector a loop carries one
// scalar a lane. What remains are the loads, stores and lanes of vectors in
// memory, which OpenCL C's vector types print as they are.
//
//===----------------------------------------------------------------------===//

#include "OpenCLEmitter.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

/// The lanes of `vector`, taken out where it is defined (where the kernel
/// took the lanes of a vector it read from memory).
static SmallVector<Value> extractLanes(OpBuilder &b, Location loc,
                                       Value vector) {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointAfterValue(vector);
  int64_t width = cast<VectorType>(vector.getType()).getNumElements();
  SmallVector<Value> lanes;
  for (int64_t lane = 0; lane < width; ++lane)
    lanes.push_back(b.create<vector::ExtractOp>(loc, vector, lane));
  return lanes;
}

/// `values` with each vector among them replaced by its lanes.
static SmallVector<Value> splitIntoLanes(OpBuilder &b, Location loc,
                                         ValueRange values) {
  SmallVector<Value> split;
  for (Value value : values) {
    if (isa<VectorType>(value.getType()))
      llvm::append_range(split, extractLanes(b, loc, value));
    else
      split.push_back(value);
  }
  return split;
}

/// One scalar fma a lane, the vector rebuilt from them.
static void splitFma(math::FmaOp fma) {
  OpBuilder b(fma);
  Location loc = fma.getLoc();
  SmallVector<Value> a = extractLanes(b, loc, fma.getA());
  SmallVector<Value> x = extractLanes(b, loc, fma.getB());
  SmallVector<Value> c = extractLanes(b, loc, fma.getC());
  SmallVector<Value> lanes;
  for (auto [ai, xi, ci] : llvm::zip_equal(a, x, c))
    lanes.push_back(b.create<math::FmaOp>(loc, ai, xi, ci));
  Value vector = b.create<vector::FromElementsOp>(loc, fma.getType(), lanes);
  fma.getResult().replaceAllUsesWith(vector);
  fma.erase();
}

/// `loop` carrying a scalar a lane of each vector it carries; the vectors
/// are rebuilt from the lanes where the body and the loop's users take them.
static void splitCarriedVectors(scf::ForOp loop) {
  auto isVector = [](Type type) { return isa<VectorType>(type); };
  if (llvm::none_of(loop.getResultTypes(), isVector))
    return;
  IRRewriter rewriter(loop.getContext());
  rewriter.setInsertionPoint(loop);
  Location loc = loop.getLoc();
  auto split = rewriter.create<scf::ForOp>(
      loc, loop.getLowerBound(), loop.getUpperBound(), loop.getStep(),
      splitIntoLanes(rewriter, loc, loop.getInitArgs()));
  split->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
  Block *body = split.getBody();
  // The body's arguments as the old body saw them.
  auto rebuild = [&](ValueRange scalars, TypeRange types) {
    SmallVector<Value> values;
    for (Type type : types) {
      auto vector = dyn_cast<VectorType>(type);
      if (!vector) {
        values.push_back(scalars.front());
        scalars = scalars.drop_front();
        continue;
      }
      int64_t width = vector.getNumElements();
      values.push_back(rewriter.create<vector::FromElementsOp>(
          loc, vector, scalars.take_front(width)));
      scalars = scalars.drop_front(width);
    }
    return values;
  };
  // With iter_args and no body builder, scf.for's builder leaves the body
  // empty: the old body's yield, rewritten below, ends it.
  rewriter.setInsertionPointToStart(body);
  SmallVector<Value> arguments{split.getInductionVar()};
  llvm::append_range(arguments, rebuild(split.getRegionIterArgs(),
                                        loop.getInitArgs().getTypes()));
  rewriter.mergeBlocks(loop.getBody(), body, arguments);
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  rewriter.replaceOpWithNewOp<scf::YieldOp>(
      yield, splitIntoLanes(rewriter, loc, yield.getOperands()));
  rewriter.setInsertionPointAfter(split);
  rewriter.replaceOp(loop, rebuild(split.getResults(), loop.getResultTypes()));
}

/// A lane of a vector built of scalars, or of a scalar broadcast, is that
/// scalar; a lane taken out before in the same block is that one (the fmas
/// of a row each took the lanes of the same vector of B).
static void forwardLanes(gpu::GPUModuleOp kernels) {
  DenseMap<std::tuple<Block *, Value, int64_t>, Value> taken;
  kernels.walk([&](vector::ExtractOp extract) {
    Operation *source = extract.getVector().getDefiningOp();
    int64_t lane = extract.getStaticPosition().front();
    Value scalar;
    if (auto built = dyn_cast_or_null<vector::FromElementsOp>(source))
      scalar = built.getElements()[lane];
    else if (auto broadcast = dyn_cast_or_null<vector::BroadcastOp>(source))
      if (!isa<VectorType>(broadcast.getSourceType()))
        scalar = broadcast.getSource();
    if (!scalar) {
      auto [it, inserted] = taken.try_emplace(
          {extract->getBlock(), extract.getVector(), lane}, extract);
      if (!inserted)
        scalar = it->second;
    }
    if (scalar)
      extract.replaceAllUsesWith(scalar);
  });
  // The vectors no one takes apart any more, and their lanes, go.
  SmallVector<Operation *> ops;
  kernels.walk([&](Operation *op) {
    if (isa<vector::VectorDialect>(op->getDialect()))
      ops.push_back(op);
  });
  for (Operation *op : llvm::reverse(ops))
    if (isOpTriviallyDead(op))
      op->erase();
}

void tilec::opencl_c::splitVectorArithmetic(gpu::GPUModuleOp kernels) {
  SmallVector<math::FmaOp> fmas;
  kernels.walk([&](math::FmaOp fma) {
    if (isa<VectorType>(fma.getType()))
      fmas.push_back(fma);
  });
  if (fmas.empty())
    return;
  for (math::FmaOp fma : fmas)
    splitFma(fma);
  SmallVector<scf::ForOp> loops;
  kernels.walk([&](scf::ForOp loop) { loops.push_back(loop); });
  for (scf::ForOp loop : loops)
    splitCarriedVectors(loop);
  forwardLanes(kernels);
}
