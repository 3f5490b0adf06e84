//===- Bundle.h - Reading a runtime bundle off the kernel IR ----*- C++ -*-===//
//
// The runtime's Bundle (tilec/Runtime/Bundle.h) is a plain description of a
// kernel-IR module: its buffers come from the host function's arguments and
// allocations (pieces of split tensors are allocations with tile.piece_of), its
// launches from the gpu.launch_func ops in order, its code from the OpenCL
// printer.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TARGET_BUNDLE_H
#define TILEC_TARGET_BUNDLE_H

#include "tilec/Runtime/Bundle.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace tilec {

/// Extracts the bundle of `module`, a kernel-IR module (docs/kernel-ir.md),
/// with `producer` as the writing compiler's name. A module that breaks the
/// conventions (a missing buffer attribute, a launch size that is not a
/// constant, a work-group that differs from the kernel's required one, ...)
/// is reported at the offending op; returns nullopt then. The bundle's
/// `explanation` is left empty for the scheduler to fill.
std::optional<Bundle> extractBundle(mlir::ModuleOp module,
                                    llvm::StringRef producer);

} // namespace tilec

#endif // TILEC_TARGET_BUNDLE_H
