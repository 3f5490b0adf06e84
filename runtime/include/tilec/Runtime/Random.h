//===- Random.h - Random test and demo tensors ------------------*- C++ -*-===//

#ifndef TILEC_RUNTIME_RANDOM_H
#define TILEC_RUNTIME_RANDOM_H

#include "tilec/Runtime/HostTensor.h"

#include <cstdint>

namespace tilec {

/// A tensor of deterministic pseudo-random values for `seed`: floats uniform
/// in [-1, 1), signed integers in [-8, 8), unsigned integers in [0, 16),
/// bools 0 or 1. The ranges keep sums and products of test-sized
/// contractions exact and free of overflow.
HostTensor randomTensor(DType dtype, const Shape &shape, uint64_t seed);

} // namespace tilec

#endif // TILEC_RUNTIME_RANDOM_H
