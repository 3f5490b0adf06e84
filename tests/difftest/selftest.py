#!/usr/bin/python3
"""Checks the differential test's own rules: the comparison (NaN equals NaN,
-0 equals +0, infinities by sign, integers exactly, floats within the
tolerance), bf16 storage, the promotion table's examples from
docs/language.md, known-issue matching, the in-process worker's fallbacks,
the blame of a driver's optimizer (through a fake tilec), the perturbed
reference's verdict on a program's conditioning (with the tilec given as the
argument), and that a seed always gives the same program and inputs. Run by the lit suite as the test `selftest`."""

import os
import shutil
import sys
import tempfile
import types

import numpy as np

sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import difftest  # noqa: E402
import dtypes as dt  # noqa: E402
import inprocess  # noqa: E402
import known_issues  # noqa: E402
import tilegen  # noqa: E402


def f32(*values):
    return np.array(values, dtype=np.float32)


def reference_run(tilec, source, args):
    """A work directory with `source` as prog.tile and its reference's
    outputs, and the options the driver's functions take."""
    work = tempfile.mkdtemp()
    with open(os.path.join(work, "prog.tile"), "w") as f:
        f.write(source)
    kind, text = difftest.run_tilec(tilec, os.path.join(work, "prog.tile"), args,
                                    "reference", os.path.join(work, "reference"), 60,
                                    dict(os.environ))
    assert kind is None, text
    return work, types.SimpleNamespace(tilec=tilec, timeout=60, device_args=[])


def check_ill_conditioned(tilec):
    """The perturbed reference (tilec run --perturb) flags the output that
    amplifies tanh's last ulp into an overflow, and not a well-conditioned
    one (an exp), nor an exact one."""
    args = ["--input=A=f32=3.4028234663852886e+38"]
    meta = {"outputs": {"T": {"approx": "f32", "exact": False, "precision": "f32"},
                        "E": {"approx": "f32", "exact": False, "precision": "f32"},
                        "S": {"approx": None, "exact": True, "precision": "f32"}}}
    work, options = reference_run(
        tilec, "function f(A) -> (T, E, S) {\n  T = (A / tanh(A)) * tanh(A);\n"
        "  E = exp(A / 1e38);\n  S = A * 0.5;\n}\n", args)
    difftest.ill_conditioned_outputs(options, dict(os.environ), work, args, meta, [],
                                     "ill-conditioned")
    found = difftest.outputs_named(work, "ill-conditioned")
    assert found == {"T"}, found
    shutil.rmtree(work)


def check_vulkan_models(tilec):
    """Quotients that err as Vulkan's may flag the output where A / A - 1
    divides itself (NaN on the reference, 1 when A / A is not exactly 1),
    and not a plain quotient; the reference that flushes subnormals agrees
    with a device's 0 for (pi/2 / 3.4e38) * 3.4e38 and not with a wrong
    value."""
    args = ["--input=A=f32=1.5707963705062866"]
    exact = {"approx": None, "exact": True, "precision": "f32"}
    inexact = {"approx": None, "exact": False, "precision": "f32"}
    meta = {"outputs": {"Q": inexact, "H": inexact, "S": exact, "W": exact}}
    work, options = reference_run(
        tilec, "function f(A) -> (Q, H, S, W) {\n  Q = (A / A - 1) / (A / A - 1);\n"
        "  H = A / 3;\n  S = (A / 3.4e38) * 3.4e38;\n  W = A * 2;\n}\n", args)
    env = dict(os.environ)
    difftest.ill_conditioned_outputs(options, env, work, args, meta, [], "plain")
    difftest.ill_conditioned_outputs(options, env, work, args, meta,
                                     ["--perturb-divisions"], "divisions")
    assert difftest.outputs_named(work, "plain") == set()
    found = difftest.outputs_named(work, "divisions")
    assert found == {"Q"}, found
    device = os.path.join(work, "vulkan")
    shutil.copytree(os.path.join(work, "reference"), device)
    np.save(os.path.join(device, "S.npy"), f32(0)[0])
    np.save(os.path.join(device, "W.npy"), f32(5)[0])
    difftest.flushing_reference_agrees(options, env, work, args, meta)
    found = difftest.outputs_named(work, "flushing-agrees")
    assert found == {"Q", "H", "S"}, found
    shutil.rmtree(work)


