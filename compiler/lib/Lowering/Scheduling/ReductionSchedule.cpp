//===- ReductionSchedule.cpp - Work-groups that share output elements -----===//
//
// The reduction schedule's choices (docs/scheduler.md, "Reduction"): how a
// work-group's work-items share an element's loop nest, how many
// work-groups share each element (to fill the device, or to keep below a
// loop limit), whether a work-group takes several neighbouring elements (a
// column reduction), and how the second pass combines the partials.
//
//===----------------------------------------------------------------------===//

#include "tilec/Lowering/Schedule.h"

#include "KernelBodies/KernelEmitter.h"

#include "tilec/Runtime/Plural.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace tilec;
using namespace tilec::lowering;

/// How a reduction work-group shares an element's loop nest: the leading
/// loops with constant bounds merge into one, and the work-items stride over
/// the loop with the most iterations (the outermost of equals), so that a
/// dense box is one linear range that neighbouring work-items walk together.
static WorkSplit chooseWorkSplit(const ContractionSpace &space,
                                 const TupleCount &tuples,
                                 const DeviceProfile &profile) {
  WorkSplit split;
  split.contiguous = profile.type == DeviceType::CPU;
  unsigned levels = space.bounds.size();
  while (split.mergedLevels < levels &&
         space.bounds[split.mergedLevels].constantRange)
    ++split.mergedLevels;
  double mostTrips = -1;
  if (split.mergedLevels > 0) {
    mostTrips = 1;
    for (unsigned level = 0; level < split.mergedLevels; ++level)
      mostTrips *= tuples.levelTrips[level];
  }
  for (unsigned level = split.mergedLevels; level < levels; ++level) {
    if (tuples.levelTrips[level] > mostTrips) {
      mostTrips = tuples.levelTrips[level];
      split.stridedLevel = level;
    }
  }
  return split;
}

/// The iterations of the loop that `split` deals out to the work-items:
/// the merged loops' product (in steps of split.stepWidth), or the strided
/// loop's.
static double getSharedTrips(const WorkSplit &split, const TupleCount &tuples) {
  if (split.stridedLevel >= split.mergedLevels)
    return tuples.levelTrips[split.stridedLevel];
  double trips = 1;
  for (unsigned level = 0; level < split.mergedLevels; ++level)
    trips *= tuples.levelTrips[level];
  return trips / double(split.stepWidth);
}

/// The loop passes of a work-item when `sharers` work-items (the
/// work-groups of an element together) share an element's loop nest as
/// `split` says.
static double countSharedPasses(const WorkSplit &split,
                                const TupleCount &tuples, int64_t sharers) {
  std::vector<double> trips;
  // The shared loop's position in `trips`: the merged loop comes first.
  unsigned shared = 0, level = 0;
  if (split.mergedLevels > 0) {
    double merged = 1;
    for (; level < split.mergedLevels; ++level)
      merged *= tuples.levelTrips[level];
    trips.push_back(merged / double(split.stepWidth));
  }
  for (; level < tuples.levelTrips.size(); ++level) {
    if (level == split.stridedLevel)
      shared = trips.size();
    trips.push_back(tuples.levelTrips[level]);
  }
  trips[shared] = std::ceil(trips[shared] / double(sharers));
  return countLoopPasses(trips);
}

bool lowering::isReadByAddressesAlone(const ContractionSpace &space,
                                      unsigned var) {
  // Coordinate guards have no free variable (IndexSpace.h).
  unsigned column = space.outputRank + var;
  auto reads = [&](const QuasiAffine &expr) {
    return column < expr.coeffs.size() && expr.coeffs[column] != 0;
  };
  return llvm::none_of(space.bounds,
                       [&](const LoopBound &bound) {
                         return llvm::any_of(bound.lower, reads) ||
                                llvm::any_of(bound.upper, reads);
                       }) &&
         llvm::none_of(
             space.pivots,
             [&](const Pivot &pivot) { return reads(pivot.value); }) &&
         llvm::none_of(space.integralityChecks, reads);
}

