//===- IndexSystemTest.cpp - Reading the system of a tile.contract -------===//

#include "SpaceChecks.h"

#include <gtest/gtest.h>

using namespace tilec;
using namespace tilec::testing;

namespace {

TEST(IndexSystemTest, ReadsMapsShapesAndConstraints) {
  mlir::MLIRContext context;
  IndexSystem system = parseContract(
      context,
      "add, mul (i, j, k) [i, j] = %a0[i, 2*k div 3 - 1], %a1[k, j] "
      "where i + k < 5, j div 2 < 3",
      {"3x4", "4x5"}, "3x5");
  EXPECT_EQ(system.numIndices, 3u);
  EXPECT_EQ(system.names, (std::vector<std::string>{"i", "j", "k"}));

  ASSERT_EQ(system.output.rows.size(), 2u);
  EXPECT_EQ(system.output.extents, (Shape{3, 5}));
  EXPECT_EQ(system.output.rows[1].num, (std::vector<int64_t>{0, 1, 0, 0}));
  EXPECT_EQ(system.output.rows[1].den, (std::vector<int64_t>{1, 1, 1, 1}));

  ASSERT_EQ(system.inputs.size(), 2u);
  EXPECT_EQ(system.inputs[0].extents, (Shape{3, 4}));
  EXPECT_EQ(system.inputs[1].extents, (Shape{4, 5}));
  const IndexSystem::Row &fractional = system.inputs[0].rows[1];
  EXPECT_EQ(fractional.num, (std::vector<int64_t>{0, 0, 2, -1}));
  EXPECT_EQ(fractional.den, (std::vector<int64_t>{1, 1, 3, 1}));

  ASSERT_EQ(system.constraints.size(), 2u);
  EXPECT_EQ(system.constraints[0].first.num,
            (std::vector<int64_t>{1, 0, 1, 0}));
  EXPECT_EQ(system.constraints[0].second, 5);
  EXPECT_EQ(system.constraints[1].first.num,
            (std::vector<int64_t>{0, 1, 0, 0}));
  EXPECT_EQ(system.constraints[1].first.den,
            (std::vector<int64_t>{1, 2, 1, 1}));
  EXPECT_EQ(system.constraints[1].second, 3);
}

TEST(IndexSystemTest, ScalarOutputHasNoRows) {
  mlir::MLIRContext context;
  IndexSystem system = parseContract(context, "add (i) [] = %a0[i]", {"8"}, "");
  EXPECT_TRUE(system.output.rows.empty());
  EXPECT_TRUE(system.output.extents.empty());
  EXPECT_TRUE(system.constraints.empty());
  ASSERT_EQ(system.inputs.size(), 1u);
  EXPECT_EQ(system.inputs[0].extents, (Shape{8}));
}

} // namespace
