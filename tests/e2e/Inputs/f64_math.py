"""Inputs and an elementwise comparison for f64_math.tile.

  f64_math.py inputs DIR COUNT SEED
      writes DIR/<input>.npy, COUNT f64 values each, drawn over the ranges
      where the builtins are hard to get right (tiny and subnormal, near the
      multiples of pi/2, huge, |x| near 1, erf's whole range) plus the
      special values;
  f64_math.py compare ACTUAL_DIR EXPECTED_DIR OUTPUT=BUILTIN...
      prints each output's largest error in ulp of the expected value and
      fails if one exceeds its builtin's bound (ULP_BOUNDS), or if a
      non-finite value or a zero's sign differs.
"""

import os
import sys

import numpy as np

# The inputs of f64_math.tile and the outputs that each feeds.
INPUTS = ["XT", "XA", "XI", "Y", "X", "XE"]

# The largest error each f64 builtin may have, in ulp: the OpenCL C
# specification's requirement for double precision (OpenCL C 3.0, section 7.4
# "Relative Error as ULPs", table "ULP values for double precision built-in
# math functions"; the same values as OpenCL C 1.2's section 7.4). The bounds
# hold for every backend: on OpenCL they are the driver's obligation; on
# Vulkan, GLSL.std.450 has no f64 transcendentals and the Vulkan spec
# ("Precision and Operation of SPIR-V Instructions") requires none, so tilec
# builds them from f64 arithmetic (docs/codegen.md) and holds them to the
# OpenCL C bounds. The special values (C's results for infinities, NaNs,
# zeros and |x| > 1: OpenCL C 3.0, section 7.5 "Edge Case Behavior") must be
# exact. The reference is glibc, itself within about 1 ulp here (docs/
# codegen.md), which these bounds leave room for in practice.
ULP_BOUNDS = {
    "sin": 4,
    "cos": 4,
    "tan": 5,
    "asin": 4,
    "acos": 4,
    "atan": 5,
    "atan2": 6,
    "erf": 16,
}


def signed(rng, values):
    return values * rng.choice([-1.0, 1.0], len(values))


def log_uniform(rng, count, low, high):
    """Magnitudes 10^u, u uniform in [low, high)."""
    return 10.0 ** rng.uniform(low, high, count)


def fill(rng, count, parts, specials):
    """`specials`, then each part's share of `count` from its generator."""
    values = [np.array(specials, dtype=np.float64)]
    left = count - len(specials)
    for index, (share, generate) in enumerate(parts):
        n = left - sum(len(v) for v in values[1:]) if index == len(
            parts) - 1 else int(left * share)
        values.append(generate(n))
    result = np.concatenate(values)[:count]
    return rng.permutation(result)


def near_multiples_of_half_pi(rng, count):
    """k pi/2 rounded to f64 for k up to 2^60, moved by up to 3 ulp."""
    k = np.floor(log_uniform(rng, count, 0, 18))
    x = k * (np.pi / 2)
    for _ in range(3):
        step = rng.integers(-1, 2, count)
        x = np.where(step > 0, np.nextafter(x, np.inf),
                     np.where(step < 0, np.nextafter(x, -np.inf), x))
    return signed(rng, x)


SPECIALS = [0.0, -0.0, np.inf, -np.inf, np.nan, 5e-324, -5e-324,
            2.2250738585072014e-308, 1.7976931348623157e308,
            -1.7976931348623157e308]


