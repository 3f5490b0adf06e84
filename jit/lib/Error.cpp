//===- Error.cpp - Failures of the JIT API, as values ---------------------===//

#include "tilec/JIT/Error.h"

#include "RuntimeFailure.h"

namespace tilec::jit {

const char *severityName(Diagnostic::Severity severity) {
  switch (severity) {
  case Diagnostic::Severity::Error:
    return "error";
  case Diagnostic::Severity::Warning:
    return "warning";
  case Diagnostic::Severity::Note:
    return "note";
  case Diagnostic::Severity::Remark:
    return "remark";
  }
  return "error";
}

const char *errorKindName(ErrorKind kind) {
  switch (kind) {
  case ErrorKind::InvalidArgument:
    return "invalid argument";
  case ErrorKind::Compile:
    return "compile";
  case ErrorKind::NoDevice:
    return "no device";
  case ErrorKind::Device:
    return "device";
  case ErrorKind::Cache:
    return "cache";
  case ErrorKind::File:
    return "file";
  }
  return "invalid argument";
}

std::string Error::describe() const {
  std::string text = message();
  for (const Diagnostic &diagnostic : diagnostics()) {
    if (!text.empty() && text.back() != '\n')
      text += '\n';
    text += diagnostic.rendered;
  }
  return text;
}

Error fromRuntimeError(const tilec::Error &error, ErrorKind kind) {
  return Error(kind, error.message(), {}, error.driverCode());
}

} // namespace tilec::jit
