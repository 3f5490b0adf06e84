//===- SPIRVLowering.h - Steps of the SPIR-V target -------------*- C++ -*-===//
//
// The SPIR-V target in three steps, one file each: rewriting a clone of the
// kernels into what MLIR's conversions translate faithfully
// (SPIRVPreparation.cpp, with the f64 builtins of SPIRVFloat64.cpp and the
// f32 inverse trigonometric ones of SPIRVInverseTrigonometry.cpp), the
// conversion and serialisation (SPIRVConversion.cpp), and validation by
// SPIRV-Tools (SPIRVTools.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_TARGET_SPIRVLOWERING_H
#define TILEC_LIB_TARGET_SPIRVLOWERING_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
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
/// get one element, and every kernel argument gets its descriptor binding. A
/// builtin the target cannot compute (the f64 trigonometric functions and
/// erf) is reported at the op; returns failure then.
mlir::LogicalResult prepareKernelsForSPIRV(mlir::gpu::GPUModuleOp kernels);

/// `element` in the shape of `like` (a vector type) or alone.
mlir::Type withElementType(mlir::Type like, mlir::Type element);

/// A constant of `type` (a float or integer scalar or vector) with `value`
/// in every element.
mlir::Value splatConstant(mlir::ImplicitLocOpBuilder &b, mlir::Type type,
                          double value);

/// Builds float expressions of one type (a float scalar or vector type):
/// its constants, arithmetic, comparisons and polynomials.
class FloatBuilder {
public:
  FloatBuilder(mlir::ImplicitLocOpBuilder &b, mlir::Type type)
      : b(b), type(type) {}

  mlir::Value constant(double value) { return splatConstant(b, type, value); }
  mlir::Value add(mlir::Value x, mlir::Value y) {
    return b.create<mlir::arith::AddFOp>(x, y);
  }
  mlir::Value sub(mlir::Value x, mlir::Value y) {
    return b.create<mlir::arith::SubFOp>(x, y);
  }
  mlir::Value mul(mlir::Value x, mlir::Value y) {
    return b.create<mlir::arith::MulFOp>(x, y);
  }
  mlir::Value div(mlir::Value x, mlir::Value y) {
    return b.create<mlir::arith::DivFOp>(x, y);
  }
  mlir::Value abs(mlir::Value x) { return b.create<mlir::math::AbsFOp>(x); }
  mlir::Value cmp(mlir::arith::CmpFPredicate predicate, mlir::Value x,
                  mlir::Value y) {
    return b.create<mlir::arith::CmpFOp>(predicate, x, y);
  }
  mlir::Value select(mlir::Value condition, mlir::Value yes, mlir::Value no) {
    return b.create<mlir::arith::SelectOp>(condition, yes, no);
  }

  /// c[0] * x^(n-1) + ... + c[n-1], by Horner's rule.
  mlir::Value polynomial(mlir::Value x, llvm::ArrayRef<double> coefficients) {
    mlir::Value result = constant(coefficients.front());
    for (double coefficient : coefficients.drop_front())
      result = add(mul(result, x), constant(coefficient));
    return result;
  }

  mlir::ImplicitLocOpBuilder &b;
  mlir::Type type;
};

/// f64 builtins that GLSL.std.450 lacks, built from arithmetic that SPIR-V
/// defines for f64 (SPIRVFloat64.cpp), each within a few ulp and with C's
/// results for infinities, NaNs and zeros.
mlir::Value buildExpF64(mlir::ImplicitLocOpBuilder &b, mlir::Value x);
mlir::Value buildLogF64(mlir::ImplicitLocOpBuilder &b, mlir::Value x);
mlir::Value buildTanhF64(mlir::ImplicitLocOpBuilder &b, mlir::Value x);
mlir::Value buildSinhF64(mlir::ImplicitLocOpBuilder &b, mlir::Value x);
mlir::Value buildCoshF64(mlir::ImplicitLocOpBuilder &b, mlir::Value x);

/// asin, acos and atan on f32 (scalars or vectors) from arithmetic and sqrt
/// (SPIRVInverseTrigonometry.cpp), within a few ulp: GLSL.std.450's are far
/// looser. C's results for infinities, NaNs, zeros and |x| > 1.
mlir::Value buildAsinF32(mlir::ImplicitLocOpBuilder &b, mlir::Value x);
mlir::Value buildAcosF32(mlir::ImplicitLocOpBuilder &b, mlir::Value x);
mlir::Value buildAtanF32(mlir::ImplicitLocOpBuilder &b, mlir::Value x);

/// Validates `words` for kSPIRVTargetEnvName; on failure `error` holds
/// SPIRV-Tools' message.
mlir::LogicalResult validateSPIRV(llvm::ArrayRef<uint32_t> words,
                                  std::string &error);

} // namespace tilec

#endif // TILEC_LIB_TARGET_SPIRVLOWERING_H
