//===- Lowering.h - From the tile dialect to the kernel IR ------*- C++ -*-===//
//
// The compiler's middle, as six passes (Passes.td): the merging of common
// expressions of the tile function, kernel formation (fusing elementwise
// chains and contraction epilogues into tile.kernel ops), scheduling (a
// #tile.schedule per kernel, from the device profile), memory planning
// (pieces, chunks, streaming), the lowering to the kernel IR of
// docs/kernel-ir.md (a gpu.module of kernels and a host function that
// allocates and launches), and the widening of the kernels' reads of narrow
// integers. docs/scheduler.md explains the schedules.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LOWERING_LOWERING_H
#define TILEC_LOWERING_LOWERING_H

#include "tilec/Runtime/DeviceProfile.h"

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

#include <memory>
#include <optional>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace tilec {

/// The passes, each for `profile` (or, when none is given, the built-in
/// reference profile overridden by their `profile=<json file>` option).
std::unique_ptr<mlir::Pass> createMergeCommonExpressionsPass();
std::unique_ptr<mlir::Pass>
createFormKernelsPass(std::optional<DeviceProfile> profile = std::nullopt);
std::unique_ptr<mlir::Pass>
createSchedulePass(std::optional<DeviceProfile> profile = std::nullopt);
std::unique_ptr<mlir::Pass>
createPlanMemoryPass(std::optional<DeviceProfile> profile = std::nullopt);
/// When `explain` is set, each kernel's schedule and the reasons for it are
/// written there (`tilec compile --explain`).
std::unique_ptr<mlir::Pass>
createLowerToKernelIRPass(std::optional<DeviceProfile> profile = std::nullopt,
                          llvm::raw_ostream *explain = nullptr);
std::unique_ptr<mlir::Pass> createWidenNarrowIntegerReadsPass();

/// Adds the six passes to `pm`, which rewrite a module holding one
/// func.func of `tile` ops (as emitTileModule produces it) into the kernel
/// IR. A kernel that cannot fit `profile` (a buffer over the device's
/// single-allocation limit, a footprint over its memory) or index
/// arithmetic the analysis cannot represent is reported with
/// mlir::emitError at the statement's location, and the pass fails.
void buildLoweringPipeline(mlir::OpPassManager &pm,
                           const DeviceProfile &profile,
                           llvm::raw_ostream *explain);

/// A mid-sized GPU: what tile-opt's passes schedule for unless they are
/// given a profile.
DeviceProfile getReferenceProfile();

/// Registers the six passes and `--tile-lower-to-kernels` (the six in
/// order; options: `profile=<json file>` overriding the reference profile,
/// `explain` to print the schedules to stderr) for tile-opt.
void registerLoweringPasses();

} // namespace tilec

#endif // TILEC_LOWERING_LOWERING_H
