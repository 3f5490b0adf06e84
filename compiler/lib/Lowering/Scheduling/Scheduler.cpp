//===- Scheduler.cpp - Analytic schedule choice and its fit proof ---------===//
//
// No trial runs: each kernel's schedule follows from its shape and the
// device profile. docs/scheduler.md describes the model.
//
//===----------------------------------------------------------------------===//

#include "tilec/Lowering/Schedule.h"

#include "KernelBodies/KernelEmitter.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace tilec;
using namespace tilec::lowering;

int64_t lowering::getLinearGroupSize(const DeviceProfile &profile) {
  uint64_t limit = std::min<uint64_t>(
      {256, profile.maxWorkGroupSize, profile.maxWorkItemSizes[0]});
  return std::max<int64_t>(1, llvm::bit_floor(limit));
}

std::optional<std::vector<int64_t>>
lowering::getLinearAddress(const IndexSystem::Access &access,
                           unsigned numIndices) {
  std::vector<int64_t> address(numIndices + 1, 0);
  int64_t stride = 1;
  for (unsigned dim = access.rows.size(); dim-- > 0;) {
    const IndexSystem::Row &row = access.rows[dim];
    for (unsigned var = 0; var <= numIndices; ++var) {
      if (row.den[var] != 1)
        return std::nullopt;
      address[var] += row.num[var] * stride;
    }
    stride *= access.extents[dim];
  }
  return address;
}

bool lowering::isFloatSumOfProducts(tile::ContractOp op, std::string &whyNot) {
  if (op.getAggregation() != tile::AggregationKind::Add ||
      op.getCombination() != tile::CombinationKind::Mul) {
    whyNot = "only +(A * B) contractions have a tiled schedule";
    return false;
  }
  if (!isa<FloatType>(op.getType().getElementType())) {
    whyNot = "integer contractions use the generic schedule";
    return false;
  }
  return true;
}

std::optional<DenseMatmul>
lowering::matchDenseMatmul(tile::ContractOp op, const ContractionSpace &space,
                           const IndexSystem &system, std::string &whyNot) {
  if (!isFloatSumOfProducts(op, whyNot))
    return std::nullopt;
  if (space.empty || !space.isDenseBox()) {
    whyNot = "the index space is not a dense box (bounds depend on the "
             "output coordinates, or there are guards)";
    return std::nullopt;
  }
  unsigned rank = space.outputRank;
  if (rank != 2 && rank != 3) {
    whyNot = "the output has rank " + std::to_string(rank) +
             " (tiled: 2, or 3 with a batch dimension)";
    return std::nullopt;
  }
  if (space.freeVars.size() != 1 || system.numIndices != rank + 1) {
    whyNot = "the reduction has " + std::to_string(space.freeVars.size()) +
             " indices (tiled: exactly 1)";
    return std::nullopt;
  }
  // The output access of a dense box is one index variable per dimension.
  std::vector<unsigned> outputVar;
  for (const IndexSystem::Row &row : system.output.rows)
    for (unsigned var = 0; var < system.numIndices; ++var)
      if (row.num[var] != 0)
        outputVar.push_back(var);
  if (outputVar.size() != rank)
    return std::nullopt;
  unsigned batchVar = rank == 3 ? outputVar[0] : system.numIndices;
  unsigned iVar = outputVar[rank - 2], jVar = outputVar[rank - 1];
  unsigned kVar = space.freeVars[0];

  std::optional<std::vector<int64_t>> first =
      getLinearAddress(system.inputs[0], system.numIndices);
  std::optional<std::vector<int64_t>> second =
      getLinearAddress(system.inputs[1], system.numIndices);
  if (!first || !second)
    return std::nullopt;
  // A must not move with j nor B with i; inputs may come in either order
  // (multiplication commutes).
  bool inOrder = (*first)[jVar] == 0 && (*second)[iVar] == 0;
  bool swapped = (*first)[iVar] == 0 && (*second)[jVar] == 0;
  if (!inOrder && !swapped) {
    whyNot = "the operands are not a matrix product (each output index "
             "must address one operand only)";
    return std::nullopt;
  }
  DenseMatmul matmul;
  matmul.batched = rank == 3;
  auto extents = system.output.extents;
  matmul.batch = rank == 3 ? extents[0] : 1;
  matmul.m = extents[rank - 2];
  matmul.n = extents[rank - 1];
  auto [kBegin, kEnd] = *space.bounds[0].constantRange;
  matmul.kBegin = kBegin;
  matmul.k = std::max<int64_t>(0, kEnd - kBegin + 1);
  auto describe = [&](const std::vector<int64_t> &address, unsigned input,
                      unsigned outerVar) {
    DenseMatmul::Operand operand;
    operand.input = input;
    operand.constant = address[system.numIndices];
    operand.batchStride = rank == 3 ? address[batchVar] : 0;
    operand.outerStride = address[outerVar];
    operand.kStride = address[kVar];
    return operand;
  };
  matmul.a = describe(inOrder ? *first : *second, inOrder ? 0 : 1, iVar);
  matmul.b = describe(inOrder ? *second : *first, inOrder ? 1 : 0, jVar);
  return matmul;
}