def fake_outputs(right):
    """The text of a fake tool's lines that write the outputs O, W and F to
    its --output-dir: O is 1 (the reference's value) where the Python
    expression `right` holds and 2 otherwise, W always 2, F always 1."""
    return ("out = sys.argv[sys.argv.index('--output-dir') + 1]\n"
            "os.makedirs(out)\n"
            "for name, value in (('O', 1 if %s else 2), ('W', 2), ('F', 1)):\n"
            "    np.save(os.path.join(out, name + '.npy'), np.float32([value]))\n" % right)


def write_fake(path, body):
    with open(path, "w") as f:
        f.write("#!%s\nimport os, sys\nimport numpy as np\n%s" % (sys.executable, body))
    os.chmod(path, 0o755)


def reference_of_ones(work):
    """Writes the reference's O, W and F (1 each); returns the meta.json
    that describes them."""
    os.makedirs(os.path.join(work, "reference"))
    for name in "OWF":
        np.save(os.path.join(work, "reference", name + ".npy"), f32(1))
    exact = {"approx": None, "exact": True, "precision": "f32"}
    return {"outputs": {name: exact for name in "OWF"}}


def check_blamed(work, written, fact, backend, issue):
    """That the check wrote `written` listing O alone, and that the known
    issue `issue` then explains O on `backend`, not on the other backend,
    and not W."""
    found = difftest.outputs_named(work, written)
    assert found == {"O"}, found
    facts = {fact: found}
    detail = "O (f32): 1 element(s) differ, the first [0]: 2.0, reference 1.0"
    other = "vulkan" if backend == "opencl" else "opencl"
    assert known_issues.match(backend, "mismatch", detail, "", facts) == issue
    assert known_issues.match(other, "mismatch", detail, "", facts) is None
    assert known_issues.match(backend, "mismatch", detail.replace("O (", "W ("), "",
                              facts) is None


def check_driver_optimizer():
    """The driver's optimizer is blamed for an output that a second run gets
    wrong again and the unoptimized run right (O), not for one that both get
    wrong (W) nor one that a second run gets right (F: a race, say). The
    tilec here is a fake that writes those outputs."""
    work = tempfile.mkdtemp()
    fake = os.path.join(work, "tilec")
    write_fake(fake, fake_outputs("'--no-driver-optimization' in sys.argv"))
    meta = reference_of_ones(work)
    options = types.SimpleNamespace(tilec=fake, timeout=60, device_args=[])
    difftest.unoptimized_driver_agrees(options, dict(os.environ), work, [], meta, "opencl")
    check_blamed(work, "unoptimized-agrees-opencl", "opencl_unoptimized_agrees_outputs",
                 "opencl", "opencl-driver-optimizer")
    shutil.rmtree(work)


def check_other_vulkan_device():
    """The Vulkan driver is blamed for an output that the device's own bundle
    gets wrong again and another Vulkan device right from the same bundle (O),
    not for one that both get wrong (W) nor one that the bundle gets right on
    the device too (F). The tilec and tile-run here are fakes: tilec checks
    the shapes it is given and writes the bundle, tile-run writes the
    outputs."""
    work = tempfile.mkdtemp()
    np.save(os.path.join(work, "A.npy"), np.zeros((2, 3), np.int16))
    args = ["--input=A=@" + os.path.join(work, "A.npy")]
    tilec = os.path.join(work, "tilec")
    write_fake(tilec, "assert sys.argv[1] == 'compile' and 'A=i16[2,3]' in sys.argv, sys.argv\n"
                      "open(sys.argv[sys.argv.index('-o') + 1], 'w').close()\n")
    write_fake(os.path.join(work, "tile-run"),
               "assert os.path.exists(sys.argv[1]) and sys.argv[2] == %r, sys.argv\n" % args[0]
               + fake_outputs("sys.argv[-2:] == ['--device', 'llvmpipe']"))
    meta = reference_of_ones(work)
    options = types.SimpleNamespace(tilec=tilec, timeout=60, device_args=[],
                                    other_vulkan_device="llvmpipe")
    difftest.other_vulkan_device_agrees(options, dict(os.environ), work, args, meta)
    check_blamed(work, "other-vulkan-device-agrees", "other_vulkan_device_agrees_outputs",
                 "vulkan", "vulkan-driver-miscompile")
    shutil.rmtree(work)


