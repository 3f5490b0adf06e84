//===- Scalar.h - Element values and their arithmetic -----------*- C++ -*-===//
//
// The interpreter's element arithmetic, written from the language definition:
// integers exactly with C semantics at the dtype's width (two's complement
// wrap-around), floats in f64 rounded to the dtype only where the caller
// stores a value, casts with C semantics made total (saturating float to int
// conversion).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_INTERPRETER_SCALAR_H
#define TILEC_LIB_INTERPRETER_SCALAR_H

#include "tilec/Runtime/HostTensor.h"
#include "tilec/Sema/Program.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cmath>

namespace tilec {
namespace interp {

/// One element value, exact for its dtype: bool for Bool, int64_t for signed
/// integers (sign-extended from the dtype's width), uint64_t for unsigned
/// integers (zero-extended), double for floats. A float value that has not
/// been stored yet may carry more precision than its dtype (f64 arithmetic);
/// storeElement() rounds it.
using Value = ConstantValue;

/// Reads element `index` of `tensor`.
Value loadElement(const HostTensor &tensor, int64_t index);
/// Writes element `index` of `tensor`, rounding a float value to the dtype
/// (round to nearest even) and converting other values as convertValue().
void storeElement(HostTensor &tensor, int64_t index, const Value &value);

/// The C conversion of `value` to `type`, made total: integers wrap modulo
/// 2^bits, floats to integers truncate toward zero and saturate (NaN -> 0),
/// integers to floats round to nearest even (exactly, even beyond 2^53),
/// floats round to nearest even, anything to Bool is `value != 0`.
Value convertValue(const Value &value, DType type);

/// `value` != 0 (a NaN is true, as in C).
bool isTrue(const Value &value);

/// Rounds `value` to the nearest value of float dtype `type` (ties to even).
double roundToFloat(double value, DType type);

/// Whether `fn` is one that devices compute within an accuracy rather than
/// correctly rounded (Perturbation, Interpreter.h).
bool isInexactBuiltin(Builtin fn);

/// `value` moved by half to all of `ulps` units in the last place of float
/// dtype `type`, down for an odd `seed` and up for an even one, by an amount
/// that depends on `seed`, `value` and `salt` (its origin) only
/// (Perturbation, Interpreter.h).
double perturb(double value, DType type, double ulps, uint64_t seed,
               uint64_t salt);

/// `value` as a device that keeps no subnormals of float dtype `type` sees
/// it: a zero of its sign where it is an f32 or bf16 subnormal
/// (Perturbation::flushSubnormals, Interpreter.h).
void flushSubnormal(Value &value, DType type);

/// The larger of `a` and `b` as IEEE 754-2019's maximumNumber: a NaN
/// operand is ignored (C's fmax), and +0 is larger than -0, where fmax may
/// return either zero (docs/language.md, section 5).
/// Inline: the reference's max and min reductions call it per element.
inline double maximumNumber(double a, double b) {
  // Equal operands differ at most in the sign of a zero.
  if (a == b)
    return std::signbit(a) ? b : a;
  return std::fmax(a, b);
}
/// The smaller, as minimumNumber: -0 is smaller than +0.
inline double minimumNumber(double a, double b) {
  if (a == b)
    return std::signbit(a) ? a : b;
  return std::fmin(a, b);
}

/// The identity of an aggregation over `type`: 0 for Sum and Assign, 1 for
/// Product, the lowest value of `type` for Max (-inf for floats) and the
/// highest for Min (+inf for floats).
Value aggregationIdentity(AggregationKind kind, DType type);

/// Folds `value` into `accumulator`, both of `type`. Floats are not rounded
/// (the caller rounds once on store); Max and Min on floats are
/// maximumNumber and minimumNumber. Assign returns `value`.
Value aggregate(AggregationKind kind, DType type, const Value &accumulator,
                const Value &value);

// The operations below take operands of `type` (other values are converted
// as convertValue() does, except that a float operand keeps its f64 value),
// and return float results in f64, unrounded: the caller rounds on store.

/// The unary operator `op` on `operand` of `type`.
llvm::Expected<Value> applyUnary(UnaryOp op, DType type, const Value &operand);

/// The binary operator `op` on operands of `type` (comparisons and logical
/// operators yield bool). Integer division or remainder by zero, a shift by
/// a negative amount or by the width or more, and a bitwise operator or shift
/// on floats are errors.
llvm::Expected<Value> applyBinary(BinaryOp op, DType type, const Value &lhs,
                                  const Value &rhs);

/// The builtin function `fn` on operands of `type`. abs, sign, min, max and
/// relu are exact on integers, floor/ceil/round are the identity on them, and
/// every other builtin is computed in f64 and converted back.
llvm::Expected<Value> applyBuiltin(Builtin fn, DType type,
                                   llvm::ArrayRef<Value> operands);

} // namespace interp
} // namespace tilec

#endif // TILEC_LIB_INTERPRETER_SCALAR_H
