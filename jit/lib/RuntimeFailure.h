//===- RuntimeFailure.h - The runtime's errors as the JIT's ------*- C++
//-*-===//
//
// Internal to the JIT library.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_JIT_LIB_RUNTIMEFAILURE_H
#define TILEC_JIT_LIB_RUNTIMEFAILURE_H

#include "tilec/JIT/Error.h"
#include "tilec/Runtime/Status.h"

namespace tilec::jit {

/// `error` of the runtime as an error of `kind`, keeping its message and
/// driver code.
Error fromRuntimeError(const tilec::Error &error, ErrorKind kind);

} // namespace tilec::jit

#endif // TILEC_JIT_LIB_RUNTIMEFAILURE_H
