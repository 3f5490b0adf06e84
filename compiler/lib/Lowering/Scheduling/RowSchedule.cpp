//===- RowSchedule.cpp - One kernel per block of rows ---------------------===//
//
// A row kernel (softmax, layer norm, ...: reductions over the last axis whose
// results are broadcast back over the rows) runs as one kernel in which a
// part of a work-group takes a row: its `lanes` work-items hold the row in
// registers, lane l the elements l, l + lanes, ... (neighbouring work-items
// read neighbouring elements), reduce it by a tree in local memory and apply
// the elementwise ops in between, so the input is read once and the output
// written once (docs/scheduler.md, "Row kernels"). A row too long for the
// register budget takes more lanes where the device allows it, or else a
// work-group alone on its compute unit; one too long for that is streamed
// instead when the rows fill the device: the lanes walk it in chunks once per
// reduction and once more for the results, reading the input once per pass
// (from the cache where the rows in flight fit it).
//
//===----------------------------------------------------------------------===//

#include "tilec/Lowering/Schedule.h"

#include "KernelBodies/KernelEmitter.h"
#include "KernelBodies/OnlineSums.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::lowering;

/// The elements of a row each lane aims to hold: enough loads in flight per
/// work-item to cover the memory's latency, with few tree steps.
constexpr int64_t kRowTargetSteps = 16;

/// The most elements a lane of a row holds where the device gives every
/// kernel its largest work-group: a row whose 256 lanes would each hold more
/// takes as many lanes as give each at most this many (what 256 lanes hold of
/// a row of 8192), or is streamed. With 16, softmax over rows of 16384 took
/// 1024 lanes of 48 registers, a work-group alone on its compute unit with
/// nothing to overlap its trees; 512 lanes of 32 elements (63 registers) keep
/// two work-groups per unit and ran 1.16x as fast through NVIDIA's Vulkan,
/// and 256 lanes of 64 (128 registers) 0.96x (docs/scheduler.md, "Row
/// kernels").
constexpr int64_t kWideRowTargetSteps = 32;

/// Work-items per work-group the schedule aims for when rows are short: a
/// work-group then takes several rows.
constexpr int64_t kRowGroupItems = 256;

/// Registers per work-item besides the row's elements (addresses, the row's
/// reductions, counters).
constexpr int64_t kRowBaseRegisters = 16;

RowWork lowering::getRowWork(ArrayRef<Operation *> ops,
                             RankedTensorType rowType) {
  RowWork work;
  work.rows = rowType.getDimSize(0);
  work.rowLength = rowType.getDimSize(1);
  llvm::DenseSet<Value> defined;
  for (Operation *op : ops) {
    defined.insert(op->getResult(0));
    Type compute = getComputeType(
        cast<RankedTensorType>(op->getResult(0).getType()).getElementType());
    work.valueWords = std::max<int64_t>(
        work.valueWords, llvm::divideCeil(compute.getIntOrFloatBitWidth(), 32));
  }
  llvm::SetVector<Value> loaded;
  for (Operation *op : ops) {
    for (Value operand : op->getOperands()) {
      Operation *producer = operand.getDefiningOp();
      if (defined.count(operand) || (producer && isGenerator(producer)))
        continue;
      if (cast<RankedTensorType>(operand.getType()).getShape() ==
          rowType.getShape())
        loaded.insert(operand);
    }
    auto contract = dyn_cast<tile::ContractOp>(op);
    if (!contract)
      continue;
    ++work.reductions;
    Type resultType = contract.getType().getElementType();
    Type compute = getComputeType(resultType);
    int64_t bytes = std::max<int64_t>(1, compute.getIntOrFloatBitWidth() / 8);
    bool compensated =
        isa<FloatType>(compute) &&
        contract.getAggregation() == tile::AggregationKind::Add &&
        double(work.rowLength) > kLongReduction;
    work.compensated |= compensated;
    work.partialBytes += bytes * (compensated ? 2 : 1);
  }
  work.loaded = loaded.size();
  OnlineSums online = findOnlineSums(ops, rowType);
  work.onlineExponentials = online.ofExponentials.size();
  work.onlineSquares = online.ofSquares.size();
  return work;
}

/// `lanes`, halved while the trees of `work` exceed the local memory.
static int64_t fitTreesInLocalMemory(int64_t lanes, const RowWork &work,
                                     const DeviceProfile &profile) {
  while (lanes > 1 &&
         uint64_t(lanes * work.partialBytes) > profile.localMemBytes)
    lanes /= 2;
  return lanes;
}

