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
  OpBuilder &b = index.builder;
  for (unsigned i = dims.size(); i-- > 0;) {
    const ImplicitGemm::Dim &dim = dims[i];
    Value value = flat;
    if (i > 0) {
      Value extent = index.constant(dim.extent);
      value = b.createOrFold<arith::RemUIOp>(index.loc, flat, extent);
      flat = b.createOrFold<arith::DivUIOp>(index.loc, flat, extent);
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

Value lowering::emitImplicitGemmAddress(IndexBuilder &index,
                                        const ImplicitGemm::Operand &operand,
                                        ArrayRef<Value> vars) {
  return emitAffine(index, operand.address, vars);
}

Value lowering::emitImplicitGemmGuards(IndexBuilder &index,
                                       const ImplicitGemm::Operand &operand,
                                       ArrayRef<Value> vars) {
  Value valid;
  for (const ImplicitGemm::Guard &guard : operand.guards) {
    // 0 <= expr < bound as one unsigned comparison.
    Value check = index.cmp(arith::CmpIPredicate::ult,
                            emitAffine(index, guard.expr, vars),
                            index.constant(guard.bound));
    valid = valid ? index.land(valid, check) : check;
  }
  return valid;
}
