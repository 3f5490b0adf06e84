//===- MathExpansions.h - Math builtins built from arithmetic ---*- C++ -*-===//
//
// The math builtins that GLSL.std.450 lacks, defines for 32 bits only or
// computes too loosely, built from arithmetic that SPIR-V defines exactly:
// f64 exp, log and the hyperbolic functions (SPIRVFloat64.cpp), f64 sin, cos
// and tan (SPIRVTrigonometry.cpp), f64 erf (SPIRVErf.cpp), and f32 and f64
// asin, acos and atan (SPIRVInverseTrigonometry.cpp). The SPIR-V preparation
// pass tilec-spirv-expand-math replaces the builtins with them.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_TARGET_SPIRV_MATH_MATHEXPANSIONS_H
#define TILEC_LIB_TARGET_SPIRV_MATH_MATHEXPANSIONS_H

#include "mlir/IR/ImplicitLocOpBuilder.h"

namespace tilec {

/// f64 builtins that GLSL.std.450 lacks, built from arithmetic that SPIR-V
/// defines for f64 (exp, log, tanh, sinh and cosh in SPIRVFloat64.cpp; sin,
/// cos and tan in SPIRVTrigonometry.cpp; erf in SPIRVErf.cpp), each within a
/// few ulp over the whole f64 range and with C's results for infinities,
/// NaNs and zeros.
mlir::Value buildExpF64(mlir::ImplicitLocOpBuilder &b, mlir::Value x);
mlir::Value buildLogF64(mlir::ImplicitLocOpBuilder &b, mlir::Value x);
mlir::Value buildTanhF64(mlir::ImplicitLocOpBuilder &b, mlir::Value x);
mlir::Value buildSinhF64(mlir::ImplicitLocOpBuilder &b, mlir::Value x);
mlir::Value buildCoshF64(mlir::ImplicitLocOpBuilder &b, mlir::Value x);
mlir::Value buildSinF64(mlir::ImplicitLocOpBuilder &b, mlir::Value x);
mlir::Value buildCosF64(mlir::ImplicitLocOpBuilder &b, mlir::Value x);
mlir::Value buildTanF64(mlir::ImplicitLocOpBuilder &b, mlir::Value x);
mlir::Value buildErfF64(mlir::ImplicitLocOpBuilder &b, mlir::Value x);

/// asin, acos and atan on f32 or f64 (scalars or vectors) from arithmetic
/// and sqrt (SPIRVInverseTrigonometry.cpp), within a few ulp: GLSL.std.450's
/// are far looser, and 32-bit only. C's results for infinities, NaNs, zeros
/// and |x| > 1.
mlir::Value buildAsin(mlir::ImplicitLocOpBuilder &b, mlir::Value x);
mlir::Value buildAcos(mlir::ImplicitLocOpBuilder &b, mlir::Value x);
mlir::Value buildAtan(mlir::ImplicitLocOpBuilder &b, mlir::Value x);

/// |x| of a signed integer as x < 0 ? zero - x : x, the subtraction
/// wrapping, so that abs(MIN) = MIN (SPIRVExpandMath.cpp); `zero` is a 0 of
/// x's type. GLSL.std.450's SAbs leaves the minimum undefined.
mlir::Value buildWrappingAbs(mlir::ImplicitLocOpBuilder &b, mlir::Value x,
                             mlir::Value zero);

} // namespace tilec

#endif // TILEC_LIB_TARGET_SPIRV_MATH_MATHEXPANSIONS_H
