"""tilec for Python: compile Tile programs at run time, run them on NumPy arrays.

    import numpy as np, tilec
    f = tilec.compile("function f(A[M,K], B[K,N]) -> (C) "
                      "{ C[i,j : M,N] = +(A[i,k] * B[k,j]); }")
    C = f(np.ones((4, 3), np.float32), np.ones((3, 5), np.float32))

A thin layer over tilec's C++ JIT (the compiled module ``tilec._tilec``):
the same compiler, devices, kernel cache and errors. docs/python.md is the
reference.
"""

import json
import threading
from typing import Dict, List, NamedTuple, Optional

import numpy as np

from . import _tilec
from .errors import (CacheError, CompileError, DeviceError, Diagnostic, Error,
                     FileError, InternalError, InvalidArgumentError,
                     NoDeviceError)

__all__ = [
    "CacheError", "CompileError", "Context", "Device", "DeviceError",
    "DeviceTensor", "Diagnostic", "DTYPES", "Error", "FileError", "Function",
    "InternalError", "InvalidArgumentError", "NoDeviceError", "Program",
    "compile", "compile_file", "context", "devices", "to_device",
]

DeviceTensor = _tilec.DeviceTensor
Program = _tilec.Program

# Every dtype of the language and the NumPy dtype that carries it. NumPy has
# no bfloat16: a bf16 input is given as any real array (converted to float64,
# then rounded once to bf16, to nearest even) and a bf16 output comes back
# as float32, which holds every bf16 value exactly.
DTYPES: Dict[str, np.dtype] = {
    "bool": np.dtype(np.bool_),
    "i8": np.dtype(np.int8),
    "i16": np.dtype(np.int16),
    "i32": np.dtype(np.int32),
    "i64": np.dtype(np.int64),
    "u8": np.dtype(np.uint8),
    "u16": np.dtype(np.uint16),
    "u32": np.dtype(np.uint32),
    "u64": np.dtype(np.uint64),
    "f16": np.dtype(np.float16),
    "bf16": np.dtype(np.float32),
    "f32": np.dtype(np.float32),
    "f64": np.dtype(np.float64),
}
# The Tile dtype of a NumPy array's dtype (bf16 only by declaration).
_TILE_DTYPE = {dtype: name for name, dtype in DTYPES.items() if name != "bf16"}


class Device(NamedTuple):
    """A device a context may open (``tilec.devices()``)."""

    index: int  # what ``device=`` takes to pick exactly this device
    platform: str
    name: str
    is_default: bool  # whether ``device=""`` picks it
    profile: dict  # every field of the device profile the driver reports


def devices(backend: str = "opencl") -> List[Device]:
    """The devices of ``backend`` ("opencl" or "vulkan") on this machine."""
    return [Device(index, platform, name, is_default, json.loads(profile))
            for index, platform, name, is_default, profile
            in _tilec.list_devices(backend)]