std::optional<SmallVector<int64_t>> lowering::getSharedStepStrides(
    tile::ContractOp op, const ContractionSpace &space,
    const IndexSystem &system, const WorkSplit &split, int64_t width,
    std::string &whyNot) {
  if (split.contiguous || split.stridedLevel >= split.mergedLevels) {
    whyNot = "the work-items do not stride over merged loops";
    return std::nullopt;
  }
  std::string steps = std::to_string(width);
  unsigned level = split.mergedLevels - 1;
  if (!space.bounds[level].constantRange) {
    whyNot = "the innermost merged loop's bounds are not constant";
    return std::nullopt;
  }
  auto [lower, upper] = *space.bounds[level].constantRange;
  if (lower % width != 0 || (upper - lower + 1) % width != 0) {
    whyNot = "the innermost merged loop does not run a multiple of " + steps +
             " iterations from a multiple of " + steps;
    return std::nullopt;
  }
  // Nothing but the addresses may depend on the position within a step.
  unsigned var = space.freeVars[level];
  if (!isReadByAddressesAlone(space, var)) {
    whyNot = "the innermost merged loop's index variable appears in a bound, "
             "a guard or another index variable's value";
    return std::nullopt;
  }
  // Each input either has that variable alone in its last dimension, which
  // the steps divide (so that every step's first address is aligned to a
  // vector), or does not use it.
  SmallVector<int64_t> strides;
  bool anyMoves = false;
  for (auto [access, input] : llvm::zip(system.inputs, op.getInputs())) {
    std::optional<bool> moves = movesAsVectors(access, input, var, width);
    if (!moves) {
      whyNot = "an input is addressed by the innermost merged loop other "
               "than by its index variable alone in its last dimension, a "
               "multiple of " +
               steps + " elements with vectors";
      return std::nullopt;
    }
    strides.push_back(*moves ? 1 : 0);
    anyMoves |= *moves;
  }
  if (!anyMoves) {
    whyNot = "no input is addressed by the innermost merged loop";
    return std::nullopt;
  }
  return strides;
}

/// The width of the steps in which the work-items of a reduction on a GPU
/// walk the merged range `split` shares (getSharedStepStrides): the memory
/// vector width of the widest type `op` moves, at most 4 (the kernel IR's
/// vectors), or 1. `why` says which, where the merged range is shared.
static int64_t chooseStepWidth(tile::ContractOp op,
                               const ContractionSpace &space,
                               const IndexSystem &system,
                               const WorkSplit &split,
                               const DeviceProfile &profile, std::string &why) {
  if (profile.type != DeviceType::GPU || split.contiguous ||
      split.stridedLevel >= split.mergedLevels)
    return 1;
  int64_t width = getWidestVectorWidth(op, profile);
  if (width < 2)
    return 1;
  std::string whyNot;
  if (!getSharedStepStrides(op, space, system, split, width, whyNot)) {
    why = "; not in steps of " + std::to_string(width) +
          " consecutive tuples: " + whyNot;
    return 1;
  }
  why = "; each iteration of a work-item is a step of " +
        std::to_string(width) +
        " consecutive tuples, whose inputs along the innermost merged loop "
        "load as one vector each";
  return width;
}

/// On a GPU the fewest that its work-items, registers and local memory
/// allow; elsewhere one (a CPU core runs one work-group at a time).
int64_t lowering::getResidentGroups(const DeviceProfile &profile, int64_t items,
                                    int64_t registers, int64_t localBytes) {
  if (profile.type != DeviceType::GPU)
    return 1;
  int64_t groups = kUnitResidentItems / items;
  groups = std::min(groups,
                    kUnitRegisters / (std::max<int64_t>(1, registers) * items));
  if (localBytes > 0)
    groups = std::min(groups, int64_t(profile.localMemBytes) / localBytes);
  return std::max<int64_t>(1, groups);
}

/// Whether neighbouring elements of the output's last dimension read
/// neighbouring addresses of the inputs while the loop `split` shares does
/// not (a column sum `[M, N] -> [N]`): every input's address moves by 1 (or
/// 0, a broadcast operand, but not all of them) with the element and not by
/// +-1 with the shared loop's index (the innermost of merged loops).
static bool isContiguousAcrossElements(const ContractionSpace &space,
                                       const IndexSystem &system,
                                       const WorkSplit &split) {
  unsigned rank = space.outputRank;
  if (rank == 0 || space.freeVars.empty())
    return false;
  unsigned sharedLevel = split.stridedLevel < split.mergedLevels
                             ? split.mergedLevels - 1
                             : split.stridedLevel;
  unsigned shared = space.freeVars[sharedLevel];
  bool moves = false;
  for (const IndexSystem::Access &access : system.inputs) {
    std::optional<std::vector<int64_t>> address =
        getLinearAddress(access, system.numIndices);
    if (!address)
      return false;
    // The derivatives of the address, through the pivots.
    int64_t alongElements = 0, alongShared = (*address)[shared];
    for (const Pivot &pivot : space.pivots) {
      if (pivot.value.den != 1)
        return false;
      int64_t coefficient = (*address)[pivot.index];
      alongElements += coefficient * pivot.value.coeffs[rank - 1];
      alongShared += coefficient * pivot.value.coeffs[rank + shared];
    }
    if ((alongElements != 0 && alongElements != 1) || alongShared == 1 ||
        alongShared == -1)
      return false;
    moves |= alongElements == 1;
  }
  return moves;
}

