//===- Random.h - Random test and demo tensors ------------------*- C++ -*-===//

#ifndef TILEC_RUNTIME_RANDOM_H
#define TILEC_RUNTIME_RANDOM_H

#include "tilec/Runtime/HostTensor.h"

#include <cstdint>

namespace tilec {

/// A tensor of deterministic pseudo-random values for `seed`, the same on
/// every platform: floats uniform over the nonzero multiples of 2^-p in
/// [-1, 1), p being the dtype's significand precision (so exact in the dtype,
/// and never zero, which would hide unwritten outputs), signed integers in
/// [-8, 8), unsigned integers in [0, 16), bools 0 or 1. The integer ranges
/// keep sums and products of test-sized contractions exact and free of
/// overflow. A shape too large for the host is an error
/// (HostTensor::allocate), never an abort.
Expected<HostTensor> randomTensor(DType dtype, const Shape &shape,
                                  uint64_t seed);

} // namespace tilec

#endif // TILEC_RUNTIME_RANDOM_H
