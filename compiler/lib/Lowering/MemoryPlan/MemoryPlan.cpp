//===- MemoryPlan.cpp - Pieces, chunks and streaming ----------------------===//
//
// Memory planning (`tile-plan-memory`, docs/scheduler.md "Splitting" and
// "Streaming"): a tensor larger than the device's largest buffer is stored
// as pieces of whole rows, the kernels that touch it run in chunks of rows,
// and when the buffers together exceed the device's memory, the largest
// tensors that can take smaller pieces are halved until the launches' peak
// fits. The plan is recorded as attributes: `chunk_bounds` and
// `piece_bytes` on the tile.kernel ops, `tile.piece_bytes` on the function's
// arguments, `tile.streamed_peak` on the function.
//
//===----------------------------------------------------------------------===//

#include "KernelAnalysis.h"

#include "KernelBodies/KernelEmitter.h"

#include "tilec/Runtime/Residency.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::lowering;

LogicalResult KernelAnalysis::planChunks(KernelInfo &info,
                                         const KernelGroup &group) {
  RankedTensorType type = group.type;
  int64_t rows = type.getRank() ? type.getDimSize(0) : 1;
  SmallVector<int64_t> bounds;
  bool split = false;
  for (const BufferAccess &access : info.accesses) {
    Value root = access.view ? getRoot(access.view) : Value();
    std::optional<PieceLayout> layout = getPieceLayout(access.tensorType, root);
    if (!layout)
      continue;
    split = true;
    std::string name =
        root ? getTensorName(root.getLoc()).value_or("a temporary")
             : "output " + std::to_string(group.copyOutput);
    auto fail = [&](const Twine &why) {
      return emitError(info.loc)
             << "tensor '" << name << "' ("
             << layout->rows * layout->rowElements * layout->elementBytes
             << " bytes) is stored as " << layout->getNumPieces()
             << " buffers of at most " << layout->rowsPerPiece
             << " rows of its outermost dimension, since device '"
             << profile.name << "' allows at most " << profile.maxAllocBytes
             << " bytes per buffer; this kernel cannot be split along its "
                "outermost dimension to match, because "
             << why;
    };
    if (!access.aligned)
      return fail(access.why);
    RankedTensorType viewType =
        access.view ? cast<RankedTensorType>(access.view.getType()) : type;
    int64_t viewRowElements = viewType.getNumElements() / rows;
    auto [it, inserted] =
        info.viewRowElements.try_emplace(root, viewRowElements);
    if (!inserted && it->second != viewRowElements)
      return fail("the kernel reads it through two shapes");
    int64_t pieceElements = layout->rowsPerPiece * layout->rowElements;
    for (int64_t piece = 1; piece < layout->getNumPieces(); ++piece) {
      int64_t element = piece * pieceElements;
      if (element % viewRowElements != 0)
        return fail("its pieces do not end at row boundaries of its shape " +
                    llvm::join(llvm::map_range(viewType.getShape(),
                                               [](int64_t extent) {
                                                 return std::to_string(extent);
                                               }),
                               "x") +
                    " in this kernel");
      int64_t bound = element / viewRowElements;
      if (bound > 0 && bound < rows)
        bounds.push_back(bound);
    }
  }
  if (!split)
    return success();
  // The reduction schedule's work-groups are numbered by output element,
  // an implicit GEMM's rows are flattened indices, and a split reduction's
  // partials hold whole outputs: they know nothing of chunks, and a chunked
  // kernel runs the generic schedule.
  if (info.schedule.kind == ScheduleKind::ReductionContraction ||
      info.schedule.kind == ScheduleKind::ImplicitGemm ||
      info.schedule.partialGroups > 1) {
    Schedule generic =
        scheduleGeneric(cast<tile::ContractOp>(group.ops[0]), *info.space,
                        info.system ? &*info.system : nullptr, info.tuples,
                        info.schedule.compensated, profile);
    generic.reason =
        std::string("generic: ") +
        (info.schedule.kind == ScheduleKind::ReductionContraction
             ? "a reduction"
         : info.schedule.kind == ScheduleKind::ImplicitGemm
             ? "an implicit GEMM"
             : "a split reduction") +
        " over a tensor split into pieces runs in chunks of rows, with the "
        "generic schedule; " +
        generic.reason;
    info.schedule = std::move(generic);
    if (failed(verifyScheduleFits(info.schedule, profile, info.loc)))
      return failure();
  }
  bounds.push_back(0);
  bounds.push_back(rows);
  llvm::sort(bounds);
  bounds.erase(std::unique(bounds.begin(), bounds.end()), bounds.end());
  info.chunkBounds = std::move(bounds);
  return success();
}

