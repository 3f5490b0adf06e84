//===- ExprBuilder.h - Typed elementwise expressions, built by hand -*- C++
//-*-//
//
// Private to the Autodiff library. The gradient rules build new expression
// trees; these helpers keep each node's dtype and broadcast shape right, the
// way sema would have typed the same source, so that the gradient program's
// declared shapes are known before it is printed and specialised again.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_AUTODIFF_EXPRBUILDER_H
#define TILEC_LIB_AUTODIFF_EXPRBUILDER_H

#include "tilec/Sema/Program.h"

#include <memory>
#include <vector>

namespace tilec {
namespace autodiff {

using ExprPtr = std::unique_ptr<Expr>;

/// A deep copy of `expr`.
ExprPtr cloneExpr(const Expr &expr);
/// A deep copy of a statement of a program.
Statement cloneStatement(const Statement &statement);

/// NumPy broadcasting of two shapes that sema already found compatible.
Shape broadcastShapes(const Shape &a, const Shape &b);

ExprPtr tensorRef(const Program &program, unsigned tensor);
/// A float literal of the float type `dtype` (printed untyped: the operand
/// it meets gives it that type).
ExprPtr floatConstant(double value, DType dtype);
ExprPtr negate(ExprPtr operand);
/// Arithmetic (in the operands' dtype) or a comparison (bool).
ExprPtr binary(BinaryOp op, ExprPtr lhs, ExprPtr rhs);
ExprPtr call(Builtin builtin, std::vector<ExprPtr> operands);
ExprPtr select(ExprPtr condition, ExprPtr ifTrue, ExprPtr ifFalse);
/// `operand` converted to `dtype`; `operand` itself when it has that dtype.
ExprPtr castTo(ExprPtr operand, DType dtype);

/// `lhs * rhs`, `lhs / rhs`: shorthands of the rules.
inline ExprPtr mul(ExprPtr lhs, ExprPtr rhs) {
  return binary(BinaryOp::Mul, std::move(lhs), std::move(rhs));
}
inline ExprPtr div(ExprPtr lhs, ExprPtr rhs) {
  return binary(BinaryOp::Div, std::move(lhs), std::move(rhs));
}

} // namespace autodiff
} // namespace tilec

#endif // TILEC_LIB_AUTODIFF_EXPRBUILDER_H