class Context:
    """One device of one backend, with its kernel cache.

    ``device`` is what the tools' ``--device`` takes: "" for the default
    device (the first GPU, else the first CPU), a number for an index of
    ``devices()``, else the first device whose name contains the text.
    ``cache_dir`` (default: $TILEC_CACHE_DIR, else ~/.cache/tilec) and
    ``disk_cache`` control the disk half of the kernel cache;
    ``profile_overrides`` is a dict of device profile fields to pretend.
    """

    def __init__(self, backend: str = "opencl", device: str = "", *,
                 cache_dir: Optional[str] = None, disk_cache: bool = True,
                 profile_overrides: Optional[dict] = None):
        overrides = (json.dumps(profile_overrides)
                     if profile_overrides is not None else None)
        self._context = _tilec.Context(backend, str(device), cache_dir,
                                       disk_cache, overrides)
        self.backend = self._context.backend
        self.profile = json.loads(self._context.profile)
        self.device_name = self.profile["name"]
        self._lock = threading.Lock()
        # The copying programs of to_device(), by the dtype asked for.
        self._uploads: Dict[Optional[str], Function] = {}

    def compile(self, source: str, entry: Optional[str] = None, *,
                name: str = "<string>",
                dtypes: Optional[Dict[str, str]] = None) -> "Function":
        """The Tile function ``entry`` (None: the only one) of ``source``.

        ``name`` names the source in diagnostics. ``dtypes`` fixes the dtype
        of some parameters (``{"W": "bf16"}``): their arguments are converted
        to it; the others take their array's dtype.
        """
        return Function(self, source, entry or "", name, dtypes or {})

    def compile_file(self, path: str, entry: Optional[str] = None, *,
                     dtypes: Optional[Dict[str, str]] = None) -> "Function":
        """compile() of the file at ``path``, named by its path."""
        try:
            with open(path, encoding="utf-8") as file:
                source = file.read()
        except (OSError, UnicodeDecodeError) as error:
            raise FileError(f"cannot read '{path}': {error}") from error
        return self.compile(source, entry, name=str(path), dtypes=dtypes)

    def to_device(self, value, dtype: Optional[str] = None) -> DeviceTensor:
        """``value`` (an array, or anything np.asarray takes; ``dtype``, a
        Tile dtype name, converts it) as a DeviceTensor of this context, to
        go into many calls without being uploaded again. The JIT uploads
        only as part of a run, so this runs a program that copies it."""
        with self._lock:
            upload = self._uploads.get(dtype)
            if upload is None:
                upload = self.compile(
                    "function upload(A) -> (B) { B = A; }", name="upload.tile",
                    dtypes={"A": dtype} if dtype else None)
                self._uploads[dtype] = upload
        return upload.on_device(value)

    def cache_stats(self) -> dict:
        """What the kernel cache has done since the context was created."""
        return self._context.cache_stats()

    def __repr__(self):
        return f"<tilec.Context {self.backend}: {self.device_name}>"


_contexts: Dict[tuple, Context] = {}
_contexts_lock = threading.Lock()


def context(backend: str = "opencl", device: str = "") -> Context:
    """The context that compile() uses for ``backend`` and ``device``: opened
    on first use and shared from then on."""
    key = (backend, str(device))
    with _contexts_lock:
        if key not in _contexts:
            _contexts[key] = Context(backend, device)
        return _contexts[key]


def compile(source: str, entry: Optional[str] = None, *,
            backend: str = "opencl", device: str = "",
            name: str = "<string>",
            dtypes: Optional[Dict[str, str]] = None) -> "Function":
    """Context.compile() on the shared context of ``backend`` and ``device``."""
    return context(backend, device).compile(source, entry, name=name,
                                            dtypes=dtypes)


def compile_file(path: str, entry: Optional[str] = None, *,
                 backend: str = "opencl", device: str = "",
                 dtypes: Optional[Dict[str, str]] = None) -> "Function":
    """Context.compile_file() on the shared context of ``backend`` and
    ``device``."""
    return context(backend, device).compile_file(path, entry, dtypes=dtypes)


def to_device(value, dtype: Optional[str] = None, *, backend: str = "opencl",
              device: str = "") -> DeviceTensor:
    """Context.to_device() on the shared context of ``backend`` and
    ``device``."""
    return context(backend, device).to_device(value, dtype)


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 else "s")


