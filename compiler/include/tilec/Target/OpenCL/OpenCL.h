//===- OpenCL.h - Printing the kernel IR as OpenCL C ------------*- C++ -*-===//
//
// The OpenCL target: the kernels of a kernel-IR module (docs/kernel-ir.md)
// printed as one readable OpenCL C 1.2 program. Each op is translated
// literally (the lowering has already made every case the language defines
// explicit), with no fast-math liberties: the program is meant to be built
// without -cl-fast-relaxed-math or any other relaxing option.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TARGET_OPENCL_OPENCL_H
#define TILEC_TARGET_OPENCL_OPENCL_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Support/LogicalResult.h"

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace tilec {

/// Prints every `gpu.func` of `kernels` as a `__kernel` of one OpenCL C 1.2
/// program, preceded by the extension pragmas and helper functions it needs.
/// The width of `index` comes from the `tile.index_bits` attribute of the
/// enclosing module. An op outside the kernel IR is reported at the op and
/// the function fails; `os` may then hold a partial program.
mlir::LogicalResult printOpenCL(mlir::gpu::GPUModuleOp kernels,
                                llvm::raw_ostream &os);

/// Whether a kernel stores to its argument `buffer` (which is then not
/// const, and must not alias another argument of a launch: the bundle's
/// kernel signatures say so too).
bool isStoredTo(mlir::BlockArgument buffer);

/// Whether the kernel reads `buffer` (a kernel argument): any use of it but
/// as the memref a store writes.
bool isLoadedFrom(mlir::BlockArgument buffer);

/// Registers the `kernel-ir-to-opencl` translation (a builtin.module holding
/// one gpu.module, to OpenCL C) with mlir-translate's registry.
void registerKernelIRToOpenCLTranslation();

} // namespace tilec

#endif // TILEC_TARGET_OPENCL_OPENCL_H
