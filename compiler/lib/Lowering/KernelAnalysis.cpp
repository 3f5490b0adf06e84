//===- KernelAnalysis.cpp - What the passes know about the kernels --------===//

#include "KernelAnalysis.h"

#include "KernelBodies/KernelEmitter.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::lowering;

Value KernelAnalysis::getRoot(Value value) {
  while (auto reshape = value.getDefiningOp<tile::ReshapeOp>())
    value = reshape.getInput();
  return value;
}

int64_t KernelAnalysis::getBufferBytes(Value value) {
  MemRefType type = getBufferType(cast<RankedTensorType>(value.getType()));
  return type.getNumElements() *
         std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
}

/// The index variable that `row` is exactly (coefficient 1, nothing else),
/// if any.
static std::optional<unsigned> getSoleVariable(const IndexSystem::Row &row,
                                               unsigned numIndices) {
  std::optional<unsigned> sole;
  for (unsigned var = 0; var <= numIndices; ++var) {
    if (row.num[var] == 0)
      continue;
    if (sole || var == numIndices || row.num[var] != 1 || row.den[var] != 1)
      return std::nullopt;
    sole = var;
  }
  return sole;
}

/// The name of index variable `var` in `system`, for messages.
static std::string getIndexName(const IndexSystem &system, unsigned var) {
  return var < system.names.size() ? system.names[var]
                                   : "x" + std::to_string(var);
}

void KernelAnalysis::collectBuffers(KernelInfo &info,
                                    const KernelGroup &group) {
  RankedTensorType type = group.type;
  auto tensorTypeOf = [&](Value view) {
    return cast<RankedTensorType>(getRoot(view).getType());
  };
  // An operand read at the element's coordinates (NumPy broadcasting).
  auto addElementwiseRead = [&](Value view) {
    info.reads.insert(getRoot(view));
    auto viewType = cast<RankedTensorType>(view.getType());
    bool aligned = type.getRank() > 0 && viewType.getRank() == type.getRank() &&
                   viewType.getDimSize(0) == type.getDimSize(0);
    info.accesses.push_back({view, tensorTypeOf(view), aligned,
                             "it is broadcast along the kernel's outermost "
                             "dimension"});
  };
  if (group.kind == KernelKind::Copy) {
    addElementwiseRead(group.copySource);
    info.accesses.push_back({Value(), type, true, ""});
    return;
  }
  for (Operation *op : group.ops) {
    if (isa<tile::ShapeOp>(op))
      continue;
    // A row kernel reads its reductions' inputs at its own elements.
    auto contract = group.kind == KernelKind::Row
                        ? tile::ContractOp()
                        : dyn_cast<tile::ContractOp>(op);
    auto isRead = [&](Value operand) {
      auto it = plan.groupOf.find(operand);
      bool inGroup =
          it != plan.groupOf.end() && &plan.groups[it->second] == &group;
      Operation *producer = operand.getDefiningOp();
      // Generators are recomputed by elementwise evaluation (the init of a
      // contraction included); contraction inputs are read from memory.
      bool recomputed = producer && isGenerator(producer) &&
                        (!contract || operand == contract.getInit());
      return !inGroup && !recomputed;
    };
    if (!contract) {
      for (Value operand : op->getOperands())
        if (isRead(operand))
          addElementwiseRead(operand);
      continue;
    }
    if (Value init = contract.getInit(); init && isRead(init))
      addElementwiseRead(init);
    // A contraction input follows the output's rows when its outermost
    // index is exactly the output's outermost index.
    const IndexSystem &system = *info.system;
    std::optional<unsigned> outerVar =
        system.output.rows.empty()
            ? std::nullopt
            : getSoleVariable(system.output.rows[0], system.numIndices);
    for (auto [position, input] : llvm::enumerate(contract.getInputs())) {
      info.reads.insert(getRoot(input));
      const IndexSystem::Access &access = system.inputs[position];
      std::optional<unsigned> var =
          access.rows.empty()
              ? std::nullopt
              : getSoleVariable(access.rows[0], system.numIndices);
      // The constant column is never a sole variable: it stands for none.
      bool aligned = outerVar && var.value_or(system.numIndices) == *outerVar;
      std::string why = "the output's outermost index is not a plain index "
                        "variable";
      if (outerVar)
        why = "its outermost index is " +
              (var ? "`" + getIndexName(system, *var) + "`, not" : "not") +
              " the output's `" + getIndexName(system, *outerVar) + "`";
      info.accesses.push_back({input, tensorTypeOf(input), aligned, why});
    }
  }
  // A stored value has the group's shape, not always its element type (a
  // fused cast): its pieces follow its own bytes.
  for (Value value : group.stored) {
    info.writes.insert(value);
    info.accesses.push_back({value, tensorTypeOf(value), true, ""});
  }
}

std::optional<PieceLayout> KernelAnalysis::getPieceLayout(RankedTensorType type,
                                                          Value root) {
  MemRefType buffer = getBufferType(type);
  int64_t elementBytes =
      std::max<int64_t>(1, buffer.getElementTypeBitWidth() / 8);
  uint64_t bytes = uint64_t(buffer.getNumElements()) * elementBytes;
  uint64_t limit = profile.maxAllocBytes;
  if (auto it = pieceLimits.find(root); root && it != pieceLimits.end())
    limit = it->second;
  if (!limit || bytes <= limit)
    return std::nullopt;
  PieceLayout layout;
  layout.rows = type.getRank() ? type.getDimSize(0) : 1;
  layout.rowElements = buffer.getNumElements() / layout.rows;
  layout.elementBytes = elementBytes;
  uint64_t rowBytes = uint64_t(layout.rowElements) * elementBytes;
  if (rowBytes <= limit)
    layout.rowsPerPiece = int64_t(llvm::bit_floor(limit / rowBytes));
  return layout;
}

