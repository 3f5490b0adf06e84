//===- Rational.cpp - Exact rationals of tile affine maps -----------------===//

#include "tilec/Dialect/Tile/IR/Rational.h"

#include "llvm/Support/CheckedArithmetic.h"

#include <limits>
#include <numeric>

using namespace tilec::tile;

/// |value| as an unsigned number, defined for INT64_MIN too.
static uint64_t magnitude(int64_t value) {
  return value < 0 ? 0 - static_cast<uint64_t>(value)
                   : static_cast<uint64_t>(value);
}

std::optional<Rational> Rational::get(int64_t num, int64_t den) {
  if (den == 0)
    return std::nullopt;
  if (den < 0) {
    constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
    if (num == kMin || den == kMin)
      return std::nullopt;
    num = -num;
    den = -den;
  }
  auto gcd = static_cast<int64_t>(
      std::gcd(magnitude(num), static_cast<uint64_t>(den)));
  return Rational{num / gcd, den / gcd};
}

bool Rational::isNormalized() const {
  return den > 0 && std::gcd(magnitude(num), static_cast<uint64_t>(den)) == 1;
}

std::optional<Rational> tilec::tile::add(Rational a, Rational b) {
  std::optional<int64_t> left = llvm::checkedMul(a.num, b.den);
  std::optional<int64_t> right = llvm::checkedMul(b.num, a.den);
  std::optional<int64_t> den = llvm::checkedMul(a.den, b.den);
  if (!left || !right || !den)
    return std::nullopt;
  std::optional<int64_t> num = llvm::checkedAdd(*left, *right);
  if (!num)
    return std::nullopt;
  return Rational::get(*num, *den);
}
