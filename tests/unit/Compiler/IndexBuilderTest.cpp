//===- IndexBuilderTest.cpp - Index arithmetic made once where it can be --===//
//
// The kernel emitters' IndexBuilder gives back the constant or op it made
// before for the same operands wherever that one dominates the insertion
// point, and makes a new one wherever it does not: a value from a sibling
// region, from a region the insertion point is not in, or from later in the
// block.
//
//===----------------------------------------------------------------------===//

#include "KernelBodies/KernelEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace tilec::lowering;

namespace {

struct IndexBuilderTest : ::testing::Test {
  IndexBuilderTest() {
    context
        .loadDialect<arith::ArithDialect, func::FuncDialect, scf::SCFDialect>();
    module = ModuleOp::create(UnknownLoc::get(&context));
    OpBuilder b(&context);
    b.setInsertionPointToEnd(module->getBody());
    auto function = b.create<func::FuncOp>(
        b.getUnknownLoc(), "f",
        b.getFunctionType({b.getIndexType(), b.getI1Type()}, {}));
    entry = function.addEntryBlock();
    builder.setInsertionPointToEnd(entry);
    builder.create<func::ReturnOp>(builder.getUnknownLoc());
    builder.setInsertionPoint(entry->getTerminator());
  }

  /// An scf.if on the function's condition, with an else region; the
  /// builder stays where it was.
  scf::IfOp makeIf() {
    return builder.create<scf::IfOp>(builder.getUnknownLoc(),
                                     entry->getArgument(1),
                                     /*withElseRegion=*/true);
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  Block *entry = nullptr;
  OpBuilder builder{&context};
  IndexBuilder index{builder, UnknownLoc::get(&context)};
};

TEST_F(IndexBuilderTest, GivesBackWhatDominates) {
  Value x = entry->getArgument(0);
  Value five = index.constant(5);
  Value sum = index.add(x, five);
  EXPECT_EQ(index.constant(5), five);
  EXPECT_EQ(index.add(x, index.constant(5)), sum);
  // Inside a region of an op after them, they still dominate.
  scf::IfOp choice = makeIf();
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(choice.thenBlock());
  EXPECT_EQ(index.constant(5), five);
  EXPECT_EQ(index.add(x, five), sum);
  EXPECT_EQ(index.create<arith::RemUIOp>(sum, five),
            index.create<arith::RemUIOp>(sum, five));
  EXPECT_TRUE(succeeded(verify(*module)));
}

TEST_F(IndexBuilderTest, MakesAgainWhatDoesNotDominate) {
  Value x = entry->getArgument(0);
  scf::IfOp choice = makeIf();
  Value inThen, sumInThen;
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(choice.thenBlock());
    inThen = index.constant(7);
    sumInThen = index.add(x, inThen);
  }
  Value inElse, sumInElse;
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(choice.elseBlock());
    inElse = index.constant(7);
    sumInElse = index.add(x, inElse);
  }
  // A sibling region's values do not dominate.
  EXPECT_NE(inElse, inThen);
  EXPECT_NE(sumInElse, sumInThen);
  // Nor do a nested region's, after the op that holds it.
  Value after = index.constant(7);
  EXPECT_NE(after, inThen);
  EXPECT_NE(after, inElse);
  EXPECT_EQ(after.getParentBlock(), entry);
  // Nor what comes later in the block than the insertion point.
  builder.setInsertionPoint(choice);
  Value before = index.constant(7);
  EXPECT_NE(before, after);
  EXPECT_TRUE(before.getDefiningOp()->isBeforeInBlock(choice));
  EXPECT_TRUE(succeeded(verify(*module)));
}

} // namespace
