//===- Schedule.h - How a kernel runs on a device ---------------*- C++ -*-===//
//
// The scheduler's decisions for one kernel and the analytic model behind
// them (docs/scheduler.md): the scheduler's interface (`tile-schedule`).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LOWERING_SCHEDULE_H
#define TILEC_LOWERING_SCHEDULE_H

#include "tilec/Lowering/ImplicitGemm.h"
#include "tilec/Lowering/KernelCost.h"
#include "tilec/Lowering/KernelFormation.h"

#include "tilec/Analysis/IndexSpace.h"
#include "tilec/Dialect/Tile/IR/TileOps.h"
#include "tilec/Runtime/DeviceProfile.h"
#include "llvm/ADT/bit.h"

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <vector>

namespace tilec {
namespace lowering {

/// PerElement: one work-item per element of the group's shape (elementwise,
/// copy). GenericContraction: one work-item per output element running the
/// index space's loop nest. TiledContraction: work-group tiles of the
/// output, the reduction staged through local memory, a register tile per
/// work-item. ReductionContraction: one work-group per output element (or
/// `partialGroups` of them) whose work-items share the element's tuples and
/// combine their partial aggregates in local memory. PartialCombination: the
/// second pass of a reduction with several work-groups per element, which
/// combines the groups' partial aggregates. ImplicitGemm: the tiled
/// schedule of a contraction viewed as a matrix product over flattened
/// indices (a convolution; ImplicitGemm.h). The kind of a #tile.schedule.
using ScheduleKind = tile::ScheduleKind;

/// How the work-items of a reduction work-group share one element's loop
/// nest. The leading `mergedLevels` loops (all with constant bounds) run as
/// one linear loop; the iterations of the loop `stridedLevel` (the merged
/// loop when `stridedLevel < mergedLevels`) are dealt out to the
/// work-items, so every tuple belongs to exactly one work-item; every other
/// loop runs whole in every work-item.
struct WorkSplit {
  unsigned mergedLevels = 0;
  unsigned stridedLevel = 0;
  /// Each work-item takes one contiguous chunk of the iterations (CPUs: a
  /// core runs a whole work-group and streams through memory), rather than
  /// every n-th iteration from its id (GPUs: neighbouring work-items read
  /// neighbouring addresses).
  bool contiguous = false;
  /// On a GPU, where the merged loop is shared: each iteration a work-item
  /// takes is a step of `stepWidth` consecutive positions of the merged
  /// range, whose inputs along its innermost loop load as one vector each
  /// (getSharedStepStrides); 1 otherwise.
  int64_t stepWidth = 1;
};

/// C[b, i, j] = +(A[.] * B[.]) over a dense box, with A's address linear
/// in (b, i, k) and B's in (b, k, j): the shape the tiled schedule needs.
struct DenseMatmul {
  struct Operand {
    /// Which contraction input this is.
    unsigned input = 0;
    /// Address = constant + batch*batchStride + outer*outerStride + k*kStride,
    /// where outer is i for A and j for B.
    int64_t constant = 0, batchStride = 0, outerStride = 0, kStride = 0;
  };
  bool batched = false;
  int64_t batch = 1, m = 1, n = 1, k = 0;
  /// The first value of the reduction index.
  int64_t kBegin = 0;
  Operand a, b;
};

struct TileSizes {
  /// Outputs per work-group (M x N), per work-item (regM x regN), and the
  /// reduction slice staged in local memory per step.
  int64_t blockM = 0, blockN = 0, regM = 0, regN = 0, blockK = 0;
  /// Row length of the local A and B tiles (a pad of one vector spreads the
  /// rows over the banks when the tile is written along k, and keeps the
  /// rows aligned for vector reads).
  int64_t strideA = 0, strideB = 0;
  /// A work-item's register-tile rows and columns come in groups of this
  /// many consecutive ones, each group read from local memory as one
  /// vector (1: scalar reads).
  int64_t vectorWidth = 1;
  /// Elements of A and B that one global load stages (1: scalar loads).
  int64_t stageWidthA = 1, stageWidthB = 1;
  /// Local memory holds two copies of the slices: slice s + 1 is loaded
  /// into registers while slice s is computed from the other copy, so the
  /// global loads' latency hides behind the rank-1 updates
  /// (docs/scheduler.md, "Double buffering").
  bool doubleBuffered = false;
};

/// How the work-items of a per-element schedule walk the elements
/// (docs/scheduler.md, "Per element"). A step is `width` consecutive
/// elements; the last step holds the rest when the width does not divide
/// the elements. A generic contraction's work-item takes one step of
/// `width` consecutive elements of the last axis, its lanes (which divide
/// that axis), and only `width` and `steps` are set.
struct ElementWalk {
  /// Elements per step: operands that allow it are loaded and stored as one
  /// vector of this many elements (1: scalars).
  int64_t width = 1;
  /// Steps in all: ceil(elements / width).
  int64_t steps = 0;
  /// 0: the launch's work-items stride over all steps together, work-item
  /// i taking steps i, i + N, i + 2N, ... (N work-items; GPUs, so that
  /// neighbouring work-items access neighbouring addresses). Otherwise each
  /// work-group takes `groupSteps` consecutive steps, which its work-items
  /// stride over by the work-group size (CPUs: a core runs a whole
  /// work-group and streams through contiguous memory).
  int64_t groupSteps = 0;
  /// Accesses (loads and stores of distinct buffers) that vectors carry, and
  /// all accesses, for --explain.
  unsigned vectorAccesses = 0, accesses = 0;
};

struct Schedule {
  ScheduleKind kind = ScheduleKind::PerElement;
  std::array<int64_t, 3> localSize = {1, 1, 1};
  std::array<int64_t, 3> numGroups = {1, 1, 1};
  /// Work-items that do something (the rest are guarded off).
  int64_t activeItems = 0;
  TileSizes tile;
  /// Per-element schedules: how the work-items walk the elements.
  ElementWalk walk;
  /// Tiled schedules: the product's shape (for an implicit GEMM, its
  /// flattened view, getImplicitGemmView).
  std::optional<DenseMatmul> matmul;
  /// Implicit GEMM schedules: how the flattened product addresses the
  /// operands.
  std::optional<ImplicitGemm> implicitGemm;
  /// Reduction schedules: how the work-group shares an element's tuples.
  WorkSplit split;
  /// Reduction schedules: the neighbouring elements one work-group takes,
  /// one per neighbouring work-item (a column reduction on a GPU: coalesced
  /// loads); the group's work-items of one element share it.
  int64_t elementsPerGroup = 1;
  /// Reduction schedules: the work-groups sharing each element; tiled
  /// schedules: the parts the reduction (K) splits into ("split-K"), one
  /// work-group per tile and part. Above 1, each group writes its partial
  /// aggregates to a temporary and a second kernel (scheduleCombination)
  /// combines them, or the last group to finish does (lastGroupCombines).
  int64_t partialGroups = 1;
  /// Reduction schedules with several work-groups per element: the last of
  /// an element's (or block's) work-groups to finish combines their
  /// partials in the same kernel, found by an atomic counter per block of
  /// elementsPerGroup, rather than a second kernel (docs/scheduler.md,
  /// "Reduction").
  bool lastGroupCombines = false;
  /// Partial combination: one work-group per element whose work-items share
  /// its partials and combine them by a tree in local memory (many
  /// partials), rather than one work-item per element combining them in
  /// order.
  bool treeCombination = false;
  /// Float `+` contractions whose elements may aggregate many tuples sum
  /// with Kahan-Babuska-Neumaier compensation (docs/scheduler.md).
  bool compensated = false;
  /// Row kernels: the rows one work-group computes (its work-items are that
  /// many parts of `localSize[0] / rowsPerGroup` lanes, one part per row)
  /// and the elements of a row each lane holds in registers: all of the
  /// lane's, or a chunk of them where the row is streamed in `rowChunks`.
  int64_t rowsPerGroup = 1;
  int64_t rowSteps = 0;
  int64_t rowChunks = 1;
  /// Streamed rows: each sum of `exp(x - m)` after the row maximum `m`
  /// accumulates in the maximum's pass, rescaled as the lane's maximum
  /// grows, and each sum of `(x - c)^2`, `c` per row, comes from the
  /// statistics of x gathered in an earlier reduction's pass
  /// (findOnlineSums), so softmax and layer norm stream a row twice, not
  /// three times.
  bool onlineSums = false;
  /// The most loop passes a work-item makes, counted as countLoopPasses
  /// does (an upper bound where the loops' bounds vary).
  double loopPasses = 0;
  int64_t localMemBytes = 0;
  /// 32-bit registers per work-item, estimated (docs/scheduler.md).
  int64_t registers = 0;
  /// The work-group takes a compute unit's registers alone: its work-items
  /// may each take up to the most one can (getRegisterBudget(Schedule)),
  /// past the budget that keeps two work-groups resident (a row held where
  /// the device gives no work-group more than 256 work-items).
  bool unitRegisters = false;
  /// Why this schedule, for --explain.
  std::string reason;
};

/// A reduction whose last work-group combines the partials
/// (lastGroupCombines): the work-items of that group that share an
/// element's, each taking every so many in order; the others keep the
/// identity for its tree.
inline int64_t getCombiningSharers(const Schedule &s) {
  return std::min<int64_t>(s.localSize[0] / s.elementsPerGroup,
                           llvm::bit_floor(uint64_t(s.partialGroups)));
}

/// The register budget per work-item the schedules are held to.
constexpr int64_t kRegisterBudget = 128;

/// The registers of a GPU compute unit the model assumes: what keeps two
/// work-groups of 256 work-items at the budget resident (64K 32-bit
/// registers per unit on NVIDIA since Kepler and on AMD's CDNA).
constexpr int64_t kUnitRegisters = kRegisterBudget * 2 * 256;

/// The registers each work-item of a work-group of `items` may take: the
/// budget, or less where a compute unit's registers give a work-group that
/// large less (64 each for 1024 work-items).
inline int64_t getRegisterBudget(int64_t items) {
  return std::min(kRegisterBudget,
                  kUnitRegisters / std::max<int64_t>(1, items));
}

/// The most 32-bit registers one GPU work-item can take (NVIDIA: 255 since
/// Kepler; AMD's GCN and CDNA: 256 vector registers).
constexpr int64_t kItemRegisterLimit = 255;

/// The registers each work-item of a work-group of `items` may take where
/// the work-group takes a compute unit's registers alone: as many as the
/// unit gives it, within kItemRegisterLimit.
inline int64_t getUnitRegisterBudget(int64_t items) {
  return std::min(kItemRegisterLimit,
                  kUnitRegisters / std::max<int64_t>(1, items));
}

/// The registers each work-item of schedule `s` may take: getRegisterBudget
/// of its work-group, or getUnitRegisterBudget where the work-group takes a
/// compute unit's registers alone.
inline int64_t getRegisterBudget(const Schedule &s) {
  int64_t items = s.localSize[0] * s.localSize[1] * s.localSize[2];
  return s.unitRegisters ? getUnitRegisterBudget(items)
                         : getRegisterBudget(items);
}

/// The most work-items a GPU compute unit keeps resident (NVIDIA: 2048
/// since Volta; AMD's CDNA: 2560), which the profile does not report.
constexpr int64_t kUnitResidentItems = 2048;

/// A reduction is split over several work-groups per element for speed only
/// when at least two of them would each give every work-item this many
/// tuples: a work-group's share then takes about as long as the launch of
/// the second kernel that combines the groups (one work-group of 256 streams
/// about 7e9 f32 per second on the H200, so 32768 tuples take about 4.7 us,
/// a launch 3 to 5 us). 256 left the bias gradients of the Keras CNN's
/// training step (86528 rows of 32 columns) 42 work-groups for 132 compute
/// units, at 270 GB/s.
constexpr double kSplitTuplesPerItem = 128;

/// Once split, an element gets as many work-groups as fill one wave of those
/// the device keeps resident while each work-item keeps this many tuples:
/// the second kernel runs anyway, and its cost hardly grows with the
/// partials. On the H200 (2026-11-28), with 128 tuples here too, the sum of
/// 2^20 f32 had 32 work-groups and took 19 us through OpenCL (15 us with
/// 256), and the sum of 2^24 had 512 and took 40 us through Vulkan (34 us
/// with 1056).
constexpr double kFillTuplesPerItem = 16;

/// The neighbouring elements a column reduction's work-group takes: a
/// warp's 32 loads of f32 then make one 128-byte line.
constexpr int64_t kCoalescedElements = 32;

/// Up to this many partials per element, the combining kernel gives each
/// element one work-item that combines them in order; beyond, a work-group
/// that shares them and combines them by a tree.
constexpr int64_t kSerialCombination = 32;

/// The partials a work-item of a reduction's last work-group reads before it
/// combines the first of them (docs/scheduler.md, "Reduction").
constexpr int64_t kPartialsInFlight = 8;

/// The loop passes of a work-item of a reduction's last work-group that
/// combines `schedule`'s partials (lastGroupCombines).
double countCombiningPasses(const Schedule &schedule);

/// A tiled schedule splits its reduction (split-K) only into parts of at
/// least this many steps of the reduction (8 slices of 16, 16 of 8): a
/// part's work-group writes its tile of partial sums (blockM x blockN
/// values) once, about what 32 steps load for a square tile, so that
/// writing and combining the partials stays a small share of the traffic.
constexpr int64_t kSplitKMinDepth = 128;

/// The fewest work-items of a work-group whose tiled schedule splits its
/// reduction: two warps of NVIDIA (one wavefront of AMD's CDNA is 64).
constexpr int64_t kSplitKMinThreads = 64;

/// The smallest register tile (regM x regN) a tiled schedule counts as
/// efficient: below it, each value read from local memory feeds too few
/// fmas, and splitting the reduction of a larger tile fills the device
/// better than a smaller tile does.
constexpr int64_t kEfficientRegisterTile = 16;

/// An output element aggregating more tuples than this has a long
/// reduction: a float sum is compensated, and a few such elements get a
/// work-group each.
constexpr double kLongReduction = 1024;

/// The work-group size of one-dimensional schedules: the largest power of
/// two the device allows, at most 256 (enough to hide latency on GPUs while
/// leaving several work-groups per compute unit).
int64_t getLinearGroupSize(const DeviceProfile &profile);

/// The address of `access` (integral rows) in a C-ordered buffer as
/// coefficients per index variable plus a constant.
std::optional<std::vector<int64_t>>
getLinearAddress(const IndexSystem::Access &access, unsigned numIndices);

/// The reduction schedule (ReductionSchedule.cpp), when `op`'s elements are
/// few for the device's parallelism (or `force`d: one work-item per element
/// would run more loop passes than the device allows), each aggregates a
/// long reduction, and the partial aggregates of a work-group fit local
/// memory. Several work-groups share each element (a second kernel combines
/// their partials) where one per element leaves the device idle, and under
/// a loop limit the work-group grows up to the device's maximum, then more
/// work-groups share each element, until a work-item's loop passes fit.
std::optional<Schedule>
scheduleReduction(tile::ContractOp op, const ContractionSpace &space,
                  const IndexSystem &system, const TupleCount &tuples,
                  bool compensated, bool force, const DeviceProfile &profile);

/// Whether `op` is a float `+(A * B)`, the only contractions that the tiled
/// schedules (dense product, implicit GEMM) take; `whyNot` says why not.
bool isFloatSumOfProducts(tile::ContractOp op, std::string &whyNot);

/// Matches `op` (analysed as `space`) against the tiled schedule's shape.
std::optional<DenseMatmul> matchDenseMatmul(tile::ContractOp op,
                                            const ContractionSpace &space,
                                            const IndexSystem &system,
                                            std::string &whyNot);

/// The widest vector, in elements of `elementBytes`, that kernels move
/// between memory and registers on `profile` (docs/scheduler.md,
/// "Vectors").
int64_t getMemoryVectorWidth(const DeviceProfile &profile,
                             int64_t elementBytes);

/// One work-item per item of `items` (generic contractions, partial
/// combinations): the work-groups along x, and along y as well where x
/// alone would exceed the device's group count. `item` names an item for
/// --explain.
Schedule scheduleOneItemPerElement(int64_t items, int64_t registers,
                                   const DeviceProfile &profile,
                                   llvm::StringRef item = "element");

/// Whether kernels access `storageType` (a buffer's element type) with
/// vectors: f16, f32, f64 and the integers (not bf16, docs/kernel-ir.md).
bool hasVectorAccess(mlir::Type storageType);

/// The values the per-element kernel of `group` loads, each once: the
/// operands defined outside the group other than generators (a copy's
/// source).
llvm::SmallVector<mlir::Value> getLoadedValues(const KernelGroup &group);

/// Whether the per-element kernel of `group` loads `value` as a whole
/// buffer at the kernel's own positions (not a broadcast operand nor a
/// recomputed generator), so that a step may load it as a vector.
bool isLoadedInPlace(const KernelGroup &group, mlir::Value value);

/// The per-element schedule of the elementwise or copy `group`: steps of
/// consecutive elements (vectors where the operands allow), work-groups to
/// fill the device, within its group-count and loop limits.
Schedule schedulePerElement(const KernelGroup &group,
                            const DeviceProfile &profile);

/// Whether every work-item of the per-element `schedule` takes at most one
/// step (its kernel then guards the step instead of looping).
bool takesOneStep(const Schedule &schedule);

/// `schedule` (per element, or one work-item per element) restricted to the
/// `elements` elements of a chunk of a split launch, whole rows of
/// `rowElements`: no more work-groups than before, and steps only as wide
/// as keep every vector aligned in the chunk's buffers, which start at
/// whole rows.
void restrictLinearSchedule(Schedule &schedule, int64_t elements,
                            int64_t rowElements);

/// What the row schedule needs to know of a row kernel's ops (a chain of
/// reductions over the last axis of `[rows, rowLength]` and elementwise ops
/// broadcasting their results back over the rows).
struct RowWork {
  int64_t rows = 0, rowLength = 0;
  /// The tensors of the rows' shape the kernel reads (each element once,
  /// into registers).
  unsigned loaded = 0;
  unsigned reductions = 0;
  /// The sums that can accumulate in an earlier reduction's pass of a
  /// streamed row (Schedule::onlineSums): of exp(x - max) in their
  /// maximum's, of squared differences from a per-row value in any.
  unsigned onlineExponentials = 0, onlineSquares = 0;
  /// Local memory per work-item for the reductions' trees, in bytes.
  int64_t partialBytes = 0;
  /// The 32-bit registers a value of the kernel takes: 2 where it computes
  /// in a 64-bit type.
  int64_t valueWords = 1;
  /// Float `+` reductions over long rows are compensated.
  bool compensated = false;
};

/// The row work of `ops` (in program order; the first a reduction over the
/// rows of `rowType`).
RowWork getRowWork(llvm::ArrayRef<mlir::Operation *> ops,
                   mlir::RankedTensorType rowType);

/// The row schedule (RowSchedule.cpp): a part of a work-group per row that
/// holds the row in registers, or nullopt with `whyNot` set when a row does
/// not fit the work-group's registers and local memory on `profile`.
std::optional<Schedule> scheduleRow(const RowWork &work,
                                    const DeviceProfile &profile,
                                    std::string &whyNot);

/// The tiled schedule with a split reduction where the contraction matches
/// it and one fills the device, else the reduction schedule for few elements
/// with long reductions, else the tiled schedule where a tile fits the
/// device, else the generic one. `tuples` counts the contraction's work.
Schedule scheduleContraction(tile::ContractOp op, const ContractionSpace &space,
                             const IndexSystem &system,
                             const TupleCount &tuples,
                             const DeviceProfile &profile);

/// The generic schedule of `op` (GenericSchedule.cpp): each work-item runs
/// the whole loop nest of its output elements, `walk.width` consecutive ones
/// along the last axis (the lanes: on a GPU where getGenericLaneStrides
/// allows, and `system` is given; else 1).
Schedule scheduleGeneric(tile::ContractOp op, const ContractionSpace &space,
                         const IndexSystem *system, const TupleCount &tuples,
                         bool compensated, const DeviceProfile &profile);

/// How each input of `op` moves from lane to lane when a work-item of the
/// generic schedule computes `lanes` consecutive output elements along the
/// last axis, which share one loop nest: 1 where the input's address moves
/// with the element (that axis's index variable alone addresses its last
/// dimension, a multiple of `lanes`, so that each lane-0 address is aligned
/// to a vector), 0 where no dimension uses it (one value serves every
/// lane). Nullopt, with `whyNot`, where the lanes cannot share the nest or
/// the addresses: the index variable appears in a bound, a guard, another
/// index variable's value or another dimension, or a buffer's type has no
/// vectors.
std::optional<llvm::SmallVector<int64_t>>
getGenericLaneStrides(tile::ContractOp op, const ContractionSpace &space,
                      const IndexSystem &system, int64_t lanes,
                      std::string &whyNot);

/// Whether `input`, addressed as `access`, moves with index variable `var`
/// as aligned vectors of `width` elements: true where `var` alone (with
/// coefficient 1) addresses its last dimension, a multiple of `width`, and
/// its storage type has vectors; false where no dimension uses `var`;
/// nullopt where one uses it otherwise.
std::optional<bool> movesAsVectors(const IndexSystem::Access &access,
                                   mlir::Value input, unsigned var,
                                   int64_t width);

/// The memory vector width of the widest type `op` moves on `profile`, at
/// most 4 (the kernel IR's vectors).
int64_t getWidestVectorWidth(tile::ContractOp op, const DeviceProfile &profile);

/// Whether nothing but the inputs' addresses reads index variable `var` of
/// `space`: no loop bound, pivot or integrality check (the reduction's run
/// joining and steps, ReductionSchedule.cpp).
bool isReadByAddressesAlone(const ContractionSpace &space, unsigned var);

/// How each input of `op` moves from position to position of a step of
/// `width` consecutive positions of the merged range that `split` shares (a
/// reduction work-item's step): 1 where the innermost merged loop's index
/// variable alone addresses the input's last dimension, a multiple of
/// `width`, so that every step's first address is aligned to a vector; 0
/// where the input does not use it (one value serves the step). Nullopt,
/// with `whyNot`, where a step cannot share one vector per input: the
/// merged loop is not the shared one, its innermost range is not a multiple
/// of `width` from a multiple of it, its index variable appears in a bound,
/// a guard, another index variable's value or another dimension, no input
/// moves, or a moving input's type has no vectors.
std::optional<llvm::SmallVector<int64_t>>
getSharedStepStrides(tile::ContractOp op, const ContractionSpace &space,
                     const IndexSystem &system, const WorkSplit &split,
                     int64_t width, std::string &whyNot);

/// The work-groups of `items` work-items, each using `registers` registers
/// and `localBytes` bytes of local memory, that one compute unit keeps
/// resident (docs/scheduler.md, "Reductions use the whole device").
int64_t getResidentGroups(const DeviceProfile &profile, int64_t items,
                          int64_t registers, int64_t localBytes);

/// The second pass of `first` (a reduction or a split tiled schedule, whose
/// partialGroups is above 1) over `elements` output elements, whose partial
/// values are of `computeType` (two per partial when compensated).
Schedule scheduleCombination(const Schedule &first, int64_t elements,
                             mlir::Type computeType,
                             const DeviceProfile &profile);

/// Narrows the staging loads of tiled schedule `schedule`, restricted to a
/// chunk of a split launch whose rows (batches, for a batched product)
/// start at `firstRow`, to vectors that are legal in the chunk: aligned from
/// the start of the buffers it addresses for A and B, which hold their
/// tensors from elements `bufferStartA` and `bufferStartB` on, and wholly
/// inside or outside its rows. The schedule's reason says what narrowed.
void narrowStagingToChunk(Schedule &schedule, int64_t firstRow,
                          int64_t bufferStartA, int64_t bufferStartB);

/// `schedule` as the #tile.schedule attribute that tile-schedule writes on
/// a tile.kernel (ScheduleAttr.cpp).
tile::ScheduleAttr getScheduleAttr(mlir::MLIRContext *context,
                                   const Schedule &schedule);

/// The schedule `attr` records for the kernel of `group`; a tiled
/// contraction's dense-matmul shape is matched again from its tile.contract
/// (analysed as `space` and `system`). Fails with an error at `loc` when the
/// contraction is not a dense matmul.
mlir::FailureOr<Schedule> getSchedule(tile::ScheduleAttr attr,
                                      const KernelGroup &group,
                                      const ContractionSpace *space,
                                      const IndexSystem *system,
                                      mlir::Location loc);

/// Checks that `schedule` fits `profile` (work-group size and shape, the
/// work-groups per launch, local memory, registers, loop passes); reports an
/// error at `loc` and fails otherwise.
mlir::LogicalResult verifyScheduleFits(const Schedule &schedule,
                                       const DeviceProfile &profile,
                                       mlir::Location loc);

} // namespace lowering
} // namespace tilec

#endif // TILEC_LOWERING_SCHEDULE_H
