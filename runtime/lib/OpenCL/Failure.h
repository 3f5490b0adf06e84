//===- Failure.h - Errors from OpenCL status codes --------------*- C++ -*-===//
//
// Internal to the runtime's OpenCL layer.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_LIB_OPENCL_FAILURE_H
#define TILEC_RUNTIME_LIB_OPENCL_FAILURE_H

#include "OpenCL/OpenCL.h"

#include <string>

namespace tilec::opencl {

/// "<what>: CL_OUT_OF_RESOURCES (-5)", carrying the status as the driver
/// code. `what` says what was being done ("launching kernel 'f' ...").
Error driverFailure(cl_int status, const std::string &what);

/// `name` in single quotes, for messages: 'vadd'.
inline std::string quoted(std::string_view name) {
  return "'" + std::string(name) + "'";
}

} // namespace tilec::opencl

#endif // TILEC_RUNTIME_LIB_OPENCL_FAILURE_H
