//===- GenericSchedule.cpp - Whole loop nests, one work-item's elements ---===//
//
// The generic schedule (docs/scheduler.md, "Generic"): each work-item runs
// the contraction's whole loop nest for its output elements. On a GPU a
// work-item takes `lanes` consecutive elements along the output's last axis
// where they can share one loop nest: the lanes' tuples then differ in that
// axis's index alone, every input it addresses moves by one element per
// lane (one vector load for all lanes) and every other input stays (one
// load for all). A depthwise convolution in NHWC is the case in point: its
// channels are the last axis of the input, the filter and the output, and
// one work-item per element computed every window position's address and
// guards once per channel.
//
//===----------------------------------------------------------------------===//

#include "tilec/Lowering/Schedule.h"

#include "KernelBodies/KernelEmitter.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::lowering;

/// Whether `expr` (over coordinates and index variables) has a term in any
/// of `vars`.
static bool usesAny(const QuasiAffine &expr, ArrayRef<unsigned> vars) {
  return llvm::any_of(vars, [&](unsigned var) {
    return var < expr.coeffs.size() && expr.coeffs[var] != 0;
  });
}

std::optional<SmallVector<int64_t>> lowering::getGenericLaneStrides(
    tile::ContractOp op, const ContractionSpace &space,
    const IndexSystem &system, int64_t lanes, std::string &whyNot) {
  if (space.empty || space.outputRank == 0) {
    whyNot = "no output axis to share";
    return std::nullopt;
  }
  unsigned last = space.outputRank - 1;
  if (op.getType().getShape().back() % lanes != 0) {
    whyNot =
        "the output's last axis is not a multiple of " + std::to_string(lanes);
    return std::nullopt;
  }
  // The last coordinate must fix one index variable alone (`c` of
  // `O[n, y, x, c]`), which then moves with the lane, and no other.
  std::optional<unsigned> laneIndex;
  for (const Pivot &pivot : space.pivots) {
    const QuasiAffine &value = pivot.value;
    if (!usesAny(value, last))
      continue;
    bool alone = value.den == 1 && value.constant == 0 &&
                 llvm::all_of(llvm::enumerate(value.coeffs), [&](auto term) {
                   return term.value() == (term.index() == last ? 1 : 0);
                 });
    if (!alone || laneIndex) {
      whyNot = "the output's last axis is not one index variable's alone";
      return std::nullopt;
    }
    laneIndex = pivot.index;
  }
  if (!laneIndex) {
    whyNot = "no index variable follows the output's last axis";
    return std::nullopt;
  }
  // Nothing but the addresses may depend on the lane: no bound, guard,
  // integrality check or other index variable.
  unsigned laneVars[] = {last, space.outputRank + *laneIndex};
  auto dependsOnLane = [&](const QuasiAffine &expr) {
    return usesAny(expr, laneVars);
  };
  bool shared =
      llvm::none_of(space.coordinateEqualities, dependsOnLane) &&
      llvm::none_of(space.coordinateInequalities, dependsOnLane) &&
      llvm::none_of(space.integralityChecks, dependsOnLane) &&
      llvm::all_of(space.bounds,
                   [&](const LoopBound &bound) {
                     return llvm::none_of(bound.lower, dependsOnLane) &&
                            llvm::none_of(bound.upper, dependsOnLane);
                   }) &&
      llvm::all_of(space.pivots, [&](const Pivot &pivot) {
        return pivot.index == *laneIndex || !dependsOnLane(pivot.value);
      });
  if (!shared) {
    whyNot = "a bound, guard or index variable depends on the output's last "
             "axis";
    return std::nullopt;
  }
  // Each input either moves with the lane along its last dimension, which
  // the lanes divide (so that every lane-0 address is aligned to a vector),
  // or does not move.
  if (!hasVectorAccess(getStorageType(op.getType().getElementType()))) {
    whyNot = "the output's type has no vectors";
    return std::nullopt;
  }
  SmallVector<int64_t> strides;
  for (auto [access, input] : llvm::zip(system.inputs, op.getInputs())) {
    std::optional<bool> moves =
        movesAsVectors(access, input, *laneIndex, lanes);
    if (!moves) {
      whyNot = "an input is addressed by the output's last axis other than "
               "by that index alone in its last dimension, a multiple of " +
               std::to_string(lanes);
      return std::nullopt;
    }
    strides.push_back(*moves ? 1 : 0);
  }
  return strides;
}

