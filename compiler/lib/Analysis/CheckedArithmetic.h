//===- CheckedArithmetic.h - Overflow-detecting int64 ops -----*- C++ -*-===//
//
// The analysis multiplies rows together during elimination, so coefficients
// can grow past int64. Every operation goes through CheckedArithmetic, which
// records overflow in a sticky flag instead of wrapping; callers check the
// flag once per step and report an error. INT64_MIN counts as overflow so
// that negation and absolute values are always exact.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_ANALYSIS_CHECKEDARITHMETIC_H
#define TILEC_LIB_ANALYSIS_CHECKEDARITHMETIC_H

#include <cstdint>

namespace tilec {
namespace indexspace {

/// What the analysis reports when CheckedArithmetic overflows.
constexpr const char *kOverflowMessage =
    "the index space's arithmetic overflows 64-bit integers";

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
/// floor(a / b) and ceil(a / b) for b > 0.
int64_t floorDiv(int64_t a, int64_t b);
int64_t ceilDiv(int64_t a, int64_t b);
/// a mod b in [0, b) for b > 0.
int64_t positiveMod(int64_t a, int64_t b);

} // namespace indexspace
} // namespace tilec

#endif // TILEC_LIB_ANALYSIS_CHECKEDARITHMETIC_H
