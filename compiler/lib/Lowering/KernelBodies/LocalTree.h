//===- LocalTree.h - Partials combined in local memory ---------*- C++ -*-===//
//
// What the kernels that share a reduction among a work-group's work-items
// have in common (the reduction schedule, its combining pass, row kernels):
// the partial aggregates in local memory and the tree that combines them.
// Internal to lowering.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LOWERING_KERNELBODIES_LOCALTREE_H
#define TILEC_LOWERING_KERNELBODIES_LOCALTREE_H

#include "KernelBodies/KernelEmitter.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace tilec {
namespace lowering {

/// The work-group's partial aggregates in local memory: one array per value
/// of an aggregate, one element per work-item. Bools are bytes there.
class PartialArrays {
public:
  /// Allocates the arrays (workgroup memory comes first in a kernel:
  /// docs/kernel-ir.md).
  PartialArrays(mlir::OpBuilder &b, mlir::Location loc,
                const Aggregator &aggregator, int64_t items);

  llvm::SmallVector<mlir::Value> load(mlir::Value position);
  void store(mlir::ValueRange values, mlir::Value position);

private:
  mlir::OpBuilder &b;
  mlir::Location loc;
  mlir::Type type;
  llvm::SmallVector<mlir::Value> arrays;
};

/// The builder inside `if (condition)`, until the guard dies.
mlir::OpBuilder::InsertionGuard enterIf(mlir::OpBuilder &b, mlir::Location loc,
                                        mlir::Value condition);

/// Combines the partials of the `sharers` work-items of each element of a
/// work-group (a power of two; work-item `item` is sharer item / `stride` of
/// element item % `stride`) into its first sharer's: at each step the lower
/// half of the active sharers adds the partial of its partner in the upper
/// half. `item` is relative to the first work-item of the tree (`base` in
/// the arrays).
void emitTree(mlir::OpBuilder &b, mlir::Location loc, IndexBuilder &index,
              Aggregator &aggregator, PartialArrays &partials, mlir::Value item,
              int64_t sharers, int64_t stride = 1,
              mlir::Value base = mlir::Value());

} // namespace lowering
} // namespace tilec

#endif // TILEC_LOWERING_KERNELBODIES_LOCALTREE_H
