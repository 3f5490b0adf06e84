"""Compiling from text and files, calling with NumPy arrays, shapes."""

import numpy as np
import pytest
import tilec

from conftest import MATMUL, uniform


def test_readme_example_matches_numpy(rng):
    f = tilec.compile("function f(A[M,K], B[K,N]) -> (C) "
                      "{ C[i,j : M,N] = +(A[i,k] * B[k,j]); }")
    a, b = uniform(rng, (4, 3)), uniform(rng, (3, 5))
    c = f(a, b)
    assert isinstance(c, np.ndarray)
    assert c.dtype == np.float32 and c.shape == (4, 5)
    np.testing.assert_allclose(c, a @ b, rtol=1e-5, atol=1e-6)


def test_function_tells_its_signature():
    f = tilec.compile(MATMUL)
    assert f.name == "matmul"
    assert f.inputs == ["A", "B"]
    assert f.outputs == ["C"]
    assert "matmul(A, B) -> (C)" in repr(f)


def test_several_outputs_come_back_as_a_tuple_in_order(rng):
    f = tilec.compile("function f(A[N], B[N]) -> (S, D, P) "
                      "{ S = A + B; D = A - B; P = A * B; }")
    a, b = uniform(rng, 100), uniform(rng, 100)
    s, d, p = f(a, b)
    np.testing.assert_array_equal(s, a + b)
    np.testing.assert_array_equal(d, a - b)
    np.testing.assert_array_equal(p, a * b)


def test_keyword_arguments_bind_by_name(rng):
    f = tilec.compile(MATMUL)
    a, b = uniform(rng, (5, 7)), uniform(rng, (7, 2))
    np.testing.assert_allclose(f(B=b, A=a), a @ b, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(f(a, B=b), a @ b, rtol=1e-5, atol=1e-6)


def test_entry_selects_one_function_of_several(rng):
    source = ("function double(A) -> (B) { B = 2 * A; }\n"
              "function square(A) -> (B) { B = A * A; }\n")
    a = uniform(rng, (3, 4))
    np.testing.assert_array_equal(tilec.compile(source, "square")(a), a * a)
    np.testing.assert_array_equal(tilec.compile(source, "double")(a), 2 * a)


def test_compile_file_names_the_file(tmp_path, rng):
    path = tmp_path / "matmul.tile"
    path.write_text(MATMUL)
    f = tilec.compile_file(str(path))
    a, b = uniform(rng, (6, 4)), uniform(rng, (4, 3))
    np.testing.assert_allclose(f(a, b), a @ b, rtol=1e-5, atol=1e-6)
    kernel_locations = [location for _, location, _, _ in f.program(a, b).kernels]
    assert any(str(path) + ":2:" in location for location in kernel_locations)


def test_each_new_shape_compiles_once_and_is_reused(rng):
    f = tilec.compile(MATMUL)
    for m, k, n in [(2, 3, 4), (16, 8, 5), (2, 3, 4)]:
        a, b = uniform(rng, (m, k)), uniform(rng, (k, n))
        np.testing.assert_allclose(f(a, b), a @ b, rtol=1e-5, atol=1e-6)
    stats = f.context.cache_stats()
    small = f.program(np.empty((2, 3), np.float32), np.empty((3, 4), np.float32))
    assert small.inputs == [("A", "f32", (2, 3)), ("B", "f32", (3, 4))]
    assert small.outputs == [("C", "f32", (2, 4))]
    # The C++ jit::Function holds one program per shape; asking again looks
    # it up there, without even the context's cache.
    assert f._function.specialization_count == 2
    assert f.context.cache_stats() == stats


def test_a_second_function_of_the_same_source_hits_the_memory_cache(rng):
    ctx = tilec.Context(disk_cache=False)
    a, b = uniform(rng, (3, 3)), uniform(rng, (3, 3))
    first = ctx.compile(MATMUL).program(a, b)
    second = ctx.compile(MATMUL).program(a, b)
    assert first.origin == "compiled"
    assert second.origin == "memory cache"
    assert ctx.cache_stats()["memory_hits"] == 1


def test_non_contiguous_and_list_inputs(rng):
    f = tilec.compile(MATMUL)
    a = uniform(rng, (6, 8))
    b = uniform(rng, (8, 5))
    np.testing.assert_allclose(f(a[::2, ::2], b[::2]), a[::2, ::2] @ b[::2],
                               rtol=1e-5, atol=1e-6)
    g = tilec.compile(MATMUL, dtypes={"A": "f32", "B": "f32"})
    np.testing.assert_allclose(g([[1, 2]], [[3], [4]]), [[11]])


def test_big_endian_input_is_taken_in_native_order(rng):
    f = tilec.compile("function f(A) -> (B) { B = A * 2; }")
    a = uniform(rng, 12).astype(">f4")
    result = f(a)
    assert result.dtype == np.float32
    np.testing.assert_array_equal(result, a.astype(np.float32) * 2)


def test_program_tells_its_kernels_and_schedule(rng):
    f = tilec.compile(MATMUL, name="matmul.tile")
    program = f.program(uniform(rng, (8, 8)), uniform(rng, (8, 8)))
    assert program.function == "matmul"
    name, location, flops, _ = program.kernels[0]
    assert location.startswith("matmul.tile:2:")
    assert flops == 2 * 8 * 8 * 8
    assert name in program.schedule


def test_scalar_parameter(rng):
    f = tilec.compile("function scale(A[N], S[]) -> (B) { B = A * S; }")
    a = uniform(rng, 10)
    np.testing.assert_array_equal(f(a, np.float32(3)), a * np.float32(3))


def test_devices_lists_the_default_device():
    listed = tilec.devices()
    assert listed and sum(device.is_default for device in listed) == 1
    default = next(device for device in listed if device.is_default)
    assert tilec.context().device_name == default.name
    assert default.profile["name"] == default.name
    by_index = tilec.Context(device=str(default.index))
    assert by_index.device_name == default.name
