//===- SPIRVLowering.h - Steps of the SPIR-V target -------------*- C++ -*-===//
//
// The SPIR-V target in three steps, one file each: rewriting a clone of the
// kernels into what MLIR's conversions translate faithfully
// (SPIRVPreparation.cpp, with the f64 builtins of SPIRVFloat64.cpp), the
// conversion and serialisation (SPIRVConversion.cpp), and validation by
// SPIRV-Tools (SPIRVTools.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_TARGET_SPIRVLOWERING_H
#define TILEC_LIB_TARGET_SPIRVLOWERING_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <string>

namespace tilec {

/// Rewrites `kernels` (a clone) so that every op left converts to SPIR-V with
/// the language's meaning: bf16 becomes i16 storage with its conversions
/// expanded into bit operations, the math builtins whose GLSL.std.450
/// instruction is undefined or too loose somewhere are expanded, empty
/// buffers get one element, and every kernel argument gets its descriptor
/// binding. A builtin the target cannot compute (64-bit transcendentals) is
/// reported at the op; returns failure then.
mlir::LogicalResult prepareKernelsForSPIRV(mlir::gpu::GPUModuleOp kernels);

/// `element` in the shape of `like` (a vector type) or alone.
mlir::Type withElementType(mlir::Type like, mlir::Type element);

/// A constant of `type` (a float or integer scalar or vector) with `value`
/// in every element.
mlir::Value splatConstant(mlir::ImplicitLocOpBuilder &b, mlir::Type type,
                          double value);

/// f64 builtins that GLSL.std.450 lacks, built from arithmetic that SPIR-V
/// defines for f64 (SPIRVFloat64.cpp), each within a few ulp and with C's
/// results for infinities, NaNs and zeros.
mlir::Value buildExpF64(mlir::ImplicitLocOpBuilder &b, mlir::Value x);
mlir::Value buildLogF64(mlir::ImplicitLocOpBuilder &b, mlir::Value x);
mlir::Value buildTanhF64(mlir::ImplicitLocOpBuilder &b, mlir::Value x);
mlir::Value buildSinhF64(mlir::ImplicitLocOpBuilder &b, mlir::Value x);
mlir::Value buildCoshF64(mlir::ImplicitLocOpBuilder &b, mlir::Value x);

/// Validates `words` for kSPIRVTargetEnvName; on failure `error` holds
/// SPIRV-Tools' message.
mlir::LogicalResult validateSPIRV(llvm::ArrayRef<uint32_t> words,
                                  std::string &error);

} // namespace tilec

#endif // TILEC_LIB_TARGET_SPIRVLOWERING_H
