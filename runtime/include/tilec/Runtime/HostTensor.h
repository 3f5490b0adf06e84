//===- HostTensor.h - A dense tensor in host memory -------------*- C++ -*-===//
//
// A dense, C-ordered tensor owned by the host: the currency of the CLI, the
// reference interpreter and the runtime's transfers. Elements are stored in
// the dtype's native little-endian layout (bool: one byte, 0 or 1; f16 and
// bf16: their 16-bit patterns).
//
// Typed access: HostTensor::from<float>(shape, values) makes a tensor of the
// dtype of the C++ type (ElementType.h), and view<float>() / span<float>()
// show the elements in place. A C++ type that is not the tensor's dtype's is
// an Error, returned: never a reinterpretation of the bytes.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_HOSTTENSOR_H
#define TILEC_RUNTIME_HOSTTENSOR_H

#include "tilec/Runtime/DType.h"
#include "tilec/Runtime/ElementType.h"
#include "tilec/Runtime/Span.h"
#include "tilec/Runtime/Status.h"
#include "tilec/Runtime/ZeroedByteAllocator.h"

#include <cstdint>
#include <initializer_list>
#include <vector>

namespace tilec {

class HostTensor {
public:
  HostTensor() = default;
  /// A zero-filled tensor of a size the caller chose (a size from outside
  /// the program goes through allocate). Throws std::length_error when the
  /// byte size does not fit 64 bits, std::bad_alloc when the host cannot
  /// hold it.
  HostTensor(DType dtype, Shape shape);
  /// A zero-filled tensor of a size from a command line or a file: an
  /// element count or byte size that overflows, or more bytes than the
  /// host's available memory (availableHostMemory), is an error naming the
  /// type and the sizes, before anything is allocated.
  static Expected<HostTensor> allocate(DType dtype, Shape shape);

  DType dtype() const { return type; }
  const Shape &shape() const { return dims; }
  int64_t rank() const { return static_cast<int64_t>(dims.size()); }
  int64_t numElements() const { return count; }
  size_t sizeInBytes() const { return bytes.size(); }
  uint8_t *data() { return bytes.data(); }
  const uint8_t *data() const { return bytes.data(); }

  /// Element `i` (flat C-order index) converted exactly to double where the
  /// dtype allows (i64/u64 beyond 2^53 round).
  double getDouble(int64_t i) const;
  /// Element `i` as a signed integer: floats truncate toward zero and
  /// saturate to the int64_t range (NaN gives 0), u64 values above INT64_MAX
  /// wrap, bools give 0 or 1.
  int64_t getInt(int64_t i) const;
  /// Element `i` as an unsigned integer: the two's complement bits for signed
  /// dtypes; floats truncate toward zero and saturate to [0, 2^64 - 1] (NaN
  /// gives 0); bools give 0 or 1.
  uint64_t getUInt(int64_t i) const;

  /// Stores `value` rounded once to the dtype (round-to-nearest-even for
  /// floats, including f16/bf16 directly from double; overflow gives
  /// infinity; a NaN stays a quiet NaN). For integer dtypes the value is
  /// truncated toward zero and saturated to the dtype's range, NaN giving 0,
  /// as OpenCL's convert_<type>_sat does (C leaves out-of-range float to int
  /// conversions undefined; this is the rule that is defined everywhere).
  /// bool stores value != 0 (so NaN is true).
  void setDouble(int64_t i, double value);
  /// Stores `value` wrapped modulo 2^bits of an integer dtype, as value != 0
  /// for bool, or rounded once to nearest-even for float dtypes (never
  /// through double first).
  void setInt(int64_t i, int64_t value);
  void setUInt(int64_t i, uint64_t value);

  /// A tensor of T's dtype (dtypeOf<T>) and `shape` holding `values` in C
  /// order: from<float>({2, 3}, {1, 2, 3, 4, 5, 6}), from<int32_t>(shape,
  /// vector). A count of values other than the shape's, or a shape whose
  /// size overflows, is an Error.
  template <class T>
  static Expected<HostTensor> from(const Shape &shape, Span<const T> values) {
    return fromElements(dtypeOf<T>, shape, values.data(), values.size());
  }
  /// from() of a braced list: from<float>({2}, {1, 2}).
  template <class T>
  static Expected<HostTensor> from(const Shape &shape,
                                   std::initializer_list<T> values) {
    return fromElements(dtypeOf<T>, shape, values.begin(), values.size());
  }
  /// from() of a vector, T deduced: from(shape, values).
  template <class T, class Allocator>
  static Expected<HostTensor> from(const Shape &shape,
                                   const std::vector<T, Allocator> &values) {
    return from<T>(shape, Span<const T>(values.data(), values.size()));
  }

  /// The elements in place, in C order, as T (bool, int8_t ... uint64_t,
  /// Half, BFloat16, float, double), or an Error when T is not the dtype's
  /// type: view<float>() of an f32 tensor. The span is valid while the
  /// tensor lives and is not assigned to. (A bool view reads the bytes as
  /// bool: poison() leaves bytes that are neither 0 nor 1, which a bool
  /// must not hold.)
  template <class T> Expected<Span<const T>> view() const {
    if (Status status = checkElementType(dtypeOf<T>); !status)
      return status.error();
    return Span<const T>(reinterpret_cast<const T *>(bytes.data()),
                         static_cast<size_t>(count));
  }
  /// view() for writing.
  template <class T> Expected<Span<T>> span() {
    if (Status status = checkElementType(dtypeOf<T>); !status)
      return status.error();
    return Span<T>(reinterpret_cast<T *>(bytes.data()),
                   static_cast<size_t>(count));
  }

  /// Fills every byte with `pattern`, so that elements a kernel fails to
  /// write stand out (0xFF: NaN for floats, -1 for signed integers).
  void poison(uint8_t pattern = 0xFF);

  bool operator==(const HostTensor &other) const {
    return type == other.type && dims == other.dims && bytes == other.bytes;
  }

private:
  /// A tensor of `dtype` and `shape` holding `count` elements from `values`.
  static Expected<HostTensor> fromElements(DType dtype, const Shape &shape,
                                           const void *values, size_t count);
  /// Fails unless elements of `requested` are this tensor's.
  Status checkElementType(DType requested) const;

  DType type = DType::F32;
  Shape dims;
  int64_t count = 0;
  std::vector<uint8_t, ZeroedByteAllocator> bytes;
};

} // namespace tilec

#endif // TILEC_RUNTIME_HOSTTENSOR_H