namespace {
/// Register tiles tried, largest work per work-group first.
struct TileShape {
  int64_t blockM, blockN, regM, regN;
};
constexpr TileShape kTileShapes[] = {
    {128, 128, 8, 8}, {64, 64, 4, 4}, {64, 64, 8, 8},
    {32, 32, 4, 4},   {32, 32, 2, 2}, {16, 16, 4, 4},
    {16, 16, 2, 2},   {8, 8, 2, 2},   {4, 4, 1, 1},
};
/// An implicit GEMM also tries 128 rows (columns) by fewer columns (rows):
/// a convolution's output channels (64, say) would leave half of a 128-wide
/// tile idle.
constexpr TileShape kImplicitGemmTileShapes[] = {
    {128, 128, 8, 8}, {128, 64, 8, 8}, {64, 128, 8, 8}, {128, 32, 8, 4},
    {32, 128, 4, 8},  {128, 16, 8, 2}, {16, 128, 2, 8}, {64, 64, 4, 4},
    {64, 64, 8, 8},   {32, 32, 4, 4},  {32, 32, 2, 2},  {16, 16, 4, 4},
    {16, 16, 2, 2},   {8, 8, 2, 2},    {4, 4, 1, 1},
};
constexpr int64_t kBlockKs[] = {16, 8, 4, 2, 1};
/// The depth of double-buffered slices: deeper slices are taken only where
/// these would not be double-buffered or would narrow a staging load. Each
/// work-item holds its share of the next slice in registers while it computes
/// the current one; 8-deep slices halve that share against 16-deep ones (8
/// registers instead of 16 for 128x128 tiles of 256 work-items), and their two
/// copies take the local memory of one 16-deep copy. On the H200 the matmul
/// 4096^3 ran 9% faster through OpenCL (3.25 to 2.98 ms) and the 3x3
/// convolution 1.7x faster through Vulkan (docs/scheduler.md, "Double
/// buffering").
constexpr int64_t kDoubleBufferedBlockK = 8;
} // namespace

/// The widest vector, in elements of `elementBytes`, that the tiled
/// schedule moves between memory and registers. A GPU runs each work-item
/// as one scalar lane (NVIDIA reports a preferred float width of 1), yet a
/// lane loads up to 128 bits with one instruction (LDG.128 and LDS.128 on
/// NVIDIA, dwordx4 on AMD): four floats per load cut the load instructions
/// that bound the inner loop's local-memory reads by 4 (at most 4 elements
/// either way: the kernel IR has vectors of 2 and 4 only). Other devices
/// get none: a CPU's OpenCL compiler vectorises across work-items, and a
/// work-item's own vectors get in its way (PoCL ran the 1024^3 product
/// 1.85x slower with vectors of 4 than without, 2.7x with vectors of 2).
int64_t lowering::getMemoryVectorWidth(const DeviceProfile &profile,
                                       int64_t elementBytes) {
  return profile.type == DeviceType::GPU ? 16 / elementBytes : 1;
}

namespace {
/// The part of a tiled-schedule operand that a kernel, or one chunk of a
/// split launch, stages.
struct StageWindow {
  /// The operand's first outer index (row of A, column of B) the kernel
  /// reads, and how many from there on.
  int64_t firstOuter = 0, outerExtent = 0;
  /// The element of the operand's tensor at which the buffer the kernel
  /// addresses starts: a piece's offset, 0 for a whole buffer.
  int64_t bufferStart = 0;
};
} // namespace