LogicalResult KernelAnalysis::checkMemory() {
  for (Value value : tensors) {
    std::optional<PieceLayout> layout =
        getPieceLayout(cast<RankedTensorType>(value.getType()), value);
    if (!layout)
      continue;
    Location loc = isa<BlockArgument>(value) ? value.getLoc()
                                             : value.getDefiningOp()->getLoc();
    std::string name = getTensorName(loc).value_or("a temporary");
    if (layout->rowsPerPiece > 0 && layout->getNumPieces() > kMaxPieces)
      return emitError(loc)
             << "tensor '" << name << "' is too large: it needs "
             << getBufferBytes(value) << " bytes; device '" << profile.name
             << "' has " << profile.globalMemBytes
             << " bytes of memory and takes at most " << profile.maxAllocBytes
             << " bytes per buffer, so the tensor would stream through it as "
             << layout->getNumPieces() << " pieces of "
             << layout->getPieceBytes() << " bytes, more than the limit of "
             << kMaxPieces << " pieces per tensor ("
             << uint64_t(kMaxPieces) * layout->getPieceBytes() << " bytes)";
    if (layout->rowsPerPiece == 0)
      return emitError(loc)
             << "tensor '" << name << "' needs " << getBufferBytes(value)
             << " bytes, more than the largest buffer device '" << profile.name
             << "' allows (" << profile.maxAllocBytes
             << " bytes), and cannot be split: one row of its outermost "
                "dimension alone needs "
             << layout->rowElements * layout->elementBytes << " bytes";
  }
  return success();
}

uint64_t KernelAnalysis::computeLaunchPeak() {
  // Buffer ids: each tensor's pieces (or the tensor), then copy targets.
  std::vector<uint64_t> bytes;
  llvm::DenseMap<Value, std::pair<size_t, std::optional<PieceLayout>>> ids;
  for (Value value : tensors) {
    auto type = cast<RankedTensorType>(value.getType());
    std::optional<PieceLayout> layout = getPieceLayout(type, value);
    ids[value] = {bytes.size(), layout};
    if (!layout) {
      bytes.push_back(getBufferBytes(value));
      continue;
    }
    for (int64_t piece = 0; piece < layout->getNumPieces(); ++piece)
      bytes.push_back(
          uint64_t(std::min(layout->rowsPerPiece,
                            layout->rows - piece * layout->rowsPerPiece)) *
          layout->rowElements * layout->elementBytes);
  }
  // The launches in order, each with the buffers it takes, as buildKernel
  // passes them (getChunkBuffer).
  std::vector<std::vector<unsigned>> uses;
  for (auto [info, group] : llvm::zip(infos, plan.groups)) {
    if (info.schedule.activeItems == 0)
      continue;
    size_t copyTarget = bytes.size();
    if (group.kind == KernelKind::Copy)
      bytes.push_back(getBufferBytes(group.copySource));
    size_t launches =
        info.chunkBounds.empty() ? 1 : info.chunkBounds.size() - 1;
    for (size_t chunk = 0; chunk < launches; ++chunk) {
      std::vector<unsigned> &taken = uses.emplace_back();
      int64_t firstRow = info.chunkBounds.empty() ? 0 : info.chunkBounds[chunk];
      for (Value root : llvm::concat<const Value>(info.reads, info.writes)) {
        auto [first, layout] = ids.lookup(root);
        if (!layout) {
          taken.push_back(first);
          continue;
        }
        int64_t pieceElements = layout->rowsPerPiece * layout->rowElements;
        int64_t piece =
            firstRow * info.viewRowElements.lookup(root) / pieceElements;
        taken.push_back(first +
                        std::min<int64_t>(piece, layout->getNumPieces() - 1));
      }
      if (group.kind == KernelKind::Copy)
        taken.push_back(copyTarget);
    }
  }
  return computePeakBytes(computeLiveRanges(bytes, uses));
}

