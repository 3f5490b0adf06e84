//===- SPIRVLowering.h - Steps of the SPIR-V target -------------*- C++ -*-===//
//
// The SPIR-V target in three steps, one file each: rewriting a clone of the
// kernels into what MLIR's conversions translate faithfully
// (SPIRVPreparation.cpp, with the builtins built from arithmetic: f64 exp,
// log and the hyperbolic functions in SPIRVFloat64.cpp, f64 sin, cos and tan
// in SPIRVTrigonometry.cpp, f64 erf in SPIRVErf.cpp, f32 and f64 asin,
// acos and atan in SPIRVInverseTrigonometry.cpp, and operations on constant
// zeros in SPIRVZeroOperands.cpp), the conversion and
// serialisation (SPIRVConversion.cpp), and validation by SPIRV-Tools
// (SPIRVTools.cpp).
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
/// get one element, and every kernel argument gets its descriptor binding.
/// Returns failure if the rewriting does not converge.
mlir::LogicalResult prepareKernelsForSPIRV(mlir::gpu::GPUModuleOp kernels);

/// Rewrites the float operations that llvmpipe would simplify wrongly by
/// operand identity (a sum or product with a constant +0.0, a quotient of or
/// by it, x - x) into exact equivalents (SPIRVZeroOperands.cpp).
void keepZeroOperandsExact(mlir::gpu::GPUModuleOp kernels);

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

/// Builds the f64 expressions of one builtin: FloatBuilder's, with the
/// operand type's i64 counterpart for bit manipulation and integer
/// arithmetic (unsigned where it matters: right shifts are logical).
class F64Builder : public FloatBuilder {
public:
  F64Builder(mlir::ImplicitLocOpBuilder &b, mlir::Type type)
      : FloatBuilder(b, type),
        bitsType(withElementType(type, b.getIntegerType(64))) {}

  mlir::Value bitsConstant(int64_t value) {
    mlir::TypedAttr scalar = b.getIntegerAttr(b.getIntegerType(64), value);
    if (auto vector = mlir::dyn_cast<mlir::VectorType>(bitsType))
      return b.create<mlir::arith::ConstantOp>(
          mlir::SplatElementsAttr::get(vector, scalar));
    return b.create<mlir::arith::ConstantOp>(scalar);
  }
  mlir::Value toBits(mlir::Value x) {
    return b.create<mlir::arith::BitcastOp>(bitsType, x);
  }
  mlir::Value fromBits(mlir::Value bits) {
    return b.create<mlir::arith::BitcastOp>(type, bits);
  }
  mlir::Value addI(mlir::Value x, mlir::Value y) {
    return b.create<mlir::arith::AddIOp>(x, y);
  }
  mlir::Value mulI(mlir::Value x, mlir::Value y) {
    return b.create<mlir::arith::MulIOp>(x, y);
  }
  mlir::Value andI(mlir::Value x, mlir::Value y) {
    return b.create<mlir::arith::AndIOp>(x, y);
  }
  mlir::Value orI(mlir::Value x, mlir::Value y) {
    return b.create<mlir::arith::OrIOp>(x, y);
  }
  mlir::Value xorI(mlir::Value x, mlir::Value y) {
    return b.create<mlir::arith::XOrIOp>(x, y);
  }
  mlir::Value shiftLeft(mlir::Value x, mlir::Value amount) {
    return b.create<mlir::arith::ShLIOp>(x, amount);
  }
  mlir::Value shiftRight(mlir::Value x, mlir::Value amount) {
    return b.create<mlir::arith::ShRUIOp>(x, amount);
  }
  mlir::Value cmpI(mlir::arith::CmpIPredicate predicate, mlir::Value x,
                   mlir::Value y) {
    return b.create<mlir::arith::CmpIOp>(predicate, x, y);
  }
  /// `x`'s sign bit is set (-0 and negative NaNs included).
  mlir::Value signBit(mlir::Value x) {
    return cmpI(mlir::arith::CmpIPredicate::slt, toBits(x), bitsConstant(0));
  }
  /// -`x` where `condition` holds, else `x`.
  mlir::Value negateIf(mlir::Value condition, mlir::Value x) {
    return select(condition, b.create<mlir::arith::NegFOp>(x), x);
  }

  /// 2^k for an i64 k in [-1022, 1023]: the exponent field alone.
  mlir::Value powerOfTwo(mlir::Value k) {
    return fromBits(shiftLeft(addI(k, bitsConstant(1023)), bitsConstant(52)));
  }

  mlir::Type bitsType;
};

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

/// Validates `words` for kSPIRVTargetEnvName; on failure `error` holds
/// SPIRV-Tools' message.
mlir::LogicalResult validateSPIRV(llvm::ArrayRef<uint32_t> words,
                                  std::string &error);

} // namespace tilec

#endif // TILEC_LIB_TARGET_SPIRVLOWERING_H