std::optional<bool> lowering::movesAsVectors(const IndexSystem::Access &access,
                                             Value input, unsigned var,
                                             int64_t width) {
  unsigned rank = access.rows.size();
  bool moves = false;
  for (unsigned dim = 0; dim < rank; ++dim) {
    const IndexSystem::Row &row = access.rows[dim];
    if (row.num[var] == 0)
      continue;
    bool alone = dim + 1 == rank && row.num[var] == row.den[var] &&
                 llvm::all_of(llvm::enumerate(row.num), [&](auto term) {
                   return term.index() == var || term.value() == 0;
                 });
    Type type = cast<RankedTensorType>(input.getType()).getElementType();
    if (!alone || access.extents[dim] % width != 0 ||
        !hasVectorAccess(getStorageType(type)))
      return std::nullopt;
    moves = true;
  }
  return moves;
}

int64_t lowering::getWidestVectorWidth(tile::ContractOp op,
                                       const DeviceProfile &profile) {
  int64_t widest = 1;
  for (Value tensor : op->getOperands())
    widest = std::max<int64_t>(
        widest, getStorageType(
                    cast<RankedTensorType>(tensor.getType()).getElementType())
                        .getIntOrFloatBitWidth() /
                    8);
  return std::min<int64_t>(4, getMemoryVectorWidth(profile, widest));
}

/// The lanes of the generic schedule of `op` on `profile`: the memory vector
/// width of the widest type it moves, at most 4 (the kernel IR's vectors),
/// where getGenericLaneStrides allows it; else 1. `why` says which.
static int64_t chooseLanes(tile::ContractOp op, const ContractionSpace &space,
                           const IndexSystem &system,
                           const DeviceProfile &profile, std::string &why) {
  int64_t lanes = getWidestVectorWidth(op, profile);
  if (lanes < 2)
    return 1;
  std::string whyNot;
  if (!getGenericLaneStrides(op, space, system, lanes, whyNot)) {
    why = "; not " + std::to_string(lanes) +
          " consecutive elements of the last axis per work-item: " + whyNot;
    return 1;
  }
  why = "; the lanes share one loop nest: the inputs that axis addresses "
        "load " +
        std::to_string(lanes) +
        " values at once, as one vector, the others one value for all";
  return lanes;
}

Schedule lowering::scheduleGeneric(tile::ContractOp op,
                                   const ContractionSpace &space,
                                   const IndexSystem *system,
                                   const TupleCount &tuples, bool compensated,
                                   const DeviceProfile &profile) {
  int64_t elements = op.getType().getNumElements();
  std::string why;
  int64_t lanes =
      system ? chooseLanes(op, space, *system, profile, why) : int64_t(1);
  // Each further lane keeps its aggregate (and compensation) and a loaded
  // value per input.
  int64_t perLane = (compensated ? 3 : 1) + int64_t(op.getInputs().size());
  int64_t registers = 16 + 2 * int64_t(space.freeVars.size()) +
                      int64_t(space.pivots.size()) + (compensated ? 2 : 0);
  while (lanes > 1 && registers + (lanes - 1) * perLane > kRegisterBudget) {
    lanes /= 2;
    why = "; lanes narrowed to " + std::to_string(lanes) +
          " so that their registers fit";
  }
  registers += (lanes - 1) * perLane;
  std::string item = lanes == 1 ? "element"
                                : std::to_string(lanes) +
                                      " consecutive elements of the last axis";
  Schedule schedule =
      scheduleOneItemPerElement(elements / lanes, registers, profile, item);
  schedule.kind = ScheduleKind::GenericContraction;
  schedule.walk.width = lanes;
  schedule.walk.steps = elements / lanes;
  schedule.compensated = compensated;
  schedule.loopPasses = countLoopPasses(tuples.levelTrips);
  schedule.reason += why;
  return schedule;
}
