//===- CheckedArithmetic.h - Overflow-detecting int64 ops ------*- C++ -*-===//
//
// Index polynomials, sizes and the elimination of the index-space analysis
// compute in int64_t and must report, never wrap, when a value does not fit.
// Two styles share one set of rules: the checked* functions return nullopt
// (sema reports the construct at fault), and CheckedArithmetic records
// overflow in a sticky flag that a caller checks once per step (the
// analysis multiplies rows together and checks after each elimination).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_SUPPORT_CHECKEDARITHMETIC_H
#define TILEC_SUPPORT_CHECKEDARITHMETIC_H

#include <cstdint>
#include <optional>

namespace tilec {

std::optional<int64_t> checkedAdd(int64_t a, int64_t b);
std::optional<int64_t> checkedSub(int64_t a, int64_t b);
std::optional<int64_t> checkedMul(int64_t a, int64_t b);
/// C division (truncating toward zero); nullopt for b == 0 and overflow.
std::optional<int64_t> checkedDiv(int64_t a, int64_t b);
/// C remainder (the dividend's sign); nullopt for b == 0.
std::optional<int64_t> checkedRem(int64_t a, int64_t b);

/// int64 arithmetic in the symmetric range [-INT64_MAX, INT64_MAX]: a result
/// outside it (INT64_MIN included, so that negation and absolute values are
/// always exact) sets a sticky flag and yields 0.
class CheckedArithmetic {
public:
  int64_t add(int64_t a, int64_t b);
  int64_t sub(int64_t a, int64_t b);
  int64_t mul(int64_t a, int64_t b);
  /// Least common multiple of two positive numbers.
  int64_t lcm(int64_t a, int64_t b);
  /// `value`, flagging overflow when it is INT64_MIN.
  int64_t check(int64_t value);

  bool overflowed() const { return overflow; }

private:
  /// `value` when it lies in the symmetric int64 range, else 0 and the flag.
  int64_t fit(__int128 value);

  bool overflow = false;
};

/// gcd(|a|, |b|); operands must not be INT64_MIN.
int64_t gcd(int64_t a, int64_t b);

/// |value| as an unsigned number, defined for INT64_MIN too.
inline uint64_t magnitude(int64_t value) {
  return value < 0 ? 0 - static_cast<uint64_t>(value)
                   : static_cast<uint64_t>(value);
}
/// |value|; `value` must not be the least __int128.
inline __int128 magnitude(__int128 value) { return value < 0 ? -value : value; }

/// floor(a / b) and ceil(a / b) for b != 0 (and a quotient that fits), in
/// int64_t or in __int128 for searches that keep headroom above 64 bits.
template <typename Int> Int floorDiv(Int a, Int b) {
  Int quotient = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? quotient - 1 : quotient;
}
template <typename Int> Int ceilDiv(Int a, Int b) {
  Int quotient = a / b;
  return (a % b != 0 && ((a < 0) == (b < 0))) ? quotient + 1 : quotient;
}
/// a mod b in [0, b) for b > 0.
int64_t positiveMod(int64_t a, int64_t b);

} // namespace tilec

#endif // TILEC_SUPPORT_CHECKEDARITHMETIC_H
