//===- HostLowering.cpp - Kernels, buffers and launches -------------------===//
//
// lowerToKernels: forms kernels, analyses and schedules each, proves that
// they and their buffers fit the device, then rewrites the module into the
// kernel IR (docs/kernel-ir.md): a gpu.module of kernels and a host function
// over flat buffers that allocates temporaries and launches the kernels in
// order.
//
//===----------------------------------------------------------------------===//

#include "KernelBodies/KernelBodies.h"
#include "tilec/Lowering/KernelCost.h"

#include "tilec/Lowering/Lowering.h"

#include "tilec/Runtime/Plural.h"
#include "tilec/Runtime/Residency.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVAttributes.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::lowering;

namespace {

/// How a tensor too large for one buffer of the device is stored: as pieces
/// of `rowsPerPiece` rows of its outermost dimension (the last may have
/// fewer), each a buffer of its own. In C order a piece is a contiguous
/// range of the tensor's bytes.
struct PieceLayout {
  int64_t rows = 0;
  int64_t rowElements = 0;
  int64_t elementBytes = 0;
  /// A power of two, so that the pieces of tensors with the same rows but
  /// different row sizes nest; 0 when one row alone is too large.
  int64_t rowsPerPiece = 0;

  int64_t getNumPieces() const { return llvm::divideCeil(rows, rowsPerPiece); }
  int64_t getPieceBytes() const {
    return rowsPerPiece * rowElements * elementBytes;
  }
};

/// The most pieces a tensor is stored as. Each piece is a buffer of the
/// bundle and each chunk of rows a launch, so the compiler's work and the
/// bundle grow with the pieces: a bound on them keeps both independent of
/// a tensor's size, and refuses a tensor so much larger than the device
/// that streaming it would take thousands of transfers.
constexpr int64_t kMaxPieces = 1024;

/// One buffer a kernel reads or writes, through the shape it is used with.
struct BufferAccess {
  /// The tile value accessed (a reshape's result is accessed with its own
  /// shape), or null for a copy kernel's target.
  Value view;
  /// The type of the buffer's tensor (the root of `view`).
  RankedTensorType tensorType;
  /// Whether row r of the kernel's outermost dimension touches row r of
  /// `view`'s outermost dimension only; else `why` says what it touches.
  bool aligned = false;
  std::string why;
};

/// What lowering knows about one kernel before it builds it.
struct KernelInfo {
  explicit KernelInfo(Location loc) : loc(loc) {}

  Location loc;
  std::string name;
  std::string source;
  std::optional<IndexSystem> system;
  std::optional<ContractionSpace> space;
  TupleCount tuples;
  Schedule schedule;
  /// The tile values whose buffers the kernel takes, reads then writes.
  llvm::SetVector<Value> reads, writes;
  SmallVector<BufferAccess> accesses;
  double flops = 0, bytes = 0;
  /// Split launches: the row bounds 0 = b_0 < ... < b_n of the chunks
  /// along the group's outermost dimension, one kernel each; empty when
  /// the kernel runs whole.
  SmallVector<int64_t> chunkBounds;
  /// The elements per row of the shape each split tensor is accessed with.
  llvm::DenseMap<Value, int64_t> viewRowElements;
};

/// The buffers a kernel takes, each once, in order.
struct KernelArguments {
  SmallVector<Value> values;
  llvm::DenseMap<Value, unsigned> positions;

  void add(Value hostBuffer) {
    if (positions.try_emplace(hostBuffer, values.size()).second)
      values.push_back(hostBuffer);
  }
};

/// One kernel that lowering builds and launches.
struct KernelLaunch {
  std::string name;
  Schedule schedule;
  double flops = 0, bytes = 0;
};

/// A host buffer stored as pieces.
struct HostPieces {
  std::string name;
  RankedTensorType type;
  PieceLayout layout;
  SmallVector<Value> pieces;
  /// Whether its pieces are smaller than the device's largest allocation,
  /// so that the program fits the device's memory.
  bool streamed = false;
};

class HostLowering {
public:
  HostLowering(ModuleOp module, const DeviceProfile &profile,
               llvm::raw_ostream *explain)
      : module(module), profile(profile), explain(explain),
        builder(module.getContext()) {}

