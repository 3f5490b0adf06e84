"""Every dtype of the language, in and out, against NumPy on random inputs."""

import numpy as np
import pytest
import tilec

ARITHMETIC = ("function f(A[N], B[N]) -> (Sum, Less) "
              "{ Sum = A + B; Less = A < B; }")

NUMERIC = ["i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f16",
           "f32", "f64"]


def random_values(rng, dtype: np.dtype, size: int) -> np.ndarray:
    """Random values whose sums fit the dtype."""
    if dtype.kind == "f":
        return rng.uniform(-100, 100, size).astype(dtype)
    info = np.iinfo(dtype)
    low, high = max(info.min // 2, -1000), min(info.max // 2, 1000)
    return rng.integers(low, high, size, endpoint=True).astype(dtype)


def test_the_dtype_table_covers_the_language():
    assert set(tilec.DTYPES) == {"bool", "i8", "i16", "i32", "i64", "u8",
                                 "u16", "u32", "u64", "f16", "bf16", "f32",
                                 "f64"}


@pytest.mark.parametrize("name", NUMERIC)
def test_numeric_dtype_round_trips_and_computes(name, rng):
    dtype = tilec.DTYPES[name]
    a, b = random_values(rng, dtype, 257), random_values(rng, dtype, 257)
    assert np.count_nonzero(a) > 0
    f = tilec.compile(ARITHMETIC)
    total, less = f(a, b)
    assert total.dtype == dtype and less.dtype == np.bool_
    np.testing.assert_array_equal(total, a + b)
    np.testing.assert_array_equal(less, a < b)
    assert f.program(a, b).inputs[0] == ("A", name, (257,))


def test_bool(rng):
    f = tilec.compile("function f(A[N], B[N]) -> (And, Differ) "
                      "{ And = A && B; Differ = A != B; }")
    a, b = rng.random(300) < 0.5, rng.random(300) < 0.5
    both, differ = f(a, b)
    assert both.dtype == np.bool_
    np.testing.assert_array_equal(both, a & b)
    np.testing.assert_array_equal(differ, a != b)


def to_bf16(values) -> np.ndarray:
    """Rounds to bf16 (nearest even), as float32."""
    bits = np.asarray(values, np.float32).view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    return rounded.astype(np.uint32).view(np.float32)


def test_bf16_is_declared_and_crosses_as_float(rng):
    f = tilec.compile("function f(A[N], B[N]) -> (Sum) { Sum = A + B; }",
                      dtypes={"A": "bf16", "B": "bf16"})
    a, b = rng.uniform(-100, 100, 129), rng.uniform(-100, 100, 129)
    total = f(a, b)
    assert total.dtype == np.float32
    assert f.program(a, b).outputs == [("Sum", "bf16", (129,))]
    expected = to_bf16(to_bf16(a) + to_bf16(b))
    np.testing.assert_array_equal(total, expected)
    # Not the f32 sum: the inputs and the result were rounded to bf16.
    assert not np.array_equal(total, (a + b).astype(np.float32))
    on_device = f.on_device(a, b)
    assert on_device.dtype == "bf16"
    np.testing.assert_array_equal(on_device.numpy(), expected)


def test_declared_dtype_converts_the_argument(rng):
    f = tilec.compile("function f(A[N]) -> (B) { B = A * 2; }",
                      dtypes={"A": "i16"})
    a = rng.integers(-1000, 1000, 50)  # int64
    result = f(a)
    assert result.dtype == np.int16
    np.testing.assert_array_equal(result, (a * 2).astype(np.int16))


def test_casts_between_dtypes(rng):
    f = tilec.compile("function f(A[N]) -> (I, H) "
                      "{ I = as_int(A, 32); H = as_float(A, 16); }")
    a = rng.uniform(-50, 50, 64).astype(np.float64)
    as_int, as_half = f(a)
    np.testing.assert_array_equal(as_int, np.trunc(a).astype(np.int32))
    np.testing.assert_array_equal(as_half, a.astype(np.float16))