class Function:
    """A Tile function, callable on NumPy arrays and device tensors.

    The source is parsed when the Function is made (syntax errors and a
    missing entry raise CompileError then). Each call with a combination of
    dtypes and shapes not seen before compiles the function for it (or finds
    it in the kernel cache); later calls with the same combination reuse
    that program.
    """

    def __init__(self, ctx: Context, source: str, entry: str, name: str,
                 dtypes: Dict[str, str]):
        self.context = ctx
        # The C++ jit::Function: it parses the source now and compiles a
        # program for each new combination of dtypes and shapes.
        self._function = ctx._context.load(source, entry, name)
        function, parameters, results = self._function.signature
        self.name = function or "<anonymous>"
        self.inputs = [parameter for parameter, _ in parameters]
        self.outputs = list(results)
        for parameter, dtype in dtypes.items():
            if parameter not in self.inputs:
                raise InvalidArgumentError(
                    f"dtypes names '{parameter}', which is not a parameter of "
                    f"'{self.name}' ({', '.join(self.inputs)})")
            if dtype not in DTYPES:
                raise InvalidArgumentError(
                    f"unknown dtype '{dtype}' for '{parameter}' (expected one "
                    f"of {', '.join(DTYPES)})")
        self._dtypes = dict(dtypes)

    def __call__(self, *args, **kwargs):
        """Runs the function; returns its output as a NumPy array, or a
        tuple of arrays in ``-> (...)`` order when it has several."""
        program, arguments = self._specialize(args, kwargs)
        return _one_or_tuple(program.run(arguments))

    def on_device(self, *args, **kwargs):
        """Runs the function and leaves its outputs on the device: a
        DeviceTensor, or a tuple of them. They go into any function of the
        same context without a copy; ``.numpy()`` reads one back."""
        program, arguments = self._specialize(args, kwargs)
        return _one_or_tuple(program.run_on_device(arguments))

    def program(self, *args, **kwargs) -> Program:
        """The program compiled for these arguments' dtypes and shapes
        (arrays of the right dtype and shape, e.g. ``np.empty``), without
        running it: its inputs, outputs, kernels, schedule and origin."""
        return self._specialize(args, kwargs)[0]

    def _specialize(self, args, kwargs):
        arguments = self._bind(args, kwargs)
        types = [
            (argument.dtype, list(argument.shape))
            if isinstance(argument, DeviceTensor) else
            (self._tile_dtype(parameter, argument), list(argument.shape))
            for parameter, argument in zip(self.inputs, arguments)]
        return self._function.specialize(types), arguments

    def _bind(self, args, kwargs) -> list:
        """One argument per parameter, in order; arrays converted to their
        parameter's declared dtype, or checked to have a Tile dtype."""
        if len(args) + len(kwargs) != len(self.inputs) or (
                kwargs and set(kwargs) != set(self.inputs[len(args):])):
            raise InvalidArgumentError(
                f"'{self.name}' takes {_plural(len(self.inputs), 'input')} "
                f"({', '.join(self.inputs)}), got "
                + ", ".join([_plural(len(args), "positional")]
                            + ([f"keywords {', '.join(kwargs)}"]
                               if kwargs else [])))
        values = list(args) + [kwargs[name] for name in self.inputs[len(args):]]
        return [self._convert(parameter, value)
                for parameter, value in zip(self.inputs, values)]

    def _convert(self, parameter: str, value):
        declared = self._dtypes.get(parameter)
        if isinstance(value, DeviceTensor):
            if declared and value.dtype != declared:
                raise InvalidArgumentError(
                    f"input '{parameter}' is a device tensor of {value.dtype} "
                    f"where {declared} was declared")
            return value
        # bf16 values cross as float64, each rounded once to bf16 there.
        carrier = (np.float64 if declared == "bf16" else
                   DTYPES[declared] if declared else None)
        try:
            array = np.asarray(value, dtype=carrier, order="C")
        except (TypeError, ValueError) as error:
            raise InvalidArgumentError(
                f"input '{parameter}' cannot be converted to "
                f"{declared or 'an array'}: {error}") from error
        if declared:
            return array
        if not array.dtype.isnative:
            array = array.astype(array.dtype.newbyteorder("="))
        if array.dtype not in _TILE_DTYPE:
            raise InvalidArgumentError(
                f"input '{parameter}' is an array of {array.dtype}, which Tile "
                f"has no dtype for (it takes {', '.join(map(str, _TILE_DTYPE))})")
        return array

    def _tile_dtype(self, parameter: str, array: np.ndarray) -> str:
        return self._dtypes.get(parameter) or _TILE_DTYPE[array.dtype]

    def __repr__(self):
        return (f"<tilec.Function {self.name}({', '.join(self.inputs)}) -> "
                f"({', '.join(self.outputs)}) on {self.context.backend}: "
                f"{self.context.device_name}>")


def _one_or_tuple(outputs: list):
    return outputs[0] if len(outputs) == 1 else tuple(outputs)