/// Why one global load cannot stage `width` consecutive elements of
/// `operand` (whose outer index is `outerName`) in `window`; empty when it
/// can. The vector runs along the operand's contiguous index. It must start
/// at a multiple of `width` elements from the start of the buffer addressed
/// for every work-item, lie wholly inside or outside the operand's bounds
/// (so that checking its first element guards all), and the tile's vectors
/// must spread evenly over the work-items.
static std::string getStageObstacle(const DenseMatmul &matmul,
                                    const DenseMatmul::Operand &operand,
                                    StringRef outerName,
                                    const StageWindow &window,
                                    int64_t blockOuter, int64_t blockK,
                                    int64_t threads, int64_t width) {
  bool alongK = operand.kStride == 1;
  std::string outer = outerName.str();
  if (!alongK && operand.outerStride != 1)
    return "it is contiguous neither along k nor along " + outer;
  std::string w = std::to_string(width);
  int64_t tileExtent = alongK ? blockK : blockOuter;
  if (tileExtent % width != 0 || (blockOuter * blockK / width) % threads != 0)
    return "the tile's slice does not split into vectors of " + w +
           " evenly over the work-items";
  // The address is constant + batch*batchStride + outer*outerStride +
  // k*kStride - bufferStart. Along the contiguous index, the tiles reach
  // the first index plus multiples of the width; the other indices take
  // any value, so their strides must be multiples of the width.
  int64_t first = operand.constant - window.bufferStart +
                  (alongK ? matmul.kBegin : window.firstOuter);
  if (first % width != 0)
    return "its first element is element " + std::to_string(first) +
           " of the buffer read, not a multiple of " + w;
  int64_t otherStride = alongK ? operand.outerStride : operand.kStride;
  if (otherStride % width != 0)
    return "its stride along " + (alongK ? outer : "k") + " (" +
           std::to_string(otherStride) + ") is not a multiple of " + w;
  if (matmul.batched && operand.batchStride % width != 0)
    return "its batch stride (" + std::to_string(operand.batchStride) +
           ") is not a multiple of " + w;
  int64_t extent = alongK ? matmul.k : window.outerExtent;
  if (extent % width != 0)
    return "its extent along " + (alongK ? "k" : outer) + " (" +
           std::to_string(extent) + ") is not a multiple of " + w +
           ", so a vector could cross it";
  return "";
}

/// The most elements of `operand` (at most `limit`, a power of 2) that one
/// global load can stage in `window`. `why` says why not `limit`, if not.
static int64_t getStageWidth(const DenseMatmul &matmul,
                             const DenseMatmul::Operand &operand,
                             StringRef outerName, const StageWindow &window,
                             int64_t blockOuter, int64_t blockK,
                             int64_t threads, int64_t limit, std::string &why) {
  why.clear();
  // Legality at a width implies it at every smaller power of 2.
  for (int64_t width = limit; width > 1; width /= 2) {
    std::string obstacle = getStageObstacle(matmul, operand, outerName, window,
                                            blockOuter, blockK, threads, width);
    if (obstacle.empty())
      return width;
    // Scalar loads say why vectors of 2 fail, narrower ones why `limit`.
    if (why.empty() || width == 2)
      why = std::move(obstacle);
  }
  return 1;
}

/// How one operand is staged, for --explain.
static std::string describeStage(int64_t width, int64_t limit,
                                 const std::string &why) {
  if (width == 1)
    return "scalar loads (" + why + ")";
  std::string text = "loads of " + std::to_string(width) + " elements";
  if (width < limit)
    text += " (not " + std::to_string(limit) + ": " + why + ")";
  return text;
}

/// How a work-item reads its register tile's operands, for --explain.
static std::string describeRegisterReads(const TileSizes &tile) {
  if (tile.vectorWidth == 1)
    return "each work-item reads its register tile's operands from local "
           "memory one at a time (its tile is " +
           std::to_string(tile.regM) + "x" + std::to_string(tile.regN) + ")";
  return "each work-item owns groups of " + std::to_string(tile.vectorWidth) +
         " consecutive rows and columns and reads each group from local "
         "memory as one vector";
}

/// The part of --explain's reason about vectors.
static std::string describeVectors(const TileSizes &tile, int64_t vectorWidth,
                                   const std::string &whyA,
                                   const std::string &whyB) {
  if (vectorWidth == 1)
    return "; no vectors (not a GPU: a CPU's OpenCL compiler vectorises "
           "across work-items, which vectors within a work-item hinder)";
  return "; vectors of up to " + std::to_string(vectorWidth) +
         " elements (GPU: one 128-bit load per work-item instead of " +
         std::to_string(vectorWidth) +
         " scalar ones): " + describeRegisterReads(tile) +
         "; A is staged with " +
         describeStage(tile.stageWidthA, vectorWidth, whyA) + ", B with " +
         describeStage(tile.stageWidthB, vectorWidth, whyB);
}

