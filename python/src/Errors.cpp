//===- Errors.cpp - The JIT's errors as Python exceptions ----------------===//

#include "Errors.h"

#include <pybind11/pybind11.h>

namespace py = pybind11;

namespace tilec::python {

void raiseError(const jit::Error &error) {
  py::list diagnostics;
  for (const jit::Diagnostic &diagnostic : error.diagnostics())
    diagnostics.append(py::make_tuple(jit::severityName(diagnostic.severity),
                                      diagnostic.file, diagnostic.line,
                                      diagnostic.column, diagnostic.message,
                                      diagnostic.rendered));
  py::object errors = py::module_::import("tilec.errors");
  py::object exception = errors.attr("_from_jit")(
      jit::errorKindName(error.kind()), error.message(), error.describe(),
      diagnostics, error.driverCode());
  PyErr_SetObject(reinterpret_cast<PyObject *>(Py_TYPE(exception.ptr())),
                  exception.ptr());
  throw py::error_already_set();
}

void raiseInvalidArgument(const std::string &message) {
  raiseError(jit::Error(jit::ErrorKind::InvalidArgument, message));
}

} // namespace tilec::python
