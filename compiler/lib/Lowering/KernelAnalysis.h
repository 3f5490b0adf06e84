//===- KernelAnalysis.h - What the passes know about the kernels -*- C++
//-*-===//
//
// The passes after kernel formation read the tile.kernel ops as a plan
// (readKernels) and analyse each kernel the same way: its index system,
// its work, the buffers it reads and writes and how (for splitting), and
// its schedule, chosen by tile-schedule and read from its #tile.schedule
// after. Memory planning (MemoryPlan/) adds the pieces of the tensors too
// large for the device and the chunks of the kernels that touch them.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LOWERING_KERNELANALYSIS_H
#define TILEC_LOWERING_KERNELANALYSIS_H

#include "tilec/Lowering/KernelCost.h"
#include "tilec/Lowering/KernelFormation.h"
#include "tilec/Lowering/Schedule.h"

#include "llvm/ADT/SetVector.h"

#include <optional>
#include <string>
#include <vector>

namespace tilec {
namespace lowering {

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
  mlir::Value view;
  /// The type of the buffer's tensor (the root of `view`).
  mlir::RankedTensorType tensorType;
  /// Whether row r of the kernel's outermost dimension touches row r of
  /// `view`'s outermost dimension only; else `why` says what it touches.
  bool aligned = false;
  std::string why;
};

/// What lowering knows about one kernel before it builds it.
struct KernelInfo {
  explicit KernelInfo(mlir::Location loc) : loc(loc) {}

  mlir::Location loc;
  std::string name;
  std::string source;
  std::optional<IndexSystem> system;
  std::optional<ContractionSpace> space;
  TupleCount tuples;
  Schedule schedule;
  /// The tile values whose buffers the kernel takes, reads then writes.
  llvm::SetVector<mlir::Value> reads, writes;
  llvm::SmallVector<BufferAccess> accesses;
  double flops = 0, bytes = 0;
  /// Split launches: the row bounds 0 = b_0 < ... < b_n of the chunks
  /// along the group's outermost dimension, one kernel each; empty when
  /// the kernel runs whole.
  llvm::SmallVector<int64_t> chunkBounds;
  /// The elements per row of the shape each split tensor is accessed with.
  llvm::DenseMap<mlir::Value, int64_t> viewRowElements;
};

/// The name of the tile.kernel attribute holding a kernel's chunk bounds
/// (KernelInfo::chunkBounds), of the attribute holding the piece limits of
/// the values a kernel stores (per result, 0 when not streamed) and of the
/// function argument attribute holding an input's piece limit.
constexpr llvm::StringLiteral kChunkBoundsAttr = "chunk_bounds";
constexpr llvm::StringLiteral kPieceBytesAttr = "piece_bytes";
constexpr llvm::StringLiteral kArgPieceBytesAttr = "tile.piece_bytes";
/// The function attribute holding the streamed peak (bytes at once).
constexpr llvm::StringLiteral kStreamedPeakAttr = "tile.streamed_peak";

class KernelAnalysis {
public:
  KernelAnalysis(mlir::func::FuncOp function, KernelPlan &plan,
                 const DeviceProfile &profile)
      : function(function), plan(plan), profile(profile) {}

  /// Analyses every kernel. With `chooseSchedules` (tile-schedule) the
  /// scheduler chooses each kernel's schedule; otherwise it is read from the
  /// kernel's #tile.schedule attribute. Checks the tensors' sizes first
  /// (checkMemory), so that a tensor too large for the device is reported as
  /// such, not as a launch beyond the device's work-group counts.
  mlir::LogicalResult analyse(bool chooseSchedules);
  /// Checks that every tensor too large for one buffer can be stored in
  /// pieces (MemoryPlan.cpp).
  mlir::LogicalResult checkMemory();
  /// Plans every kernel's chunks, splitting tensors into smaller pieces
  /// until the peak of the device memory the launches hold at once fits
  /// the device (docs/scheduler.md, "Streaming").
  mlir::LogicalResult planToFitMemory();
  /// Records the memory plan (pieces, chunks, the streamed peak) and the
  /// schedules as attributes of the plan's kernels and the function.
  void writeMemoryPlan();
  /// Reads what writeMemoryPlan recorded and plans the chunks' views.
  mlir::LogicalResult readMemoryPlan();
  /// Each group's schedule as its #tile.schedule.
  void writeSchedules();

protected:
  /// The bytes of device memory the launches hold at once at most, each
  /// buffer from the first launch that takes it to the last.
  uint64_t computeLaunchPeak();
  /// Why tensor `root` cannot be stored as pieces of `rowsPerPiece` rows
  /// that every kernel touching it takes one at a time; nullopt if it can.
  std::optional<std::string> whyNotSplittable(mlir::Value root,
                                              int64_t rowsPerPiece);
  void collectBuffers(KernelInfo &info, const KernelGroup &group);
  /// Chooses the chunks of a kernel that touches split tensors; fails with
  /// an error when one of them is not accessed along the chunked rows.
  mlir::LogicalResult planChunks(KernelInfo &info, const KernelGroup &group);
  mlir::Value getRoot(mlir::Value value);
  int64_t getBufferBytes(mlir::Value value);
  /// How tensor `root` (null for a copy's target) of `type` is stored in
  /// pieces, or nullopt when it fits one buffer.
  std::optional<PieceLayout> getPieceLayout(mlir::RankedTensorType type,
                                            mlir::Value root);

  mlir::func::FuncOp function;
  KernelPlan &plan;
  const DeviceProfile &profile;
  std::vector<KernelInfo> infos;
  /// Every tensor with a buffer of its own: the arguments, then the stored
  /// values.
  llvm::SmallVector<mlir::Value> tensors;
  /// The largest piece of each tensor streamed to fit the device's memory,
  /// in bytes (below the device's largest allocation).
  llvm::DenseMap<mlir::Value, uint64_t> pieceLimits;
  /// The peak of computeLaunchPeak once it fits; 0 if the buffers fit
  /// the device whole.
  uint64_t streamedPeak = 0;
};

} // namespace lowering
} // namespace tilec

#endif // TILEC_LOWERING_KERNELANALYSIS_H
