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

#include "tilec/Runtime/Bundle.h"
#include "tilec/Runtime/DeviceProfile.h"
#include "tilec/Sema/Program.h"

#include <optional>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace tilec {

/// The code a bundle carries: any subset of the targets. MSL is translated
/// from the SPIR-V, so it implies SPIR-V.
struct CompileTargets {
  bool openCL = true;
  bool spirv = false;
  bool msl = false;
};

/// Compiles `program` for a device described by `profile`, printing the code
/// of every target in `targets`. Errors (a kernel
/// that cannot fit the device, index arithmetic that overflows) are reported
/// through `sourceMgr` at the statement's location; returns nullopt then.
std::optional<Bundle> compileProgram(const Program &program,
                                     const DeviceProfile &profile,
                                     llvm::SourceMgr &sourceMgr,
                                     const CompileTargets &targets = {});

} // namespace tilec

#endif // TILEC_COMPILER_PIPELINE_H
