"""The Python examples (python/examples) run and agree with NumPy."""

import os
import pathlib
import re
import subprocess
import sys

import numpy as np
import tilec

EXAMPLES = pathlib.Path(__file__).resolve().parents[1] / "examples"


def run_example(name, *args):
    package_dir = str(pathlib.Path(tilec.__file__).resolve().parents[1])
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [package_dir] + [p for p in [env.get("PYTHONPATH")] if p])
    result = subprocess.run([sys.executable, str(EXAMPLES / name), *args],
                            capture_output=True, text=True, env=env,
                            timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout.splitlines()


def test_vector_add():
    lines = run_example("vector_add.py")
    assert lines[0].startswith("device: ")
    assert lines[1] == ("c = a + b over 50000 floats: 0 elements differ "
                        "from NumPy's sums")


def test_logistic_regression():
    lines = run_example("logistic_regression.py")
    assert lines[1] == "a * b = 0.5 -2 6 1 15 -12 10.5 0 36 -5"
    assert lines[2] == "array multiplication agrees with NumPy"
    # The values that the C++ example and plain NumPy descent reach.
    assert re.fullmatch(r"after 100 iterations: w = \{-?0\.0000, 5\.81\d+\}, "
                        r"b = -2\.90\d+, loss = 0\.053\d", lines[3]), lines[3]
    assert lines[-1] == "5 of 5 training points classified right"


def test_mandelbrot(tmp_path):
    image = tmp_path / "mandelbrot.png"
    lines = run_example("mandelbrot.py", "--size", "96", "--image", str(image))
    assert lines[0].startswith("Mandelbrot set, 100 iterations, device: ")
    assert "0 differing pixels" in lines[1]
    in_set = int(re.search(r"(\d+) pixels in the set", lines[1]).group(1))
    assert lines[2] == f"wrote {image} (96x96 PNG)"
    from PIL import Image
    with Image.open(image) as png:
        assert (png.format, png.mode, png.size) == ("PNG", "RGB", (96, 96))
        png.verify()
    with Image.open(image) as png:
        pixels = np.asarray(png)
    # Black inside the set (and nowhere else: the ramp starts at blue 128).
    black = np.all(pixels == 0, axis=-1)
    assert 0 < in_set == int(np.count_nonzero(black))
    # The corner c = -1.98 - 1.48i leaves |z| <= 2 after one iteration:
    # t = 0.01, the ramp's darkest blue.
    assert tuple(pixels[0, 0]) == (2, 2, 129)
