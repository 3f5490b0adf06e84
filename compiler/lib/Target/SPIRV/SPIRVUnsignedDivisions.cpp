//===- SPIRVUnsignedDivisions.cpp - Non-negative divisions unsigned -------===//
//
// The kernel IR divides coordinates with arith.divsi and arith.remsi (the
// OpenCL C's int / and %), though work-item and group ids, loop counters
// from them and the coordinates of an index space are never negative. A
// signed division by a constant costs the driver a sign correction that an
// unsigned one does not (a power of two: a shift and a mask instead of four
// instructions; 56: a multiply-high and a shift instead of five), and
// SPIR-V's OpSDiv and MLIR's expansion of remsi leave it to the driver to
// prove what OpenCL C's compiler proves from the ids' known ranges. Where
// MLIR's integer range analysis proves both operands non-negative, the
// quotient and remainder are the unsigned ones, exactly.
//
// The analysis computes `index` in 64 bits; the SPIR-V module computes it in
// the module's tile.index_bits, in which all index arithmetic of the kernels
// fits (docs/kernel-ir.md, "The module"), so the ranges hold there too.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/SPIRV/Passes.h"

#include "mlir/Analysis/DataFlow/ConstantPropagationAnalysis.h"
#include "mlir/Analysis/DataFlow/DeadCodeAnalysis.h"
#include "mlir/Analysis/DataFlow/IntegerRangeAnalysis.h"
#include "mlir/Analysis/DataFlowFramework.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

namespace tilec {
#define GEN_PASS_DEF_SPIRVUNSIGNEDDIVISIONSPASS
#include "tilec/Target/SPIRV/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;

/// Whether the range analysis proves `value` at least 0.
static bool isNonNegative(DataFlowSolver &solver, Value value) {
  auto *lattice = solver.lookupState<dataflow::IntegerValueRangeLattice>(value);
  if (!lattice || lattice->getValue().isUninitialized())
    return false;
  return lattice->getValue().getValue().smin().isNonNegative();
}

/// Replaces `op` (a signed division or remainder of non-negative operands)
/// with its unsigned `Unsigned`.
template <typename Unsigned> static void replaceWithUnsigned(Operation *op) {
  ImplicitLocOpBuilder b(op->getLoc(), op);
  Value result = b.create<Unsigned>(op->getOperand(0), op->getOperand(1));
  op->getResult(0).replaceAllUsesWith(result);
  op->erase();
}

namespace {
struct SPIRVUnsignedDivisionsPass
    : tilec::impl::SPIRVUnsignedDivisionsPassBase<SPIRVUnsignedDivisionsPass> {
  void runOnOperation() override {
    DataFlowSolver solver;
    // The range analysis visits the blocks that dead code analysis finds
    // live, which needs every operand of a branch (the float iter_args of
    // a loop too) to have a constant lattice: constant propagation gives it.
    solver.load<dataflow::DeadCodeAnalysis>();
    solver.load<dataflow::SparseConstantPropagation>();
    solver.load<dataflow::IntegerRangeAnalysis>();
    if (failed(solver.initializeAndRun(getOperation())))
      return signalPassFailure();
    SmallVector<Operation *> divisions;
    getOperation().walk([&](Operation *op) {
      if (isa<arith::DivSIOp, arith::RemSIOp>(op) &&
          llvm::all_of(op->getOperands(), [&](Value operand) {
            return isNonNegative(solver, operand);
          }))
        divisions.push_back(op);
    });
    for (Operation *division : divisions) {
      if (isa<arith::DivSIOp>(division))
        replaceWithUnsigned<arith::DivUIOp>(division);
      else
        replaceWithUnsigned<arith::RemUIOp>(division);
    }
  }
};
} // namespace
