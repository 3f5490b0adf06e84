//===- Error.cpp - Failures of the JIT API, as values ---------------------===//

#include "tilec/JIT/Error.h"

#include "RuntimeFailure.h"

#include <algorithm>
#include <string_view>

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
  // The message of a compile error ends with its first error's first line,
  // and so does the message of an error that wraps one: that diagnostic
  // adds only its source line and caret.
  bool summarized = false;
  for (const Diagnostic &diagnostic : diagnostics()) {
    std::string_view rendered = diagnostic.rendered;
    std::string_view firstLine = rendered.substr(0, rendered.find('\n'));
    if (!summarized && !firstLine.empty() && text.size() >= firstLine.size() &&
        std::string_view(text).substr(text.size() - firstLine.size()) ==
            firstLine) {
      summarized = true;
      rendered.remove_prefix(std::min(rendered.size(), firstLine.size() + 1));
    }
    if (!text.empty() && text.back() != '\n')
      text += '\n';
    text += rendered;
  }
  return text;
}

Error fromRuntimeError(const tilec::Error &error, ErrorKind kind) {
  return Error(kind, error.message(), {}, error.driverCode());
}

} // namespace tilec::jit