  LogicalResult run();

private:
  LogicalResult analyse();
  LogicalResult checkMemory();
  /// Plans every kernel's chunks, splitting tensors into smaller pieces
  /// until the peak of the device memory the launches hold at once fits
  /// the device (docs/scheduler.md, "Streaming").
  LogicalResult planToFitMemory();
  /// The bytes of device memory the launches hold at once at most, each
  /// buffer from the first launch that takes it to the last.
  uint64_t computeLaunchPeak();
  /// Why tensor `root` cannot be stored as pieces of `rowsPerPiece` rows
  /// that every kernel touching it takes one at a time; nullopt if it can.
  std::optional<std::string> whyNotSplittable(Value root, int64_t rowsPerPiece);
  void collectBuffers(KernelInfo &info, const KernelGroup &group);
  /// Chooses the chunks of a kernel that touches split tensors; fails with
  /// an error when one of them is not accessed along the chunked rows.
  LogicalResult planChunks(KernelInfo &info, const KernelGroup &group);
  Value getRoot(Value value);
  int64_t getBufferBytes(Value value);
  /// How tensor `root` (null for a copy's target) of `type` is stored in
  /// pieces, or nullopt when it fits one buffer.
  std::optional<PieceLayout> getPieceLayout(RankedTensorType type, Value root);
  unsigned getIndexBits();
  void buildHost(func::FuncOp host);
  /// Allocates the pieces of host buffer `whole`, of tensor `root` (null if
  /// none: a copy's target), if it is split.
  void addPieces(Value whole, RankedTensorType type, Value root, StringRef name,
                 Location loc);
  /// The buffer a chunk starting at `firstRow` passes for `hostBuffer`,
  /// accessed with `viewRowElements` elements per row: the piece holding
  /// those rows, or the whole buffer.
  Value getChunkBuffer(Value hostBuffer, int64_t firstRow,
                       int64_t viewRowElements);
  LogicalResult buildKernel(gpu::GPUModuleOp kernels, unsigned group,
                            KernelInfo &info, unsigned chunk);
  /// Builds `launch`'s gpu.func over `arguments` and launches it;
  /// `partials` is the temporary of a two-pass reduction's partials.
  LogicalResult emitKernel(gpu::GPUModuleOp kernels, const KernelInfo &info,
                           const KernelGroup &group,
                           const KernelArguments &arguments,
                           const KernelLaunch &launch, Value copyTarget,
                           Value partials, int64_t firstRow,
                           StringRef chunkNote);
  /// `chunkNote` says which rows and pieces a chunk of a split launch
  /// takes (empty for a whole launch).
  void printExplanation(const KernelInfo &info, const KernelGroup &group,
                        StringRef name, const Schedule &s, double flops,
                        double bytes, StringRef chunkNote);
  void printSplitTensors();
  /// How a reduction work-group shares an element's loop nest.
  void printSharing(const KernelInfo &info);

  ModuleOp module;
  const DeviceProfile &profile;
  llvm::raw_ostream *explain;
  OpBuilder builder;
  func::FuncOp function;
  KernelPlan plan;
  std::vector<KernelInfo> infos;
  /// Every tensor with a buffer of its own: the arguments, then the stored
  /// values.
  SmallVector<Value> tensors;
  /// The largest piece of each tensor streamed to fit the device's memory,
  /// in bytes (below the device's largest allocation).
  llvm::DenseMap<Value, uint64_t> pieceLimits;
  /// The peak of computeLaunchPeak once it fits; 0 if the buffers fit
  /// the device whole.
  uint64_t streamedPeak = 0;
  /// The host buffer of each root value (arguments, outputs, temporaries).
  llvm::DenseMap<Value, Value> hostBuffers;
  /// The temporary of each two-pass reduction's partial aggregates, by
  /// kernel group.
  llvm::DenseMap<unsigned, Value> partialBuffers;
  /// The pieces of each split host buffer, in order.
  llvm::MapVector<Value, HostPieces> hostPieces;
  /// The position of each piece's first element in its tensor.
  llvm::DenseMap<Value, int64_t> pieceOffsets;
  SmallVector<Value> outputArgs;
  /// The host function's index constants, one per value.
  llvm::DenseMap<int64_t, Value> hostConstants;
  /// Launches go before the host function's return.
  Operation *hostInsertion = nullptr;
};

} // namespace

/// "file:line:col" of `loc`, if it has one.
static std::optional<std::string> formatLocation(Location loc) {
  auto fileLoc = loc->findInstanceOf<FileLineColLoc>();
  if (!fileLoc)
    return std::nullopt;
  return (fileLoc.getFilename().getValue() + ":" +
          llvm::Twine(fileLoc.getLine()) + ":" +
          llvm::Twine(fileLoc.getColumn()))
      .str();
}

/// The Tile name an op's NameLoc gives its result, if any.
static std::optional<std::string> getTensorName(Location loc) {
  if (auto nameLoc = loc->findInstanceOf<NameLoc>())
    return nameLoc.getName().str();
  return std::nullopt;
}

