//===- ImplicitGemmAccess.cpp - Addresses of an implicit GEMM's elements --===//
//
// The tiled kernel runs an implicit GEMM (ImplicitGemm.h) as a dense
// product of flattened indices; these helpers turn a flattened position
// back into the contraction's index variables (division and remainder by
// constants, unsigned: the positions are never negative), an operand's
// address and its guards. The kernel calls them in its staging loads and
// its stores only, never in the multiply-accumulate loop.
//
//===----------------------------------------------------------------------===//

#include "KernelBodies/KernelBodies.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::lowering;

void lowering::emitImplicitGemmDecompose(
    IndexBuilder &index, const std::vector<ImplicitGemm::Dim> &dims, Value flat,
    SmallVectorImpl<Value> &vars) {
  for (unsigned i = dims.size(); i-- > 0;) {
    const ImplicitGemm::Dim &dim = dims[i];
    Value value = flat;
    if (i > 0) {
      Value extent = index.constant(dim.extent);
      value = index.create<arith::RemUIOp>(flat, extent);
      flat = index.create<arith::DivUIOp>(flat, extent);
    }
    vars[dim.var] = index.add(value, index.constant(dim.first));
  }
}

/// sum coeffs[v] * vars[v] + constant.
static Value emitAffine(IndexBuilder &index, const ImplicitGemm::Affine &expr,
                        ArrayRef<Value> vars) {
  Value sum = index.constant(expr.constant);
  for (unsigned v = 0; v < expr.coeffs.size(); ++v)
    if (expr.coeffs[v] != 0)
      sum = index.add(sum, index.mul(vars[v], expr.coeffs[v]));
  return sum;
}

/// Whether `operand`'s address is linear in the flattened position of
/// `dims` (each index's stride is the next inner one's times its extent, as
/// a filter's (ky, kx, c) in HWCK) and no guard reads those indices: then
/// the address needs no decomposition.
static bool isLinearIn(const ImplicitGemm::Operand &operand,
                       const std::vector<ImplicitGemm::Dim> &dims) {
  for (unsigned i = 0; i + 1 < dims.size(); ++i)
    if (operand.address.coeffs[dims[i].var] !=
        operand.address.coeffs[dims[i + 1].var] * dims[i + 1].extent)
      return false;
  return llvm::none_of(dims, [&](const ImplicitGemm::Dim &dim) {
    return isReadByGuard(operand, dim.var);
  });
}

std::pair<Value, Value> lowering::emitImplicitGemmAccess(
    IndexBuilder &index, const ImplicitGemm &gemm, bool isA, Value batch,
    Value outer, Value kSlice, Value kOffset, bool sliceInInnermost) {
  const ImplicitGemm::Operand &operand = isA ? gemm.a : gemm.b;
  SmallVector<Value> vars(gemm.numIndices);
  // The address of the linear sides' first elements, and the rest's
  // variables decomposed.
  ImplicitGemm::Affine rest = operand.address;
  Value linear = index.constant(0);
  auto addSide = [&](const std::vector<ImplicitGemm::Dim> &dims, Value flat) {
    if (dims.empty())
      return;
    if (!isLinearIn(operand, dims)) {
      emitImplicitGemmDecompose(index, dims, flat, vars);
      return;
    }
    for (const ImplicitGemm::Dim &dim : dims) {
      rest.constant += rest.coeffs[dim.var] * dim.first;
      rest.coeffs[dim.var] = 0;
    }
    linear = index.add(
        linear, index.mul(flat, operand.address.coeffs[dims.back().var]));
  };
  addSide(isA ? gemm.m : gemm.n, outer);
  // Where the slice lies in one range of K's innermost index and no guard
  // reads that index, the slice's start alone is decomposed (one
  // decomposition for all of a work-item's loads of the slice, the same for
  // every work-item) and the offset moves along that index only.
  Value kStep;
  if (sliceInInnermost && !isLinearIn(operand, gemm.k) &&
      !isReadByGuard(operand, gemm.k.back().var)) {
    emitImplicitGemmDecompose(index, gemm.k, kSlice, vars);
    if (int64_t stride = operand.address.coeffs[gemm.k.back().var])
      kStep = index.mul(kOffset, stride);
  } else {
    addSide(gemm.k, index.add(kSlice, kOffset));
  }
  addSide(gemm.batch, batch);
  Value address = index.add(emitAffine(index, rest, vars), linear);
  if (kStep)
    address = index.add(address, kStep);
  Value valid;
  for (const ImplicitGemm::Guard &guard : operand.guards) {
    // 0 <= expr < bound as one unsigned comparison.
    Value bound = index.constant(guard.bound);
    Value check = index.cmp(arith::CmpIPredicate::ult,
                            emitAffine(index, guard.expr, vars), bound);
    valid = valid ? index.land(valid, check) : check;
  }
  return {address, valid};
}
