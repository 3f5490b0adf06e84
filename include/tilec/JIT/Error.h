//===- Error.h - Failures of the JIT API, as values -------------*- C++ -*-===//
//
// Every function of the JIT API that can fail returns its failure: a Status
// (success or an Error) or an Expected<T> (a T or an Error). Nothing in the
// API throws or aborts the host process, whatever the program, the shapes,
// the device or the cache hold. A compile error carries every diagnostic
// the compiler reported, each with its source location and its rendered text
// (`file:line:col: error: message`, the source line and a caret).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_JIT_ERROR_H
#define TILEC_JIT_ERROR_H

#include "tilec/Runtime/Status.h"

#include <string>
#include <utility>
#include <vector>

namespace tilec::jit {

/// One message of the compiler about the program.
struct Diagnostic {
  enum class Severity { Error, Warning, Note, Remark };
  Severity severity = Severity::Error;
  /// The source's name (the file's path, or the name given with the text);
  /// empty when the message has no source location.
  std::string file;
  /// 1-based; 0 when the message has no source location.
  unsigned line = 0;
  unsigned column = 0;
  /// The message alone ("parameter 'A' is not bound").
  std::string message;
  /// The message as the command-line compiler prints it: `file:line:col:
  /// error: message`, then the source line and a caret under the column.
  std::string rendered;
};

/// "error", "warning", "note" or "remark".
const char *severityName(Diagnostic::Severity severity);

/// What kind of thing went wrong, so that a caller can react without
/// parsing messages.
enum class ErrorKind {
  /// A bad argument of the caller: an unknown option value, a run with the
  /// wrong number of inputs or an input of the wrong dtype or shape, a device
  /// tensor of another device.
  InvalidArgument,
  /// The program is wrong for the bindings (syntax, types, shapes, a
  /// missing entry or binding, a kernel the device cannot run): see
  /// Error::diagnostics().
  Compile,
  /// The backend has no driver or device, or no device matches the
  /// selector.
  NoDevice,
  /// The device or its driver failed (out of memory, a driver build or
  /// launch failure); Error::driverCode() holds the driver's status.
  Device,
  /// The kernel cache's directory cannot be created or written.
  Cache,
  /// A source file cannot be read.
  File,
};

/// "invalid argument", "compile", "no device", "device", "cache" or "file".
const char *errorKindName(ErrorKind kind);

/// A failure: its kind, a message for a human, the compiler's diagnostics
/// (for ErrorKind::Compile) and the driver's status code (for
/// ErrorKind::Device, when a driver call failed).
class Error {
public:
  Error(ErrorKind kind, std::string message,
        std::vector<Diagnostic> diagnostics = {}, int driverCode = 0)
      : errorKind(kind), text(std::move(message)),
        diags(std::move(diagnostics)), code(driverCode) {}

  ErrorKind kind() const { return errorKind; }
  /// One line that says what was being done and what went wrong.
  const std::string &message() const { return text; }
  /// Every diagnostic of a failed compile, in the order reported.
  const std::vector<Diagnostic> &diagnostics() const { return diags; }
  /// The driver's status code (an OpenCL cl_int), or 0.
  int driverCode() const { return code; }
  /// The message followed by every diagnostic's rendered text, each said
  /// once: what a tool prints. A compile error's message ends with its first
  /// error's first line (`file:line:col: error: message`), and so does the
  /// message of an error that wraps one; that diagnostic adds only its
  /// source line and caret.
  std::string describe() const;

private:
  ErrorKind errorKind;
  std::string text;
  std::vector<Diagnostic> diags;
  int code;
};

/// Success, or an Error.
using Status = tilec::BasicStatus<Error>;
/// A value of type T, or the Error that prevented computing it.
template <class T> using Expected = tilec::BasicExpected<T, Error>;

} // namespace tilec::jit

#endif // TILEC_JIT_ERROR_H
