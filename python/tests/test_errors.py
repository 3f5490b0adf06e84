"""Every failure is a tilec.Error subclass carrying its file:line:col."""

import numpy as np
import pytest
import tilec

from conftest import MATMUL, uniform


def test_syntax_error_at_compile_carries_its_location():
    with pytest.raises(tilec.CompileError) as caught:
        tilec.compile("function f(A) -> (B) {\n  B = A + ;\n}\n",
                      name="bad.tile")
    error = caught.value
    assert isinstance(error, tilec.Error)
    assert error.kind == "compile"
    assert "bad.tile:2:11" in error.message
    first = error.diagnostics[0]
    assert (first.severity, first.file, first.line, first.column) == (
        "error", "bad.tile", 2, 11)
    assert first.location() == "bad.tile:2:11"
    assert first.rendered.startswith("bad.tile:2:11: error: ")
    # str() is what a tool prints: the message, then the rendered diagnostic
    # with the source line and a caret.
    assert "  B = A + ;\n          ^" in str(error)


def test_shape_error_at_the_call_names_the_statement(rng):
    f = tilec.compile(MATMUL, name="matmul.tile")
    with pytest.raises(tilec.CompileError) as caught:
        f(uniform(rng, (4, 3)), uniform(rng, (5, 2)))
    assert any(d.file == "matmul.tile" and d.line >= 1
               for d in caught.value.diagnostics)
    assert "matmul.tile:" in str(caught.value)


def test_missing_entry():
    with pytest.raises(tilec.CompileError, match="nope"):
        tilec.compile(MATMUL, "nope")


def test_wrong_number_of_inputs(rng):
    f = tilec.compile(MATMUL)
    with pytest.raises(tilec.InvalidArgumentError,
                       match=r"takes 2 inputs \(A, B\), got 1 positional"):
        f(uniform(rng, (2, 2)))
    with pytest.raises(tilec.InvalidArgumentError):
        f(uniform(rng, (2, 2)), C=uniform(rng, (2, 2)))


def test_array_of_no_tile_dtype(rng):
    f = tilec.compile("function f(A) -> (B) { B = A; }")
    with pytest.raises(tilec.InvalidArgumentError, match="complex128"):
        f(np.ones(3, np.complex128))


def test_argument_that_cannot_be_converted_to_the_declared_dtype():
    f = tilec.compile("function f(A) -> (B) { B = A; }", dtypes={"A": "f32"})
    with pytest.raises(tilec.InvalidArgumentError, match="'A'.*f32"):
        f("not a number")


def test_bad_dtype_declarations():
    with pytest.raises(tilec.InvalidArgumentError, match="'Z'"):
        tilec.compile(MATMUL, dtypes={"Z": "f32"})
    with pytest.raises(tilec.InvalidArgumentError, match="f128"):
        tilec.compile(MATMUL, dtypes={"A": "f128"})


def test_unknown_backend_and_device():
    with pytest.raises(tilec.InvalidArgumentError, match="metal"):
        tilec.Context(backend="metal")
    with pytest.raises(tilec.NoDeviceError):
        tilec.Context(device="no such device anywhere")


def test_unreadable_file(tmp_path):
    with pytest.raises(tilec.FileError, match="missing.tile"):
        tilec.compile_file(str(tmp_path / "missing.tile"))


def test_error_in_a_file_is_located_in_it(tmp_path):
    path = tmp_path / "broken.tile"
    path.write_text("function f(A) -> (B) {\n  B = exp(A, A);\n}\n")
    f = tilec.compile_file(str(path))
    with pytest.raises(tilec.CompileError) as caught:
        f(np.ones(4, np.float32))
    assert caught.value.diagnostics[0].location().startswith(f"{path}:2:")


def test_device_tensor_of_another_context(rng):
    first, second = tilec.Context(), tilec.Context()
    a = uniform(rng, 8)
    on_first = first.compile("function f(A) -> (B) { B = A + 1; }").on_device(a)
    g = second.compile("function g(A) -> (B) { B = A * 2; }")
    with pytest.raises(tilec.InvalidArgumentError, match="context"):
        g(on_first)


def test_every_kind_of_the_jit_has_its_exception():
    # The names errorKindName gives (runtime/lib/Error.cpp), the internal
    # error of a crash of the compiler included.
    from tilec.errors import _from_jit
    for kind, cls in [("invalid argument", tilec.InvalidArgumentError),
                      ("compile", tilec.CompileError),
                      ("no device", tilec.NoDeviceError),
                      ("device", tilec.DeviceError),
                      ("cache", tilec.CacheError), ("file", tilec.FileError),
                      ("internal", tilec.InternalError)]:
        error = _from_jit(kind, "message", "", [], 0)
        assert type(error) is cls and error.kind == kind
