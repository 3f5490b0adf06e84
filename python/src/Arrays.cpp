//===- Arrays.cpp - NumPy arrays to and from the JIT's host tensors ------===//

#include "Arrays.h"
#include "Errors.h"

#include <cstring>
#include <memory>

namespace py = pybind11;

namespace tilec::python {

py::dtype numpyDType(DType dtype) {
  switch (dtype) {
  case DType::Bool:
    return py::dtype::of<bool>();
  case DType::I8:
    return py::dtype::of<int8_t>();
  case DType::I16:
    return py::dtype::of<int16_t>();
  case DType::I32:
    return py::dtype::of<int32_t>();
  case DType::I64:
    return py::dtype::of<int64_t>();
  case DType::U8:
    return py::dtype::of<uint8_t>();
  case DType::U16:
    return py::dtype::of<uint16_t>();
  case DType::U32:
    return py::dtype::of<uint32_t>();
  case DType::U64:
    return py::dtype::of<uint64_t>();
  case DType::F16:
    return py::dtype("float16");
  case DType::BF16:
    // Inputs; toArray widens outputs to float32.
    return py::dtype::of<double>();
  case DType::F32:
    return py::dtype::of<float>();
  case DType::F64:
    return py::dtype::of<double>();
  }
  return py::dtype::of<double>();
}

static Shape shapeOf(const py::array &array) {
  return Shape(array.shape(), array.shape() + array.ndim());
}

HostTensor toHostTensor(const py::array &array, DType dtype,
                        const std::string &parameter) {
  py::dtype expected = numpyDType(dtype);
  if (!array.dtype().is(expected) && !array.dtype().equal(expected))
    raiseInvalidArgument("input '" + parameter + "' is a NumPy array of " +
                         py::str(array.dtype()).cast<std::string>() +
                         " where " + dtypeName(dtype) + " was expected");
  // A C-ordered copy only where the array is not one already.
  auto contiguous = py::array::ensure(array, py::array::c_style);
  if (!contiguous)
    throw py::error_already_set();
  HostTensor tensor(dtype, shapeOf(contiguous));
  if (dtype == DType::BF16) {
    const double *values = static_cast<const double *>(contiguous.data());
    for (int64_t i = 0; i < tensor.numElements(); ++i)
      tensor.setDouble(i, values[i]);
  } else {
    std::memcpy(tensor.data(), contiguous.data(), tensor.sizeInBytes());
  }
  return tensor;
}

py::array toArray(HostTensor tensor) {
  const Shape shape = tensor.shape();
  if (tensor.dtype() == DType::BF16) {
    py::array_t<float> widened(shape);
    float *values = widened.mutable_data();
    for (int64_t i = 0; i < tensor.numElements(); ++i)
      values[i] = static_cast<float>(tensor.getDouble(i));
    return std::move(widened);
  }
  py::dtype dtype = numpyDType(tensor.dtype());
  // The array keeps the tensor alive through a capsule that owns it.
  auto *owned = new HostTensor(std::move(tensor));
  py::capsule owner(
      owned, [](void *pointer) { delete static_cast<HostTensor *>(pointer); });
  return py::array(dtype, shape, owned->data(), owner);
}

} // namespace tilec::python
