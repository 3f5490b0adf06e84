//===- FloatBuilder.h - Building float expressions for SPIR-V ---*- C++ -*-===//
//
// The builders that the SPIR-V target's expansions of math builtins
// (SPIRV/Math/) and its float conversions (SPIRV/) write their arithmetic
// with: constants, arithmetic, comparisons and polynomials of one float type,
// and for f64 its bits as i64.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_TARGET_SPIRV_MATH_FLOATBUILDER_H
#define TILEC_LIB_TARGET_SPIRV_MATH_FLOATBUILDER_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/ArrayRef.h"

#include <cstdint>

namespace tilec {

/// `element` in the shape of `like` (a vector type) or alone.
mlir::Type withElementType(mlir::Type like, mlir::Type element);

/// A constant of `type` (a float or integer scalar or vector) with `value`
/// in every element.
mlir::Value splatConstant(mlir::ImplicitLocOpBuilder &b, mlir::Type type,
                          double value);

/// Builds float expressions of one type (a float scalar or vector type):
/// its constants, arithmetic, comparisons and polynomials. Each creates ops,
/// so a call never takes two of them as arguments: C++ leaves the order of
/// arguments unspecified, and GCC and clang would emit the ops in different
/// orders (docs/testing.md, "Sanitizer build").
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
    for (double coefficient : coefficients.drop_front()) {
      mlir::Value next = constant(coefficient);
      result = add(mul(result, x), next);
    }
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

} // namespace tilec

#endif // TILEC_LIB_TARGET_SPIRV_MATH_FLOATBUILDER_H
