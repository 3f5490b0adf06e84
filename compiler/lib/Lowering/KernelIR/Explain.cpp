//===- Explain.cpp - Why each kernel runs as it does (--explain) ----------===//
//
// `tilec compile --explain`: for each launch, what it computes, how its
// work is dealt out and what it costs, from the kernel's tile.kernel, its
// #tile.schedule and the memory plan; before them, the tensors split into
// pieces and why.
//
//===----------------------------------------------------------------------===//

#include "KernelIR/HostLowering.h"

#include "tilec/Runtime/Plural.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::lowering;

static const char *getScheduleName(ScheduleKind kind) {
  switch (kind) {
  case ScheduleKind::PerElement:
    return "per element";
  case ScheduleKind::GenericContraction:
    return "generic contraction";
  case ScheduleKind::TiledContraction:
    return "tiled";
  case ScheduleKind::ReductionContraction:
    return "reduction";
  case ScheduleKind::PartialCombination:
    return "partial combination";
  case ScheduleKind::ImplicitGemm:
    return "implicit GEMM";
  case ScheduleKind::RowFused:
    return "row";
  }
  llvm_unreachable("unknown schedule kind");
}

void HostLowering::printSharing(const KernelInfo &info) {
  llvm::raw_ostream &os = *explain;
  const Schedule &s = info.schedule;
  const WorkSplit &split = s.split;
  const std::vector<double> &trips = info.tuples.levelTrips;
  int64_t sharers = s.localSize[0] / s.elementsPerGroup;
  os << "  sharing: ";
  if (s.elementsPerGroup > 1)
    os << "each work-group takes " << s.elementsPerGroup
       << " neighbouring elements, one per neighbouring work-item; ";
  os << "the " << sharers << " work-items";
  if (s.elementsPerGroup > 1)
    os << " of each element";
  if (s.partialGroups > 1)
    os << (s.elementsPerGroup > 1 ? " in each of " : " of each of ")
       << s.partialGroups << " work-groups per element";
  os << " stride over ";
  if (split.stridedLevel < split.mergedLevels) {
    double total = 1;
    for (unsigned level = 0; level < split.mergedLevels; ++level)
      total *= trips[level];
    os << "loops 0.." << split.mergedLevels - 1 << " merged into one range of "
       << llvm::format("%.0f", total) << " tuples";
    if (split.stepWidth > 1)
      os << " in steps of " << split.stepWidth
         << " consecutive tuples (one vector load per input that moves)";
  } else {
    os << "loop " << split.stridedLevel << " (up to "
       << llvm::format("%.0f", trips[split.stridedLevel]) << " iterations)";
  }
  unsigned steps = llvm::Log2_64(uint64_t(sharers));
  os << "; the other loops run whole in each; then " << steps
     << " tree steps in local memory";
  if (s.partialGroups > 1)
    os << (s.elementsPerGroup > 1 ? "; the first work-item of each element"
                                  : "; work-item 0")
       << " stores the group's partial in temporary '" << info.name
       << "_partials'";
  if (s.lastGroupCombines && s.elementsPerGroup == 1)
    os << " and counts the group in temporary '" << info.name
       << "_counters'; the last work-group of the element to count combines "
          "the partials, shared by its first "
       << getCombiningSharers(s) << " work-items, then a tree in local memory";
  else if (s.lastGroupCombines)
    os << "; work-item 0 counts the group in temporary '" << info.name
       << "_counters', one per block of elements; the last work-group of the "
          "block to count combines the partials, shared by "
       << getCombiningSharers(s)
       << " work-items of each element, then a tree in local memory";
  os << "\n";
}

void HostLowering::printSplitTensors() {
  llvm::raw_ostream &os = *explain;
  if (streamedPeak) {
    uint64_t total = 0;
    for (Value value : tensors)
      total += getBufferBytes(value);
    os << "memory: the buffers need " << total
       << " bytes, more than the memory of device '" << profile.name << "' ("
       << profile.globalMemBytes
       << " bytes): they stream through it, each on the device from the "
          "first launch that takes it to the last; at most "
       << streamedPeak << " bytes at once\n";
  }
  for (const auto &[buffer, split] : hostPieces) {
    const PieceLayout &layout = split.layout;
    os << "split: tensor '" << split.name << "' " << split.type << " needs "
       << layout.rows * layout.rowElements * layout.elementBytes << " bytes, ";
    if (split.streamed)
      os << "split to fit the memory of device '" << profile.name << "' ("
         << streamedPeak << " bytes at once of " << profile.globalMemBytes
         << ")";
    else
      os << "more than one buffer of device '" << profile.name << "' holds ("
         << profile.maxAllocBytes << ")";
    os << ": " << layout.getNumPieces() << " pieces of at most "
       << layout.rowsPerPiece << " rows (" << layout.getPieceBytes()
       << " bytes) of its outermost dimension\n";
  }
}

