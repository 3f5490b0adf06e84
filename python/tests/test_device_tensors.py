"""Device tensors: outputs that stay on the device between calls."""

import gc

import numpy as np
import tilec

from conftest import uniform

DENSE = ("function dense(X[M, K], W[K, N], B[N]) -> (Y) {\n"
         "  XW[i, j : M, N] = +(X[i, k] * W[k, j]);\n"
         "  Y = relu(XW + B);\n}\n")
SOFTMAX = ("function softmax(X[M, N]) -> (Y) {\n"
           "  RowMax[i : M] = >(X[i, j]);\n"
           "  ColumnMax = reshape(RowMax, M, 1);\n"
           "  E = exp(X - ColumnMax);\n"
           "  RowSum[i : M] = +(E[i, j]);\n"
           "  ColumnSum = reshape(RowSum, M, 1);\n"
           "  Y = E / ColumnSum;\n}\n")


def numpy_softmax(x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def check_dense_then_softmax_on_device(backend, rng):
    dense = tilec.compile(DENSE, backend=backend)
    softmax = tilec.compile(SOFTMAX, backend=backend)
    x, w, b = uniform(rng, (6, 8)), uniform(rng, (8, 4)), uniform(rng, 4)
    hidden = dense.on_device(x, w, b)
    assert isinstance(hidden, tilec.DeviceTensor)
    assert (hidden.shape, hidden.dtype, hidden.backend) == ((6, 4), "f32",
                                                            backend)
    probabilities = softmax.on_device(hidden)
    expected_hidden = np.maximum(x.astype(np.float64) @ w + b, 0)
    np.testing.assert_allclose(probabilities.numpy(),
                               numpy_softmax(expected_hidden), rtol=1e-5)
    # The hidden layer is still valid after the later run.
    np.testing.assert_allclose(hidden.numpy(), expected_hidden, rtol=1e-5,
                               atol=1e-6)


def test_chain_on_the_device(rng):
    check_dense_then_softmax_on_device("opencl", rng)


def test_several_outputs_on_the_device_and_mixed_inputs(rng):
    f = tilec.compile("function f(A[N], B[N]) -> (S, P) { S = A + B; P = A * B; }")
    a, b = uniform(rng, 33), uniform(rng, 33)
    s, p = f.on_device(a, b)
    # A device tensor and a NumPy array in one call; a NumPy result.
    again = f(s, b)
    np.testing.assert_array_equal(again[0], (a + b) + b)
    np.testing.assert_array_equal(np.asarray(p), a * b)
    assert "f32[33]" in repr(s)


def test_device_tensor_outlives_its_function(rng):
    a = uniform(rng, (4, 4))
    f = tilec.compile("function f(A) -> (B) { B = A * A; }")
    kept = f.on_device(a)
    del f
    gc.collect()
    np.testing.assert_array_equal(kept.numpy(), a * a)


def test_device_tensor_shape_picks_the_specialisation(rng):
    f = tilec.compile("function f(A) -> (B) { B = A - 1; }")
    small, large = f.on_device(uniform(rng, 3)), f.on_device(uniform(rng, 300))
    assert f(small).shape == (3,) and f(large).shape == (300,)
    np.testing.assert_array_equal(f(large), large.numpy() - 1)


def test_to_device_uploads_once_for_many_calls(rng):
    a = uniform(rng, (5, 3))
    on_device = tilec.to_device(a)
    assert (on_device.shape, on_device.dtype) == ((5, 3), "f32")
    np.testing.assert_array_equal(on_device.numpy(), a)
    f = tilec.compile("function f(A, S[]) -> (B) { B = A * S; }")
    for scale in (2, 3):
        np.testing.assert_array_equal(f(on_device, np.float32(scale)),
                                      a * np.float32(scale))


def test_to_device_converts_to_a_dtype(rng):
    values = rng.uniform(-10, 10, 20)
    as_i16 = tilec.to_device(values, "i16")
    assert as_i16.dtype == "i16"
    np.testing.assert_array_equal(as_i16.numpy(), values.astype(np.int16))
    as_bf16 = tilec.to_device(values, "bf16")
    assert as_bf16.dtype == "bf16"
    np.testing.assert_allclose(as_bf16.numpy(), values, rtol=2 ** -8)
