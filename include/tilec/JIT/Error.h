//===- Error.h - Failures of the JIT API, as values -------------*- C++ -*-===//
//
// Every function of the JIT API that can fail returns its failure: a Status
// (success or an Error) or an Expected<T> (a T or an Error). Nothing in the
// API throws or aborts the host process, whatever the program, the shapes,
// the device or the cache hold. A compile error carries every diagnostic
// the compiler reported, each with its source location and its rendered text
// (`file:line:col: error: message`, the source line and a caret).
//
// These are the runtime's error types (tilec/Runtime/Status.h), named in the
// JIT's namespace: a failure of the runtime passes through the JIT as it is.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_JIT_ERROR_H
#define TILEC_JIT_ERROR_H

#include "tilec/Runtime/Status.h"

namespace tilec::jit {

using Diagnostic = tilec::SourceDiagnostic;
using tilec::Error;
using tilec::ErrorKind;
using tilec::errorKindName;
using tilec::Expected;
using tilec::severityName;
using tilec::Status;

} // namespace tilec::jit

#endif // TILEC_JIT_ERROR_H
