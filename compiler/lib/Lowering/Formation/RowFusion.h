//===- RowFusion.h - Finding the chains that run as row kernels -*- C++ -*-===//
//
// Reductions over the last axis whose results elementwise ops broadcast
// back over the rows (softmax, layer norm, ...) run as one `row` kernel
// when a row fits on chip (docs/scheduler.md, "Row kernels"). Internal to
// kernel formation.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LOWERING_FORMATION_ROWFUSION_H
#define TILEC_LOWERING_FORMATION_ROWFUSION_H

#include "tilec/Runtime/DeviceProfile.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/SmallVector.h"

#include <string>
#include <vector>

namespace tilec {
namespace lowering {

/// A reduction over rows and the ops after it that form a row kernel with it.
struct RowChain {
  /// In program order; the first is the reduction that starts the chain.
  llvm::SmallVector<mlir::Operation *> ops;
  /// The shape of the rows, `[M, N]`.
  mlir::RankedTensorType rowType;
  /// Empty when the chain runs as one row kernel; otherwise why it does
  /// not (a row does not fit on chip), and its ops are formed as before.
  std::string whyNotFused;
};

/// The chains of `function` (each op in at most one fused chain), in
/// program order, for `profile`.
std::vector<RowChain> findRowChains(mlir::func::FuncOp function,
                                    const DeviceProfile &profile);

} // namespace lowering
} // namespace tilec

#endif // TILEC_LOWERING_FORMATION_ROWFUSION_H
