//===- KernelFormation.h - Grouping tile ops into kernels -------*- C++ -*-===//
//
// Kernel formation decides which `tile` ops run together in one kernel
// (fusion) and which values reach global memory: the first stage of
// lowering (`tile-form-kernels`).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LOWERING_KERNELFORMATION_H
#define TILEC_LOWERING_KERNELFORMATION_H

#include "tilec/Dialect/Tile/IR/TileOps.h"
#include "tilec/Runtime/DeviceProfile.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>
#include <vector>

namespace tilec {
namespace lowering {

/// Elementwise: ops over one shape, one work-item per element; Contraction:
/// a tile.contract followed by the elementwise ops fused into its epilogue;
/// Copy: copies a buffer into a program output (a returned input, reshape or
/// value returned twice); Row: reductions over the rows of a matrix and the
/// ops that broadcast them back over the rows. The kind of a tile.kernel.
using KernelKind = tile::KernelKind;

struct KernelGroup {
  KernelKind kind = KernelKind::Elementwise;
  /// The ops the kernel computes, in program order. A Contraction group
  /// starts with its tile.contract; a Copy group has none.
  llvm::SmallVector<mlir::Operation *> ops;
  /// The shape every op of the group produces: the kernel's iteration space
  /// (a row kernel's rows, `[M, N]`; its reductions produce `[M]`).
  mlir::RankedTensorType type;
  /// The values the kernel writes to global memory (each of `type`'s shape).
  llvm::SmallVector<mlir::Value> stored;
  /// Copy groups: the value copied and the output it goes to.
  mlir::Value copySource;
  unsigned copyOutput = 0;
  /// Why an op that could have joined an earlier group started this one
  /// instead (that group was full), for --explain; empty otherwise.
  std::string splitReason;
  /// The kernel's name, `k<launch index>_<name of its last statement>`: its
  /// gpu.func's name.
  std::string name;
  /// Where the kernel's errors point: its first op, a copy's source.
  std::optional<mlir::Location> loc;
  /// The attributes later passes wrote on the kernel's tile.kernel (its
  /// schedule and memory plan), carried while the plan is read.
  mlir::DictionaryAttr attributes;
};

struct KernelPlan {
  /// In launch order.
  std::vector<KernelGroup> groups;
  /// The group computing each value that belongs to one.
  llvm::DenseMap<mlir::Value, unsigned> groupOf;
  /// For each function result, whether the value's own buffer is that output
  /// argument (false: a Copy group fills the output).
  llvm::SmallVector<bool> outputIsOwned;
};

/// The 32-bit registers per work-item estimated for an elementwise kernel
/// of `numOps` ops (docs/scheduler.md): fusion keeps it within the budget.
inline int64_t estimateElementwiseRegisters(size_t numOps) {
  return 16 + static_cast<int64_t>(numOps);
}

/// True for ops that read no buffer and are recomputed wherever an
/// elementwise consumer needs them: tile.constant, tile.index, tile.shape.
bool isGenerator(mlir::Operation *op);

/// True for ops evaluated one element at a time: tile.ew, tile.cast and the
/// generators.
bool isElementwise(mlir::Operation *op);

/// Groups the ops of `function` (a body of tile ops ending in func.return)
/// into kernels. Fusion rules: an elementwise op joins the group of one of
/// its operands' producers when it has that producer's shape and the
/// group's shape, and every other operand is available before the group
/// runs; a tile.contract starts a group; a tile.reshape aliases its source.
/// A value is stored when it is returned or used outside its group. An
/// elementwise group takes no more ops than the register budget allows:
/// the op that would exceed it starts a new group (its operand from the
/// full group is stored as a temporary).
/// A reduction over the last axis whose result elementwise ops broadcast
/// back over the rows forms, with those ops, one `row` kernel when a row
/// fits on chip on `profile` (docs/scheduler.md, "Row kernels").
/// Names each kernel and gives it a location.
KernelPlan formKernels(mlir::func::FuncOp function,
                       const DeviceProfile &profile);

/// The one func.func of tile ops in `module` (a single block of tile ops
/// ending in func.return); reports an error otherwise.
mlir::FailureOr<mlir::func::FuncOp> getTileFunction(mlir::ModuleOp module);

/// Rewrites `function` so that the ops of each group of `plan` move into a
/// tile.kernel (in launch order) carrying the group's kind, name, split
/// reason and attributes. The kernel's results are the values the group
/// stores, and those whose shape only is read outside it (by tile.shape),
/// which are not stored.
void writeKernels(mlir::func::FuncOp function, const KernelPlan &plan);

/// The inverse of writeKernels: moves the ops of every tile.kernel of
/// `function` back into the function (in launch order) and returns the
/// plan they make up. Fails with an error at an op that belongs to a kernel
/// but is outside one (a function kernel formation has not run on).
mlir::FailureOr<KernelPlan> readKernels(mlir::func::FuncOp function);

/// The Tile name an op's NameLoc gives its result, if any.
std::optional<std::string> getTensorName(mlir::Location loc);

/// "file:line:col" of `loc`, if it has one.
std::optional<std::string> formatLocation(mlir::Location loc);

} // namespace lowering
} // namespace tilec

#endif // TILEC_LOWERING_KERNELFORMATION_H
