"""The exceptions of the tilec package: one per kind of the JIT's errors.

Every exception is a :class:`Error`. ``str(error)`` is the JIT's description:
a one-line message, then each diagnostic rendered as the command-line
compiler prints it (``file:line:col: error: message``, the source line and a
caret). ``error.diagnostics`` holds them one by one.
"""

from typing import List, NamedTuple


class Diagnostic(NamedTuple):
    """One message of the compiler about the program."""

    severity: str  # "error", "warning", "note" or "remark"
    file: str  # the source's name; "" when the message has no location
    line: int  # 1-based; 0 when the message has no location
    column: int
    message: str
    rendered: str  # "file:line:col: error: message", the line and a caret

    def location(self) -> str:
        """``file:line:col``, or ``""`` when there is no location."""
        if not self.line:
            return ""
        return f"{self.file}:{self.line}:{self.column}"


class Error(Exception):
    """A failure of tilec: its kind, message, diagnostics and driver code."""

    kind = "error"

    def __init__(self, message: str, description: str = "",
                 diagnostics: List[Diagnostic] = (), driver_code: int = 0):
        super().__init__(description or message)
        self.message = message
        self.diagnostics = list(diagnostics)
        self.driver_code = driver_code


class InvalidArgumentError(Error):
    """A bad argument: an unknown backend or dtype, a run with the wrong
    number of inputs, an input of an unsupported dtype, a device tensor of
    another device."""

    kind = "invalid argument"


class CompileError(Error):
    """The program is wrong for its inputs (syntax, types, shapes, a missing
    entry, a kernel the device cannot run); see ``diagnostics``."""

    kind = "compile"


class NoDeviceError(Error):
    """The backend has no driver or device, or no device matches."""

    kind = "no device"


class DeviceError(Error):
    """The device or its driver failed (out of memory, a failed launch);
    ``driver_code`` holds the driver's status."""

    kind = "device"


class CacheError(Error):
    """The kernel cache's directory cannot be created or written."""

    kind = "cache"


class FileError(Error):
    """A source file cannot be read."""

    kind = "file"


class InternalError(Error):
    """A bug of tilec: the compiler crashed and the JIT recovered; the
    process goes on."""

    kind = "internal"


_BY_KIND = {cls.kind: cls for cls in (InvalidArgumentError, CompileError,
                                      NoDeviceError, DeviceError, CacheError,
                                      FileError, InternalError)}


def _from_jit(kind, message, description, diagnostics, driver_code):
    """The exception for a JIT error (called by the compiled module)."""
    cls = _BY_KIND.get(kind, Error)
    return cls(message, description,
               [Diagnostic(*diagnostic) for diagnostic in diagnostics],
               driver_code)