/// `text` reduced to an OpenCL C identifier fragment.
static std::string sanitize(StringRef text) {
  std::string result;
  for (char c : text)
    result += llvm::isAlnum(c) ? c : '_';
  return result;
}

/// The type of the temporary that holds the partial aggregates of a
/// two-pass reduction: its values (2 when compensated) for each element and
/// work-group.
static MemRefType getPartialsType(const KernelInfo &info,
                                  const KernelGroup &group) {
  const Schedule &s = info.schedule;
  int64_t values = s.compensated ? 2 : 1;
  return MemRefType::get(
      {values * group.type.getNumElements() * s.partialGroups},
      getComputeType(group.type.getElementType()));
}

Value HostLowering::getRoot(Value value) {
  while (auto reshape = value.getDefiningOp<tile::ReshapeOp>())
    value = reshape.getInput();
  return value;
}

int64_t HostLowering::getBufferBytes(Value value) {
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

void HostLowering::collectBuffers(KernelInfo &info, const KernelGroup &group) {
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
    auto contract = dyn_cast<tile::ContractOp>(op);
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

std::optional<PieceLayout> HostLowering::getPieceLayout(RankedTensorType type,
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

LogicalResult HostLowering::planChunks(KernelInfo &info,
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
  // The reduction schedule's work-groups are numbered by output element and
  // know nothing of chunks: a chunked kernel runs the generic schedule.
  if (info.schedule.kind == ScheduleKind::ReductionContraction) {
    Schedule generic =
        scheduleGeneric(type.getNumElements(), *info.space, info.tuples,
                        info.schedule.compensated, profile);
    generic.reason = "generic: a reduction over a tensor split into pieces "
                     "runs in chunks of rows, one work-item per element; " +
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

LogicalResult HostLowering::analyse() {
  for (auto [index, group] : llvm::enumerate(plan.groups)) {
    Operation *anchor = group.ops.empty() ? nullptr : group.ops.front();
    Location loc = anchor ? anchor->getLoc() : function.getLoc();
    KernelInfo info(loc);
    if (group.kind == KernelKind::Copy) {
      if (Operation *producer = group.copySource.getDefiningOp())
        info.loc = producer->getLoc();
    }

    // Name and source: the named statements the kernel computes.
    SmallVector<std::string> sources;
    std::string lastName;
    for (Operation *op : group.ops) {
      if (auto name = getTensorName(op->getLoc())) {
        lastName = *name;
        if (auto source = formatLocation(op->getLoc()))
          sources.push_back(*source);
      }
    }
    if (sources.empty())
      if (auto source = formatLocation(info.loc))
        sources.push_back(*source);
    info.source = llvm::join(sources, ",");
    if (group.kind == KernelKind::Copy)
      lastName = "copy_" + std::to_string(group.copyOutput);
    info.name = "k" + std::to_string(index) +
                (lastName.empty() ? "" : "_" + sanitize(lastName));

    int64_t elements = group.type.getNumElements();
    unsigned ewOps = llvm::count_if(
        group.ops, [](Operation *op) { return isa<tile::ElementwiseOp>(op); });
    if (group.kind == KernelKind::Contraction) {
      auto contract = cast<tile::ContractOp>(anchor);
      info.system = getIndexSystem(contract);
      std::string error;
      info.space = analyzeIndexSpace(*info.system, error);
      if (!info.space)
        return emitError(loc) << error;
      std::optional<int64_t> tuplesPerElement = info.space->tuplesPerElement();
      if (contract.getAggregation() == tile::AggregationKind::Assign &&
          elements > 0 && tuplesPerElement && *tuplesPerElement > 1)
        return emitError(loc)
               << "`=` assigns every output element " << *tuplesPerElement
               << " times, but each element may have at most one valid "
                  "index tuple; aggregate with `+`, `>`, ... to combine them";
      info.tuples = countTuples(*info.space, *info.system);
      info.schedule = scheduleContraction(contract, *info.space, *info.system,
                                          info.tuples, profile);
      double perTuple =
          contract.getCombination() == tile::CombinationKind::None ? 1 : 2;
      info.flops = info.tuples.tuples * perTuple;
    } else {
      info.schedule = schedulePerElement(group, profile);
    }
    info.flops += double(elements) * ewOps;
    if (failed(verifyScheduleFits(info.schedule, profile, info.loc)))
      return failure();
    if (info.schedule.partialGroups > 1 &&
        failed(verifyScheduleFits(
            scheduleCombination(info.schedule, elements, profile), profile,
            info.loc)))
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

LogicalResult HostLowering::checkMemory() {
  for (BlockArgument argument : function.getArguments())
    tensors.push_back(argument);
  for (const KernelGroup &group : plan.groups)
    llvm::append_range(tensors, group.stored);
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

uint64_t HostLowering::computeLaunchPeak() {
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
HostLowering::whyNotSplittable(Value root, int64_t rowsPerPiece) {
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

LogicalResult HostLowering::planToFitMemory() {
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

unsigned HostLowering::getIndexBits() {
  constexpr double limit = double(int64_t(1) << 31);
  for (BlockArgument argument : function.getArguments())
    if (cast<RankedTensorType>(argument.getType()).getNumElements() >= limit)
      return 64;
  for (auto [group, info] : llvm::zip(plan.groups, infos)) {
    if (group.type.getNumElements() >= limit ||
        info.tuples.maxMagnitude >= limit)
      return 64;
    const Schedule &s = info.schedule;
    for (unsigned dim = 0; dim < 3; ++dim)
      if (double(s.numGroups[dim]) * double(s.localSize[dim]) >= limit)
        return 64;
    // A work-item's last step plus the stride must not wrap.
    if (s.kind == ScheduleKind::PerElement &&
        double(s.walk.steps) + double(s.numGroups[0] * s.localSize[0]) >= limit)
      return 64;
    // A shared loop nest may walk an element's tuples as one linear range.
    if (s.kind == ScheduleKind::ReductionContraction &&
        info.tuples.perElement +
                double(s.localSize[0]) * double(s.partialGroups) >=
            limit)
      return 64;
  }
  return 32;
}

/// `schedule` narrowed to `rows` rows of the group's outermost dimension,
/// each of `rowElements` elements: the same work-group and tile over fewer
/// work-groups.
static Schedule restrictToRows(Schedule schedule, int64_t rows,
                               int64_t rowElements) {
  switch (schedule.kind) {
  case ScheduleKind::PerElement:
  case ScheduleKind::GenericContraction:
    restrictLinearSchedule(schedule, rows * rowElements, rowElements);
    break;
  case ScheduleKind::TiledContraction: {
    DenseMatmul &matmul = *schedule.matmul;
    if (matmul.batched) {
      matmul.batch = rows;
      schedule.numGroups[2] = rows;
    } else {
      matmul.m = rows;
      schedule.numGroups[1] = llvm::divideCeil(rows, schedule.tile.blockM);
    }
    schedule.activeItems = matmul.batch * matmul.m * matmul.n;
    break;
  }
  case ScheduleKind::ReductionContraction:
  case ScheduleKind::PartialCombination:
    llvm_unreachable("planChunks gives chunked reductions the generic "
                     "schedule");
  }
  return schedule;
}

Value HostLowering::getChunkBuffer(Value hostBuffer, int64_t firstRow,
                                   int64_t viewRowElements) {
  auto it = hostPieces.find(hostBuffer);
  if (it == hostPieces.end())
    return hostBuffer;
  const HostPieces &split = it->second;
  int64_t pieceElements = split.layout.rowsPerPiece * split.layout.rowElements;
  int64_t piece = firstRow * viewRowElements / pieceElements;
  return split.pieces[std::min<int64_t>(piece, split.pieces.size() - 1)];
}

LogicalResult HostLowering::buildKernel(gpu::GPUModuleOp kernels,
                                        unsigned groupIndex, KernelInfo &info,
                                        unsigned chunk) {
  const KernelGroup &group = plan.groups[groupIndex];
  // A chunk of a split launch: its rows, schedule and share of the work.
  bool isChunk = !info.chunkBounds.empty();
  int64_t totalRows = group.type.getRank() ? group.type.getDimSize(0) : 1;
  int64_t rowElements =
      group.type.getNumElements() / std::max<int64_t>(1, totalRows);
  int64_t firstRow = isChunk ? info.chunkBounds[chunk] : 0;
  int64_t rows = isChunk ? info.chunkBounds[chunk + 1] - firstRow : totalRows;
  Schedule schedule = isChunk ? restrictToRows(info.schedule, rows, rowElements)
                              : info.schedule;
  std::string name =
      isChunk ? info.name + "_c" + std::to_string(chunk) : info.name;
  double share = double(rows) / double(totalRows);
  double flops = info.flops * share;

  // Arguments: one per distinct host buffer (or piece), reads then writes.
  auto chunkBuffer = [&](Value root, Value hostBuffer) {
    return getChunkBuffer(hostBuffer, firstRow,
                          info.viewRowElements.lookup(root));
  };
  // A chunk addresses each piece from the piece's start: its staging
  // vectors must be aligned from there.
  if (isChunk && schedule.kind == ScheduleKind::TiledContraction) {
    auto contract = cast<tile::ContractOp>(group.ops[0]);
    auto bufferStart = [&](const DenseMatmul::Operand &operand) {
      Value root = getRoot(contract.getInputs()[operand.input]);
      return pieceOffsets.lookup(chunkBuffer(root, hostBuffers.lookup(root)));
    };
    narrowStagingToChunk(schedule, firstRow, bufferStart(schedule.matmul->a),
                         bufferStart(schedule.matmul->b));
  }
  KernelArguments arguments;
  for (Value value : info.reads)
    arguments.add(chunkBuffer(value, hostBuffers.lookup(value)));
  for (Value value : info.writes)
    arguments.add(chunkBuffer(value, hostBuffers.lookup(value)));
  Value copyTarget;
  if (group.kind == KernelKind::Copy) {
    copyTarget = chunkBuffer(Value(), outputArgs[group.copyOutput]);
    arguments.add(copyTarget);
  }
  std::string chunkNote;
  if (isChunk) {
    SmallVector<std::string> chunkPieces;
    for (Value hostBuffer : arguments.values)
      if (pieceOffsets.count(hostBuffer))
        chunkPieces.push_back(hostBuffer.getDefiningOp()
                                  ->getAttrOfType<StringAttr>("tile.name")
                                  .str());
    chunkNote = "rows [" + std::to_string(firstRow) + ", " +
                std::to_string(firstRow + rows) +
                ") of the outermost dimension, chunk " +
                std::to_string(chunk + 1) + " of " +
                std::to_string(info.chunkBounds.size() - 1) + "; pieces " +
                llvm::join(chunkPieces, ", ");
  }

  // The minimum bytes: rows-aligned buffers in proportion, others whole.
  double bytes = info.bytes;
  if (isChunk) {
    bytes = 0;
    llvm::DenseSet<Value> counted;
    for (const BufferAccess &access : info.accesses) {
      Value root = access.view ? getRoot(access.view) : Value();
      if (root && !counted.insert(root).second)
        continue;
      MemRefType type = getBufferType(access.tensorType);
      double accessBytes =
          double(type.getNumElements()) *
          std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
      bytes += access.aligned ? accessBytes * share : accessBytes;
    }
  }

  if (schedule.partialGroups == 1)
    return emitKernel(kernels, info, group, arguments,
                      {name, schedule, flops, bytes}, copyTarget, Value(),
                      firstRow, chunkNote);
  // Two passes: the work-groups of each element store their partials, then
  // one work-item per element combines them (both take the same buffers).
  // The first reads the inputs and writes the partials, the second reads
  // those, runs the epilogue and writes the outputs.
  Value partials = partialBuffers.lookup(groupIndex);
  arguments.add(partials);
  int64_t elements = group.type.getNumElements();
  Schedule combination = scheduleCombination(schedule, elements, profile);
  auto partialsType = cast<MemRefType>(partials.getType());
  double partialBytes = double(partialsType.getNumElements()) *
                        double(partialsType.getElementTypeBitWidth() / 8);
  double writtenBytes = 0;
  for (Value value : info.writes)
    writtenBytes += getBufferBytes(value);
  double epilogueFlops =
      double(elements) * double(llvm::count_if(group.ops, [](Operation *op) {
        return isa<tile::ElementwiseOp>(op);
      }));
  if (failed(emitKernel(kernels, info, group, arguments,
                        {name + "_partials", schedule, flops - epilogueFlops,
                         bytes - writtenBytes + partialBytes},
                        copyTarget, partials, firstRow, chunkNote)))
    return failure();
  double combinationFlops =
      double(elements) * double(schedule.partialGroups) + epilogueFlops;
  return emitKernel(
      kernels, info, group, arguments,
      {name, combination, combinationFlops, partialBytes + writtenBytes},
      copyTarget, partials, firstRow, chunkNote);
}

LogicalResult HostLowering::emitKernel(
    gpu::GPUModuleOp kernels, const KernelInfo &info, const KernelGroup &group,
    const KernelArguments &arguments, const KernelLaunch &launch,
    Value copyTarget, Value partials, int64_t firstRow, StringRef chunkNote) {
  MLIRContext *context = module.getContext();
  const Schedule &schedule = launch.schedule;
  StringRef name = launch.name;
  SmallVector<Type> argumentTypes;
  for (Value value : arguments.values)
    argumentTypes.push_back(value.getType());

  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(kernels.getBody());
  if (Operation *terminator = kernels.getBody()->getTerminator())
    builder.setInsertionPoint(terminator);
  auto kernel = builder.create<gpu::GPUFuncOp>(
      info.loc, name, builder.getFunctionType(argumentTypes, {}));
  kernel->setAttr(gpu::GPUDialect::getKernelFuncAttrName(),
                  builder.getUnitAttr());
  SmallVector<int32_t> workgroup(schedule.localSize.begin(),
                                 schedule.localSize.end());
  kernel->setAttr(spirv::getEntryPointABIAttrName(),
                  spirv::EntryPointABIAttr::get(
                      context, builder.getDenseI32ArrayAttr(workgroup),
                      std::nullopt, std::nullopt));
  kernel->setAttr("tile.source", builder.getStringAttr(info.source));
  kernel->setAttr("tile.flops", builder.getF64FloatAttr(launch.flops));
  kernel->setAttr("tile.bytes", builder.getF64FloatAttr(launch.bytes));

  Block &entry = kernel.getBody().front();
  builder.setInsertionPointToStart(&entry);
  auto returnOp = builder.create<gpu::ReturnOp>(info.loc);
  builder.setInsertionPoint(returnOp);
  auto bufferOf = [&](Value value) -> Value {
    Value root = getRoot(value);
    return entry.getArgument(arguments.positions.lookup(
        getChunkBuffer(hostBuffers.lookup(root), firstRow,
                       info.viewRowElements.lookup(root))));
  };
  auto argumentFor = [&](Value hostBuffer) {
    return hostBuffer
               ? entry.getArgument(arguments.positions.lookup(hostBuffer))
               : Value();
  };
  KernelContext kernelContext{group,
                              schedule,
                              builder,
                              info.loc,
                              bufferOf,
                              info.space ? &*info.space : nullptr,
                              info.system ? &*info.system : nullptr,
                              argumentFor(copyTarget),
                              firstRow,
                              argumentFor(partials)};
  switch (schedule.kind) {
  case ScheduleKind::PerElement:
    emitPerElementKernel(kernelContext);
    break;
  case ScheduleKind::GenericContraction:
    emitGenericContraction(kernelContext);
    break;
  case ScheduleKind::TiledContraction:
    emitTiledContraction(kernelContext);
    break;
  case ScheduleKind::ReductionContraction:
    emitReductionContraction(kernelContext);
    break;
  case ScheduleKind::PartialCombination:
    emitPartialCombination(kernelContext);
    break;
  }

  // The emitters address a tensor's elements from its start; a piece holds
  // them from its offset on.
  for (auto [position, hostBuffer] : llvm::enumerate(arguments.values)) {
    auto offset = pieceOffsets.find(hostBuffer);
    if (offset == pieceOffsets.end() || offset->second == 0)
      continue;
    for (Operation *user :
         llvm::make_early_inc_range(entry.getArgument(position).getUsers())) {
      OpOperand *address = nullptr;
      if (auto load = dyn_cast<memref::LoadOp>(user))
        address = &load.getIndicesMutable()[0];
      else if (auto store = dyn_cast<memref::StoreOp>(user))
        address = &store.getIndicesMutable()[0];
      else if (auto load = dyn_cast<vector::LoadOp>(user))
        address = &load.getIndicesMutable()[0];
      else if (auto store = dyn_cast<vector::StoreOp>(user))
        address = &store.getIndicesMutable()[0];
      else
        return user->emitError()
               << "lowering cannot rebase this access to a piece of a split "
                  "tensor";
      builder.setInsertionPoint(user);
      IndexBuilder index(builder, info.loc);
      address->set(index.add(address->get(), index.constant(-offset->second)));
    }
  }

  // The launch, in the host function.
  builder.setInsertionPoint(hostInsertion);
  auto constant = [&](int64_t value) {
    Value &shared = hostConstants[value];
    if (!shared)
      shared = builder.create<arith::ConstantIndexOp>(info.loc, value);
    return shared;
  };
  gpu::KernelDim3 grid{constant(schedule.numGroups[0]),
                       constant(schedule.numGroups[1]),
                       constant(schedule.numGroups[2])};
  gpu::KernelDim3 block{constant(schedule.localSize[0]),
                        constant(schedule.localSize[1]),
                        constant(schedule.localSize[2])};
  builder.create<gpu::LaunchFuncOp>(info.loc, kernel, grid, block, Value(),
                                    arguments.values);

  if (explain)
    printExplanation(info, group, name, schedule, launch.flops, launch.bytes,
                     chunkNote);
  return success();
}

void HostLowering::addPieces(Value whole, RankedTensorType type, Value root,
                             StringRef name, Location loc) {
  std::optional<PieceLayout> layout = getPieceLayout(type, root);
  if (!layout)
    return;
  HostPieces &split = hostPieces[whole];
  split.name = name.str();
  split.type = type;
  split.layout = *layout;
  split.streamed = root && pieceLimits.count(root);
  for (int64_t piece = 0; piece < layout->getNumPieces(); ++piece) {
    int64_t firstRow = piece * layout->rowsPerPiece;
    SmallVector<int64_t> shape(type.getShape());
    shape[0] = std::min(layout->rowsPerPiece, layout->rows - firstRow);
    auto alloc = builder.create<memref::AllocOp>(
        loc,
        getBufferType(RankedTensorType::get(shape, type.getElementType())));
    int64_t offset = firstRow * layout->rowElements;
    alloc->setAttr("tile.name",
                   builder.getStringAttr(name + "." + std::to_string(piece)));
    alloc->setAttr("tile.dtype", builder.getStringAttr(dtypeName(
                                     getDType(type.getElementType()))));
    alloc->setAttr("tile.shape", builder.getI64ArrayAttr(shape));
    alloc->setAttr("tile.piece_of", builder.getStringAttr(name));
    alloc->setAttr("tile.byte_offset",
                   builder.getI64IntegerAttr(offset * layout->elementBytes));
    split.pieces.push_back(alloc);
    pieceOffsets[alloc] = offset;
  }
}

void HostLowering::buildHost(func::FuncOp host) {
  Block *entry = host.addEntryBlock();
  builder.setInsertionPointToEnd(entry);
  hostInsertion = builder.create<func::ReturnOp>(function.getLoc());
  builder.setInsertionPoint(hostInsertion);
  auto getName = [](Attribute name) {
    auto text = dyn_cast_or_null<StringAttr>(name);
    return text ? text.str() : std::string();
  };
  unsigned numInputs = function.getNumArguments();
  for (BlockArgument argument : function.getArguments()) {
    unsigned position = argument.getArgNumber();
    Value input = entry->getArgument(position);
    hostBuffers[argument] = input;
    addPieces(input, cast<RankedTensorType>(argument.getType()), argument,
              getName(function.getArgAttr(position, "tile.name")),
              argument.getLoc());
  }
  Operation *returnOp = function.getBody().front().getTerminator();
  for (auto [position, value] : llvm::enumerate(returnOp->getOperands())) {
    Value output = entry->getArgument(numInputs + position);
    outputArgs.push_back(output);
    if (plan.outputIsOwned[position])
      hostBuffers[value] = output;
    addPieces(output, cast<RankedTensorType>(value.getType()),
              plan.outputIsOwned[position] ? value : Value(),
              getName(function.getResultAttr(position, "tile.name")),
              returnOp->getLoc());
  }
  // Temporaries: every other stored value.
  unsigned unnamed = 0;
  for (const KernelGroup &group : plan.groups) {
    for (Value value : group.stored) {
      if (hostBuffers.count(value))
        continue;
      auto type = cast<RankedTensorType>(value.getType());
      Location loc = value.getDefiningOp()->getLoc();
      auto alloc = builder.create<memref::AllocOp>(loc, getBufferType(type));
      std::string name =
          getTensorName(loc).value_or("_t" + std::to_string(unnamed++));
      alloc->setAttr("tile.name", builder.getStringAttr(name));
      alloc->setAttr("tile.dtype", builder.getStringAttr(dtypeName(
                                       getDType(type.getElementType()))));
      alloc->setAttr("tile.shape", builder.getI64ArrayAttr(type.getShape()));
      hostBuffers[value] = alloc;
      addPieces(alloc, type, value, name, loc);
    }
  }
  // The partial aggregates of two-pass reductions.
  for (auto [index, info] : llvm::enumerate(infos)) {
    if (info.schedule.partialGroups == 1)
      continue;
    MemRefType type = getPartialsType(info, plan.groups[index]);
    auto alloc = builder.create<memref::AllocOp>(info.loc, type);
    alloc->setAttr("tile.name", builder.getStringAttr(info.name + "_partials"));
    alloc->setAttr("tile.dtype", builder.getStringAttr(dtypeName(
                                     getDType(type.getElementType()))));
    alloc->setAttr("tile.shape", builder.getI64ArrayAttr(type.getShape()));
    partialBuffers[index] = alloc;
  }
}

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
    if (s.kind == ScheduleKind::ReductionContraction && s.partialGroups > 1) {
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
  if (s.kind == ScheduleKind::TiledContraction)
    os << "  tile: " << s.tile.blockM << "x" << s.tile.blockN
       << " outputs per work-group, " << s.tile.regM << "x" << s.tile.regN
       << " per work-item (registers), reduction slices of " << s.tile.blockK
       << "\n";
  if (s.kind == ScheduleKind::ReductionContraction)
    printSharing(info);
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
     << s.registers << " per work-item (budget " << kRegisterBudget << ")\n";
  os << "  flops: " << llvm::format("%.6g", flops)
     << (info.tuples.exact ? " (exact)"
                           : " (upper bound: the index space is "
                             "not a dense box)")
     << "; bytes: " << llvm::format("%.6g", bytes)
     << " (minimum); arithmetic intensity: "
     << llvm::format("%.3g", bytes > 0 ? flops / bytes : 0.0) << " flop/byte\n";
  os << "  why: " << s.reason << "\n";
}

LogicalResult HostLowering::run() {
  auto functions = module.getOps<func::FuncOp>();
  if (std::distance(functions.begin(), functions.end()) != 1)
    return emitError(module.getLoc())
           << "lowering expects a module with one func.func of tile ops";
  function = *functions.begin();
  if (!function.getBody().hasOneBlock())
    return emitError(function.getLoc()) << "expected a single-block function";
  for (Operation &op : function.getBody().front()) {
    if (!isa<tile::TileDialect>(op.getDialect()) && !isa<func::ReturnOp>(op))
      return emitError(op.getLoc())
             << "lowering expects tile ops, found '" << op.getName() << "'";
  }

  plan = formKernels(function);
  if (failed(analyse()) || failed(checkMemory()) || failed(planToFitMemory()))
    return failure();

  MLIRContext *context = module.getContext();
  context
      ->loadDialect<arith::ArithDialect, gpu::GPUDialect, memref::MemRefDialect,
                    spirv::SPIRVDialect, vector::VectorDialect>();
  module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                  builder.getUnitAttr());
  module->setAttr("tile.index_bits", builder.getI64IntegerAttr(getIndexBits()));

  // The host function replaces the tile function under its name.
  SmallVector<Type> argumentTypes;
  SmallVector<DictionaryAttr> argumentAttrs;
  auto describe = [&](Type type, Attribute name, StringRef kind) {
    auto tensorType = cast<RankedTensorType>(type);
    argumentTypes.push_back(getBufferType(tensorType));
    SmallVector<NamedAttribute> attrs{
        builder.getNamedAttr("tile.name",
                             name ? name : builder.getStringAttr("")),
        builder.getNamedAttr("tile.dtype",
                             builder.getStringAttr(dtypeName(
                                 getDType(tensorType.getElementType())))),
        builder.getNamedAttr("tile.shape",
                             builder.getI64ArrayAttr(tensorType.getShape())),
        builder.getNamedAttr("tile.kind", builder.getStringAttr(kind))};
    argumentAttrs.push_back(builder.getDictionaryAttr(attrs));
  };
  for (unsigned i = 0; i < function.getNumArguments(); ++i)
    describe(function.getArgumentTypes()[i],
             function.getArgAttr(i, "tile.name"), "input");
  for (unsigned i = 0; i < function.getNumResults(); ++i)
    describe(function.getResultTypes()[i],
             function.getResultAttr(i, "tile.name"), "output");

  std::string name = function.getName().str();
  function.setName("__tile_source");
  builder.setInsertionPointToEnd(module.getBody());
  auto kernels = builder.create<gpu::GPUModuleOp>(module.getLoc(), "kernels");
  builder.setInsertionPointToEnd(module.getBody());
  auto host = builder.create<func::FuncOp>(
      function.getLoc(), name, builder.getFunctionType(argumentTypes, {}));
  for (auto [index, attrs] : llvm::enumerate(argumentAttrs))
    host.setArgAttrs(index, attrs);
  buildHost(host);

  if (explain)
    printSplitTensors();
  for (auto [index, info] : llvm::enumerate(infos)) {
    if (info.schedule.activeItems == 0)
      continue;
    size_t launches =
        info.chunkBounds.empty() ? 1 : info.chunkBounds.size() - 1;
    for (size_t chunk = 0; chunk < launches; ++chunk)
      if (failed(buildKernel(kernels, index, info, chunk)))
        return failure();
  }
  function.erase();

  // The emitters build index arithmetic locally; share what repeats and
  // drop what folding left unused. Only in the kernels: CSE and DCE would
  // erase a split tensor's whole allocation, which no launch takes but its
  // pieces name. The host drops the allocations nothing takes (the
  // temporary of a kernel without work, the pieces of an unused input).
  IRRewriter rewriter(context);
  DominanceInfo dominance(kernels);
  eliminateCommonSubExpressions(rewriter, dominance, kernels);
  (void)runRegionDCE(rewriter, kernels->getRegions());
  for (Operation &op : llvm::make_early_inc_range(host.getBody().front()))
    if (isa<memref::AllocOp>(op) && op.use_empty() &&
        !hostPieces.count(op.getResult(0)))
      op.erase();
  return success();
}

LogicalResult tilec::lowerToKernels(ModuleOp module,
                                    const DeviceProfile &profile,
                                    llvm::raw_ostream *explain) {
  return HostLowering(module, profile, explain).run();
}
