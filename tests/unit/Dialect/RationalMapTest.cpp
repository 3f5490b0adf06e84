//===- RationalMapTest.cpp - #tile.map ------------------------------------===//

#include "tilec/Dialect/Tile/IR/TileAttrs.h"
#include "tilec/Dialect/Tile/IR/TileDialect.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace tilec;
using namespace tilec::tile;

namespace {

TEST(RationalMapTest, ParsesRationalCoefficients) {
  mlir::MLIRContext context;
  context.loadDialect<TileDialect>();
  auto map = llvm::dyn_cast_or_null<RationalMapAttr>(mlir::parseAttribute(
      "#tile.map<(i, j, k) -> (i, 2*i + k div 2 - 1, 3*j div 4 + i + 1 div 3)>",
      &context));
  ASSERT_TRUE(map);
  EXPECT_EQ(map.getNumDims(), 3u);
  ASSERT_EQ(map.getNumResults(), 3u);
  EXPECT_EQ(map.getCoefficient(0, 0), (Rational{1, 1}));
  EXPECT_EQ(map.getCoefficient(1, 0), (Rational{2, 1}));
  EXPECT_EQ(map.getCoefficient(1, 1), (Rational{0, 1}));
  EXPECT_EQ(map.getCoefficient(1, 2), (Rational{1, 2}));
  EXPECT_EQ(map.getConstant(1), (Rational{-1, 1}));
  EXPECT_EQ(map.getCoefficient(2, 1), (Rational{3, 4}));
  EXPECT_EQ(map.getConstant(2), (Rational{1, 3}));
  EXPECT_FALSE(map.isIntegral());
}

TEST(RationalMapTest, RejectsUnnormalisedRationals) {
  mlir::MLIRContext context;
  context.loadDialect<TileDialect>();
  bool diagnosed = false;
  context.getDiagEngine().registerHandler([&](mlir::Diagnostic &) {
    diagnosed = true;
    return mlir::success();
  });
  auto map = RationalMapAttr::getChecked(
      [&] { return mlir::emitError(mlir::UnknownLoc::get(&context)); },
      &context, 1u, llvm::ArrayRef<Rational>{{2, 4}, {0, 1}});
  EXPECT_FALSE(map);
  EXPECT_TRUE(diagnosed);
}

} // namespace
