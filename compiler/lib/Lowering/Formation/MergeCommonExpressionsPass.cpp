//===- MergeCommonExpressionsPass.cpp - tile-merge-common-expressions -----===//
//
// MLIR's CSE on the tile function, before formation decides what each
// kernel computes: a program that states one expression twice (a training
// step's backward pass recomputing its forward values) computes it once.
// Then the ops that no output needs go: a statement whose value is neither
// returned nor read became a kernel with an empty body, launched for
// nothing.
//
//===----------------------------------------------------------------------===//

#include "PassDetail.h"

#include "mlir/IR/Dominance.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/CSE.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::lowering;

namespace tilec {
#define GEN_PASS_DECL_TILEMERGECOMMONEXPRESSIONS
#define GEN_PASS_DEF_TILEMERGECOMMONEXPRESSIONS
#include "tilec/Lowering/Passes.h.inc"
} // namespace tilec

namespace {

struct MergeCommonExpressionsPass
    : public tilec::impl::TileMergeCommonExpressionsBase<
          MergeCommonExpressionsPass> {
  void runOnOperation() override {
    FailureOr<func::FuncOp> function = getTileFunction(getOperation());
    if (failed(function))
      return signalPassFailure();
    IRRewriter rewriter(&getContext());
    DominanceInfo dominance(*function);
    eliminateCommonSubExpressions(rewriter, dominance, *function);
    // Users before their operands: a dead chain goes in one sweep.
    for (Block &block : function->getBody())
      for (Operation &op : llvm::make_early_inc_range(llvm::reverse(block)))
        if (isOpTriviallyDead(&op))
          rewriter.eraseOp(&op);
  }
};

} // namespace

std::unique_ptr<Pass> tilec::createMergeCommonExpressionsPass() {
  return std::make_unique<MergeCommonExpressionsPass>();
}
