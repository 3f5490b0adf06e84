//===- Random.cpp - Random test and demo tensors --------------------------===//
//
// Values are derived from the raw 64-bit outputs of splitmix64 by integer
// arithmetic only (no std:: distributions, whose algorithms differ between
// standard libraries), so a seed gives the same tensor everywhere.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/Random.h"

#include <cmath>

using namespace tilec;

namespace {

/// splitmix64 (Steele, Lea and Flood, 2014): tiny, fast and fully specified.
class SplitMix64 {
public:
  explicit SplitMix64(uint64_t seed) : state(seed) {}

  uint64_t next() {
    state += 0x9E3779B97F4A7C15;
    uint64_t mixed = state;
    mixed = (mixed ^ (mixed >> 30)) * 0xBF58476D1CE4E5B9;
    mixed = (mixed ^ (mixed >> 27)) * 0x94D049BB133111EB;
    return mixed ^ (mixed >> 31);
  }

private:
  uint64_t state;
};

} // namespace

/// Significand precision of a float dtype in bits, the implicit one included.
static int significandBits(DType type) {
  switch (type) {
  case DType::F16:
    return 11;
  case DType::BF16:
    return 8;
  case DType::F32:
    return 24;
  default:
    return 53;
  }
}

/// A uniform pick among the nonzero multiples of 2^-precision in [-1, 1),
/// as that multiple. Each is exact in a float of that precision, so storing
/// it does not round, and zero is excluded because it hides bugs (a missed
/// write, a dropped term).
static int64_t nonzeroMultiple(SplitMix64 &generator, int precision) {
  for (;;) {
    int64_t multiple = int64_t(generator.next() >> (63 - precision)) -
                       (int64_t(1) << precision);
    if (multiple != 0)
      return multiple;
  }
}

/// Fills `elements` with the picks of nonzeroMultiple scaled by
/// 2^-precision, stored as T directly: 2^26 f32 values in 0.14 s, where
/// rounding each through HostTensor::setDouble took 2.1 s.
template <class T>
static void fillUnitValues(Span<T> elements, SplitMix64 &generator,
                           int precision) {
  T unit = T(std::ldexp(1.0, -precision));
  for (T &element : elements)
    element = T(nonzeroMultiple(generator, precision)) * unit;
}

Expected<HostTensor> tilec::randomTensor(DType dtype, const Shape &shape,
                                         uint64_t seed) {
  Expected<HostTensor> allocated = HostTensor::allocate(dtype, shape);
  if (!allocated)
    return allocated;
  HostTensor &tensor = *allocated;
  SplitMix64 generator(seed);
  int precision = significandBits(dtype);
  if (dtype == DType::F32) {
    fillUnitValues(*tensor.span<float>(), generator, precision);
    return allocated;
  }
  if (dtype == DType::F64) {
    fillUnitValues(*tensor.span<double>(), generator, precision);
    return allocated;
  }
  for (int64_t i = 0; i < tensor.numElements(); ++i) {
    if (isFloat(dtype)) {
      int64_t multiple = nonzeroMultiple(generator, precision);
      tensor.setDouble(i, std::ldexp(double(multiple), -precision));
    } else if (isSignedInt(dtype)) {
      tensor.setInt(i, int64_t(generator.next() >> 60) - 8);
    } else if (isUnsignedInt(dtype)) {
      tensor.setUInt(i, generator.next() >> 60);
    } else {
      tensor.setUInt(i, generator.next() >> 63);
    }
  }
  return allocated;
}
