//===- ElementType.h - The C++ type of each dtype's elements ----*- C++ -*-===//
//
// Which C++ type holds one element of each dtype, so that typed tensor
// access (HostTensor::from, view and span) is checked at compile time for
// the type and at run time for the dtype. C++17 has no 16-bit float types:
// f16 and bf16 elements are Half and BFloat16, which hold the bits and
// convert to and from float.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_ELEMENTTYPE_H
#define TILEC_RUNTIME_ELEMENTTYPE_H

#include "tilec/Runtime/DType.h"

#include <cstdint>
#include <type_traits>

namespace tilec {

/// IEEE binary16 and bfloat16 conversions, round-to-nearest-even, overflow
/// to infinity, subnormals kept; NaNs come out quiet with their sign and the
/// leading bits of their payload.
uint16_t doubleToHalf(double value);
double halfToDouble(uint16_t bits);
uint16_t doubleToBFloat16(double value);
double bfloat16ToDouble(uint16_t bits);

/// An f16 element: IEEE binary16 bits. Converting a float rounds once, to
/// nearest even; converting to float is exact.
struct Half {
  uint16_t bits = 0;

  Half() = default;
  Half(float value) : bits(doubleToHalf(value)) {}
  operator float() const { return static_cast<float>(halfToDouble(bits)); }
  static Half fromBits(uint16_t bits) {
    Half half;
    half.bits = bits;
    return half;
  }
};

/// A bf16 element: the upper 16 bits of an f32. Converting a float rounds
/// once, to nearest even; converting to float is exact.
struct BFloat16 {
  uint16_t bits = 0;

  BFloat16() = default;
  BFloat16(float value) : bits(doubleToBFloat16(value)) {}
  operator float() const { return static_cast<float>(bfloat16ToDouble(bits)); }
  static BFloat16 fromBits(uint16_t bits) {
    BFloat16 value;
    value.bits = bits;
    return value;
  }
};

static_assert(sizeof(Half) == 2 && sizeof(BFloat16) == 2,
              "16-bit elements are stored as their bits");

/// The dtype whose elements C++ type T holds: bool, the <cstdint> integers,
/// Half, BFloat16, float and double. Any other T does not compile.
template <class T> struct DTypeOf {
  static_assert(sizeof(T) == 0, "no dtype has elements of this C++ type");
};
#define TILEC_ELEMENT_TYPE(CppType, Tag)                                       \
  template <> struct DTypeOf<CppType> {                                        \
    static constexpr DType value = DType::Tag;                                 \
  };
TILEC_ELEMENT_TYPE(bool, Bool)
TILEC_ELEMENT_TYPE(int8_t, I8)
TILEC_ELEMENT_TYPE(int16_t, I16)
TILEC_ELEMENT_TYPE(int32_t, I32)
TILEC_ELEMENT_TYPE(int64_t, I64)
TILEC_ELEMENT_TYPE(uint8_t, U8)
TILEC_ELEMENT_TYPE(uint16_t, U16)
TILEC_ELEMENT_TYPE(uint32_t, U32)
TILEC_ELEMENT_TYPE(uint64_t, U64)
TILEC_ELEMENT_TYPE(Half, F16)
TILEC_ELEMENT_TYPE(BFloat16, BF16)
TILEC_ELEMENT_TYPE(float, F32)
TILEC_ELEMENT_TYPE(double, F64)
#undef TILEC_ELEMENT_TYPE

/// DTypeOf<T>::value, ignoring const.
template <class T>
inline constexpr DType dtypeOf = DTypeOf<std::remove_const_t<T>>::value;

} // namespace tilec

#endif // TILEC_RUNTIME_ELEMENTTYPE_H
