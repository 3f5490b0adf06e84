//===- Error.h - A failure, as a value --------------------------*- C++ -*-===//
//
// The one error type of the runtime and the JIT (which names it
// tilec::jit::Error): what kind of thing went wrong, a message for a human,
// the compiler's diagnostics when a compile failed, and the driver's status
// code when a driver call failed. Status.h returns it.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_ERROR_H
#define TILEC_RUNTIME_ERROR_H

#include <string>
#include <utility>
#include <vector>

namespace tilec {

/// One message of the compiler about the program.
struct SourceDiagnostic {
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
const char *severityName(SourceDiagnostic::Severity severity);

/// What kind of thing went wrong, so that a caller can react without
/// parsing messages.
enum class ErrorKind {
  /// A bad argument of the caller: an unknown option value, a run with the
  /// wrong number of inputs or an input of the wrong dtype or shape, a device
  /// tensor of another device, a profile file or overrides that cannot be
  /// applied.
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
  /// A bug of tilec: the compiler crashed (a signal, LLVM's fatal error, an
  /// uncaught exception) and the JIT recovered; the process goes on.
  Internal,
};

/// "invalid argument", "compile", "no device", "device", "cache", "file" or
/// "internal".
const char *errorKindName(ErrorKind kind);

/// A failure: its kind, a message for a human that says what was being done
/// and what went wrong, the compiler's diagnostics (for ErrorKind::Compile)
/// and, when a driver call failed, the driver's status code (an OpenCL
/// cl_int or a VkResult), so that callers can react to particular failures
/// (an autotuner retrying with a smaller work-group, say).
class Error {
public:
  Error(ErrorKind kind, std::string message,
        std::vector<SourceDiagnostic> diagnostics = {}, int driverCode = 0)
      : errorKind(kind), text(std::move(message)),
        diags(std::move(diagnostics)), code(driverCode) {}
  /// A failure of the runtime's work on a device or its data: of
  /// ErrorKind::Device. The runtime gives another kind only where a caller
  /// tells the cases apart (choosing a device: NoDevice, InvalidArgument).
  explicit Error(std::string message, int driverCode = 0)
      : Error(ErrorKind::Device, std::move(message), {}, driverCode) {}

  ErrorKind kind() const { return errorKind; }
  /// One line that says what was being done and what went wrong.
  const std::string &message() const { return text; }
  /// Every diagnostic of a failed compile, in the order reported.
  const std::vector<SourceDiagnostic> &diagnostics() const { return diags; }
  /// The driver's status code, or 0 when the failure was found before or
  /// without calling the driver.
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
  std::vector<SourceDiagnostic> diags;
  int code;
};

} // namespace tilec

#endif // TILEC_RUNTIME_ERROR_H