void HostLowering::printExplanation(const KernelInfo &info,
                                    const KernelGroup &group, StringRef name,
                                    const Schedule &s, double flops,
                                    double bytes, StringRef chunkNote) {
  llvm::raw_ostream &os = *explain;
  os << "kernel " << name << " (" << info.source << ")\n";
  unsigned fused = group.ops.size() > 1 ? group.ops.size() - 1 : 0;
  switch (group.kind) {
  case KernelKind::Contraction:
    // The first of two passes stores partials; the second finishes.
    if (s.kind != ScheduleKind::PartialCombination && s.partialGroups > 1 &&
        !s.lastGroupCombines) {
      os << "  computes: the partial aggregates of a contraction";
      break;
    }
    os << "  computes: a contraction";
    if (fused)
      os << " with " << pluralize(fused, "elementwise op")
         << " fused into its epilogue";
    break;
  case KernelKind::Elementwise:
    os << "  computes: " << pluralize(group.ops.size(), "fused elementwise op");
    break;
  case KernelKind::Copy:
    os << "  computes: a copy into output " << group.copyOutput;
    break;
  case KernelKind::Row: {
    unsigned reductions = llvm::count_if(
        group.ops, [](Operation *op) { return isa<tile::ContractOp>(op); });
    unsigned others = llvm::count_if(group.ops, [](Operation *op) {
      return !isa<tile::ContractOp, tile::ReshapeOp>(op);
    });
    os << "  computes: " << pluralize(reductions, "reduction")
       << " over the rows and " << pluralize(others, "elementwise op")
       << " fused into one row kernel";
    break;
  }
  }
  os << " over " << group.type << "\n";
  if (!group.splitReason.empty())
    os << "  fusion: " << group.splitReason << "\n";
  if (!chunkNote.empty())
    os << "  split: " << chunkNote << "\n";
  const char *kind = getScheduleName(s.kind);
  int64_t threads = s.localSize[0] * s.localSize[1] * s.localSize[2];
  os << "  schedule: " << kind << "; work-groups " << s.numGroups[0] << "x"
     << s.numGroups[1] << "x" << s.numGroups[2] << " of " << s.localSize[0]
     << "x" << s.localSize[1] << "x" << s.localSize[2] << " (" << threads
     << " work-items; device maximum " << profile.maxWorkGroupSize << ")\n";
  if (s.kind == ScheduleKind::TiledContraction ||
      s.kind == ScheduleKind::ImplicitGemm)
    os << "  tile: " << s.tile.blockM << "x" << s.tile.blockN
       << " outputs per work-group, " << s.tile.regM << "x" << s.tile.regN
       << " per work-item (registers), reduction slices of " << s.tile.blockK
       << "\n";
  if (s.partialGroups > 1 && (s.kind == ScheduleKind::TiledContraction ||
                              s.kind == ScheduleKind::ImplicitGemm))
    os << "  split-K: the reduction's slices in " << s.partialGroups
       << " parts, one per work-group along z; each stores its tile's "
          "partial sums in temporary '"
       << info.name << "_partials'\n";
  if (s.kind == ScheduleKind::ReductionContraction)
    printSharing(info);
  if (s.kind == ScheduleKind::RowFused) {
    os << "  rows: " << s.rowsPerGroup << " per work-group, "
       << s.localSize[0] / s.rowsPerGroup << " work-items per row ";
    if (s.rowChunks == 1)
      os << "holding " << s.rowSteps << " elements each in registers";
    else
      os << "streaming it in " << s.rowChunks << " chunks of " << s.rowSteps
         << " elements each, once per reduction"
         << (s.onlineSums ? " (but those summed in an earlier one's pass)" : "")
         << " and once for the results";
    os << "; each reduction is a tree of "
       << llvm::Log2_64(uint64_t(s.localSize[0] / s.rowsPerGroup))
       << " steps in local memory\n";
  }
  if (s.kind == ScheduleKind::PartialCombination && !s.treeCombination)
    os << "  combines: the partials of " << s.partialGroups
       << " work-groups per element, in order, one work-item per element\n";
  if (s.kind == ScheduleKind::PartialCombination && s.treeCombination)
    os << "  combines: the partials of " << s.partialGroups
       << " work-groups per element, shared by the " << s.localSize[0]
       << " work-items of a work-group per element, then "
       << llvm::Log2_64(uint64_t(s.localSize[0]))
       << " tree steps in local memory\n";
  if (profile.maxLoopIterations != 0)
    os << "  loop passes: " << llvm::format("%.0f", s.loopPasses)
       << " per work-item (device stops loops after "
       << profile.maxLoopIterations << ")\n";
  if (s.compensated)
    os << "  accumulation: compensated float sum (Kahan-Babuska-Neumaier): the "
          "rounding "
          "error does not grow with the number of terms\n";
  os << "  local memory: " << s.localMemBytes
     << " bytes (device: " << profile.localMemBytes << "); registers: about "
     << s.registers << " per work-item (budget " << getRegisterBudget(s)
     << ")\n";
  os << "  flops: " << llvm::format("%.6g", flops)
     << (info.tuples.exact ? " (exact)"
                           : " (upper bound: the index space is "
                             "not a dense box)")
     << "; bytes: " << llvm::format("%.6g", bytes)
     << " (minimum); arithmetic intensity: "
     << llvm::format("%.3g", bytes > 0 ? flops / bytes : 0.0) << " flop/byte\n";
  os << "  why: " << s.reason << "\n";
}
