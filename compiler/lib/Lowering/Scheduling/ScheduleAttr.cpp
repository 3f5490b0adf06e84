//===- ScheduleAttr.cpp - Schedules as #tile.schedule attributes ----------===//
//
// The one place a Schedule becomes the attribute tile-schedule writes, and
// the attribute a Schedule again for the passes after it. Every field of
// the struct but the dense-matmul shape (matched again from the ops) has
// its parameter.
//
//===----------------------------------------------------------------------===//

#include "tilec/Lowering/Schedule.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::lowering;

tile::ScheduleAttr lowering::getScheduleAttr(MLIRContext *context,
                                             const Schedule &s) {
  const TileSizes &tile = s.tile;
  const ElementWalk &walk = s.walk;
  return tile::ScheduleAttr::get(
      context, s.kind, s.localSize, s.numGroups, s.activeItems, tile.blockM,
      tile.blockN, tile.blockK, tile.regM, tile.regN, tile.strideA,
      tile.strideB, tile.vectorWidth, tile.stageWidthA, tile.stageWidthB,
      tile.doubleBuffered, walk.width, walk.steps, walk.groupSteps,
      walk.vectorAccesses, walk.accesses, s.split.mergedLevels,
      s.split.stridedLevel, s.split.contiguous, s.split.stepWidth,
      s.elementsPerGroup, s.partialGroups, s.treeCombination,
      s.lastGroupCombines, s.compensated, s.rowsPerGroup, s.rowSteps,
      s.rowChunks, s.onlineSums,
      FloatAttr::get(Float64Type::get(context), s.loopPasses), s.localMemBytes,
      s.registers, s.unitRegisters, s.reason);
}

FailureOr<Schedule> lowering::getSchedule(tile::ScheduleAttr attr,
                                          const KernelGroup &group,
                                          const ContractionSpace *space,
                                          const IndexSystem *system,
                                          Location loc) {
  Schedule s;
  s.kind = attr.getKind();
  llvm::copy(attr.getLocalSize(), s.localSize.begin());
  llvm::copy(attr.getNumGroups(), s.numGroups.begin());
  s.activeItems = attr.getActiveItems();
  s.tile = {attr.getBlockM(),     attr.getBlockN(),      attr.getRegM(),
            attr.getRegN(),       attr.getBlockK(),      attr.getStrideA(),
            attr.getStrideB(),    attr.getVectorWidth(), attr.getStageWidthA(),
            attr.getStageWidthB()};
  s.tile.doubleBuffered = attr.getDoubleBuffered();
  s.walk.width = attr.getWalkWidth();
  s.walk.steps = attr.getWalkSteps();
  s.walk.groupSteps = attr.getWalkGroupSteps();
  s.walk.vectorAccesses = attr.getVectorAccesses();
  s.walk.accesses = attr.getAccesses();
  s.split.mergedLevels = attr.getMergedLevels();
  s.split.stridedLevel = attr.getStridedLevel();
  s.split.contiguous = attr.getContiguous();
  s.split.stepWidth = attr.getStepWidth();
  s.elementsPerGroup = attr.getElementsPerGroup();
  s.partialGroups = attr.getPartialGroups();
  s.treeCombination = attr.getTreeCombination();
  s.lastGroupCombines = attr.getLastGroupCombines();
  s.compensated = attr.getCompensated();
  s.rowsPerGroup = attr.getRowsPerGroup();
  s.rowSteps = attr.getRowSteps();
  s.rowChunks = attr.getRowChunks();
  s.onlineSums = attr.getOnlineSums();
  s.loopPasses = attr.getLoopPasses().getValueAsDouble();
  s.localMemBytes = attr.getLocalMemBytes();
  s.registers = attr.getRegisters();
  s.unitRegisters = attr.getUnitRegisters();
  s.reason = attr.getReason().str();
  bool contraction = group.kind == KernelKind::Contraction;
  bool perElement = s.kind == ScheduleKind::PerElement;
  bool row = group.kind == KernelKind::Row;
  if (row != (s.kind == ScheduleKind::RowFused) ||
      (!row && contraction == perElement))
    return emitError(loc) << "`" << tile::stringifyKernelKind(group.kind)
                          << "` kernels cannot run the `"
                          << tile::stringifyScheduleKind(s.kind)
                          << "` schedule";
  // The second pass of a two-pass reduction is lowering's own: a kernel's
  // schedule is never one, and only a reduction shares its elements.
  if (s.kind == ScheduleKind::PartialCombination)
    return emitError(loc) << "a kernel cannot run the `partial_combination` "
                             "schedule: lowering adds it after a reduction";
  bool tiled = s.kind == ScheduleKind::TiledContraction ||
               s.kind == ScheduleKind::ImplicitGemm;
  if ((s.kind != ScheduleKind::ReductionContraction && !tiled &&
       s.partialGroups != 1) ||
      (s.kind != ScheduleKind::ReductionContraction && s.elementsPerGroup != 1))
    return emitError(loc) << "only a `reduction` schedule shares elements "
                             "(partial_groups, elements_per_group), and a "
                             "tiled one its reduction (partial_groups)";
  if (s.kind == ScheduleKind::ReductionContraction &&
      s.localSize[0] % s.elementsPerGroup != 0)
    return emitError(loc) << "a reduction's work-group size " << s.localSize[0]
                          << " is not a multiple of its " << s.elementsPerGroup
                          << " elements per group";
  if (s.kind == ScheduleKind::RowFused &&
      (s.rowsPerGroup < 1 || s.localSize[0] % s.rowsPerGroup != 0 ||
       !llvm::isPowerOf2_64(s.localSize[0] / s.rowsPerGroup) ||
       s.rowSteps < 1 || s.rowChunks < 1 ||
       s.rowChunks * s.rowSteps * (s.localSize[0] / s.rowsPerGroup) <
           group.type.getDimSize(1)))
    return emitError(loc) << "a row schedule needs a power of two of lanes "
                             "per row (local_size over rows_per_group) that, "
                             "with row_chunks chunks of row_steps elements "
                             "each, cover a row of "
                          << group.type.getDimSize(1);
  if (s.kind == ScheduleKind::GenericContraction && s.walk.width != 1) {
    if (s.walk.width != 2 && s.walk.width != 4)
      return emitError(loc) << "a generic schedule's walk_width (its lanes) "
                               "must be 1, 2 or 4, not "
                            << s.walk.width;
    std::string whyNot;
    if (!getGenericLaneStrides(cast<tile::ContractOp>(group.ops[0]), *space,
                               *system, s.walk.width, whyNot))
      return emitError(loc)
             << "a generic schedule cannot take " << s.walk.width
             << " consecutive elements per work-item: " << whyNot;
  }
  if (s.kind == ScheduleKind::TiledContraction) {
    std::string whyNot;
    s.matmul = matchDenseMatmul(cast<tile::ContractOp>(group.ops[0]), *space,
                                *system, whyNot);
    if (!s.matmul)
      return emitError(loc) << "a tiled schedule needs a dense matrix "
                               "product: "
                            << whyNot;
  }
  if (s.kind == ScheduleKind::ImplicitGemm) {
    std::string whyNot;
    s.implicitGemm = matchImplicitGemm(cast<tile::ContractOp>(group.ops[0]),
                                       *space, *system, whyNot);
    if (!s.implicitGemm)
      return emitError(loc) << "an implicit GEMM schedule needs a "
                               "contraction viewed as a matrix product: "
                            << whyNot;
    s.matmul = getImplicitGemmView(*s.implicitGemm);
  }
  return s;
}