void lowering::narrowStagingToChunk(Schedule &schedule, int64_t firstRow,
                                    int64_t bufferStartA,
                                    int64_t bufferStartB) {
  const DenseMatmul &matmul = *schedule.matmul;
  TileSizes &tile = schedule.tile;
  int64_t threads = schedule.localSize[0] * schedule.localSize[1];
  auto narrow = [&](StringRef name, const DenseMatmul::Operand &operand,
                    StringRef outerName, const StageWindow &window,
                    int64_t blockOuter, int64_t &width) {
    if (width == 1)
      return;
    std::string why;
    int64_t chunkWidth =
        getStageWidth(matmul, operand, outerName, window, blockOuter,
                      tile.blockK, threads, width, why);
    if (chunkWidth == width)
      return;
    schedule.reason += ("; in this chunk " + name + " is staged with " +
                        describeStage(chunkWidth, width, why))
                           .str();
    width = chunkWidth;
  };
  // A batched product is chunked along the batch, whose stride the
  // schedule already proved a multiple of the width.
  int64_t firstRowOfA = matmul.batched ? 0 : firstRow;
  narrow("A", matmul.a, "the rows", {firstRowOfA, matmul.m, bufferStartA},
         tile.blockM, tile.stageWidthA);
  narrow("B", matmul.b, "the columns", {0, matmul.n, bufferStartB}, tile.blockN,
         tile.stageWidthB);
}

/// The element type of contraction input `input`.
static Type getInputType(tile::ContractOp op, unsigned input) {
  return cast<RankedTensorType>(op.getInputs()[input].getType())
      .getElementType();
}

/// The registers that each work-item of tiled `schedule` holds its share of
/// the next slice in when double-buffered: one element each, of the compute
/// type (32-bit registers: two per f64).
static int64_t getPrefetchedRegisters(const Schedule &schedule,
                                      int64_t elementBytes) {
  const TileSizes &tile = schedule.tile;
  int64_t threads = schedule.localSize[0] * schedule.localSize[1];
  return (tile.blockM + tile.blockN) * tile.blockK / threads *
         std::max<int64_t>(1, elementBytes / 4);
}

/// Why tiled `deeper`, a schedule of slices deeper than `chosen`'s
/// double-buffered ones, was not taken.
static std::string describeDeeperSlices(const Schedule &chosen,
                                        const Schedule &deeper,
                                        int64_t elementBytes) {
  std::string depth = std::to_string(chosen.tile.blockK) +
                      "-deep slices rather than " +
                      std::to_string(deeper.tile.blockK) + "-deep ones";
  if (!deeper.tile.doubleBuffered)
    return depth + ", which would be single-buffered";
  return depth + ": each work-item holds " +
         std::to_string(getPrefetchedRegisters(chosen, elementBytes)) +
         " registers of the next slice instead of " +
         std::to_string(getPrefetchedRegisters(deeper, elementBytes));
}

/// Double-buffers the slices of tiled `schedule` (whose local memory and
/// registers are those of one copy) where two copies of its slices fit the
/// device's local memory, each work-item's share of the next slice fits the
/// register budget beside its estimate, and there are at least 2 slices to
/// overlap; says why (not) in its reason.
static void chooseDoubleBuffering(Schedule &schedule, int64_t elementBytes,
                                  const DeviceProfile &profile) {
  TileSizes &tile = schedule.tile;
  const DenseMatmul &matmul = *schedule.matmul;
  int64_t slices = llvm::divideCeil(matmul.k, tile.blockK);
  int64_t bytes = schedule.localMemBytes;
  int64_t prefetched = getPrefetchedRegisters(schedule, elementBytes);
  int64_t registers = schedule.registers + prefetched;
  std::string whyNot;
  if (slices < 2)
    whyNot = "one slice: no global loads to overlap";
  else if (uint64_t(2 * bytes) > profile.localMemBytes)
    whyNot = "two copies of the slices would need " +
             std::to_string(2 * bytes) +
             " bytes of local memory, more than the device's " +
             std::to_string(profile.localMemBytes);
  else if (registers > kRegisterBudget)
    whyNot = "the next slice's " + std::to_string(prefetched) +
             " registers would bring the estimate to " +
             std::to_string(registers) + ", over the budget of " +
             std::to_string(kRegisterBudget);
  if (!whyNot.empty()) {
    schedule.reason += "; single-buffered slices (" + whyNot + ")";
    return;
  }
  tile.doubleBuffered = true;
  schedule.localMemBytes = 2 * bytes;
  schedule.registers = registers;
  schedule.reason +=
      "; double-buffered slices: each work-item loads its " +
      std::to_string(prefetched) +
      " registers of slice s + 1 while the work-group computes slice s from "
      "the other half of local memory (2 x " +
      std::to_string(bytes) +
      " bytes), so the global loads' latency hides behind the rank-1 updates, "
      "with one barrier per slice";
}

