//===- ScheduleAttrTest.cpp - Schedules survive the round trip to the IR --===//
//
// Between lowering's passes a kernel's schedule lives only as its
// #tile.schedule: every field of a Schedule must come back unchanged from
// the attribute and from the attribute's text.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/IR/TileDialect.h"
#include "tilec/Lowering/Schedule.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace tilec;
using namespace tilec::lowering;

namespace {

/// A schedule with every field away from its default.
Schedule makeSchedule() {
  Schedule s;
  s.kind = ScheduleKind::ReductionContraction;
  s.localSize = {64, 2, 3};
  s.numGroups = {5, 6, 7};
  s.activeItems = 1234;
  s.tile = {32, 16, 4, 2, 8, 36, 20, 4, 2, 4, /*doubleBuffered=*/true};
  s.walk.width = 2;
  s.walk.steps = 617;
  s.walk.groupSteps = 9;
  s.walk.vectorAccesses = 1;
  s.walk.accesses = 3;
  s.split.mergedLevels = 2;
  s.split.stridedLevel = 1;
  s.split.contiguous = true;
  s.split.stepWidth = 4;
  s.elementsPerGroup = 32;
  s.partialGroups = 11;
  s.treeCombination = true;
  s.compensated = true;
  s.rowsPerGroup = 4;
  s.rowSteps = 13;
  s.rowChunks = 3;
  s.onlineSums = true;
  s.loopPasses = 12345.678901234567;
  s.localMemBytes = 4096;
  s.registers = 77;
  s.unitRegisters = true;
  s.reason = "why: \"quoted\", and \\ a backslash";
  return s;
}

void expectEqual(const Schedule &a, const Schedule &b) {
  EXPECT_EQ(a.kind, b.kind);
  EXPECT_EQ(a.localSize, b.localSize);
  EXPECT_EQ(a.numGroups, b.numGroups);
  EXPECT_EQ(a.activeItems, b.activeItems);
  EXPECT_EQ(a.tile.blockM, b.tile.blockM);
  EXPECT_EQ(a.tile.blockN, b.tile.blockN);
  EXPECT_EQ(a.tile.regM, b.tile.regM);
  EXPECT_EQ(a.tile.regN, b.tile.regN);
  EXPECT_EQ(a.tile.blockK, b.tile.blockK);
  EXPECT_EQ(a.tile.strideA, b.tile.strideA);
  EXPECT_EQ(a.tile.strideB, b.tile.strideB);
  EXPECT_EQ(a.tile.vectorWidth, b.tile.vectorWidth);
  EXPECT_EQ(a.tile.stageWidthA, b.tile.stageWidthA);
  EXPECT_EQ(a.tile.stageWidthB, b.tile.stageWidthB);
  EXPECT_EQ(a.tile.doubleBuffered, b.tile.doubleBuffered);
  EXPECT_EQ(a.walk.width, b.walk.width);
  EXPECT_EQ(a.walk.steps, b.walk.steps);
  EXPECT_EQ(a.walk.groupSteps, b.walk.groupSteps);
  EXPECT_EQ(a.walk.vectorAccesses, b.walk.vectorAccesses);
  EXPECT_EQ(a.walk.accesses, b.walk.accesses);
  EXPECT_EQ(a.split.mergedLevels, b.split.mergedLevels);
  EXPECT_EQ(a.split.stridedLevel, b.split.stridedLevel);
  EXPECT_EQ(a.split.contiguous, b.split.contiguous);
  EXPECT_EQ(a.split.stepWidth, b.split.stepWidth);
  EXPECT_EQ(a.elementsPerGroup, b.elementsPerGroup);
  EXPECT_EQ(a.partialGroups, b.partialGroups);
  EXPECT_EQ(a.treeCombination, b.treeCombination);
  EXPECT_EQ(a.compensated, b.compensated);
  EXPECT_EQ(a.rowsPerGroup, b.rowsPerGroup);
  EXPECT_EQ(a.rowSteps, b.rowSteps);
  EXPECT_EQ(a.rowChunks, b.rowChunks);
  EXPECT_EQ(a.onlineSums, b.onlineSums);
  EXPECT_EQ(a.loopPasses, b.loopPasses);
  EXPECT_EQ(a.localMemBytes, b.localMemBytes);
  EXPECT_EQ(a.registers, b.registers);
  EXPECT_EQ(a.unitRegisters, b.unitRegisters);
  EXPECT_EQ(a.reason, b.reason);
}

TEST(ScheduleAttr, RoundTripsEveryField) {
  mlir::MLIRContext context;
  context.loadDialect<tile::TileDialect>();
  Schedule schedule = makeSchedule();
  tile::ScheduleAttr attr = getScheduleAttr(&context, schedule);

  // Through the attribute's text, as between two tile-opt runs.
  std::string text;
  llvm::raw_string_ostream os(text);
  os << attr;
  auto parsed = llvm::dyn_cast_or_null<tile::ScheduleAttr>(
      mlir::parseAttribute(text, &context));
  ASSERT_TRUE(parsed) << text;
  EXPECT_EQ(parsed, attr);

  KernelGroup group;
  group.kind = KernelKind::Contraction;
  mlir::FailureOr<Schedule> back = getSchedule(parsed, group, nullptr, nullptr,
                                               mlir::UnknownLoc::get(&context));
  ASSERT_TRUE(mlir::succeeded(back));
  expectEqual(*back, schedule);
}

TEST(ScheduleAttr, DefaultsAreLeftOut) {
  mlir::MLIRContext context;
  context.loadDialect<tile::TileDialect>();
  Schedule schedule;
  std::string text;
  llvm::raw_string_ostream os(text);
  os << getScheduleAttr(&context, schedule);
  EXPECT_EQ(text, "#tile.schedule<kind = per_element, local_size = [1, 1, "
                  "1], num_groups = [1, 1, 1], loop_passes = 0.000000e+00 : "
                  "f64>");
}

} // namespace
