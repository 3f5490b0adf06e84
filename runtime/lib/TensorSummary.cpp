//===- TensorSummary.cpp - One-line descriptions of tensors ---------------===//

#include "tilec/Runtime/TensorSummary.h"

#include <cstdio>

using namespace tilec;

std::string tilec::formatTensorType(DType dtype, const Shape &shape) {
  std::string text = std::string(dtypeName(dtype)) + "[";
  for (size_t i = 0; i < shape.size(); ++i)
    text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + "]";
}

double tilec::tensorChecksum(const HostTensor &tensor) {
  double sum = 0;
  for (int64_t i = 0; i < tensor.numElements(); ++i)
    sum += tensor.getDouble(i);
  return sum;
}

std::string tilec::formatOutputSummary(const std::string &name,
                                       const HostTensor &tensor) {
  char checksum[32];
  std::snprintf(checksum, sizeof checksum, "%.9g", tensorChecksum(tensor));
  return name + ": " + formatTensorType(tensor.dtype(), tensor.shape()) +
         ", checksum " + checksum + " (sum of elements)";
}