std::optional<Schedule>
lowering::scheduleReduction(tile::ContractOp op, const ContractionSpace &space,
                            const IndexSystem &system, const TupleCount &tuples,
                            bool compensated, bool force,
                            const DeviceProfile &profile) {
  int64_t elements = op.getType().getNumElements();
  int64_t linearSize = getLinearGroupSize(profile);
  if (op.getAggregation() == tile::AggregationKind::Assign ||
      tuples.levelTrips.empty())
    return std::nullopt;
  if (!force &&
      (tuples.perElement <= kLongReduction ||
       double(elements) >= double(profile.computeUnits) * double(linearSize)))
    return std::nullopt;
  // Each work-item's partial aggregate (and its compensation) in local
  // memory; bools are bytes there.
  Type computeType = getComputeType(op.getType().getElementType());
  int64_t partialBytes =
      std::max<int64_t>(1, computeType.getIntOrFloatBitWidth() / 8) *
      (compensated ? 2 : 1);
  auto fitsLocalMemory = [&](int64_t size) {
    return uint64_t(size * partialBytes) <= profile.localMemBytes;
  };
  int64_t groupSize = linearSize;
  while (groupSize > 1 && !fitsLocalMemory(groupSize))
    groupSize /= 2;
  if (groupSize < 2)
    return std::nullopt;

  WorkSplit split = chooseWorkSplit(space, tuples, profile);
  // A column reduction on a GPU: a work-group takes `elementsPerGroup`
  // neighbouring elements, one per neighbouring work-item, so that a warp's
  // loads are one contiguous run (32 f32: a 128-byte line), and the
  // work-items of each element (groupSize / elementsPerGroup) share it.
  int64_t elementsPerGroup = 1;
  if (profile.type == DeviceType::GPU &&
      isContiguousAcrossElements(space, system, split)) {
    int64_t width = std::min<int64_t>(kCoalescedElements, groupSize / 2);
    if (width >= 2 && elements >= width)
      elementsPerGroup = width;
  }
  std::string stepWhy;
  if (elementsPerGroup == 1)
    split.stepWidth =
        chooseStepWidth(op, space, system, split, profile, stepWhy);
  double limit = double(profile.maxLoopIterations);
  auto fits = [&](int64_t sharers) {
    return limit == 0 || countSharedPasses(split, tuples, sharers) <= limit;
  };
  int64_t largest = std::max<int64_t>(
      1, llvm::bit_floor(std::min<uint64_t>(profile.maxWorkGroupSize,
                                            profile.maxWorkItemSizes[0])));
  while (!fits(groupSize / elementsPerGroup) && groupSize * 2 <= largest &&
         fitsLocalMemory(groupSize * 2))
    groupSize *= 2;
  int64_t sharersPerGroup = groupSize / elementsPerGroup;
  int64_t blocks = llvm::divideCeil(elements, elementsPerGroup);
  // The fewest work-groups per element that fit (the passes fall as they
  // grow); partial aggregates in global memory are not kept for bools.
  int64_t partialGroups = 1;
  bool boolean = computeType.isInteger(1);
  if (!fits(sharersPerGroup) && !boolean) {
    int64_t most = std::max<int64_t>(
        1, int64_t(std::ceil(getSharedTrips(split, tuples) / sharersPerGroup)));
    int64_t low = 1, high = most;
    while (low < high) {
      int64_t middle = low + (high - low) / 2;
      if (fits(sharersPerGroup * middle))
        high = middle;
      else
        low = middle + 1;
    }
    partialGroups = low;
  }

  // A step holds a further value per input and position.
  int64_t registers = 20 + 2 * int64_t(space.freeVars.size()) +
                      int64_t(space.pivots.size()) + (compensated ? 2 : 0) +
                      (split.stepWidth - 1) * int64_t(op.getInputs().size());
  // For speed: the elements' work-groups alone may leave the device idle
  // (a full sum is one work-group). Where two work-groups per element would
  // each give every work-item kSplitTuplesPerItem tuples, each element gets
  // as many as fill one wave of the work-groups the device keeps resident
  // (a second, partial wave would double the time of its work-groups'
  // share), as long as each work-item still aggregates kFillTuplesPerItem
  // tuples and one iteration of the shared loop.
  int64_t residentGroups = getResidentGroups(profile, groupSize, registers,
                                             groupSize * partialBytes);
  int64_t deviceGroups = int64_t(profile.computeUnits) * residentGroups;
  int64_t speedGroups = 1;
  double sharedTrips = getSharedTrips(split, tuples);
  auto groupsKeeping = [&](double tuplesPerItem) {
    double perItem = std::min(tuples.perElement / tuplesPerItem, sharedTrips);
    return int64_t(perItem / sharersPerGroup);
  };
  if (!boolean && groupsKeeping(kSplitTuplesPerItem) >= 2)
    speedGroups = std::min(std::max<int64_t>(1, deviceGroups / blocks),
                           groupsKeeping(kFillTuplesPerItem));
  bool forSpeed = speedGroups > partialGroups;
  partialGroups = std::max(partialGroups, speedGroups);
  // The last work-group of an element (or block of elements) to finish
  // combines their partials, which saves a launch (on the H200 a second
  // kernel took 5 to 7 us however few its partials, 2026-11-28). The
  // partials and the counters are 32-bit atomics, which OpenCL C 1.2 and
  // Vulkan have in core (64-bit ones are extensions). The group's flag
  // takes a word of local memory.
  bool lastGroupCombines =
      partialGroups > 1 && computeType.getIntOrFloatBitWidth() == 32 &&
      uint64_t(groupSize * partialBytes + 4) <= profile.localMemBytes;

  Schedule schedule;
  schedule.kind = ScheduleKind::ReductionContraction;
  schedule.localSize[0] = groupSize;
  schedule.numGroups[0] = blocks * partialGroups;
  schedule.activeItems = elements * partialGroups * sharersPerGroup;
  schedule.split = split;
  schedule.elementsPerGroup = elementsPerGroup;
  schedule.partialGroups = partialGroups;
  schedule.lastGroupCombines = lastGroupCombines;
  schedule.compensated = compensated;
  schedule.localMemBytes =
      groupSize * partialBytes + (lastGroupCombines ? 4 : 0);
  schedule.registers = registers;
  // The last group's work-items then take up to ceil(partials / sharers)
  // partials each.
  schedule.loopPasses =
      countSharedPasses(split, tuples, sharersPerGroup * partialGroups) +
      (lastGroupCombines ? countCombiningPasses(schedule) : 0);
  std::string size = std::to_string(groupSize);
  std::string perElement = size + " work-items";
  if (elementsPerGroup > 1)
    perElement = std::to_string(sharersPerGroup) + " work-items (of " + size +
                 ", which take " + std::to_string(elementsPerGroup) +
                 " neighbouring elements: the inputs are contiguous across "
                 "elements, not along the reduction, so neighbouring "
                 "work-items read neighbouring addresses)";
  if (force)
    schedule.reason =
        "reduction: one work-item per element would run " +
        llvm::formatv("{0:F0}", countLoopPasses(tuples.levelTrips)).str() +
        " loop passes, more than the device allows";
  else
    schedule.reason = "reduction: " + pluralize(elements, "output element") +
                      ", fewer than the device runs at "
                      "once (" +
                      std::to_string(profile.computeUnits) +
                      " compute units x " + std::to_string(linearSize) +
                      " work-items)";
  schedule.reason += ", each aggregating up to " +
                     std::to_string(int64_t(tuples.perElement)) + " tuples: ";
  if (partialGroups == 1)
    schedule.reason += "one work-group of " + perElement +
                       " per element shares its tuples, then a "
                       "tree reduction in local memory";
  else
    schedule.reason +=
        std::to_string(partialGroups) + " work-groups of " + perElement +
        " per element share its tuples, each "
        "combines its work-items' partials by a tree in local "
        "memory and writes the result to a temporary; " +
        (lastGroupCombines ? "the last of an element's work-groups to finish "
                             "(an atomic counter per element) combines them "
                             "in the same kernel"
                           : "a second kernel combines them");
  if (forSpeed) {
    std::string resident =
        profile.type == DeviceType::GPU
            ? std::to_string(residentGroups) + ", the fewest that its " +
                  std::to_string(kUnitResidentItems) + " work-items, " +
                  std::to_string(kUnitRegisters) + " registers (about " +
                  std::to_string(registers) + " per work-item) and " +
                  std::to_string(profile.localMemBytes) +
                  " bytes of local memory per unit allow"
            : "1 (not a GPU: a core runs one work-group at a time)";
    schedule.reason +=
        " (for speed: the device keeps " + std::to_string(deviceGroups) +
        " such work-groups resident, " + std::to_string(profile.computeUnits) +
        " compute units x " + resident + "; " + std::to_string(partialGroups) +
        " per element fill one wave of them as far as each work-item keeps "
        "at least " +
        llvm::formatv("{0:F0}", kFillTuplesPerItem).str() +
        " tuples and one iteration of the shared loop; split because 2 "
        "work-groups per element would give each work-item at least " +
        llvm::formatv("{0:F0}", kSplitTuplesPerItem).str() +
        " tuples, a share that outlasts " +
        (lastGroupCombines ? "combining the partials)" : "the second launch)");
  } else if (limit != 0 && (groupSize != linearSize || partialGroups > 1))
    schedule.reason +=
        " (the device stops loops after " +
        std::to_string(profile.maxLoopIterations) + " passes: " +
        (partialGroups > 1 ? "no work-group of one element stays below"
                           : "the largest work-group that stays below") +
        ")";
  schedule.reason += stepWhy;
  return schedule;
}

