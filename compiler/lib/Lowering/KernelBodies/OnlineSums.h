//===- OnlineSums.h - Sums of exp(x - max) in their max's pass --*- C++ -*-===//
//
// Softmax, log-softmax, logsumexp and the cross-entropy take a row's
// maximum m, then the sum of exp(a - m) over the row. A streamed row kernel
// (docs/scheduler.md, "Row kernels") would read the row once for each; the
// sum can instead accumulate in the maximum's pass, each lane against its
// running maximum, its sum rescaled by exp(old - new) when that grows and
// by exp(lane's - row's) once the row's is known (the "online softmax" of
// Milakov and Gimelshein). Internal to lowering.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LOWERING_KERNELBODIES_ONLINESUMS_H
#define TILEC_LOWERING_KERNELBODIES_ONLINESUMS_H

#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "llvm/ADT/SmallVector.h"

namespace tilec {
namespace lowering {

/// A row reduction `sum` of `exp(a - m)`, `m` the row maximum `max` taken
/// before it (through reshapes), where `a` needs no per-row value or
/// reduction of the kernel after `max`.
struct OnlineSum {
  tile::ContractOp max, sum;
  /// The maximum's result and its reshapes in the kernel: the values the
  /// sum's terms read the maximum through.
  llvm::SmallVector<mlir::Value> maxValues;
};

/// The online sums of a row kernel's `ops` (in program order, over rows of
/// `rowType`), each maximum and each sum in at most one. Only f32 and f64
/// qualify: their maximum and sum are computed in their own type.
llvm::SmallVector<OnlineSum>
findOnlineSums(llvm::ArrayRef<mlir::Operation *> ops,
               mlir::RankedTensorType rowType);

} // namespace lowering
} // namespace tilec

#endif // TILEC_LOWERING_KERNELBODIES_ONLINESUMS_H
