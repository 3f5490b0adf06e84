//===- Rational.h - Exact rationals of tile affine maps ---------*- C++ -*-===//
//
// The coefficients of the `tile` dialect's affine maps. The dialect does not
// depend on the frontend, so it has its own small rational type; every value
// stored in an attribute is normalised (den > 0, gcd(|num|, den) == 1).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_IR_RATIONAL_H
#define TILEC_DIALECT_TILE_IR_RATIONAL_H

#include "llvm/ADT/Hashing.h"

#include <cstdint>
#include <optional>

namespace tilec {
namespace tile {

struct Rational {
  int64_t num = 0;
  int64_t den = 1;

  /// num/den in normal form; nullopt when den is 0 or the result does not
  /// fit in int64_t.
  static std::optional<Rational> get(int64_t num, int64_t den);

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

/// a + b, or nullopt on int64_t overflow.
std::optional<Rational> add(Rational a, Rational b);

inline llvm::hash_code hash_value(const Rational &r) {
  return llvm::hash_combine(r.num, r.den);
}

} // namespace tile
} // namespace tilec

#endif // TILEC_DIALECT_TILE_IR_RATIONAL_H
