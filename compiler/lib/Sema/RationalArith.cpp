//===- RationalArith.cpp - Overflow-checked exact arithmetic --------------===//

#include "tilec/Sema/RationalArith.h"

#include "llvm/Support/MathExtras.h"

#include <numeric>

namespace tilec {

std::optional<int64_t> checkedAdd(int64_t a, int64_t b) {
  int64_t result;
  if (llvm::AddOverflow(a, b, result))
    return std::nullopt;
  return result;
}

std::optional<int64_t> checkedSub(int64_t a, int64_t b) {
  int64_t result;
  if (llvm::SubOverflow(a, b, result))
    return std::nullopt;
  return result;
}

std::optional<int64_t> checkedMul(int64_t a, int64_t b) {
  int64_t result;
  if (llvm::MulOverflow(a, b, result))
    return std::nullopt;
  return result;
}

std::optional<int64_t> checkedDiv(int64_t a, int64_t b) {
  if (b == 0 || (a == INT64_MIN && b == -1))
    return std::nullopt;
  return a / b;
}

std::optional<int64_t> checkedRem(int64_t a, int64_t b) {
  if (b == 0)
    return std::nullopt;
  if (b == -1)
    return 0;
  return a % b;
}

std::optional<Rational> makeRational(int64_t num, int64_t den) {
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

std::optional<Rational> add(Rational a, Rational b) {
  int64_t divisor = std::gcd(a.den, b.den);
  std::optional<int64_t> left = checkedMul(a.num, b.den / divisor);
  std::optional<int64_t> right = checkedMul(b.num, a.den / divisor);
  if (!left || !right)
    return std::nullopt;
  std::optional<int64_t> num = checkedAdd(*left, *right);
  std::optional<int64_t> den = checkedMul(a.den, b.den / divisor);
  if (!num || !den)
    return std::nullopt;
  return makeRational(*num, *den);
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
  return makeRational(*num, *den);
}

std::optional<Rational> div(Rational a, Rational b) {
  if (b.num == 0)
    return std::nullopt;
  std::optional<Rational> inverse = makeRational(b.den, b.num);
  if (!inverse)
    return std::nullopt;
  return mul(a, *inverse);
}

} // namespace tilec
