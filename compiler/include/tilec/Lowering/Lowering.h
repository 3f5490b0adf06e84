//===- Lowering.h - From the tile dialect to the kernel IR ------*- C++ -*-===//
//
// The compiler's middle: forms kernels out of the statements of a `tile`
// function (fusing elementwise chains and contraction epilogues), chooses a
// schedule for each kernel from the device profile and proves that it fits,
// and rewrites the module into the kernel IR of docs/kernel-ir.md (a
// gpu.module of kernels and a host function that allocates and launches).
// docs/scheduler.md explains the schedules.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LOWERING_LOWERING_H
#define TILEC_LOWERING_LOWERING_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LogicalResult.h"

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace tilec {

struct DeviceProfile;

/// Rewrites `module`, which holds one func.func of `tile` ops (as
/// emitTileModule produces it), into the kernel IR, in place. A kernel that
/// cannot fit `profile` (a buffer over the device's single-allocation limit,
/// a footprint over its memory) or index arithmetic the analysis cannot
/// represent is reported with mlir::emitError at the statement's location;
/// the module is then left in an unspecified state and failure returned.
/// When `explain` is set, each kernel's schedule and the reasons for it are
/// written there (`tilec compile --explain`).
mlir::LogicalResult lowerToKernels(mlir::ModuleOp module,
                                   const DeviceProfile &profile,
                                   llvm::raw_ostream *explain);

/// Registers `--tile-lower-to-kernels` (options: `profile=<json file>`
/// overriding the built-in reference profile, `explain` to print the
/// schedules to stderr) with the MLIR pass registry, for tile-opt.
void registerLoweringPasses();

} // namespace tilec

#endif // TILEC_LOWERING_LOWERING_H
