//===- ElementSchedule.cpp - The per-element and one-item schedules -------===//
//
// How elementwise kernels, casts and copies walk their elements (steps of
// vectors over work-groups that fill the device), and the one work-item per
// element of contractions, within the device's work-group count and loop
// limit. docs/scheduler.md, "Per element", describes the model.
//
//===----------------------------------------------------------------------===//

#include "tilec/Lowering/Schedule.h"

#include "KernelBodies/KernelEmitter.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace tilec;
using namespace tilec::lowering;

/// Work-groups of 256 per compute unit that a GPU keeps resident at once:
/// NVIDIA's SMs (H100, H200) and AMD's CUs hold 2048 work-items each.
/// Launching that many lets every compute unit keep its fill of memory
/// accesses in flight, and no more leaves no tail of late work-groups.
constexpr int64_t kResidentItemsPerComputeUnit = 2048;

bool lowering::hasVectorAccess(Type storageType) {
  if (storageType.isF16() || storageType.isF32() || storageType.isF64())
    return true;
  return storageType.isSignlessInteger() &&
         llvm::is_contained({8u, 16u, 32u, 64u},
                            storageType.getIntOrFloatBitWidth());
}

bool lowering::isLoadedInPlace(const KernelGroup &group, Value value) {
  Operation *producer = value.getDefiningOp();
  if (producer && isGenerator(producer))
    return false;
  // An operand broadcast into the kernel's shape has fewer elements; one
  // with as many is at the kernel's own linear positions.
  return cast<RankedTensorType>(value.getType()).getNumElements() ==
         group.type.getNumElements();
}

SmallVector<Value> lowering::getLoadedValues(const KernelGroup &group) {
  if (group.kind == KernelKind::Copy)
    return {group.copySource};
  llvm::DenseSet<Operation *> inGroup(group.ops.begin(), group.ops.end());
  SmallVector<Value> loaded;
  for (Operation *op : group.ops) {
    if (isa<tile::ShapeOp>(op))
      continue;
    for (Value operand : op->getOperands()) {
      Operation *producer = operand.getDefiningOp();
      if ((producer && (inGroup.count(producer) || isGenerator(producer))) ||
          llvm::is_contained(loaded, operand))
        continue;
      loaded.push_back(operand);
    }
  }
  return loaded;
}

/// Splits the `schedule`'s walk over `groups` work-groups (at least 1).
static void planWalk(Schedule &schedule, int64_t groups, bool contiguous) {
  ElementWalk &walk = schedule.walk;
  int64_t groupSize = schedule.localSize[0];
  groups = std::max<int64_t>(1, groups);
  walk.groupSteps = 0;
  // With one step per work-item both walks are the same: the strided one
  // needs no bound per work-group.
  if (contiguous && walk.steps > groups * groupSize) {
    // Whole strides of the work-group per chunk, so that only the last
    // work-group has a partial one.
    walk.groupSteps = llvm::alignTo(llvm::divideCeil(walk.steps, groups),
                                    uint64_t(groupSize));
    groups = std::max<int64_t>(
        1, llvm::divideCeil(walk.steps, std::max<int64_t>(1, walk.groupSteps)));
  }
  schedule.numGroups = {groups, 1, 1};
  double trips =
      contiguous ? double(llvm::divideCeil(walk.groupSteps, groupSize))
                 : std::ceil(double(walk.steps) / double(groups * groupSize));
  // One step per work-item needs no loop (ElementwiseLowering.cpp).
  schedule.loopPasses = trips > 1 ? countLoopPasses({trips}) : 0;
}

bool lowering::takesOneStep(const Schedule &schedule) {
  const ElementWalk &walk = schedule.walk;
  int64_t groupSize = schedule.localSize[0];
  return walk.groupSteps == 0 ? schedule.numGroups[0] * groupSize >= walk.steps
                              : walk.groupSteps <= groupSize;
}

