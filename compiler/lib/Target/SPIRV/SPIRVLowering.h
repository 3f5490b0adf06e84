//===- SPIRVLowering.h - Steps of the SPIR-V target -------------*- C++ -*-===//
//
// The SPIR-V target in three steps: rewriting a clone of the kernels into
// what MLIR's conversions translate faithfully (SPIRVPreparation.cpp, with
// the math builtins built from arithmetic in Math/ and operations on
// constant zeros in SPIRVZeroOperands.cpp), the conversion and serialisation
// (SPIRVConversion.cpp), and validation by SPIRV-Tools (SPIRVTools.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_TARGET_SPIRV_SPIRVLOWERING_H
#define TILEC_LIB_TARGET_SPIRV_SPIRVLOWERING_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <string>

namespace tilec {

/// Rewrites `kernels` (a clone) so that every op left converts to SPIR-V with
/// the language's meaning: bf16 becomes i16 storage with its conversions
/// expanded into bit operations, the math builtins whose GLSL.std.450
/// instruction is undefined somewhere, too loose or 32-bit only are
/// expanded, vector loads and stores become scalar accesses, empty buffers
/// get one element, and every kernel argument gets its descriptor binding.
/// Returns failure if the rewriting does not converge.
mlir::LogicalResult prepareKernelsForSPIRV(mlir::gpu::GPUModuleOp kernels);

/// Rewrites the float operations that llvmpipe would simplify wrongly by
/// operand identity (a sum or product with a constant +0.0, a quotient of or
/// by it, x - x) into exact equivalents (SPIRVZeroOperands.cpp).
void keepZeroOperandsExact(mlir::gpu::GPUModuleOp kernels);

/// Validates `words` for kSPIRVTargetEnvName; on failure `error` holds
/// SPIRV-Tools' message.
mlir::LogicalResult validateSPIRV(llvm::ArrayRef<uint32_t> words,
                                  std::string &error);

} // namespace tilec

#endif // TILEC_LIB_TARGET_SPIRV_SPIRVLOWERING_H
