//===- Pipeline.h - From a specialised program to a bundle ------*- C++ -*-===//
//
// The compiler's back half in one call: emit the `tile` dialect, form
// kernels (fusion), schedule every kernel for the device profile, lower to
// the kernel IR (gpu/scf/memref, docs/kernel-ir.md), print the code of each
// target (OpenCL C, SPIR-V, MSL) and extract the runtime's Bundle.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_COMPILER_PIPELINE_H
#define TILEC_COMPILER_PIPELINE_H

#include "tilec/Bundle/CompileTargets.h"
#include "tilec/Runtime/Bundle.h"
#include "tilec/Runtime/DeviceProfile.h"
#include "tilec/Sema/Program.h"

#include <functional>
#include <optional>

namespace llvm {
class SourceMgr;
class raw_ostream;
} // namespace llvm

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace tilec {

/// Callbacks that run on the module between the pipeline's stages, for
/// tests (one that corrupts the module shows how the pipeline reports a bug
/// of its own), where to print the IR as it goes, and the threads of the
/// SPIR-V translation. Empty ones do nothing.
struct PipelineHooks {
  /// After the `tile` module is emitted, before it is verified.
  std::function<void(mlir::ModuleOp)> afterTileModule;
  /// After lowering to the kernel IR, before it is verified.
  std::function<void(mlir::ModuleOp)> afterLowering;
  /// Where to print the module before lowering and after each lowering pass
  /// (`tilec compile --print-ir-after-all`), or null.
  llvm::raw_ostream *printIRAfterAll = nullptr;
  /// How many kernels are translated to SPIR-V at once; 0: as many as the
  /// machine has hardware threads. The translations do not depend on it.
  unsigned spirvThreads = 0;
};

/// Compiles `program` for a device described by `profile`, printing the code
/// of every target in `targets`. Errors (a kernel
/// that cannot fit the device, index arithmetic that overflows) are reported
/// through `sourceMgr` at the statement's location; returns nullopt then.
/// Invalid IR or a failure in a step that only sees the compiler's own IR
/// (verification, bundle extraction, SPIR-V conversion) is a compiler bug:
/// one "internal error" at the source location the failing op carries,
/// asking for a report, never the verifier's text.
std::optional<Bundle> compileProgram(const Program &program,
                                     const DeviceProfile &profile,
                                     llvm::SourceMgr &sourceMgr,
                                     const CompileTargets &targets = {},
                                     const PipelineHooks &hooks = {});

} // namespace tilec

#endif // TILEC_COMPILER_PIPELINE_H