std::optional<std::string>
KernelAnalysis::whyNotSplittable(Value root, int64_t rowsPerPiece) {
  auto type = cast<RankedTensorType>(root.getType());
  if (type.getRank() == 0 || rowsPerPiece < 1)
    return std::string("it has no outermost dimension to split");
  int64_t rowElements =
      type.getNumElements() / std::max<int64_t>(1, type.getDimSize(0));
  for (auto [info, group] : llvm::zip(infos, plan.groups)) {
    if (info.schedule.activeItems == 0)
      continue;
    int64_t groupRows = group.type.getRank() ? group.type.getDimSize(0) : 1;
    for (const BufferAccess &access : info.accesses) {
      if (!access.view || getRoot(access.view) != root)
        continue;
      if (!access.aligned)
        return "kernel " + info.name + " (" + info.source +
               ") reads it whole: " + access.why;
      int64_t viewRowElements =
          cast<RankedTensorType>(access.view.getType()).getNumElements() /
          groupRows;
      if ((rowsPerPiece * rowElements) % viewRowElements != 0)
        return "kernel " + info.name + " (" + info.source +
               ") reads it through a shape whose rows its pieces would cut";
    }
  }
  return std::nullopt;
}

LogicalResult KernelAnalysis::planToFitMemory() {
  uint64_t total = 0;
  for (Value value : tensors)
    total += getBufferBytes(value);
  while (true) {
    for (auto [info, group] : llvm::zip(infos, plan.groups))
      if (info.schedule.activeItems > 0 && failed(planChunks(info, group)))
        return failure();
    if (!profile.globalMemBytes || total <= profile.globalMemBytes)
      return success();
    uint64_t peak = computeLaunchPeak();
    if (peak <= profile.globalMemBytes) {
      streamedPeak = peak;
      return success();
    }
    // Halve the pieces of the largest tensor that can take smaller ones.
    Value largest;
    int64_t largestBytes = 0, largestRows = 0;
    SmallVector<std::string> unsplittable;
    for (Value value : tensors) {
      auto type = cast<RankedTensorType>(value.getType());
      std::string name = getTensorName(isa<BlockArgument>(value)
                                           ? value.getLoc()
                                           : value.getDefiningOp()->getLoc())
                             .value_or("a temporary");
      std::optional<PieceLayout> layout = getPieceLayout(type, value);
      int64_t rows = layout ? layout->rowsPerPiece
                            : (type.getRank() ? type.getDimSize(0) : 1);
      int64_t rowBytes =
          type.getRank()
              ? getBufferBytes(value) / std::max<int64_t>(1, type.getDimSize(0))
              : getBufferBytes(value);
      if (rows <= 1) {
        unsplittable.push_back(
            "'" + name + "' (" +
            (layout ? "its pieces are single rows" : "a single row") + ")");
        continue;
      }
      int64_t halved = int64_t(llvm::bit_floor(uint64_t(rows - 1)));
      int64_t totalRows = type.getRank() ? type.getDimSize(0) : 1;
      if (llvm::divideCeil(totalRows, halved) > kMaxPieces) {
        unsplittable.push_back("'" + name + "' (smaller pieces would pass " +
                               "the limit of " + std::to_string(kMaxPieces) +
                               " pieces per tensor)");
        continue;
      }
      if (std::optional<std::string> why = whyNotSplittable(value, halved)) {
        unsplittable.push_back("'" + name + "' (" + *why + ")");
        continue;
      }
      if (rows * rowBytes > largestBytes) {
        largest = value;
        largestBytes = rows * rowBytes;
        largestRows = halved;
      }
    }
    if (!largest) {
      InFlightDiagnostic diag =
          emitError(function.getLoc())
          << "the program's buffers need " << peak
          << " bytes at once even streamed through the device (" << total
          << " bytes in all), more than the memory of device '" << profile.name
          << "' (" << profile.globalMemBytes << " bytes)";
      if (!unsplittable.empty())
        diag << "; tensors that cannot be split further: "
             << llvm::join(unsplittable, ", ");
      return diag;
    }
    auto type = cast<RankedTensorType>(largest.getType());
    pieceLimits[largest] =
        uint64_t(largestRows) * (getBufferBytes(largest) / type.getDimSize(0));
  }
}

