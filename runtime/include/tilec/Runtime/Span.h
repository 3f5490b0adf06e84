//===- Span.h - A view of contiguous elements -------------------*- C++ -*-===//
//
// std::span is C++20 and the public headers are C++17: this is the part of it
// that typed tensor access needs (HostTensor::view and span, and
// HostTensor::from's values).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_SPAN_H
#define TILEC_RUNTIME_SPAN_H

#include <cstddef>
#include <type_traits>
#include <vector>

namespace tilec {

/// `size()` elements of type T at `data()`, owned elsewhere. Indexing is
/// unchecked, as std::span's is.
template <class T> class Span {
public:
  Span() = default;
  Span(T *data, size_t size) : first(data), count(size) {}
  /// The elements of a vector (Span<const T> also of a const one).
  template <class U,
            class = std::enable_if_t<std::is_convertible_v<U (*)[], T (*)[]>>>
  Span(std::vector<U> &values) : first(values.data()), count(values.size()) {}
  template <class U, class = std::enable_if_t<
                         std::is_convertible_v<const U (*)[], T (*)[]>>>
  Span(const std::vector<U> &values)
      : first(values.data()), count(values.size()) {}
  /// A Span<const T> of a Span<T>.
  template <class U,
            class = std::enable_if_t<std::is_convertible_v<U (*)[], T (*)[]>>>
  Span(Span<U> other) : first(other.data()), count(other.size()) {}

  T *data() const { return first; }
  size_t size() const { return count; }
  bool empty() const { return count == 0; }
  T &operator[](size_t i) const { return first[i]; }
  T *begin() const { return first; }
  T *end() const { return first + count; }
  T &front() const { return first[0]; }
  T &back() const { return first[count - 1]; }

private:
  T *first = nullptr;
  size_t count = 0;
};

} // namespace tilec

#endif // TILEC_RUNTIME_SPAN_H
