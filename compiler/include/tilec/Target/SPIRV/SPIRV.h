//===- SPIRV.h - The kernel IR as a Vulkan SPIR-V module --------*- C++ -*-===//
//
// The SPIR-V target: each kernel of a kernel-IR module (docs/kernel-ir.md)
// converted by MLIR's upstream conversions to a `spirv.module` for Vulkan
// compute, serialised, and validated with SPIRV-Tools before anything else
// sees it. Where a GLSL.std.450 instruction does not mean what Tile means
// (pow of a negative base, atan2(0, 0)), is too imprecise (tanh) or missing
// (erf, 64-bit exp and log), the kernels are rewritten first
// (docs/codegen.md, "SPIR-V for Vulkan").
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TARGET_SPIRV_SPIRV_H
#define TILEC_TARGET_SPIRV_SPIRV_H

#include "tilec/Runtime/DeviceProfile.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace tilec {

/// The environment every module is compiled and validated for, as
/// SPIRV-Tools names it (`spirv-val --target-env`): Vulkan 1.2, SPIR-V 1.5.
inline constexpr const char *kSPIRVTargetEnvName = "vulkan1.2";

/// Converts `kernel`, a `gpu.func` of a kernel-IR gpu.module, to the entry
/// point of a SPIR-V module of its own (argument i at descriptor set 0,
/// binding i; the work-group size of its `spirv.entry_point_abi`; `index` as
/// wide as the enclosing module's `tile.index_bits`) and returns its words.
/// One module per kernel, because Vulkan charges a module's every Workgroup
/// variable to each of its entry points. The entry point declares the
/// SignedZeroInfNanPreserve and DenormPreserve execution modes for each
/// float width it computes in that the profile's signedZeroInfNanPreserve
/// and denormPreserve hold, so that the driver keeps infinities, NaNs,
/// signed zeros and subnormals (docs/codegen.md).
/// `kernel` itself is left alone: the
/// conversion runs on a clone. An op the conversion cannot translate is
/// reported at the op, and a module that SPIRV-Tools refuses (a compiler bug)
/// at the kernel; returns failure then.
mlir::FailureOr<std::vector<uint32_t>>
translateToSPIRV(mlir::gpu::GPUFuncOp kernel, const DeviceProfile &profile);

/// Loads into `context` every dialect that translateToSPIRV's passes depend
/// on. Several kernels may then be translated at once on the context's
/// threads: a dialect loaded while threads run would race.
void loadSPIRVTranslationDialects(mlir::MLIRContext &context);

/// Prints `words` as SPIRV-Tools' assembly with friendly names. A module that
/// cannot be disassembled is a failure, with SPIRV-Tools' message in `error`.
mlir::LogicalResult printSPIRVAssembly(llvm::ArrayRef<uint32_t> words,
                                       llvm::raw_ostream &os,
                                       std::string &error);

/// Registers the `kernel-ir-to-spirv` translation (a builtin.module holding
/// one gpu.module, to the SPIR-V assembly of each kernel's module in turn,
/// each headed by a `; Kernel <name>` line, for a device that keeps signed
/// zeros, infinities and NaNs of every width) with mlir-translate's
/// registry.
void registerKernelIRToSPIRVTranslation();

} // namespace tilec

#endif // TILEC_TARGET_SPIRV_SPIRV_H
