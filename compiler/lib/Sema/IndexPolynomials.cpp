//===- IndexPolynomials.cpp - Index polynomials and size expressions ------===//
//
// Index polynomials are exact: coefficients are rationals (`i/2`, `3*i/4`) and
// `/` divides exactly. Size expressions (output sizes, constraint bounds,
// reshape extents) are integers and `/` truncates like C. All arithmetic is
// overflow-checked; an overflow is an error at the operator.
//
//===----------------------------------------------------------------------===//

#include "IndexPolynomials.h"
#include "tilec/Support/CheckedArithmetic.h"
#include "tilec/Support/Rational.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>

namespace tilec {
namespace sema {

bool isConstantPoly(const AffinePoly &poly) {
  return llvm::all_of(poly.coeffs,
                      [](const Rational &coeff) { return coeff.isZero(); });
}

void PolynomialLowering::padToIndexCount(AffinePoly &poly) const {
  poly.coeffs.resize(indexNames.size());
}

bool PolynomialLowering::reportOverflow(const ast::Expr &expr) {
  specializer.getDiags().error(expr.loc,
                               "index polynomial overflows 64-bit arithmetic");
  return false;
}

/// Applies `op` to every coefficient and the constant of `poly` and `other`
/// (missing coefficients are zero).
template <typename Op>
static std::optional<AffinePoly> zipPolys(AffinePoly poly,
                                          const AffinePoly &other, Op op) {
  if (poly.coeffs.size() < other.coeffs.size())
    poly.coeffs.resize(other.coeffs.size());
  for (size_t i = 0; i < poly.coeffs.size(); ++i) {
    Rational rhs = i < other.coeffs.size() ? other.coeffs[i] : Rational();
    std::optional<Rational> result = op(poly.coeffs[i], rhs);
    if (!result)
      return std::nullopt;
    poly.coeffs[i] = *result;
  }
  std::optional<Rational> constant = op(poly.constant, other.constant);
  if (!constant)
    return std::nullopt;
  poly.constant = *constant;
  return poly;
}

/// Scales every term of `poly` by `factor`.
static std::optional<AffinePoly> scalePoly(AffinePoly poly, Rational factor) {
  for (Rational &coeff : poly.coeffs) {
    std::optional<Rational> scaled = mul(coeff, factor);
    if (!scaled)
      return std::nullopt;
    coeff = *scaled;
  }
  std::optional<Rational> constant = mul(poly.constant, factor);
  if (!constant)
    return std::nullopt;
  poly.constant = *constant;
  return poly;
}

std::optional<AffinePoly> PolynomialLowering::combine(const ast::Expr &expr,
                                                      AffinePoly lhs,
                                                      AffinePoly rhs) {
  Diagnostics &diags = specializer.getDiags();
  std::optional<AffinePoly> result;
  switch (expr.binaryOp) {
  case BinaryOp::Add:
    result = zipPolys(std::move(lhs), rhs, add);
    break;
  case BinaryOp::Sub:
    result = zipPolys(std::move(lhs), rhs, sub);
    break;
  case BinaryOp::Mul:
    if (isConstantPoly(lhs))
      result = scalePoly(std::move(rhs), lhs.constant);
    else if (isConstantPoly(rhs))
      result = scalePoly(std::move(lhs), rhs.constant);
    else {
      diags.error(expr.loc, "index polynomials must be affine: '*' of two "
                            "terms with index variables");
      return std::nullopt;
    }
    break;
  case BinaryOp::Div: {
    if (!isConstantPoly(rhs)) {
      diags.error(expr.loc, "index polynomials can only be divided by a "
                            "constant");
      return std::nullopt;
    }
    if (rhs.constant.isZero()) {
      diags.error(expr.loc, "division by zero in an index polynomial");
      return std::nullopt;
    }
    std::optional<Rational> inverse =
        Rational::get(rhs.constant.den, rhs.constant.num);
    if (inverse)
      result = scalePoly(std::move(lhs), *inverse);
    break;
  }
  default:
    diags.error(expr.loc, "operator not allowed in an index polynomial (use "
                          "'+', '-', '*' and '/')");
    return std::nullopt;
  }
  if (!result)
    reportOverflow(expr);
  return result;
}

std::optional<AffinePoly> PolynomialLowering::lower(const ast::Expr &expr) {
  Diagnostics &diags = specializer.getDiags();
  AffinePoly poly;
  switch (expr.kind) {
  case ast::Expr::Kind::IntLiteral:
    poly.constant = Rational{expr.intValue, 1};
    return poly;
  case ast::Expr::Kind::Name: {
    if (!ast::isUpperCaseName(expr.name)) {
      auto it = llvm::find(indexNames, expr.name);
      size_t index = it - indexNames.begin();
      if (it == indexNames.end()) {
        indexNames.push_back(expr.name);
        indexLocs.push_back(expr.loc);
      }
      poly.coeffs.resize(index + 1);
      poly.coeffs[index] = Rational{1, 1};
      return poly;
    }
    if (std::optional<int64_t> value = specializer.lookupDim(expr.name)) {
      poly.constant = Rational{*value, 1};
      return poly;
    }
    diags.error(expr.loc, "'" + expr.name +
                              "' is not a dimension; index polynomials "
                              "combine index variables, dimensions and "
                              "integers");
    return std::nullopt;
  }
  case ast::Expr::Kind::Unary: {
    std::optional<AffinePoly> operand = lower(*expr.operands[0]);
    if (!operand)
      return std::nullopt;
    if (expr.unaryOp != UnaryOp::Neg) {
      diags.error(expr.loc, "operator not allowed in an index polynomial");
      return std::nullopt;
    }
    std::optional<AffinePoly> result = scalePoly(*operand, Rational{-1, 1});
    if (!result)
      reportOverflow(expr);
    return result;
  }
  case ast::Expr::Kind::Binary: {
    std::optional<AffinePoly> lhs = lower(*expr.operands[0]);
    std::optional<AffinePoly> rhs = lhs ? lower(*expr.operands[1]) : lhs;
    if (!rhs)
      return std::nullopt;
    return combine(expr, std::move(*lhs), std::move(*rhs));
  }
  case ast::Expr::Kind::FloatLiteral:
  case ast::Expr::Kind::Access:
  case ast::Expr::Kind::Conditional:
  case ast::Expr::Kind::Call:
    break;
  }
  diags.error(expr.loc, "not allowed in an index polynomial (index "
                        "polynomials combine index variables, dimensions and "
                        "integers with '+', '-', '*' and '/')");
  return std::nullopt;
}

std::optional<int64_t> Specializer::evaluateInteger(const ast::Expr &expr) {
  switch (expr.kind) {
  case ast::Expr::Kind::IntLiteral:
    return expr.intValue;
  case ast::Expr::Kind::Name:
    if (std::optional<int64_t> value = lookupDim(expr.name))
      return value;
    diags.error(expr.loc, "'" + expr.name +
                              "' is not a dimension; sizes combine "
                              "dimensions and integers");
    return std::nullopt;
  case ast::Expr::Kind::Unary: {
    std::optional<int64_t> operand = evaluateInteger(*expr.operands[0]);
    if (!operand)
      return std::nullopt;
    if (expr.unaryOp == UnaryOp::Neg) {
      if (std::optional<int64_t> result = checkedSub(0, *operand))
        return result;
      diags.error(expr.loc, "integer overflow in a size expression");
      return std::nullopt;
    }
    break;
  }
  case ast::Expr::Kind::Binary: {
    std::optional<int64_t> lhs = evaluateInteger(*expr.operands[0]);
    std::optional<int64_t> rhs = lhs ? evaluateInteger(*expr.operands[1]) : lhs;
    if (!rhs)
      return std::nullopt;
    std::optional<int64_t> result;
    switch (expr.binaryOp) {
    case BinaryOp::Add:
      result = checkedAdd(*lhs, *rhs);
      break;
    case BinaryOp::Sub:
      result = checkedSub(*lhs, *rhs);
      break;
    case BinaryOp::Mul:
      result = checkedMul(*lhs, *rhs);
      break;
    case BinaryOp::Div:
    case BinaryOp::Rem:
      if (*rhs == 0) {
        diags.error(expr.loc, "division by zero in a size expression");
        return std::nullopt;
      }
      result = expr.binaryOp == BinaryOp::Div ? checkedDiv(*lhs, *rhs)
                                              : checkedRem(*lhs, *rhs);
      break;
    default:
      diags.error(expr.loc, "operator not allowed in a size expression (use "
                            "'+', '-', '*', '/', '%', 'max' and 'min')");
      return std::nullopt;
    }
    if (!result)
      diags.error(expr.loc, "integer overflow in a size expression");
    return result;
  }
  case ast::Expr::Kind::Call: {
    if ((expr.name != "max" && expr.name != "min") || expr.operands.size() != 2)
      break;
    std::optional<int64_t> lhs = evaluateInteger(*expr.operands[0]);
    std::optional<int64_t> rhs = lhs ? evaluateInteger(*expr.operands[1]) : lhs;
    if (!rhs)
      return std::nullopt;
    return expr.name == "max" ? std::max(*lhs, *rhs) : std::min(*lhs, *rhs);
  }
  default:
    break;
  }
  diags.error(expr.loc, "not allowed in a size expression (sizes combine "
                        "dimensions and integers with '+', '-', '*', '/', "
                        "'%', 'max' and 'min')");
  return std::nullopt;
}

} // namespace sema
} // namespace tilec
