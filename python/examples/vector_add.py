"""c = a + b over 50,000 random floats on the default device.

The first program of GPU computing (PyOpenCL's classic), as a Tile function
compiled at run time: NumPy arrays in, a NumPy array out, compared with
NumPy's own sums (f32 addition rounds once on both sides, so every element
must be equal). Run from the repository root after scripts/setup.sh:

    PYTHONPATH=build/python python3 python/examples/vector_add.py
"""

import sys

import numpy as np
import tilec

VECTOR_ADD = """
function vector_add(A[N], B[N]) -> (C) {
  C = A + B;
}
"""


def main() -> int:
    rng = np.random.default_rng(2026)
    a = rng.uniform(-1, 1, 50_000).astype(np.float32)
    b = rng.uniform(-1, 1, 50_000).astype(np.float32)

    vector_add = tilec.compile(VECTOR_ADD, name="vector_add.tile")
    c = vector_add(a, b)

    differences = int(np.count_nonzero(c != a + b))
    print(f"device: {vector_add.context.device_name}")
    print(f"c = a + b over {a.size} floats: {differences} elements differ "
          "from NumPy's sums")
    return 0 if differences == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