/// The tiled schedule with tile `shape` if it fits the device; vectors of
/// up to `vectorWidth` elements where legal. `gemm`, where set, is the
/// implicit GEMM that `matmul` views.
static std::optional<Schedule>
tryTile(const TileShape &shape, tile::ContractOp op, const DenseMatmul &matmul,
        const ImplicitGemm *gemm, int64_t elementBytes, int64_t vectorWidth,
        const DeviceProfile &profile) {
  int64_t threadsX = shape.blockN / shape.regN;
  int64_t threadsY = shape.blockM / shape.regM;
  int64_t threads = threadsX * threadsY;
  int64_t registers = shape.regM * shape.regN + shape.regM + shape.regN + 12;
  if (uint64_t(threads) > profile.maxWorkGroupSize ||
      uint64_t(threadsX) > profile.maxWorkItemSizes[0] ||
      uint64_t(threadsY) > profile.maxWorkItemSizes[1] ||
      registers > kRegisterBudget)
    return std::nullopt;
  // Register-tile groups of consecutive rows and columns (all powers of 2).
  int64_t groupWidth = std::min({vectorWidth, shape.regM, shape.regN});
  // Writing a tile along k (the operand is contiguous in k) would hit one
  // bank per row; a pad of one vector spreads the rows and keeps them
  // aligned for the vector reads.
  int64_t strideA = shape.blockM + (matmul.a.kStride == 1 ? groupWidth : 0);
  int64_t strideB = shape.blockN + (matmul.b.kStride == 1 ? groupWidth : 0);
  int64_t usefulK = std::max<int64_t>(1, llvm::PowerOf2Ceil(matmul.k));
  Type computeType = getComputeType(op.getType().getElementType());
  // The schedule of slices deeper than kDoubleBufferedBlockK, taken where
  // slices of kDoubleBufferedBlockK are not double-buffered or stage an
  // operand with narrower loads (a small tile's slice may not split into
  // as many vectors as it has work-items).
  std::optional<Schedule> deeper;
  for (int64_t blockK : kBlockKs) {
    if (deeper && blockK < kDoubleBufferedBlockK)
      break;
    int64_t bytes = blockK * (strideA + strideB) * elementBytes;
    if (blockK > usefulK || (shape.blockM * blockK) % threads != 0 ||
        (shape.blockN * blockK) % threads != 0 ||
        uint64_t(bytes) > profile.localMemBytes)
      continue;
    // An operand stored in another type than the kernel computes in is
    // converted element by element.
    auto stageWidth = [&](const DenseMatmul::Operand &operand,
                          StringRef outerName, int64_t outerExtent,
                          int64_t blockOuter, std::string &why) -> int64_t {
      if (getInputType(op, operand.input) != computeType) {
        why = "it is converted as it is loaded";
        return 1;
      }
      if (gemm)
        return getImplicitStageWidth(*gemm, &operand == &matmul.a, blockOuter,
                                     blockK, threads, vectorWidth, why);
      return getStageWidth(matmul, operand, outerName, {0, outerExtent, 0},
                           blockOuter, blockK, threads, vectorWidth, why);
    };
    std::string whyA, whyB;
    int64_t stageWidthA =
        stageWidth(matmul.a, "the rows", matmul.m, shape.blockM, whyA);
    int64_t stageWidthB =
        stageWidth(matmul.b, "the columns", matmul.n, shape.blockN, whyB);
    Schedule schedule;
    schedule.kind =
        gemm ? ScheduleKind::ImplicitGemm : ScheduleKind::TiledContraction;
    if (gemm)
      schedule.implicitGemm = *gemm;
    schedule.localSize = {threadsX, threadsY, 1};
    schedule.numGroups = {llvm::divideCeilSigned(matmul.n, shape.blockN),
                          llvm::divideCeilSigned(matmul.m, shape.blockM),
                          matmul.batch};
    schedule.activeItems = matmul.m * matmul.n * matmul.batch;
    schedule.tile = {shape.blockM, shape.blockN, shape.regM, shape.regN,
                     blockK,       strideA,      strideB,    groupWidth,
                     stageWidthA,  stageWidthB};
    schedule.matmul = matmul;
    schedule.localMemBytes = bytes;
    schedule.registers = registers;
    // The slices, each with its blockK rank-1 updates.
    schedule.loopPasses = countLoopPasses(
        {double(llvm::divideCeil(matmul.k, blockK)), double(blockK)});
    schedule.reason = describeVectors(schedule.tile, vectorWidth, whyA, whyB);
    chooseDoubleBuffering(schedule, elementBytes, profile);
    if (blockK > kDoubleBufferedBlockK) {
      if (!deeper)
        deeper = std::move(schedule);
      continue;
    }
    if (deeper && (!schedule.tile.doubleBuffered ||
                   schedule.tile.stageWidthA < deeper->tile.stageWidthA ||
                   schedule.tile.stageWidthB < deeper->tile.stageWidthB))
      break;
    if (deeper)
      schedule.reason +=
          "; " + describeDeeperSlices(schedule, *deeper, elementBytes);
    return schedule;
  }
  return deeper;
}

