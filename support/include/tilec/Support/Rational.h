//===- Rational.h - Exact rationals, overflow-checked -----------*- C++ -*-===//
//
// The coefficients of index polynomials: sema computes them from the source,
// the `tile` dialect's affine maps store them, the index-space analysis reads
// them. A Rational in normal form has den > 0, gcd(|num|, den) == 1 and num
// in the symmetric int64 range (never INT64_MIN, so that negation is exact).
// Every operation returns nullopt instead of overflowing or dividing by zero,
// so that its caller can report the construct whose value does not fit.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_SUPPORT_RATIONAL_H
#define TILEC_SUPPORT_RATIONAL_H

#include "llvm/ADT/Hashing.h"

#include <cstdint>
#include <optional>

namespace tilec {

struct Rational {
  int64_t num = 0;
  int64_t den = 1;

  /// num/den in normal form; nullopt when den is 0 or num/den has no normal
  /// form (an INT64_MIN operand).
  static std::optional<Rational> get(int64_t num, int64_t den = 1);

  bool isNormalized() const;
  bool isInteger() const { return den == 1; }
  bool isZero() const { return num == 0; }

  friend bool operator==(const Rational &a, const Rational &b) {
    return a.num == b.num && a.den == b.den;
  }
  friend bool operator!=(const Rational &a, const Rational &b) {
    return !(a == b);
  }
};

/// Exact a + b, a - b, a * b and a / b of normalised operands; nullopt on
/// overflow and for a division by zero.
std::optional<Rational> add(Rational a, Rational b);
std::optional<Rational> sub(Rational a, Rational b);
std::optional<Rational> mul(Rational a, Rational b);
std::optional<Rational> div(Rational a, Rational b);

inline llvm::hash_code hash_value(const Rational &r) {
  return llvm::hash_combine(r.num, r.den);
}

} // namespace tilec

#endif // TILEC_SUPPORT_RATIONAL_H