double lowering::countCombiningPasses(const Schedule &schedule) {
  int64_t reads =
      llvm::divideCeil(schedule.partialGroups, getCombiningSharers(schedule));
  return countLoopPasses(
      {double(llvm::divideCeil(reads, std::min(reads, kPartialsInFlight)))});
}

Schedule lowering::scheduleCombination(const Schedule &first, int64_t elements,
                                       Type computeType,
                                       const DeviceProfile &profile) {
  int64_t parts = first.partialGroups;
  Schedule schedule =
      scheduleOneItemPerElement(elements, first.registers, profile);
  schedule.kind = ScheduleKind::PartialCombination;
  schedule.partialGroups = parts;
  schedule.compensated = first.compensated;
  std::string what = "combines the partial aggregates of the " +
                     std::to_string(parts) + " work-groups of each element";
  // The partials lie [part][element]: the work-items of neighbouring
  // elements read neighbouring addresses, where a work-group per element
  // reads each partial from a memory line of its own. So elements that
  // fill the device alone get a work-item each, however many partials
  // (the split-K of a filter gradient: 36864 elements of 106 partials).
  double serialPasses = countLoopPasses({double(parts)});
  bool fillsDevice =
      double(elements) >=
      double(profile.computeUnits) * double(getLinearGroupSize(profile));
  bool serialFits = profile.maxLoopIterations == 0 ||
                    serialPasses <= double(profile.maxLoopIterations);
  if (parts <= kSerialCombination || (fillsDevice && serialFits)) {
    std::string why;
    if (parts > kSerialCombination)
      why = " (more than " + std::to_string(kSerialCombination) +
            " partials, but the elements fill the device: neighbouring "
            "work-items read neighbouring partials)";
    schedule.loopPasses = serialPasses;
    schedule.reason = what +
                      " in order, then the initial value and the epilogue" +
                      why + "; " + schedule.reason;
    return schedule;
  }
  // Many partials: a work-group per element shares them (each work-item
  // combines every G-th in order) and a tree combines the work-items'. A
  // reduction's work-group and its tree's local memory fit; this one is no
  // larger.
  int64_t partialBytes =
      computeType.getIntOrFloatBitWidth() / 8 * (first.compensated ? 2 : 1);
  int64_t items = first.kind == ScheduleKind::ReductionContraction
                      ? first.localSize[0]
                      : getLinearGroupSize(profile);
  while (items > 1 && uint64_t(items * partialBytes) > profile.localMemBytes)
    items /= 2;
  items = std::min(items, int64_t(llvm::bit_floor(uint64_t(parts))));
  schedule.treeCombination = true;
  schedule.localSize[0] = items;
  schedule.numGroups[0] = elements;
  schedule.activeItems = elements * items;
  schedule.localMemBytes = items * partialBytes;
  schedule.loopPasses =
      countLoopPasses({std::ceil(double(parts) / double(items))});
  schedule.reason = what + ": a work-group of " + std::to_string(items) +
                    " work-items per element shares them (more than " +
                    std::to_string(kSerialCombination) +
                    ", too many for one work-item), combines its "
                    "work-items' by a tree in local memory, then the initial "
                    "value and the epilogue";
  return schedule;
}
