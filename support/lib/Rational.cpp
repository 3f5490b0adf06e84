//===- Rational.cpp - Exact rationals with overflow-checked arithmetic ----===//

#include "tilec/Support/Rational.h"
#include "tilec/Support/CheckedArithmetic.h"

#include <numeric>

namespace tilec {

std::optional<Rational> Rational::get(int64_t num, int64_t den) {
  // Negating INT64_MIN overflows; such values never reach a useful result.
  if (den == 0 || num == INT64_MIN || den == INT64_MIN)
    return std::nullopt;
  if (den < 0) {
    num = -num;
    den = -den;
  }
  int64_t divisor = std::gcd(num, den);
  return Rational{num / divisor, den / divisor};
}

bool Rational::isNormalized() const {
  return den > 0 && num != INT64_MIN && std::gcd(num, den) == 1;
}

std::optional<Rational> add(Rational a, Rational b) {
  // Scale by the least common denominator, not the product, so that exact
  // results do not overflow needlessly.
  int64_t divisor = std::gcd(a.den, b.den);
  std::optional<int64_t> left = checkedMul(a.num, b.den / divisor);
  std::optional<int64_t> right = checkedMul(b.num, a.den / divisor);
  if (!left || !right)
    return std::nullopt;
  std::optional<int64_t> num = checkedAdd(*left, *right);
  std::optional<int64_t> den = checkedMul(a.den, b.den / divisor);
  if (!num || !den)
    return std::nullopt;
  return Rational::get(*num, *den);
}

std::optional<Rational> sub(Rational a, Rational b) {
  if (b.num == INT64_MIN)
    return std::nullopt;
  return add(a, Rational{-b.num, b.den});
}

std::optional<Rational> mul(Rational a, Rational b) {
  // Cross-reduce first so that exact results do not overflow needlessly.
  int64_t g1 = std::gcd(a.num, b.den);
  int64_t g2 = std::gcd(b.num, a.den);
  if (g1 == 0)
    g1 = 1;
  if (g2 == 0)
    g2 = 1;
  std::optional<int64_t> num = checkedMul(a.num / g1, b.num / g2);
  std::optional<int64_t> den = checkedMul(a.den / g2, b.den / g1);
  if (!num || !den)
    return std::nullopt;
  return Rational::get(*num, *den);
}

std::optional<Rational> div(Rational a, Rational b) {
  if (b.num == 0)
    return std::nullopt;
  std::optional<Rational> inverse = Rational::get(b.den, b.num);
  if (!inverse)
    return std::nullopt;
  return mul(a, *inverse);
}

} // namespace tilec
