"""Tile's dtypes as the differential tester needs them: the promotion rules of
docs/language.md section 5, the cast builtin that produces each dtype, and
how each is stored in a .npy file (bf16 as the 2-byte void type holding
bfloat16 bit patterns, as tilec reads and writes it)."""

import numpy as np

# name -> (kind, bits): kind is "b" (bool), "i", "u" or "f".
DTYPES = {
    "bool": ("b", 8), "i8": ("i", 8), "i16": ("i", 16), "i32": ("i", 32),
    "i64": ("i", 64), "u8": ("u", 8), "u16": ("u", 16), "u32": ("u", 32),
    "u64": ("u", 64), "f16": ("f", 16), "bf16": ("f", 16), "f32": ("f", 32),
    "f64": ("f", 64),
}
NAMES = list(DTYPES)
FLOATS = ["f16", "bf16", "f32", "f64"]
INTEGERS = ["i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64"]


def kind(dtype):
    return DTYPES[dtype][0]


def bits(dtype):
    return DTYPES[dtype][1]


def is_float(dtype):
    return kind(dtype) == "f"


def is_integer(dtype):
    return kind(dtype) in "iu"


def promote(a, b):
    """The common type of two typed operands (docs/language.md, "Promotion")."""
    if a == b:
        return a
    if a == "bool":
        return b
    if b == "bool":
        return a
    ka, kb = kind(a), kind(b)
    if ka == "f" and kb == "f":
        if {a, b} == {"f16", "bf16"}:
            return "f32"
        return a if bits(a) > bits(b) else b
    if ka == "f":
        return a
    if kb == "f":
        return b
    if ka == kb:
        return a if bits(a) > bits(b) else b
    signed, unsigned = (a, b) if ka == "i" else (b, a)
    if bits(signed) > bits(unsigned):
        return signed
    return "i%d" % min(64, 2 * bits(unsigned))


def arithmetic(a, b):
    """The type `+ - * /` compute in: the promoted one, but i32 for two bools."""
    t = promote(a, b)
    return "i32" if t == "bool" else t


def cast_to(dtype, text):
    """The cast builtin that converts `text` to `dtype`."""
    k, n = DTYPES[dtype]
    if dtype == "bool":
        return "as_bool(%s)" % text
    if dtype == "bf16":
        return "as_bf16(%s)" % text
    if k == "f":
        return "as_float(%s, %d)" % (text, n)
    return "as_%s(%s, %d)" % ("int" if k == "i" else "uint", text, n)


def int_range(dtype):
    if dtype == "bool":
        return 0, 1
    n = bits(dtype)
    if kind(dtype) == "u":
        return 0, 2**n - 1
    return -(2**(n - 1)), 2**(n - 1) - 1


def float_limits(dtype):
    """(largest finite, smallest subnormal) of a float dtype."""
    return {
        "f16": (65504.0, 2.0**-24), "bf16": (3.3895313892515355e38, 2.0**-133),
        "f32": (3.4028234663852886e38, 2.0**-149),
        "f64": (1.7976931348623157e308, 5e-324),
    }[dtype]


def to_bf16_bits(values):
    """Rounds float32 values to bfloat16 (to nearest even; NaN stays NaN) and
    returns the bit patterns as uint16."""
    u = np.asarray(values, dtype=np.float32).view(np.uint32).astype(np.uint64)
    rounded = (u + 0x7FFF + ((u >> 16) & 1)) >> 16
    nan = np.isnan(np.asarray(values, dtype=np.float32))
    rounded = np.where(nan, (u >> 16) | 0x40, rounded)
    return rounded.astype(np.uint16)


def numpy_array(dtype, values):
    """An array of `dtype` as tilec's .npy files hold it."""
    if dtype == "bf16":
        return to_bf16_bits(values).view(np.dtype("V2"))
    np_name = {"bool": "bool", "f16": "float16", "f32": "float32",
               "f64": "float64"}.get(dtype)
    if np_name is None:
        np_name = ("int" if kind(dtype) == "i" else "uint") + str(bits(dtype))
    return np.asarray(values).astype(np_name)


def name_of(np_dtype):
    """The Tile dtype of an array read from a .npy file."""
    if np_dtype.kind == "V":
        return "bf16"
    if np_dtype.kind == "b":
        return "bool"
    return {"f": "f", "i": "i", "u": "u"}[np_dtype.kind] + str(8 * np_dtype.itemsize)


def as_float64(array):
    """An output array read from .npy as float64 (bf16 decoded), for comparing."""
    if array.dtype.kind == "V":
        bits32 = array.reshape(-1).view(np.uint16).astype(np.uint32) << 16
        return bits32.view(np.float32).astype(np.float64).reshape(array.shape)
    return array.astype(np.float64)
