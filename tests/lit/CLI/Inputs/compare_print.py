"""Compares `tilec run --print` with NumPy's print() of the same arrays:
every dtype NumPy has, ranks 0 to 3, small values and large, non-finite
ones, and arrays of more than 1000 elements (elided). Prints each
difference and exits 1 if there is any.

usage: compare_print.py TILEC IDENTITY_RANKS.tile IDENTITY.tile WORK_DIR
"""

import os
import subprocess
import sys

import numpy as np

tilec, ranks_tile, vector_tile, work = sys.argv[1:]
rng = np.random.default_rng(5)
cases = []
for dtype in [np.float16, np.float32, np.float64]:
    cases += [
        rng.standard_normal((3, 4)).astype(dtype),
        (rng.standard_normal(7) * 3e3).astype(dtype),
        (rng.standard_normal((2, 3, 4)) * 1e-6).astype(dtype),
        np.array([0.0, -0.0, 1.0, 2.5], dtype),
        np.array([np.nan, 1.5, -np.inf, np.inf], dtype),
        np.array([1e-5, 1, 100], dtype),
        np.arange(1200, dtype=dtype).reshape(30, 40) / 7,
        (rng.standard_normal((12, 12, 12)) * 1000).astype(dtype),
        np.array(0.1, dtype),
        np.array(-2.0, dtype),
    ]
cases.append(np.array(123456792.0, np.float32))
cases.append(np.array(1e-5, np.float64))
for dtype in [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16,
              np.uint32, np.uint64]:
    info = np.iinfo(dtype)
    cases += [
        rng.integers(info.min, info.max, (4, 5), dtype=dtype, endpoint=True),
        np.arange(1500, dtype=np.int64).astype(dtype).reshape(10, 150),
        np.array(info.max, dtype),
    ]
cases += [
    rng.integers(0, 2, (3, 3, 3)).astype(bool),
    np.ones((30, 40), bool),
    np.array(False),
]

entries = {0: "scalar", 2: "matrix", 3: "cube"}
differences = 0
for index, array in enumerate(cases):
    path = os.path.join(work, "case%d.npy" % index)
    np.save(path, array)
    if array.ndim == 1:
        command = [tilec, "run", vector_tile]
    else:
        command = [tilec, "run", ranks_tile, "--entry", entries[array.ndim]]
    command += ["--backend", "reference", "--print", "--input",
                "A=@" + path]
    result = subprocess.run(command, capture_output=True, text=True)
    lines = result.stdout.split("\n", 1)
    got = lines[1].rstrip("\n") if len(lines) > 1 else ""
    want = str(array)
    if result.returncode != 0 or got != want:
        differences += 1
        print("case %d, %s%s:\n%s\n--- NumPy prints:\n%s\n" %
              (index, array.dtype, list(array.shape),
               got + result.stderr, want))
print("%d arrays printed, %d differ from NumPy" % (len(cases), differences))
sys.exit(1 if differences else 0)