def main():
    compare = difftest.compare
    assert compare(f32(np.nan, 1, np.inf), f32(np.nan, 1, np.inf), None) is None
    assert compare(f32(0.0, 1), f32(-0.0, 1), None) is None
    assert compare(f32(np.inf), f32(-np.inf), None) is not None
    assert compare(f32(np.nan), f32(-np.inf), None) is not None
    assert compare(f32(1.0), f32(np.nan), None) is not None
    assert compare(f32(1.0), f32(1.000001), None) is None
    assert compare(f32(1.0), f32(1.0001), None) is not None
    assert compare(f32(1.0), f32(1.0001), "f32") is None
    assert compare(f32(1e6, 1e-3), f32(1e6, 1.2e-3), None) is None     # at the rms scale
    assert compare(f32(1e6, 1e-3), f32(1e6, 1.2e-3), None, exact=True) is not None
    assert compare(f32(2.4e-7), f32(1.8e-7), None) is None              # at unit scale
    assert compare(f32(2.4e-7), f32(1.8e-7), None, exact=True) is not None
    assert compare(f32(1e-4), f32(3e-4), None) is not None
    big = np.array([1.7e308, -1.7e308, 1.0])
    assert 1.38e308 < difftest.root_mean_square(big) < 1.39e308         # no overflow
    assert compare(big, np.array([1.7e308, -1.7e308, 2.0]), None, exact=True) is not None
    assert compare(np.array([0.5]), np.array([0.5 + 1e-7]), "f32") is None   # f32 sin in f64
    assert compare(np.array([0.5]), np.array([0.5 + 1e-7]), "f64") is not None
    assert compare(np.array([5], np.int32), np.array([5], np.int64), None) is not None
    assert compare(np.array([5, 7], np.int8), np.array([5, 6], np.int8), None) is not None
    assert compare(f32(1, 2), f32(1, 2, 3), None) is not None
    widened = np.array([15.734901428222656]), np.array([15.73490047454834])  # f32 sums
    assert compare(*widened, None) is not None
    assert compare(*widened, None, precision="f32") is None
    assert compare(*widened, None, exact=True, precision="f32") is not None

    bf16 = dt.numpy_array("bf16", f32(1.0, -2.5, np.inf, np.nan, 1.00390625))
    decoded = dt.as_float64(bf16)
    assert list(decoded[:3]) == [1.0, -2.5, np.inf] and np.isnan(decoded[3])
    assert decoded[4] == 1.0                      # a tie rounds to even
    assert dt.name_of(bf16.dtype) == "bf16"

    for a, b, common in [("i8", "u8", "i16"), ("i8", "u16", "i32"), ("i32", "u32", "i64"),
                         ("i64", "u64", "i64"), ("f16", "bf16", "f32"), ("i64", "f16", "f16"),
                         ("bool", "u8", "u8")]:
        assert dt.promote(a, b) == common, (a, b)
    assert dt.arithmetic("bool", "bool") == "i32"

    # The subnormal flush is explained on NVIDIA's Vulkan without f32 in
    # denorm_preserve and with an f32 subnormal input, nowhere else.
    nvidia = {"vulkan_vendor": "NVIDIA", "vulkan_denorm_preserve": {16},
              "subnormal_inputs": {"f32"}}
    flushed = "C3 (f32): 1 element(s) differ, the first [22]: 1.0, reference 1.78515625"
    assert known_issues.match("vulkan", "mismatch", flushed, "",
                              nvidia) == "vulkan-f32-subnormals-flushed"
    for facts in [dict(nvidia, vulkan_vendor="Mesa"),
                  dict(nvidia, vulkan_denorm_preserve={16, 32}),
                  dict(nvidia, subnormal_inputs=set()), None]:
        assert known_issues.match("vulkan", "mismatch", flushed, "", facts) is None
    assert known_issues.match("opencl", "mismatch", flushed, "", nvidia) is None
    # A subnormal result flushed to zero by a Vulkan device without f32
    # DenormPreserve (NumPy 1 and 2 print the values differently).
    lavapipe = {"vulkan_vendor": "Mesa", "vulkan_denorm_preserve": set()}
    for zero, tiny in [("0.0", "2.938735877055719e-39"),
                       ("np.float64(-0.0)", "np.float64(2.938735877055719e-39)")]:
        result = "T1 (f32): 6 element(s) differ, the first [0]: %s, reference %s" % (zero, tiny)
        assert known_issues.match("vulkan", "mismatch", result, "",
                                  lavapipe) == "vulkan-subnormal-results-flushed"
        assert known_issues.match("vulkan", "mismatch", result, "",
                                  dict(lavapipe, vulkan_denorm_preserve={32})) is None
    # The sign of a zero from min or max, shown by a division or atan2.
    for device, reference in [("inf", "-inf"), ("0.0", "inf"),
                              ("np.float64(3.1415927410125732)", "np.float64(0.0)")]:
        shown = "T7 (f32): 1 element(s) differ, the first [0]: %s, reference %s" % (
            device, reference)
        assert known_issues.match("opencl", "mismatch", shown, "  T = min(A, B);") == \
            "min-max-of-signed-zeros"
        assert known_issues.match("opencl", "mismatch", shown, "  T = A + B;") is None
    # pow on Vulkan within the accuracy of exp2(y * log2(x)), and not beyond.
    close = ("T7 (f32): 1 element(s) differ, the first [0]: np.float64(2.7934167232453984e+28), "
             "reference np.float64(2.7869135523618386e+28)")
    assert known_issues.match("vulkan", "mismatch", close, "  T7 = pow(T3, A);") == \
        "vulkan-pow-precision"
    assert known_issues.match("opencl", "mismatch", close, "  T7 = pow(T3, A);") is None
    assert known_issues.match("vulkan", "mismatch", close, "  T7 = exp(T3);") is None
    # An output that the perturbed reference moves too.
    moved = {"ill_conditioned_outputs": {"T7"}}
    assert known_issues.match("opencl", "mismatch", far_text := (
        "T7 (f32): 1 element(s) differ, the first [0]: 3.0, reference 2.0"), "", moved) == \
        "ill-conditioned"
    assert known_issues.match("opencl", "mismatch", far_text.replace("T7", "T8"), "",
                              moved) is None
    far = "T7 (f32): 1 element(s) differ, the first [0]: 3.0, reference 2.0"
    assert known_issues.match("vulkan", "mismatch", far, "  T7 = pow(T3, A);") is None
    other = "T7 (f32): 1 element(s) differ, the first [0]: 5.0, reference 3.1415927410125732"
    assert known_issues.match("opencl", "mismatch", other, "  T = min(A, B);") is None
    normal = "T1 (f32): 1 element(s) differ, the first [0]: 0.0, reference 1.5e-38"
    assert known_issues.match("vulkan", "mismatch", normal, "", lavapipe) is None
    work = tempfile.mkdtemp()
    np.save(os.path.join(work, "A.npy"), np.array([1.0, 1e-45], np.float32))
    np.save(os.path.join(work, "B.npy"), np.array([1e-300, 5e-324]))
    np.save(os.path.join(work, "C.npy"), np.array([1, 0], np.int32))
    np.save(os.path.join(work, "D.npy"), dt.numpy_array("bf16", [1.0, 1e-40]))
    assert difftest.subnormal_inputs(work) == {"f32", "f64", "bf16"}
    shutil.rmtree(work)

    known_issues.KNOWN_ISSUES.append({"id": "x", "backend": "vulkan", "detail": "nan"})
    assert known_issues.match("vulkan", "mismatch", "[0]: nan, reference 1", "") == "x"
    assert known_issues.match("opencl", "mismatch", "[0]: nan, reference 1", "") is None

    # The in-process worker: a reply is the backends' outcomes; a worker
    # that dies, hangs or answers nonsense is stopped, and the program goes
    # through `tilec run` instead (None).
    work = tempfile.mkdtemp()
    fakes = {"answers": 'read line; echo \'{"opencl": {"kind": null, "text": ""}}\'',
             "dies": "exit 3", "hangs": "sleep 30", "garbles": "read line; echo nonsense"}
    outcomes = {}
    for name, body in fakes.items():
        path = os.path.join(work, name)
        with open(path, "w") as f:
            f.write("#!/bin/sh\n%s\n" % body)
        os.chmod(path, 0o755)
        worker = inprocess.Worker(path, ["opencl"], dict(os.environ))
        outcomes[name] = worker.run("prog.tile", {}, work, timeout=2)
        worker.stop()
    assert outcomes == {"answers": {"opencl": (None, "")}, "dies": None, "hangs": None,
                        "garbles": None}, outcomes
    assert inprocess.input_files(["--input=A=@x/A.npy"]) == {"A": os.path.abspath("x/A.npy")}
    shutil.rmtree(work)
    check_driver_optimizer()
    check_other_vulkan_device()

    if len(sys.argv) > 1:
        check_ill_conditioned(sys.argv[1])
        check_vulkan_models(sys.argv[1])

    first, again = tilegen.generate(7), tilegen.generate(7)
    assert first[0] == again[0] and first[2] == again[2]
    for name in first[1]:
        assert first[1][name].tobytes() == again[1][name].tobytes()
    print("selftest: ok")


if __name__ == "__main__":
    main()