static int64_t getWorkGroups(const Schedule &schedule) {
  return schedule.numGroups[0] * schedule.numGroups[1] * schedule.numGroups[2];
}

static int64_t getThreads(const Schedule &schedule) {
  return schedule.localSize[0] * schedule.localSize[1];
}

/// Whether tile `shape` reaches past `matmul`'s M or N rounded up to a
/// power of 2.
static bool isWasteful(const TileShape &shape, const DenseMatmul &matmul) {
  return shape.blockM > int64_t(llvm::PowerOf2Ceil(matmul.m)) ||
         shape.blockN > int64_t(llvm::PowerOf2Ceil(matmul.n));
}

/// `tiled` (a schedule of `tryTile`) with its reduction split into parts
/// (split-K) so that its tiles and parts fill the device: as many parts as
/// make the work-groups the device keeps resident, each of at least
/// kSplitKMinDepth steps of the reduction, within the device's work-group
/// count along z.
/// Nullopt where no split gives every compute unit a work-group.
static std::optional<Schedule> splitReduction(Schedule tiled,
                                              const DeviceProfile &profile) {
  const DenseMatmul &matmul = *tiled.matmul;
  int64_t tiles = getWorkGroups(tiled);
  int64_t slices = llvm::divideCeil(matmul.k, tiled.tile.blockK);
  int64_t resident = getResidentGroups(profile, getThreads(tiled),
                                       tiled.registers, tiled.localMemBytes);
  int64_t deviceGroups = int64_t(profile.computeUnits) * resident;
  int64_t minSlices = llvm::divideCeil(kSplitKMinDepth, tiled.tile.blockK);
  int64_t parts = std::min<int64_t>(llvm::divideCeil(deviceGroups, tiles),
                                    slices / minSlices);
  if (uint64_t limit = profile.maxWorkGroupCount[2])
    parts = std::min<int64_t>(parts, limit / matmul.batch);
  if (parts < 2)
    return std::nullopt;
  // Every part gets slices: the last may get fewer than the others.
  int64_t perPart = llvm::divideCeil(slices, parts);
  parts = llvm::divideCeil(slices, perPart);
  if (tiles * parts < int64_t(profile.computeUnits))
    return std::nullopt;
  tiled.partialGroups = parts;
  tiled.numGroups[2] *= parts;
  tiled.loopPasses =
      countLoopPasses({double(perPart), double(tiled.tile.blockK)});
  tiled.reason = "; the " + std::to_string(tiles) + " tiles alone leave " +
                 "compute units idle, so the reduction splits into " +
                 std::to_string(parts) + " parts of " +
                 std::to_string(perPart) +
                 " slices (split-K: " + std::to_string(tiles * parts) +
                 " work-groups, of the " + std::to_string(deviceGroups) +
                 " the device keeps resident, as far as each part keeps " +
                 std::to_string(minSlices) +
                 " slices); each work-group stores its tile's partial sums "
                 "in a temporary and a second kernel adds the parts of each "
                 "element in order" +
                 tiled.reason;
  return tiled;
}

