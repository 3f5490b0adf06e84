//===- BundleExtraction.h - A runtime bundle off the kernel IR --*- C++ -*-===//
//
// The runtime's Bundle (tilec/Runtime/Bundle.h) is a plain description of a
// kernel-IR module: its buffers come from the host function's arguments and
// allocations (pieces of split tensors are allocations with tile.piece_of), its
// launches from the gpu.launch_func ops in order, its OpenCL C from the OpenCL
// printer when the targets ask for it.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_BUNDLE_BUNDLEEXTRACTION_H
#define TILEC_BUNDLE_BUNDLEEXTRACTION_H

#include "tilec/Bundle/CompileTargets.h"
#include "tilec/Runtime/Bundle.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace tilec {

/// Extracts the bundle of `module`, a kernel-IR module (docs/kernel-ir.md),
/// with `producer` as the writing compiler's name, and its OpenCL C when
/// `targets.openCL` holds (the printer runs only then; the SPIR-V and MSL
/// are the pipeline's to add). A module that breaks the
/// conventions (a missing buffer attribute, a launch size that is not a
/// constant, a work-group that differs from the kernel's required one, ...)
/// is reported at the offending op; returns nullopt then. The bundle's
/// `explanation` is left empty for the scheduler to fill.
std::optional<Bundle> extractBundle(mlir::ModuleOp module,
                                    llvm::StringRef producer,
                                    const CompileTargets &targets);

} // namespace tilec

#endif // TILEC_BUNDLE_BUNDLEEXTRACTION_H
