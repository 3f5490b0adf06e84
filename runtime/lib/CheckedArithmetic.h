//===- CheckedArithmetic.h - Size arithmetic that reports overflow -*- C++ -*-//
//
// Element counts, byte sizes and work-item counts come from files and
// command lines, so any product of them may exceed 64 bits. The runtime
// computes them here, never with a bare `*`. (The compiler has its own
// checked arithmetic for the index analysis; the runtime cannot depend on
// the compiler.)
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_LIB_CHECKEDARITHMETIC_H
#define TILEC_RUNTIME_LIB_CHECKEDARITHMETIC_H

#include <cstdint>

namespace tilec {

/// Sets `out` to `a * b` and returns true, or returns false (leaving `out`
/// unspecified) when the product does not fit 64 bits.
inline bool checkedMultiply(uint64_t a, uint64_t b, uint64_t &out) {
  return !__builtin_mul_overflow(a, b, &out);
}

} // namespace tilec

#endif // TILEC_RUNTIME_LIB_CHECKEDARITHMETIC_H