Schedule lowering::schedulePerElement(const KernelGroup &group,
                                      const DeviceProfile &profile) {
  Schedule schedule;
  schedule.kind = ScheduleKind::PerElement;
  int64_t elements = group.type.getNumElements();
  int64_t groupSize = getLinearGroupSize(profile);
  schedule.localSize[0] = groupSize;
  schedule.activeItems = elements;
  bool gpu = profile.type == DeviceType::GPU;

  // The accesses: each loaded buffer and each stored value.
  SmallVector<Type> vectorTypes;
  unsigned accesses = 0;
  auto countAccess = [&](Value value, bool inPlace) {
    ++accesses;
    Type storage = getStorageType(
        cast<RankedTensorType>(value.getType()).getElementType());
    if (inPlace && hasVectorAccess(storage))
      vectorTypes.push_back(storage);
  };
  for (Value value : getLoadedValues(group))
    countAccess(value, isLoadedInPlace(group, value));
  for (Value value : group.stored)
    countAccess(value, /*inPlace=*/true);
  if (group.kind == KernelKind::Copy)
    countAccess(group.copySource, /*inPlace=*/true);

  // 16 bytes per access of the widest type (getMemoryVectorWidth), with the
  // registers of every element of a step within the budget.
  int64_t widest = 0;
  for (Type type : vectorTypes)
    widest = std::max<int64_t>(widest, type.getIntOrFloatBitWidth() / 8);
  int64_t fusedOps = group.ops.size();
  int64_t width =
      widest ? std::min<int64_t>(4, getMemoryVectorWidth(profile, widest)) : 1;
  std::string narrowed;
  while (width > 1 && 16 + width * fusedOps > kRegisterBudget) {
    width /= 2;
    narrowed = " (narrowed so that the registers of its " +
               std::to_string(fusedOps) + " fused ops fit)";
  }
  if (width > elements)
    width = std::max<int64_t>(1, llvm::bit_floor(uint64_t(elements)));
  ElementWalk &walk = schedule.walk;
  walk.width = width;
  walk.steps = llvm::divideCeil(elements, width);
  walk.accesses = accesses;
  walk.vectorAccesses = width > 1 ? vectorTypes.size() : 0;
  schedule.registers = 16 + width * fusedOps;

  // Enough work-groups to fill the device (a GPU's resident work-items, one
  // work-group per core of a CPU), no more than the steps need, within the
  // device's group count; more where a loop limit needs shorter loops.
  int64_t needed = llvm::divideCeil(walk.steps, groupSize);
  // A CPU gets one step per work-item, as many work-groups as that takes:
  // PoCL ran a 2^24-element add 27x slower as one work-group per core
  // whose work-items loop over a contiguous chunk, and 2.5x slower with
  // two steps per work-item, since it vectorises its loop over the
  // work-items of a group only where they run no loop of their own.
  int64_t wanted =
      gpu ? int64_t(profile.computeUnits) *
                std::max<int64_t>(1, kResidentItemsPerComputeUnit / groupSize)
          : needed;
  int64_t groups = std::min(std::max<int64_t>(1, wanted), needed);
  if (profile.maxLoopIterations > 1) {
    // A loop of t trips makes t + 1 passes.
    int64_t trips = int64_t(profile.maxLoopIterations) - 1;
    groups = std::max(groups,
                      int64_t(llvm::divideCeil(walk.steps, groupSize * trips)));
  }
  uint64_t countLimit = profile.maxWorkGroupCount[0];
  if (countLimit)
    groups = std::min<int64_t>(groups, countLimit);
  planWalk(schedule, std::max<int64_t>(1, groups), /*contiguous=*/!gpu);

  std::string size = std::to_string(groupSize);
  std::string &why = schedule.reason;
  why = "per element: work-groups of " + size +
        " (the largest power of two up to 256 that the device allows); ";
  if (width > 1)
    why += "steps of " + std::to_string(width) + " consecutive elements" +
           narrowed + ", " + std::to_string(walk.vectorAccesses) + " of " +
           std::to_string(accesses) + " accesses as one vector each (GPU: " +
           std::to_string(width * widest) +
           " bytes of the widest type, one access, per operand; broadcast "
           "operands and bf16 stay scalar)";
  else if (!gpu)
    why += "scalar steps (not a GPU: a CPU's OpenCL compiler vectorises "
           "across work-items)";
  else
    why += "scalar steps (no access in place has vectors: broadcast operands "
           "and bf16 have none)";
  int64_t launched = schedule.numGroups[0];
  if (walk.groupSteps == 0)
    why += "; " + std::to_string(launched) +
           (launched == 1 ? " work-group strides" : " work-groups stride") +
           " over the " + std::to_string(walk.steps) +
           " steps (work-item i takes steps i, i + " +
           std::to_string(launched * groupSize) + ", ...)";
  else
    why += "; " + std::to_string(launched) +
           (launched == 1 ? " work-group takes " : " work-groups each take ") +
           std::to_string(walk.groupSteps) +
           " consecutive steps, which their work-items stride over";
  if (takesOneStep(schedule))
    why += ", one step per work-item" +
           std::string(gpu ? ""
                           : " (a CPU: its OpenCL compiler vectorises "
                             "over the work-items of a group where "
                             "they run no loop)");
  else
    why += ", up to " + llvm::formatv("{0:F0}", schedule.loopPasses - 1).str() +
           " per work-item";
  if (gpu && launched == wanted && launched < needed)
    why += " (" + std::to_string(wanted / profile.computeUnits) +
           " work-groups per compute unit, the work-items it keeps "
           "resident, x " +
           std::to_string(profile.computeUnits) + " compute units)";
  else if (countLimit && needed > int64_t(countLimit))
    why += " (the device allows at most " + std::to_string(countLimit) +
           " work-groups per dimension)";
  else if (launched > wanted && launched < needed)
    why += " (the device stops loops after " +
           std::to_string(profile.maxLoopIterations) + " passes)";
  return schedule;
}

