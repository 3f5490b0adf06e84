//===- Error.cpp - A failure, as a value ----------------------------------===//

#include "tilec/Runtime/Error.h"

#include <algorithm>
#include <string_view>

namespace tilec {

const char *severityName(SourceDiagnostic::Severity severity) {
  switch (severity) {
  case SourceDiagnostic::Severity::Error:
    return "error";
  case SourceDiagnostic::Severity::Warning:
    return "warning";
  case SourceDiagnostic::Severity::Note:
    return "note";
  case SourceDiagnostic::Severity::Remark:
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
  case ErrorKind::Internal:
    return "internal";
  }
  return "invalid argument";
}

std::string Error::describe() const {
  std::string text = message();
  // The message of a compile error ends with its first error's first line,
  // and so does the message of an error that wraps one: that diagnostic
  // adds only its source line and caret.
  bool summarized = false;
  for (const SourceDiagnostic &diagnostic : diagnostics()) {
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

} // namespace tilec
