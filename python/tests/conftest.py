"""Shared setup of the package's tests (docs/python.md, "Tests").

The package is imported from the build tree: PYTHONPATH=build/python (what
scripts/test.sh sets), else build/python of this checkout. The kernel cache
goes to the build tree, never the user's cache, unless TILEC_CACHE_DIR says
otherwise. Vulkan runs under the validation layers.
"""

import os
import pathlib
import sys

import numpy as np
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
try:
    import tilec  # noqa: F401
except ImportError:
    sys.path.insert(0, str(ROOT / "build" / "python"))
    import tilec  # noqa: F401

BUILD = pathlib.Path(tilec.__file__).resolve().parents[2]
os.environ.setdefault("TILEC_CACHE_DIR",
                      str(BUILD / "tests" / "python" / "jit-cache"))
# Vulkan runs under the validation layers, whose every message fails the run,
# as in the end-to-end suite.
os.environ.setdefault("TILEC_VULKAN_VALIDATION", "1")

MATMUL = ("function matmul(A[M, K], B[K, N]) -> (C) {\n"
          "  C[i, j : M, N] = +(A[i, k] * B[k, j]);\n"
          "}\n")


@pytest.fixture
def rng():
    return np.random.default_rng(1234)


def uniform(rng, shape, dtype=np.float32):
    """Random values in [-1, 1): never all zeros."""
    return rng.uniform(-1, 1, shape).astype(dtype)