/// One work-item per element: the work-groups along x, and along y as well
/// where x alone would exceed the device's group count.
Schedule lowering::scheduleOneItemPerElement(int64_t items, int64_t registers,
                                             const DeviceProfile &profile,
                                             StringRef item) {
  Schedule schedule;
  schedule.localSize[0] = getLinearGroupSize(profile);
  int64_t groups = llvm::divideCeil(items, schedule.localSize[0]);
  schedule.numGroups[0] = groups;
  std::string spread;
  if (uint64_t limit = profile.maxWorkGroupCount[0];
      limit && uint64_t(groups) > limit) {
    schedule.numGroups[1] = llvm::divideCeil(groups, int64_t(limit));
    schedule.numGroups[0] = llvm::divideCeil(groups, schedule.numGroups[1]);
    spread = ", spread over " + std::to_string(schedule.numGroups[0]) + "x" +
             std::to_string(schedule.numGroups[1]) +
             " work-groups (the device allows at most " +
             std::to_string(limit) + " per dimension)";
  }
  schedule.activeItems = items;
  schedule.registers = registers;
  schedule.reason = "one work-item per " + item.str() + ", " +
                    std::to_string(schedule.localSize[0]) +
                    " per work-group (the largest power of two up to 256 "
                    "that the device allows)" +
                    spread;
  return schedule;
}

void lowering::restrictLinearSchedule(Schedule &schedule, int64_t elements,
                                      int64_t rowElements) {
  schedule.activeItems = elements;
  int64_t groupSize = schedule.localSize[0];
  if (schedule.kind != ScheduleKind::PerElement) {
    // A generic contraction's work-item takes `walk.width` elements (its
    // lanes), from a multiple of them in the chunk's buffers: where the rows
    // (of a 1-D output, single elements) are no multiple, one element.
    if (schedule.kind == ScheduleKind::GenericContraction) {
      if (rowElements % schedule.walk.width != 0) {
        schedule.walk.width = 1;
        schedule.reason += "; in this chunk one element per work-item (its "
                           "rows are not a multiple of the lanes)";
      }
      schedule.walk.steps = elements / schedule.walk.width;
      schedule.activeItems = schedule.walk.steps;
    }
    int64_t groups = llvm::divideCeil(schedule.activeItems, groupSize);
    int64_t along =
        std::max<int64_t>(1, std::min(schedule.numGroups[0], groups));
    schedule.numGroups = {along, int64_t(llvm::divideCeil(groups, along)), 1};
    return;
  }
  // Every step must start at a multiple of the width from the start of
  // the buffers of the chunk, which start at whole rows.
  ElementWalk &walk = schedule.walk;
  int64_t width = walk.width;
  while (width > 1 && rowElements % width != 0)
    width /= 2;
  if (width != walk.width) {
    schedule.reason += "; in this chunk steps of " + std::to_string(width) +
                       " (its rows of " + std::to_string(rowElements) +
                       " elements are not a multiple of " +
                       std::to_string(walk.width) + ")";
    if (width == 1)
      walk.vectorAccesses = 0;
  }
  walk.width = width;
  walk.steps = llvm::divideCeil(elements, width);
  // No more work-groups than the whole kernel had, so its limits hold.
  int64_t groups = std::min<int64_t>(schedule.numGroups[0],
                                     llvm::divideCeil(walk.steps, groupSize));
  if (walk.groupSteps != 0)
    groups = std::max<int64_t>(groups,
                               llvm::divideCeil(walk.steps, walk.groupSteps));
  planWalk(schedule, groups, walk.groupSteps != 0);
}
