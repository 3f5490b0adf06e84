//===- OnlineSums.h - Sums taken in an earlier reduction's pass -*- C++ -*-===//
//
// A streamed row kernel (docs/scheduler.md, "Row kernels") reads the row
// once for each reduction. Two kinds of sum can instead accumulate in the
// pass of a reduction before them. Internal to lowering.
// - Softmax, log-softmax, logsumexp and the cross-entropy take a row's
//   maximum m, then the sum of exp(a - m) over the row: each lane sums
//   against its running maximum, rescaling by exp(old - new) when that
//   grows and by exp(lane's - row's) once the row's is known (the "online
//   softmax" of Milakov and Gimelshein).
// - Layer norm takes a row's mean c, then the sum of (a - c)^2: each lane
//   keeps the count, mean and sum of squared deviations of its elements of
//   a (merged chunk by chunk, Chan, Golub and LeVeque), and its share of
//   the sum is M2 + n (mean - c)^2 once c is known (as PyTorch's Welford
//   layer norm).
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

/// A row reduction `sum` of `d * d` (`+(D[i, j] * D[i, j])`, or `+` of an
/// elementwise `D * D`), `d` the difference of `centred`, which needs no
/// per-row value or reduction of the kernel after `host`, and `centre`, a
/// per-row value of the kernel: its lanes' shares come from the statistics
/// of `centred` gathered in the pass of `host`, an earlier reduction.
struct OnlineSquareSum {
  tile::ContractOp host, sum;
  mlir::Value centred, centre;
};

/// The sums of a streamed row kernel that take an earlier reduction's pass.
struct OnlineSums {
  llvm::SmallVector<OnlineSum> ofExponentials;
  llvm::SmallVector<OnlineSquareSum> ofSquares;
};

/// The online sums of a row kernel's `ops` (in program order, over rows of
/// `rowType`). A maximum and an online sum take part in one; a host of
/// squares, in no other kind, may host several. Only f32 and f64 qualify:
/// their reductions are computed in their own type.
OnlineSums findOnlineSums(llvm::ArrayRef<mlir::Operation *> ops,
                          mlir::RankedTensorType rowType);

} // namespace lowering
} // namespace tilec

#endif // TILEC_LOWERING_KERNELBODIES_ONLINESUMS_H
