//===- Support.h - What every example needs besides the JIT -----*- C++ -*-===//
//
// f32 tensors to and from std::vector<float>, and leaving on a failure with
// its description (the compiler's diagnostics included): the few lines each
// example would otherwise repeat.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_EXAMPLES_SUPPORT_H
#define TILEC_EXAMPLES_SUPPORT_H

#include "tilec/tilec.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace examples {

/// Prints what went wrong and leaves with status 1.
[[noreturn]] inline void fail(const std::string &description) {
  std::fprintf(stderr, "error: %s\n", description.c_str());
  std::exit(1);
}

/// The value of a JIT call's `result`, or leaves with its failure described
/// (with the compiler's diagnostics).
template <class T> T valueOrExit(tilec::jit::Expected<T> result) {
  if (!result)
    fail(result.error().describe());
  return std::move(*result);
}

/// The value of a runtime call's `result` (DeviceTensor::read), or leaves
/// with its failure.
template <class T> T valueOrExit(tilec::Expected<T> result) {
  if (!result)
    fail(result.error().message());
  return std::move(*result);
}

/// An f32 tensor of `shape` holding `values` in C order.
inline tilec::HostTensor makeF32Tensor(const tilec::Shape &shape,
                                       const std::vector<float> &values) {
  tilec::HostTensor tensor(tilec::DType::F32, shape);
  if (static_cast<int64_t>(values.size()) != tensor.numElements()) {
    std::fprintf(stderr, "error: %zu values for a tensor of %lld elements\n",
                 values.size(), static_cast<long long>(tensor.numElements()));
    std::exit(1);
  }
  std::memcpy(tensor.data(), values.data(), tensor.sizeInBytes());
  return tensor;
}

/// The elements of `tensor`, which must be of `dtype` (T's dtype), in C
/// order.
template <class T>
std::vector<T> readElements(const tilec::HostTensor &tensor,
                            tilec::DType dtype) {
  if (tensor.dtype() != dtype) {
    std::fprintf(stderr, "error: a tensor of %s where %s was expected\n",
                 tilec::dtypeName(tensor.dtype()), tilec::dtypeName(dtype));
    std::exit(1);
  }
  std::vector<T> values(tensor.numElements());
  std::memcpy(values.data(), tensor.data(), tensor.sizeInBytes());
  return values;
}

inline std::vector<float> readF32(const tilec::HostTensor &tensor) {
  return readElements<float>(tensor, tilec::DType::F32);
}

} // namespace examples

#endif // TILEC_EXAMPLES_SUPPORT_H