void KernelAnalysis::writeMemoryPlan() {
  writeSchedules();
  MLIRContext *context = function.getContext();
  Builder builder(context);
  for (auto [group, info] : llvm::zip(plan.groups, infos)) {
    NamedAttrList attributes(group.attributes);
    if (!info.chunkBounds.empty())
      attributes.set(kChunkBoundsAttr,
                     builder.getDenseI64ArrayAttr(info.chunkBounds));
    SmallVector<int64_t> pieceBytes;
    for (Value value : group.stored)
      pieceBytes.push_back(pieceLimits.lookup(value));
    if (llvm::any_of(pieceBytes, [](int64_t bytes) { return bytes != 0; }))
      attributes.set(kPieceBytesAttr, builder.getDenseI64ArrayAttr(pieceBytes));
    group.attributes = attributes.getDictionary(context);
  }
  for (BlockArgument argument : function.getArguments())
    if (uint64_t bytes = pieceLimits.lookup(argument))
      function.setArgAttr(argument.getArgNumber(), kArgPieceBytesAttr,
                          builder.getI64IntegerAttr(bytes));
  if (streamedPeak)
    function->setAttr(kStreamedPeakAttr,
                      builder.getI64IntegerAttr(streamedPeak));
}

LogicalResult KernelAnalysis::readMemoryPlan() {
  for (BlockArgument argument : function.getArguments())
    if (auto bytes = function.getArgAttrOfType<IntegerAttr>(
            argument.getArgNumber(), kArgPieceBytesAttr))
      pieceLimits[argument] = bytes.getInt();
  if (auto peak = function->getAttrOfType<IntegerAttr>(kStreamedPeakAttr))
    streamedPeak = peak.getInt();
  for (auto [group, info] : llvm::zip(plan.groups, infos)) {
    if (auto bytes =
            group.attributes.getAs<DenseI64ArrayAttr>(kPieceBytesAttr)) {
      if (bytes.size() != int64_t(group.stored.size()))
        return emitError(info.loc)
               << "kernel " << info.name << " has " << group.stored.size()
               << " results but " << bytes.size() << " piece sizes";
      for (auto [value, limit] : llvm::zip(group.stored, bytes.asArrayRef()))
        if (limit)
          pieceLimits[value] = limit;
    }
  }
  // The chunks follow from the pieces: check that they are the ones
  // recorded.
  for (auto [group, info] : llvm::zip(plan.groups, infos)) {
    if (info.schedule.activeItems == 0)
      continue;
    if (failed(planChunks(info, group)))
      return failure();
    auto recorded = group.attributes.getAs<DenseI64ArrayAttr>(kChunkBoundsAttr);
    ArrayRef<int64_t> bounds =
        recorded ? recorded.asArrayRef() : ArrayRef<int64_t>();
    auto format = [](ArrayRef<int64_t> values) {
      return "[" +
             llvm::join(llvm::map_range(values,
                                        [](int64_t value) {
                                          return std::to_string(value);
                                        }),
                        ", ") +
             "]";
    };
    if (bounds != ArrayRef<int64_t>(info.chunkBounds))
      return emitError(info.loc)
             << "kernel " << info.name << " records the chunk bounds "
             << format(bounds) << ", but the pieces of the tensors it touches "
             << "make " << format(info.chunkBounds);
  }
  return success();
}