/// The largest tile that still gives every compute unit a work-group; when
/// none does (a small problem), the one with the most work-groups. An
/// implicit GEMM (`gemm`) skips the tiles that reach past its M or N
/// rounded up to a power of 2 where another fits. Its reason starts with
/// `what` (the product's shape).
static std::optional<Schedule> chooseTile(tile::ContractOp op,
                                          const DenseMatmul &matmul,
                                          const ImplicitGemm *gemm,
                                          const std::string &what,
                                          const DeviceProfile &profile) {
  int64_t elementBytes = op.getType().getElementType().isF64() ? 8 : 4;
  int64_t vectorWidth = getMemoryVectorWidth(profile, elementBytes);
  ArrayRef<TileShape> shapes =
      gemm ? ArrayRef(kImplicitGemmTileShapes) : ArrayRef(kTileShapes);
  std::optional<Schedule> best;
  for (bool skipWasteful : {gemm != nullptr, false}) {
    for (const TileShape &shape : shapes) {
      if (skipWasteful && isWasteful(shape, matmul))
        continue;
      std::optional<Schedule> candidate =
          tryTile(shape, op, matmul, gemm, elementBytes, vectorWidth, profile);
      if (!candidate)
        continue;
      if (getWorkGroups(*candidate) >= profile.computeUnits) {
        best = candidate;
        break;
      }
      if (!best || getWorkGroups(*candidate) > getWorkGroups(*best))
        best = candidate;
    }
    if (best)
      break;
  }
  if (!best)
    return std::nullopt;
  std::string why = "the largest tile that fits local memory, the work-group "
                    "and register limits and gives " +
                    std::to_string(getWorkGroups(*best)) + " work-groups for " +
                    std::to_string(profile.computeUnits) + " compute units";
  // Few tiles, or small ones: the largest tile that fills the device once
  // its long reduction splits into parts, where one does (a filter
  // gradient: a 3x3x32x64 output, 73728-deep sums). Small tiles move more
  // bytes per flop, and under two warps they leave lanes idle.
  if (getWorkGroups(*best) < int64_t(profile.computeUnits) ||
      best->tile.regM * best->tile.regN < kEfficientRegisterTile ||
      getThreads(*best) < kSplitKMinThreads) {
    for (const TileShape &shape : shapes) {
      if (isWasteful(shape, matmul) ||
          (shape.blockM / shape.regM) * (shape.blockN / shape.regN) <
              kSplitKMinThreads)
        continue;
      std::optional<Schedule> candidate =
          tryTile(shape, op, matmul, gemm, elementBytes, vectorWidth, profile);
      if (!candidate)
        continue;
      if (std::optional<Schedule> split =
              splitReduction(std::move(*candidate), profile)) {
        best = std::move(split);
        why = "the largest tile of at least " +
              std::to_string(kSplitKMinThreads) +
              " work-items that fits local memory, the work-group and "
              "register limits";
        break;
      }
    }
  }
  const TileSizes &t = best->tile;
  best->reason =
      what + ": " + why + "; each work-group stages " +
      std::to_string(t.blockK) + "-deep slices of A (" +
      std::to_string(t.blockM) + " rows, stored transposed) and B (" +
      std::to_string(t.blockN) + " columns) in local memory" + best->reason;
  return best;
}

