//===- KernelBodies.h - The body of each kind of kernel ---------*- C++ -*-===//
//
// Emitters of gpu.func bodies, one per schedule kind. Each is called with a
// builder at the start of the kernel's entry block and leaves it before the
// place of the gpu.return. Internal to lowering.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LOWERING_KERNELBODIES_H
#define TILEC_LOWERING_KERNELBODIES_H

#include "KernelBodies/KernelEmitter.h"

#include "tilec/Lowering/KernelFormation.h"
#include "tilec/Lowering/Schedule.h"
#include <deque>

namespace tilec {
namespace lowering {

struct KernelContext {
  const KernelGroup &group;
  const Schedule &schedule;
  mlir::OpBuilder &builder;
  mlir::Location loc;
  /// The kernel argument holding a tile value's buffer.
  llvm::function_ref<mlir::Value(mlir::Value)> bufferOf;
  /// Contraction groups: the analysed index space.
  const ContractionSpace *space = nullptr;
  const IndexSystem *system = nullptr;
  /// Copy groups: the kernel argument of the output written.
  mlir::Value copyTarget;
  /// The first row of the group's outermost dimension that the kernel
  /// computes: nonzero for a chunk of a split launch (docs/scheduler.md,
  /// "Splitting"), whose schedule covers the chunk's rows only.
  int64_t firstRow = 0;
  /// Reductions with several work-groups per element: the temporary holding
  /// their partial aggregates.
  mlir::Value partials;
  /// Reductions whose last work-group of an element combines the partials:
  /// the temporary of one counter per element (zeroed before the first run).
  mlir::Value counters;
};

/// The linear position in the group's shape of the work-item's first
/// element (its linear id times `lanes`, the consecutive elements it takes,
/// past the rows before `firstRow`), with the builder inside a guard that
/// the id is below the schedule's active work-items.
mlir::Value emitGuardedLinearId(KernelContext &context, IndexBuilder &index,
                                int64_t lanes = 1);

/// Computes the group's ops from `firstOp` on at one element and stores
/// every value the group stores at position `linear`.
void emitGroupTail(KernelContext &context, ElementEvaluator &evaluator,
                   unsigned firstOp, mlir::Value linear);
/// The same at consecutive elements, one per evaluator, at `positions`
/// (consecutive, the first aligned to their count): each stored value as
/// one vector where `vectors` and its buffer's type allow, else per
/// element.
void emitLaneTails(KernelContext &context,
                   std::deque<ElementEvaluator> &evaluators, unsigned firstOp,
                   mlir::ArrayRef<mlir::Value> positions, bool vectors);

/// Elementwise groups and copies (ElementwiseLowering.cpp).
void emitPerElementKernel(KernelContext &context);
/// Any contraction (ContractionLowering.cpp).
void emitGenericContraction(KernelContext &context);
/// Dense matrix products and implicit GEMMs (TiledContraction.cpp).
void emitTiledContraction(KernelContext &context);
/// The implicit GEMM's index variables (`vars`, indexed by variable) of
/// flattened position `flat` of `dims` (ImplicitGemmAccess.cpp).
void emitImplicitGemmDecompose(IndexBuilder &index,
                               const std::vector<ImplicitGemm::Dim> &dims,
                               mlir::Value flat,
                               llvm::SmallVectorImpl<mlir::Value> &vars);
/// The address of the element of operand A (`isA`) or B of `gemm` at the
/// flattened `batch`, `outer` (row of A, column of B) and k `kSlice +
/// kOffset`, and whether its guards hold (null: it has none).
/// `sliceInInnermost` says that `kSlice` is a slice's start and the slice
/// lies in one range of K's innermost index.
std::pair<mlir::Value, mlir::Value>
emitImplicitGemmAccess(IndexBuilder &index, const ImplicitGemm &gemm, bool isA,
                       mlir::Value batch, mlir::Value outer, mlir::Value kSlice,
                       mlir::Value kOffset, bool sliceInInnermost);
/// Where value `value` (of an aggregate's `Aggregator::size()`) of the
/// partial aggregate of work-group `part` (of `parts`) of element `element`
/// (of `elements`) lies in the temporary of a two-pass schedule
/// (ReductionContraction.cpp).
mlir::Value emitPartialPosition(IndexBuilder &index, unsigned value,
                                mlir::Value element, int64_t elements,
                                mlir::Value part, int64_t parts);
/// Few elements with long reductions (ReductionContraction.cpp); with
/// several work-groups per element, the first pass, which stores the
/// partials.
void emitReductionContraction(KernelContext &context);
/// The second pass of a reduction with several work-groups per element
/// (ReductionContraction.cpp).
void emitPartialCombination(KernelContext &context);
/// Reductions over rows with the ops that broadcast them back over the rows
/// (RowKernel.cpp).
void emitRowKernel(KernelContext &context);
/// Whether `op` of a row kernel over rows of `rowType` computes at each
/// element of the rows, rather than once per row (a reduction, a reshape
/// or an op over the per-row values).
bool isOverRows(mlir::Operation *op, mlir::RankedTensorType rowType);

} // namespace lowering
} // namespace tilec

#endif // TILEC_LOWERING_KERNELBODIES_H