def inputs(directory, count, seed):
    rng = np.random.default_rng(seed)
    trig = fill(rng, count, [
        (0.25, lambda n: rng.uniform(-10, 10, n)),
        (0.15, lambda n: signed(rng, log_uniform(rng, n, -320, 0))),
        (0.2, lambda n: signed(rng, log_uniform(rng, n, 0, 6.5))),
        (0.2, lambda n: signed(rng, log_uniform(rng, n, 6, 308.25))),
        (0.2, lambda n: near_multiples_of_half_pi(rng, n)),
    ], SPECIALS + [
        # The edge of the Payne-Hanek reduction. (Not the f64 closest to a
        # multiple of pi/2, 6381956970095103 2^797: glibc's cos and tan, the
        # reference, are 7 and 13 ulp off there.)
        2.0**20, np.nextafter(2.0**20, 0), np.pi / 2, np.pi, 1e22, 1e300])
    near_one = lambda n: signed(rng, 1 - log_uniform(rng, n, -16, -0.3))
    asin = fill(rng, count, [
        (0.4, lambda n: rng.uniform(-1, 1, n)),
        (0.4, near_one),
        (0.2, lambda n: signed(rng, log_uniform(rng, n, -320, -1))),
    ], SPECIALS + [1.0, -1.0, 0.5, -0.5, np.nextafter(1.0, 2), -1.5])
    atan = fill(rng, count, [
        (0.4, lambda n: rng.uniform(-4, 4, n)),
        (0.6, lambda n: signed(rng, log_uniform(rng, n, -320, 308.25))),
    ], SPECIALS)
    wide = lambda n: signed(rng, log_uniform(rng, n, -150, 150))
    moderate = lambda n: signed(rng, log_uniform(rng, n, -5, 5))
    zeros_and_infinities = [0.0, -0.0, np.inf, -np.inf, 1.0, -1.0, np.nan]
    pairs = [(y, x) for y in zeros_and_infinities for x in zeros_and_infinities]
    y = fill(rng, count, [(0.7, moderate), (0.3, wide)], [p[0] for p in pairs])
    x = fill(rng, count, [(0.7, moderate), (0.3, wide)], [p[1] for p in pairs])
    erf = fill(rng, count, [
        (0.4, lambda n: rng.uniform(-7, 7, n)),
        (0.3, lambda n: signed(rng, rng.uniform(0.5, 6, n))),
        (0.15, lambda n: signed(rng, log_uniform(rng, n, -320, 0))),
        (0.15, lambda n: signed(rng, log_uniform(rng, n, 0.8, 308.25))),
    ], SPECIALS + [1.0, -1.0, 5.9, 6.0])
    os.makedirs(directory, exist_ok=True)
    for name, values in zip(INPUTS, [trig, asin, atan, y, x, erf]):
        np.save(os.path.join(directory, name + ".npy"), values)


def ulp_errors(actual, expected):
    """The error of each finite expected value in its ulps, and the indices
    where non-finite values or the signs of zeros differ."""
    finite = np.isfinite(expected)
    same = (np.isnan(actual) & np.isnan(expected)) | (actual == expected)
    wrong = np.flatnonzero(~finite & ~same)
    zero = finite & (expected == 0)
    wrong = np.concatenate([wrong, np.flatnonzero(
        zero & ((actual != 0) | (np.signbit(actual) != np.signbit(expected))))])
    with np.errstate(invalid="ignore", over="ignore"):
        errors = np.abs(actual[finite] - expected[finite]) / np.spacing(
            np.abs(expected[finite]))
    errors = np.where(np.isnan(errors), np.inf, errors)
    return errors, finite, wrong


def compare(actual_dir, expected_dir, outputs):
    failed = False
    for output in outputs:
        name, builtin = output.split("=")
        limit = ULP_BOUNDS[builtin]
        actual = np.load(os.path.join(actual_dir, name + ".npy"))
        expected = np.load(os.path.join(expected_dir, name + ".npy"))
        errors, finite, wrong = ulp_errors(actual, expected)
        worst = np.argmax(errors)
        where = np.flatnonzero(finite)[worst]
        print("%s: largest error %.2f ulp (got %r, expected %r), %d wrong "
              "special value(s)" % (name, errors[worst], actual[where],
                                    expected[where], len(wrong)))
        for index in wrong[:5]:
            print("  %s[%d]: got %r, expected %r" %
                  (name, index, actual[index], expected[index]))
        if errors[worst] > limit or len(wrong):
            print("%s: exceeds %s ulp" % (name, limit) if len(wrong) == 0
                  else "%s: wrong special values" % name)
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    if sys.argv[1] == "inputs":
        inputs(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
        sys.exit(0)
    sys.exit(compare(sys.argv[2], sys.argv[3], sys.argv[4:]))