LogicalResult KernelAnalysis::analyse(bool chooseSchedules) {
  for (BlockArgument argument : function.getArguments())
    tensors.push_back(argument);
  for (const KernelGroup &group : plan.groups)
    llvm::append_range(tensors, group.stored);
  if (failed(checkMemory()))
    return failure();
  for (const KernelGroup &group : plan.groups) {
    KernelInfo info(*group.loc);
    info.name = group.name;
    // Source: the named statements the kernel computes.
    SmallVector<std::string> sources;
    for (Operation *op : group.ops)
      if (getTensorName(op->getLoc()))
        if (auto source = formatLocation(op->getLoc()))
          sources.push_back(*source);
    if (sources.empty())
      if (auto source = formatLocation(info.loc))
        sources.push_back(*source);
    info.source = llvm::join(sources, ",");

    int64_t elements = group.type.getNumElements();
    unsigned ewOps = llvm::count_if(
        group.ops, [](Operation *op) { return isa<tile::ElementwiseOp>(op); });
    if (group.kind == KernelKind::Contraction) {
      auto contract = cast<tile::ContractOp>(group.ops.front());
      info.system = getIndexSystem(contract);
      std::string error;
      info.space = analyzeIndexSpace(*info.system, error);
      if (!info.space)
        return emitError(info.loc) << error;
      std::optional<int64_t> tuplesPerElement = info.space->tuplesPerElement();
      if (contract.getAggregation() == tile::AggregationKind::Assign &&
          elements > 0 && tuplesPerElement && *tuplesPerElement > 1)
        return emitError(info.loc)
               << "`=` assigns every output element " << *tuplesPerElement
               << " times, but each element may have at most one valid "
                  "index tuple; aggregate with `+`, `>`, ... to combine them";
      info.tuples = countTuples(*info.space, *info.system);
      if (chooseSchedules)
        info.schedule = scheduleContraction(contract, *info.space, *info.system,
                                            info.tuples, profile);
      double perTuple =
          contract.getCombination() == tile::CombinationKind::None ? 1 : 2;
      info.flops = info.tuples.tuples * perTuple;
    } else if (group.kind == KernelKind::Row) {
      RowWork work = getRowWork(group.ops, group.type);
      std::string whyNot;
      std::optional<Schedule> row = scheduleRow(work, profile, whyNot);
      // Formation for another device may have formed it: say so.
      if (chooseSchedules && !row)
        return emitError(info.loc)
               << "kernel " << group.name << " cannot run as a row kernel on "
               << "device '" << profile.name << "': " << whyNot;
      if (chooseSchedules)
        info.schedule = *row;
      info.flops = double(elements) * work.reductions;
    } else if (chooseSchedules) {
      info.schedule = schedulePerElement(group, profile);
    }
    if (!chooseSchedules) {
      auto attr = group.attributes.getAs<tile::ScheduleAttr>("schedule");
      if (!attr)
        return emitError(info.loc)
               << "kernel " << group.name
               << " has no schedule: run scheduling (--tile-schedule) first";
      FailureOr<Schedule> schedule =
          getSchedule(attr, group, info.space ? &*info.space : nullptr,
                      info.system ? &*info.system : nullptr, info.loc);
      if (failed(schedule))
        return failure();
      info.schedule = std::move(*schedule);
      const WorkSplit &split = info.schedule.split;
      size_t levels = info.tuples.levelTrips.size();
      if (info.schedule.kind == ScheduleKind::ReductionContraction &&
          (split.mergedLevels > levels ||
           (split.stridedLevel >= levels && levels > 0)))
        return emitError(info.loc)
               << "kernel " << group.name << "'s reduction schedule shares "
               << "loop levels its contraction does not have (" << levels
               << ")";
      if (split.stepWidth != 1) {
        std::string whyNot;
        if (info.schedule.kind != ScheduleKind::ReductionContraction ||
            (split.stepWidth != 2 && split.stepWidth != 4))
          return emitError(info.loc)
                 << "kernel " << group.name << ": only a `reduction` schedule "
                 << "takes steps (step_width), of 2 or 4 tuples, not "
                 << split.stepWidth;
        if (!getSharedStepStrides(cast<tile::ContractOp>(group.ops[0]),
                                  *info.space, *info.system, split,
                                  split.stepWidth, whyNot))
          return emitError(info.loc)
                 << "kernel " << group.name << "'s reduction schedule cannot "
                 << "take steps of " << split.stepWidth
                 << " tuples: " << whyNot;
      }
    }
    info.flops += double(elements) * ewOps;
    if (failed(verifyScheduleFits(info.schedule, profile, info.loc)))
      return failure();
    if (info.schedule.partialGroups > 1 &&
        failed(verifyScheduleFits(
            scheduleCombination(info.schedule, elements,
                                getComputeType(group.type.getElementType()),
                                profile),
            profile, info.loc)))
      return failure();
    collectBuffers(info, group);
    for (Value value : info.reads)
      info.bytes += getBufferBytes(value);
    for (Value value : info.writes)
      info.bytes += getBufferBytes(value);
    if (group.kind == KernelKind::Copy)
      info.bytes += getBufferBytes(group.copySource);
    infos.push_back(std::move(info));
  }
  return success();
}

void KernelAnalysis::writeSchedules() {
  MLIRContext *context = function.getContext();
  for (auto [group, info] : llvm::zip(plan.groups, infos)) {
    NamedAttrList attributes(group.attributes);
    attributes.set("schedule", getScheduleAttr(context, info.schedule));
    group.attributes = attributes.getDictionary(context);
  }
}
