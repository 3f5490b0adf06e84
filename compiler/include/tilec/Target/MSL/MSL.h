//===- MSL.h - Metal Shading Language through SPIRV-Cross -------*- C++ -*-===//
//
// The Metal target: each kernel's entry point of the SPIR-V module
// (tilec/Target/SPIRV/SPIRV.h) translated to MSL by SPIRV-Cross, one source per
// kernel, so that a Metal runtime builds one compute pipeline per kernel
// (docs/codegen.md, "Running a bundle on a Mac").
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TARGET_MSL_MSL_H
#define TILEC_TARGET_MSL_MSL_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <string>

namespace tilec {

/// The MSL version of the translation: 2.3 (macOS 11, iOS 14), the first
/// with 64-bit integers on every Metal GPU family tilec targets.
inline constexpr unsigned kMSLMajorVersion = 2;
inline constexpr unsigned kMSLMinorVersion = 3;

/// Translates the entry point of `kernel` in `spirv` (the module that
/// translateToSPIRV made of the kernel) to MSL: a
/// `kernel void <name>(...)` whose argument i is `[[buffer(i)]]`, preceded
/// by a comment giving its threadgroup size. SPIRV-Cross's refusal (f64,
/// which Metal lacks) is reported at the kernel; returns failure then.
mlir::FailureOr<std::string> translateToMSL(mlir::gpu::GPUFuncOp kernel,
                                            llvm::ArrayRef<uint32_t> spirv);

} // namespace tilec

#endif // TILEC_TARGET_MSL_MSL_H
