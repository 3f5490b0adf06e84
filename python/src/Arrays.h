//===- Arrays.h - NumPy arrays to and from host tensors ---------*- C++ -*-===//
//
// The one place that maps Tile dtypes to NumPy's and copies elements across.
// Every dtype maps to the NumPy dtype of the same name (bool, int8 ...
// float64), except bf16, which NumPy lacks: a bf16 tensor crosses as float64
// values on the way in (each rounded once to bf16, to nearest even) and as
// float32 on the way out (every bf16 value is exactly a float32).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_PYTHON_ARRAYS_H
#define TILEC_PYTHON_ARRAYS_H

#include "tilec/tilec.h"

#include <pybind11/numpy.h>

namespace tilec::python {

/// The NumPy dtype that carries `dtype` across the binding.
pybind11::dtype numpyDType(DType dtype);

/// A host tensor of `dtype` and the array's shape holding the array's
/// elements. The array must already be of numpyDType(dtype) (the package
/// converts it); anything else raises tilec.InvalidArgumentError naming
/// `parameter`.
HostTensor toHostTensor(const pybind11::array &array, DType dtype,
                        const std::string &parameter);

/// The tensor as a NumPy array. Takes the tensor's storage without copying,
/// except for bf16 (widened to float32).
pybind11::array toArray(HostTensor tensor);

} // namespace tilec::python

#endif // TILEC_PYTHON_ARRAYS_H