Schedule lowering::scheduleContraction(tile::ContractOp op,
                                       const ContractionSpace &space,
                                       const IndexSystem &system,
                                       const TupleCount &tuples,
                                       const DeviceProfile &profile) {
  bool compensated = op.getAggregation() == tile::AggregationKind::Add &&
                     isa<FloatType>(op.getType().getElementType()) &&
                     tuples.perElement > kLongReduction;
  // Few elements with long reductions take the reduction schedule, unless
  // a tiled one splits its reduction: its tiles reuse every value they
  // stage, where a reduction's work-items read each operand once per
  // element.
  std::optional<Schedule> reduction = scheduleReduction(
      op, space, system, tuples, compensated, /*force=*/false, profile);
  auto preferred = [&](Schedule tiled) {
    return reduction && tiled.partialGroups == 1 ? *reduction : tiled;
  };
  std::string whyNot;
  std::optional<DenseMatmul> matmul =
      matchDenseMatmul(op, space, system, whyNot);
  if (matmul) {
    std::string what =
        "dense matrix product (M=" + std::to_string(matmul->m) +
        ", N=" + std::to_string(matmul->n) +
        ", K=" + std::to_string(matmul->k) +
        (matmul->batched ? ", batch=" + std::to_string(matmul->batch) : "") +
        ")";
    if (std::optional<Schedule> tiled =
            chooseTile(op, *matmul, nullptr, what, profile))
      return preferred(std::move(*tiled));
    whyNot = "no tile fits the device's local memory and work-group limits";
  } else {
    // A convolution-like contraction as a product of flattened indices.
    std::string whyNotGemm;
    if (std::optional<ImplicitGemm> gemm =
            matchImplicitGemm(op, space, system, whyNotGemm)) {
      std::string what = "implicit GEMM, a matrix product of flattened "
                         "indices (" +
                         describeImplicitGemm(*gemm, system) + ")";
      if (std::optional<Schedule> tiled =
              chooseTile(op, getImplicitGemmView(*gemm), &*gemm, what, profile))
        return preferred(std::move(*tiled));
      whyNot = "no implicit GEMM tile fits the device's local memory and "
               "work-group limits";
    } else if (whyNot.empty() || whyNotGemm == whyNot) {
      whyNot = whyNotGemm;
    } else {
      whyNot = "not a dense matrix product: " + whyNot +
               "; not an implicit GEMM: " + whyNotGemm;
    }
  }
  if (reduction)
    return *reduction;
  Schedule schedule =
      scheduleGeneric(op, space, &system, tuples, compensated, profile);
  // Where one work-item per element would run its loops past the device's
  // limit, the work-items of a work-group (or several) share each element.
  if (profile.maxLoopIterations != 0 &&
      schedule.loopPasses > double(profile.maxLoopIterations))
    if (std::optional<Schedule> reduction =
            scheduleReduction(op, space, system, tuples, compensated,
                              /*force=*/true, profile))
      return *reduction;
  schedule.reason = "generic: each work-item runs the index space's loop "
                    "nest for its output elements (" +
                    whyNot + "); " + schedule.reason;
  return schedule;
}

LogicalResult lowering::verifyScheduleFits(const Schedule &schedule,
                                           const DeviceProfile &profile,
                                           Location loc) {
  int64_t threads =
      schedule.localSize[0] * schedule.localSize[1] * schedule.localSize[2];
  auto fail = [&](const llvm::Twine &what) {
    return emitError(loc) << "the kernel does not fit device '" << profile.name
                          << "': " << what;
  };
  if (uint64_t(threads) > profile.maxWorkGroupSize)
    return fail("a work-group of " + llvm::Twine(threads) +
                " work-items exceeds its maximum of " +
                llvm::Twine(profile.maxWorkGroupSize));
  for (unsigned dim = 0; dim < 3; ++dim)
    if (uint64_t(schedule.localSize[dim]) > profile.maxWorkItemSizes[dim])
      return fail("a work-group extent of " +
                  llvm::Twine(schedule.localSize[dim]) + " along dimension " +
                  llvm::Twine(dim) + " exceeds its maximum of " +
                  llvm::Twine(profile.maxWorkItemSizes[dim]));
  for (unsigned dim = 0; dim < 3; ++dim)
    if (uint64_t limit = profile.maxWorkGroupCount[dim];
        limit && uint64_t(schedule.numGroups[dim]) > limit)
      return fail("its launch needs " + llvm::Twine(schedule.numGroups[dim]) +
                  " work-groups along dimension " + llvm::Twine(dim) +
                  ", more than its maximum of " + llvm::Twine(limit));
  if (uint64_t(schedule.localMemBytes) > profile.localMemBytes)
    return fail(llvm::Twine(schedule.localMemBytes) +
                " bytes of local memory exceed its " +
                llvm::Twine(profile.localMemBytes));
  int64_t registerBudget =
      schedule.unitRegisters ? getRegisterBudget(schedule) : kRegisterBudget;
  if (schedule.registers > registerBudget)
    return fail("an estimated " + llvm::Twine(schedule.registers) +
                " registers per work-item exceed the budget of " +
                llvm::Twine(registerBudget));
  if (profile.maxLoopIterations != 0 &&
      schedule.loopPasses > double(profile.maxLoopIterations))
    return fail("it needs " +
                llvm::formatv("{0:F0}", schedule.loopPasses).str() +
                " loop passes per work-item, and the device stops loops "
                "after " +
                llvm::Twine(profile.maxLoopIterations) +
                " (its compiler ends them early, silently)");
  return success();
}
