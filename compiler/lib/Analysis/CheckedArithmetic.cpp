//===- CheckedArithmetic.cpp - int64 arithmetic that detects overflow ----===//

#include "CheckedArithmetic.h"

#include <cstdlib>
#include <limits>
#include <numeric>

using namespace tilec::indexspace;

int64_t CheckedArithmetic::fit(__int128 value) {
  if (value > std::numeric_limits<int64_t>::max() ||
      value < -std::numeric_limits<int64_t>::max()) {
    overflow = true;
    return 0;
  }
  return static_cast<int64_t>(value);
}

int64_t CheckedArithmetic::add(int64_t a, int64_t b) {
  return fit(static_cast<__int128>(a) + b);
}

int64_t CheckedArithmetic::sub(int64_t a, int64_t b) {
  return fit(static_cast<__int128>(a) - b);
}

int64_t CheckedArithmetic::mul(int64_t a, int64_t b) {
  return fit(static_cast<__int128>(a) * b);
}

int64_t CheckedArithmetic::lcm(int64_t a, int64_t b) {
  return mul(a / gcd(a, b), b);
}

int64_t CheckedArithmetic::check(int64_t value) { return fit(value); }

int64_t tilec::indexspace::gcd(int64_t a, int64_t b) {
  return std::gcd(std::llabs(a), std::llabs(b));
}

int64_t tilec::indexspace::floorDiv(int64_t a, int64_t b) {
  int64_t quotient = a / b;
  return (a % b != 0 && a < 0) ? quotient - 1 : quotient;
}

int64_t tilec::indexspace::ceilDiv(int64_t a, int64_t b) {
  int64_t quotient = a / b;
  return (a % b != 0 && a > 0) ? quotient + 1 : quotient;
}

int64_t tilec::indexspace::positiveMod(int64_t a, int64_t b) {
  int64_t remainder = a % b;
  return remainder < 0 ? remainder + b : remainder;
}
