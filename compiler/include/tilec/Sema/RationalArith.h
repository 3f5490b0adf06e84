//===- RationalArith.h - Overflow-checked exact arithmetic ------*- C++ -*-===//
//
// int64 and Rational arithmetic for index polynomials and sizes. Every
// operation returns nullopt instead of overflowing (or dividing by zero), so
// sema can report the construct whose value does not fit.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_SEMA_RATIONALARITH_H
#define TILEC_SEMA_RATIONALARITH_H

#include "tilec/Sema/Program.h"

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

/// num/den in lowest terms with den > 0; nullopt when den == 0 or on
/// overflow.
std::optional<Rational> makeRational(int64_t num, int64_t den = 1);
std::optional<Rational> add(Rational a, Rational b);
std::optional<Rational> sub(Rational a, Rational b);
std::optional<Rational> mul(Rational a, Rational b);
std::optional<Rational> div(Rational a, Rational b);

} // namespace tilec

#endif // TILEC_SEMA_RATIONALARITH_H