/// The most lanes a row may take where the device gives every kernel its
/// largest work-group (Vulkan): that work-group, a power of two, within the
/// local memory of the row's trees. Nothing where the profile does not promise
/// it (OpenCL: a kernel's own maximum, known once built, may be lower) or the
/// device is no GPU.
static std::optional<int64_t> getPromisedRowLanes(const DeviceProfile &profile,
                                                  const RowWork &work) {
  if (!profile.maxWorkGroupSizeGuaranteed || profile.type != DeviceType::GPU)
    return std::nullopt;
  return fitTreesInLocalMemory(
      int64_t(llvm::bit_floor(std::min<uint64_t>(profile.maxWorkGroupSize,
                                                 profile.maxWorkItemSizes[0]))),
      work, profile);
}

std::optional<Schedule> lowering::scheduleRow(const RowWork &work,
                                              const DeviceProfile &profile,
                                              std::string &whyNot) {
  // At most the 256 work-items of the other linear kernels: NVIDIA's OpenCL
  // reports 256 as every kernel's work-group maximum
  // (CL_KERNEL_WORK_GROUP_SIZE), one built for 1024 at 32 registers
  // included, and the OpenCL specification makes a larger launch invalid.
  int64_t maxItems = getLinearGroupSize(profile);
  int64_t n = std::max<int64_t>(1, work.rowLength);
  // Lanes per row: a power of two, enough that each lane holds about
  // kRowTargetSteps elements, within the work-group and local memory.
  int64_t lanes = fitTreesInLocalMemory(
      std::min<int64_t>(maxItems, int64_t(llvm::bit_ceil(uint64_t(
                                      llvm::divideCeil(n, kRowTargetSteps))))),
      work, profile);
  if (uint64_t(lanes * work.partialBytes) > profile.localMemBytes) {
    whyNot = llvm::formatv("the trees of its {0} reductions need {1} bytes of "
                           "local memory per work-item, more than the "
                           "device's {2} bytes hold for one",
                           work.reductions, work.partialBytes,
                           profile.localMemBytes);
    return std::nullopt;
  }
  // 32-bit registers per work-item. A held row: each loaded row's elements,
  // from which each pass computes the ops it needs (NVIDIA's OpenCL compiler
  // gave softmax holding 64 f32 a lane 80 registers).
  auto heldRegisters = [&](int64_t steps) {
    return kRowBaseRegisters +
           steps * std::max<int64_t>(1, int64_t(work.loaded)) * work.valueWords;
  };
  // A streamed chunk: each loaded row's elements and a working value each.
  auto streamedRegisters = [&](int64_t steps) {
    return kRowBaseRegisters +
           steps * (int64_t(work.loaded) + 1) * work.valueWords;
  };
  int64_t steps = llvm::divideCeil(n, lanes);
  int64_t registers = heldRegisters(steps);
  int64_t chunks = 1;
  // Where the device gives every kernel its largest work-group, a row whose
  // lanes would each hold more than kWideRowTargetSteps elements takes more
  // lanes, as many as one work-group of a compute unit's registers holds:
  // held where each then holds at most kWideRowTargetSteps (with more, the
  // driver's compiler would have to spill), else streamed with fewer
  // rows in flight between its passes, so that the later passes find it in
  // the cache (softmax over rows of 32768 through Vulkan on an H100, 1024
  // lanes against 256: 1.29x as fast).
  std::optional<int64_t> promised = getPromisedRowLanes(profile, work);
  bool widened = false;
  std::string wideTooLong;
  if (steps > kWideRowTargetSteps && promised && *promised > lanes) {
    int64_t wide = std::min<int64_t>(
        *promised, int64_t(llvm::bit_ceil(
                       uint64_t(llvm::divideCeil(n, kWideRowTargetSteps)))));
    int64_t wideSteps = llvm::divideCeil(n, wide);
    int64_t wideRegisters = heldRegisters(wideSteps);
    int64_t wideBudget = getRegisterBudget(wide);
    if (wideSteps <= kWideRowTargetSteps && wideRegisters <= wideBudget) {
      lanes = wide;
      steps = wideSteps;
      registers = wideRegisters;
      widened = true;
    } else {
      wideTooLong = llvm::formatv(
          "; {0} work-items (the largest work-group the device gives every "
          "kernel) would each hold {1} elements, {2}",
          wide, wideSteps,
          wideSteps > kWideRowTargetSteps
              ? llvm::formatv("more than {0}", kWideRowTargetSteps).str()
              : llvm::formatv("about {0} registers, more than the {1} each "
                              "that one work-group of a compute unit's "
                              "registers holds",
                              wideRegisters, wideBudget)
                    .str());
    }
  }
  // Where no work-group may take more than `lanes` (OpenCL), a row past the
  // budget is held by a work-group alone on its compute unit, as long as its
  // work-items stay within the most registers one can take: streamed, the
  // rows in flight of as many work-groups would overflow the cache, and each
  // pass read the row from memory again (softmax and layer norm over rows of
  // 32768 through NVIDIA's OpenCL on an H100, held by 256 lanes of 255
  // registers: 1.10x and 1.41x as fast).
  bool mayHoldAlone = !promised && profile.type == DeviceType::GPU;
  int64_t unitBudget = getUnitRegisterBudget(lanes);
  bool unitHeld =
      mayHoldAlone && registers > kRegisterBudget && registers <= unitBudget;
  std::string tooLong;
  if (registers > kRegisterBudget && !unitHeld) {
    tooLong = llvm::formatv(
        "a row of {0} elements does not fit on chip: {1} work-items (the "
        "largest work-group it takes) would each hold {2} elements of {3} "
        "rows read, about {4} registers per work-item, more than the budget "
        "of {5}{6}{7}",
        n, lanes, steps, std::max(1u, work.loaded), registers, kRegisterBudget,
        mayHoldAlone
            ? llvm::formatv(" and than the {0} each that a compute unit's "
                            "registers give one work-group alone",
                            unitBudget)
                  .str()
            : std::string(),
        wideTooLong);
    // Streamed: each pass takes kRowTargetSteps elements per lane at a time
    // (fewer where the rows read need the registers).
    steps = kRowTargetSteps;
    while (steps > 1 && streamedRegisters(steps) > kRegisterBudget)
      steps /= 2;
    registers = streamedRegisters(steps);
    if (registers > kRegisterBudget) {
      whyNot = tooLong;
      return std::nullopt;
    }
    if (promised) {
      int64_t wide = *promised;
      while (wide > lanes && registers > getRegisterBudget(wide))
        wide /= 2;
      widened = wide > lanes;
      lanes = std::max(lanes, wide);
    }
    chunks = llvm::divideCeil(n, steps * lanes);
    // One work-group per row: the rows must fill the device, or the
    // reduction schedules, which share a row among work-groups, read faster.
    int64_t fill =
        int64_t(profile.computeUnits) *
        getResidentGroups(profile, lanes, registers, lanes * work.partialBytes);
    if (work.rows < fill) {
      whyNot = tooLong +
               llvm::formatv("; streamed in chunks by one work-group per row, "
                             "its {0} rows would not fill the {1} work-groups "
                             "the device keeps resident",
                             work.rows, fill)
                   .str();
      return std::nullopt;
    }
  }
  // Short rows: several rows per work-group, so that it has enough
  // work-items and the device few work-groups.
  int64_t rowsPerGroup = std::max<int64_t>(1, kRowGroupItems / lanes);
  rowsPerGroup = std::min<int64_t>(
      rowsPerGroup,
      int64_t(llvm::bit_ceil(uint64_t(std::max<int64_t>(1, work.rows)))));
  while (rowsPerGroup > 1 &&
         (uint64_t(rowsPerGroup * lanes * work.partialBytes) >
              profile.localMemBytes ||
          rowsPerGroup * lanes > maxItems))
    rowsPerGroup /= 2;

  Schedule schedule;
  schedule.kind = ScheduleKind::RowFused;
  schedule.rowsPerGroup = rowsPerGroup;
  schedule.rowSteps = steps;
  schedule.rowChunks = chunks;
  unsigned onlineSums = work.onlineExponentials + work.onlineSquares;
  schedule.onlineSums = chunks > 1 && onlineSums > 0;
  schedule.localSize[0] = rowsPerGroup * lanes;
  int64_t blocks = llvm::divideCeil(work.rows, rowsPerGroup);
  int64_t groups = std::max<int64_t>(1, blocks);
  if (uint64_t limit = profile.maxWorkGroupCount[0];
      limit && uint64_t(groups) > limit)
    groups = int64_t(limit);
  schedule.numGroups[0] = groups;
  schedule.activeItems = work.rows * lanes;
  schedule.compensated = work.compensated;
  // Fewer work-groups than blocks walk them: one pass per block, plus the
  // last test (one work-group per block runs no such loop); a streamed
  // row's passes (one per reduction but the online sums, one for the
  // results) each loop over its chunks.
  int64_t passes = chunks > 1 ? int64_t(work.reductions - onlineSums) + 1 : 0;
  double blockPasses = double(llvm::divideCeil(blocks, groups));
  schedule.loopPasses = (groups == blocks ? 0 : blockPasses + 1) +
                        blockPasses * double(passes) * double(chunks + 1);
  if (chunks > 1 && profile.maxLoopIterations != 0 &&
      schedule.loopPasses > double(profile.maxLoopIterations)) {
    whyNot =
        tooLong + llvm::formatv("; streamed in chunks, it would make "
                                "{0:F0} loop passes per work-item, past "
                                "the device's limit of {1}",
                                schedule.loopPasses, profile.maxLoopIterations)
                      .str();
    return std::nullopt;
  }
  schedule.localMemBytes = schedule.localSize[0] * work.partialBytes;
  schedule.registers = registers;
  schedule.unitRegisters = unitHeld;
  std::string rowsText = rowsPerGroup == 1
                             ? std::string("one row")
                             : llvm::formatv("{0} rows", rowsPerGroup).str();
  std::string online;
  if (chunks > 1 && work.onlineExponentials)
    online += "; a sum of exp(x - max) takes its maximum's pass, each "
              "work-item rescaling its sum by exp(old - new) as its maximum "
              "grows";
  if (chunks > 1 && work.onlineSquares)
    online += "; a sum of squared differences from a per-row value takes an "
              "earlier reduction's pass, each work-item keeping the count, "
              "mean and squared deviations of its elements and adding n "
              "(mean - c)^2 once the value c is known";
  const char *wideWhy = "the device gives every kernel its largest "
                        "work-group, so a row takes as many work-items as "
                        "one work-group of a compute unit holds";
  std::string holding =
      chunks == 1
          ? llvm::formatv(
                "each holding {0} elements of the row in registers{1}", steps,
                widened
                    ? llvm::formatv(
                          " (the device gives every kernel its largest "
                          "work-group, so a row takes more than the 256 "
                          "work-items of other kernels: enough to give each "
                          "about {0} elements, within that work-group and the "
                          "registers one work-group of a compute unit holds)",
                          kWideRowTargetSteps)
                          .str()
                : unitHeld
                    ? llvm::formatv(
                          " (about {0} registers per work-item, more than the "
                          "budget of {1} that keeps two work-groups per "
                          "compute unit: no work-group may take more "
                          "work-items, and streamed, the rows in flight "
                          "would overflow the cache, so a work-group takes "
                          "a compute unit's registers alone, at most {2} per "
                          "work-item)",
                          registers, kRegisterBudget, unitBudget)
                          .str()
                    : std::string())
                .str()
          : llvm::formatv(
                "which stream it ({0}): each of the row's {1} passes (one "
                "per reduction, one for the results{4}) walks it in {2} "
                "chunks of {3} elements per work-item, recomputing the "
                "elementwise ops from the inputs (from the cache where the "
                "rows in flight fit it{5})",
                tooLong, passes, chunks, steps, online,
                widened ? llvm::formatv("; {0}, and fewer rows are in "
                                        "flight",
                                        wideWhy)
                              .str()
                        : std::string())
                .str();
  schedule.reason = llvm::formatv(
      "reductions over rows of {0} elements with consumers that broadcast "
      "them back over the rows, fused into one kernel that reads each row "
      "{7} and writes it once: each work-group takes {1}, {2} work-items per "
      "row, {3} (work-item l reads elements l, l + {2}, ...: coalesced), and "
      "each of the {4} row reductions is a tree of {5} steps in local memory; "
      "{6}",
      n, rowsText, lanes, holding, work.reductions, llvm::Log2_64(lanes),
      groups == blocks
          ? llvm::formatv("one work-group per block of rows ({0})", groups)
                .str()
          : llvm::formatv("{0} work-groups walk the {1} blocks of rows", groups,
                          blocks)
                .str(),
      chunks == 1 ? std::string("once") : std::string("once per pass"));
  return schedule;
}
