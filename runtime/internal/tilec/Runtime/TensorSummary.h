//===- TensorSummary.h - One-line descriptions of tensors -------*- C++ -*-===//
//
// What `tilec run` and `tile-run` print about a tensor, shared so that the
// two tools print the same lines for the same results.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_TENSORSUMMARY_H
#define TILEC_RUNTIME_TENSORSUMMARY_H

#include "tilec/Runtime/HostTensor.h"

#include <string>

namespace tilec {

/// "f32[13, 5]"; a scalar is "f32[]".
std::string formatTensorType(DType dtype, const Shape &shape);

/// The sum of the elements, each converted to f64.
double tensorChecksum(const HostTensor &tensor);

/// "C: f32[13, 5], checksum 12.3456789 (sum of elements)".
std::string formatOutputSummary(const std::string &name,
                                const HostTensor &tensor);

} // namespace tilec

#endif // TILEC_RUNTIME_TENSORSUMMARY_H
