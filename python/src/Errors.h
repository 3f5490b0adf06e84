//===- Errors.h - The JIT's errors as Python exceptions ---------*- C++ -*-===//
//
// A jit::Error becomes an instance of the package's tilec.Error subclass for
// its kind (tilec/errors.py builds it), carrying the message, every
// diagnostic with its `file:line:col`, and the rendered text.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_PYTHON_ERRORS_H
#define TILEC_PYTHON_ERRORS_H

#include "tilec/tilec.h"

#include <string>

namespace tilec::python {

/// Raises `error` as a Python exception (sets it and throws
/// pybind11::error_already_set). Needs the GIL.
[[noreturn]] void raiseError(const jit::Error &error);

/// Raises tilec.InvalidArgumentError with `message`.
[[noreturn]] void raiseInvalidArgument(const std::string &message);

/// The value of `result`, or raises its error.
template <class T> T valueOrRaise(jit::Expected<T> result) {
  if (!result)
    raiseError(result.error());
  return std::move(*result);
}

} // namespace tilec::python

#endif // TILEC_PYTHON_ERRORS_H
