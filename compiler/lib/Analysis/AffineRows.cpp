//===- AffineRows.cpp - Exact operations on QuasiAffine rows -------------===//

#include "AffineRows.h"

#include "llvm/ADT/STLExtras.h"

#include <cassert>

using namespace tilec;
using namespace tilec::indexspace;

QuasiAffine tilec::indexspace::makeZero(unsigned numVars) {
  QuasiAffine zero;
  zero.coeffs.assign(numVars, 0);
  return zero;
}

QuasiAffine tilec::indexspace::fromRationalRow(CheckedArithmetic &arith,
                                               const IndexSystem::Row &row,
                                               unsigned outputRank) {
  unsigned numIndices = row.num.size() - 1;
  QuasiAffine expr = makeZero(outputRank + numIndices);
  for (int64_t den : row.den)
    expr.den = arith.lcm(expr.den, den);
  if (arith.overflowed())
    return expr;
  for (unsigned i = 0; i <= numIndices; ++i) {
    int64_t scaled = arith.mul(row.num[i], expr.den / row.den[i]);
    if (i == numIndices)
      expr.constant = scaled;
    else
      expr.coeffs[outputRank + i] = scaled;
  }
  reduce(expr);
  return expr;
}

QuasiAffine tilec::indexspace::combineNumerators(CheckedArithmetic &arith,
                                                 int64_t a,
                                                 const QuasiAffine &x,
                                                 int64_t b,
                                                 const QuasiAffine &y) {
  QuasiAffine result = makeZero(x.coeffs.size());
  for (unsigned i = 0, e = x.coeffs.size(); i < e; ++i)
    result.coeffs[i] =
        arith.add(arith.mul(a, x.coeffs[i]), arith.mul(b, y.coeffs[i]));
  result.constant =
      arith.add(arith.mul(a, x.constant), arith.mul(b, y.constant));
  return result;
}

QuasiAffine tilec::indexspace::scaleNumerators(CheckedArithmetic &arith,
                                               int64_t a,
                                               const QuasiAffine &x) {
  return combineNumerators(arith, a, x, 0, x);
}

/// gcd of the coefficients alone.
static int64_t coefficientGcd(const QuasiAffine &expr) {
  int64_t divisor = 0;
  for (int64_t coeff : expr.coeffs)
    divisor = gcd(divisor, coeff);
  return divisor;
}

void tilec::indexspace::reduce(QuasiAffine &expr) {
  int64_t divisor = gcd(gcd(coefficientGcd(expr), expr.constant), expr.den);
  if (divisor <= 1)
    return;
  for (int64_t &coeff : expr.coeffs)
    coeff /= divisor;
  expr.constant /= divisor;
  expr.den /= divisor;
}

void tilec::indexspace::normalizeEquality(QuasiAffine &expr) {
  expr.den = 1;
  int64_t divisor = gcd(coefficientGcd(expr), expr.constant);
  auto firstNonzero = llvm::find_if(expr.coeffs, [](int64_t c) { return c; });
  if (firstNonzero != expr.coeffs.end() && *firstNonzero < 0)
    divisor = -divisor;
  if (divisor == 0 || divisor == 1)
    return;
  for (int64_t &coeff : expr.coeffs)
    coeff /= divisor;
  expr.constant /= divisor;
}

void tilec::indexspace::tightenInequality(QuasiAffine &expr) {
  expr.den = 1;
  int64_t divisor = coefficientGcd(expr);
  if (divisor <= 1)
    return;
  for (int64_t &coeff : expr.coeffs)
    coeff /= divisor;
  expr.constant = floorDiv(expr.constant, divisor);
}

bool tilec::indexspace::normalizeIntegralityCheck(QuasiAffine &expr) {
  assert(expr.den > 0 && "integrality check of an overflowed row");
  for (int64_t &coeff : expr.coeffs)
    coeff = positiveMod(coeff, expr.den);
  expr.constant = positiveMod(expr.constant, expr.den);
  reduce(expr);
  return expr.den != 1;
}

QuasiAffine tilec::indexspace::substitute(CheckedArithmetic &arith,
                                          const QuasiAffine &expr, unsigned var,
                                          const QuasiAffine &value) {
  int64_t coeff = expr.coeffs[var];
  if (coeff == 0)
    return expr;
  // expr = (c * var + rest) / d and var = n / e give
  // (e * rest + c * n) / (d * e).
  QuasiAffine rest = expr;
  rest.coeffs[var] = 0;
  QuasiAffine result = combineNumerators(arith, value.den, rest, coeff, value);
  result.den = arith.mul(expr.den, value.den);
  reduce(result);
  return result;
}

bool tilec::indexspace::hasTermsIn(const QuasiAffine &expr, unsigned begin,
                                   unsigned end) {
  for (unsigned i = begin; i < end; ++i)
    if (expr.coeffs[i] != 0)
      return true;
  return false;
}
