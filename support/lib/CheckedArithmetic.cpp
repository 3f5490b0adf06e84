//===- CheckedArithmetic.cpp - int64 arithmetic that detects overflow -----===//

#include "tilec/Support/CheckedArithmetic.h"

#include "llvm/Support/MathExtras.h"

#include <cstdlib>
#include <limits>
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

int64_t gcd(int64_t a, int64_t b) {
  return std::gcd(std::llabs(a), std::llabs(b));
}

int64_t positiveMod(int64_t a, int64_t b) {
  int64_t remainder = a % b;
  return remainder < 0 ? remainder + b : remainder;
}

} // namespace tilec
