"""The known issues of the differential test: findings with a known cause,
each with its reason (docs/testing.md lists them too). A finding matches an
entry when the backend and kind agree, the entry's regular expressions
find the finding's detail and the program's source, and its `facts` test
(if any) holds for what the driver knows of the run: the Vulkan device
(`vulkan_vendor`, `vulkan_denorm_preserve`, from `tilec devices --json`) and
the float dtypes whose inputs hold a subnormal (`subnormal_inputs`), the
outputs that the reference moves past the tolerance under `tilec run
--perturb` (`ill_conditioned_outputs`), also with `--perturb-divisions`
(`ill_conditioned_division_outputs`, for Vulkan's findings), the outputs
where Vulkan agrees with the reference under `--flush-subnormals`
(`flushing_agrees_outputs`), and the outputs that a backend gets wrong
again but right with the driver's optimizer off
(`opencl_unoptimized_agrees_outputs`, `vulkan_unoptimized_agrees_outputs`),
and the outputs that the Vulkan device's own bundle gets wrong again there
and right on another Vulkan device (`other_vulkan_device_agrees_outputs`);
its `check` tests the finding's detail with them. When
the cause is fixed, remove its entry: the findings then no longer happen.

A program's other findings on the same backend are explained by the same
entry (the driver labels them so): a wrong value flows into every output
computed from it."""

import re


def output_listed(fact):
    """A check that holds where the finding's output is among the outputs
    that `facts[fact]` lists."""
    return lambda detail, facts: detail.split(" ")[0] in facts.get(fact, ())


KNOWN_ISSUES = [
    {
        "id": "min-max-of-signed-zeros",
        "reason": "Of +0 and -0, the reference's max is +0 and its min -0; a device computes "
                  "C's fmax and fmin, which may return either zero (docs/language.md, "
                  "section 5), and a later division or atan2 turns the zero's sign into "
                  "an infinity's or pi's: min(+0, -0) was +0 on lavapipe, so x / min(...) "
                  "was +inf where the reference has -inf",
        "kind": "mismatch",
        "source": r"\b(min|max)\(|= [<>]\(",
        "check": lambda detail, facts: zero_sign_shows(detail),
    },
    {
        "id": "vulkan-trigonometry-out-of-range",
        "reason": "Vulkan bounds the error of sin and cos only on [-pi, pi] (and tan through "
                  "them): lavapipe's cos(-3.4e38) is 1.0, the reference's 0.853; "
                  "docs/language.md (\"Precision\") sets no accuracy there for Vulkan",
        "backend": "vulkan", "kind": "mismatch",
        "source": r"\b(sin|cos|tan)\(",
    },
    {
        "id": "vulkan-f32-subnormals-flushed",
        "reason": "NVIDIA's Vulkan driver flushes f32 subnormals to zero and offers "
                  "DenormPreserve for f16 only (580.159.04 on the H200), so an f32 "
                  "or bf16 (computed in f32) subnormal input counts as 0 there: "
                  "atan2(x, x) of one is 0, not pi/4; "
                  "docs/codegen.md (\"Infinities, NaNs and signed zeros\")",
        "backend": "vulkan", "kind": "mismatch",
        "facts": lambda facts: (facts.get("vulkan_vendor") == "NVIDIA"
                                and 32 not in facts.get("vulkan_denorm_preserve", ())
                                and bool({"f32", "bf16"}
                                         & facts.get("subnormal_inputs", set()))),
    },
    {
        "id": "vulkan-subnormal-results-flushed",
        "reason": "A Vulkan device that does not keep f32 subnormals (no DenormPreserve "
                  "for 32; lavapipe and NVIDIA) may flush a subnormal result to zero: "
                  "pow(2, -128) is 0 there, 2.9e-39 on the reference; docs/codegen.md "
                  "(\"Infinities, NaNs and signed zeros\")",
        "backend": "vulkan", "kind": "mismatch",
        "check": lambda detail, facts: (32 not in facts.get("vulkan_denorm_preserve", ())
                                        and flushed_subnormal(detail)),
    },
    {
        "id": "vulkan-f32-subnormal-intermediates-flushed",
        "reason": "A Vulkan device that keeps no f32 subnormals (no DenormPreserve for 32; "
                  "NVIDIA) flushes a subnormal that arises inside the program, and the "
                  "output agrees with the reference run so (`tilec run --flush-subnormals`): "
                  "(pi/2 / 3.4e38) * 3.4e38 was 0 on NVIDIA, pi/2 on the reference (seed "
                  "20044262); docs/codegen.md (\"Infinities, NaNs and signed zeros\")",
        "backend": "vulkan", "kind": "mismatch",
        "facts": lambda facts: 32 not in facts.get("vulkan_denorm_preserve", ()),
        "check": output_listed("flushing_agrees_outputs"),
    },
    {
        "id": "vulkan-pow-precision",
        "reason": "Vulkan's pow has the accuracy of exp2(y * log2(x)), and log2 near 1 an "
                  "absolute error of 2^-21, which y multiplies: pow(1.001, 65000) was "
                  "2.7934e28 on NVIDIA, 2.7869e28 (0.23% less) on the reference; "
                  "docs/codegen.md (\"The math builtins\")",
        "backend": "vulkan", "kind": "mismatch",
        "source": r"\bpow\(",
        "check": lambda detail, facts: within_percent(detail),
    },
    {
        "id": "ill-conditioned",
        "reason": "The output moves past the comparison's tolerance on the reference "
                  "itself when its inexact builtins err within 16 ulps (1 for f16 and "
                  "bf16), down or up (`tilec run --perturb`): a device within its "
                  "accuracy may differ as much. tanh(3.4e38) one ulp below 1 made "
                  "3.4e38 / tanh(3.4e38) overflow (seed 13033875)",
        "kind": "mismatch",
        "check": output_listed("ill_conditioned_outputs"),
    },
    {
        "id": "ill-conditioned-vulkan-division",
        "reason": "The output moves past the comparison's tolerance on the reference when "
                  "its quotients also err by up to 3 ulps (`tilec run --perturb N "
                  "--perturb-divisions`), as Vulkan's OpFDiv may (2.5 ulp): A / A was "
                  "1 - 2^-24 on NVIDIA, so A / A + round(A) was -6e-8, not 0, and "
                  "T / T then 1, not NaN (seed 12009434)",
        "backend": "vulkan", "kind": "mismatch",
        "check": output_listed("ill_conditioned_division_outputs"),
    },
    {
        "id": "opencl-driver-optimizer",
        "reason": "A miscompile of the OpenCL driver's optimizer: the output is wrong again "
                  "in a second run, and right when the driver builds the same OpenCL C with "
                  "-cl-opt-disable (`tilec run --no-driver-optimization`). NVIDIA's "
                  "(580.159.04) ran a loop from max(ceil(-j/2), -i, j - 6) as if -i were +i "
                  "(seed 10209746); docs/codegen.md (\"Driver miscompiles\")",
        "backend": "opencl", "kind": "mismatch",
        "check": output_listed("opencl_unoptimized_agrees_outputs"),
    },
    {
        "id": "vulkan-driver-optimizer",
        "reason": "A miscompile of the Vulkan driver's optimizer: the output is wrong again "
                  "in a second run, and right when the driver creates the same SPIR-V's "
                  "pipelines with VK_PIPELINE_CREATE_DISABLE_OPTIMIZATION_BIT (`tilec run "
                  "--no-driver-optimization`). NVIDIA's driver (580.159.04) did not follow "
                  "that hint far enough to right any finding yet; docs/codegen.md "
                  "(\"Driver miscompiles\")",
        "backend": "vulkan", "kind": "mismatch",
        "check": output_listed("vulkan_unoptimized_agrees_outputs"),
    },
    {
        "id": "vulkan-driver-miscompile",
        "reason": "A miscompile of the Vulkan driver's: the bundle compiled for the device "
                  "gives the wrong output again there, and the right one on another Vulkan "
                  "implementation (`difftest.py --other-vulkan-device`, lavapipe beside "
                  "the GPU) from the same SPIR-V. NVIDIA's driver (580.159.04) ran loops "
                  "whose bounds hold negated indexes over the wrong tuples (seeds 10209746, "
                  "20052328, 32020780) and gave -0.32 for -erf(-128) of a wrapped i8 abs "
                  "(seed 24064727), also with its optimizer hinted off; docs/codegen.md "
                  "(\"Driver miscompiles\")",
        "backend": "vulkan", "kind": "mismatch",
        "check": output_listed("other_vulkan_device_agrees_outputs"),
    },
    {
        "id": "split-needs-outermost-rows",
        "reason": "A tensor larger than one buffer of the device is stored as pieces only "
                  "when every kernel that touches it goes along its outermost dimension, "
                  "row for row; otherwise tilec refuses the program, naming the tensor, the "
                  "kernel and why (README, \"Known limits\"; docs/scheduler.md, section 5). "
                  "Random programs meet it under a profile of tiny buffers (difftest.py "
                  "--profile tests/e2e/Inputs/tiny-pieces.json)",
        "kind": "refused",
        "detail": r"this kernel cannot be split along its outermost dimension to match",
    },
]

# The float64 value printed as "np.float64(-0.5)" (NumPy 2) or "-0.5".
_VALUE = r"(?:np\.float64\()?(-?inf|nan|[-+0-9.e]+)\)?(?=[,\s]|$)"


def first_difference(detail):
    """The device's and the reference's values of a mismatch's first
    differing element, or None."""
    found = re.search(r"the first \[\d+\]: %s, reference %s" % (_VALUE, _VALUE), detail)
    if not found:
        return None
    try:
        return float(found.group(1)), float(found.group(2))
    except ValueError:
        return None


def zero_sign_shows(detail):
    """Whether a mismatch's first differing element is what the sign of a
    zero decides: an infinity of the other sign, an infinity and a zero
    (relu(-inf) is 0), pi and 0 (atan2)."""
    values = first_difference(detail)
    if values is None:
        return False
    device, reference = values

    def decided(value):
        return value in (0.0, float("inf"), float("-inf")) or \
            abs(abs(value) - 3.141592653589793) < 1e-6

    return decided(device) and decided(reference) and device != reference


def within_percent(detail):
    """Whether a mismatch's first differing element is finite on both sides
    and the device's value within 1% of the reference's."""
    values = first_difference(detail)
    if values is None:
        return False
    device, reference = values
    finite = all(abs(v) < float("inf") for v in values)
    return finite and abs(device - reference) <= 0.01 * abs(reference)


def flushed_subnormal(detail):
    """Whether a mismatch's first differing element is a zero on the device
    where the reference has an f32 (or f16, for an f16 output) subnormal."""
    values = first_difference(detail)
    if values is None:
        return False
    device, reference = values
    tiny = 6.103515625e-05 if "(f16)" in detail else 1.1754943508222875e-38
    return device == 0.0 and 0.0 < abs(reference) < tiny


def match(backend, kind, detail, source, facts=None):
    """The id of the first known issue that explains a finding, or None."""
    for issue in KNOWN_ISSUES:
        if issue.get("backend", backend) != backend or issue.get("kind", kind) != kind:
            continue
        if "detail" in issue and not re.search(issue["detail"], detail):
            continue
        if "source" in issue and not re.search(issue["source"], source, re.M):
            continue
        if "facts" in issue and not issue["facts"](facts or {}):
            continue
        if "check" in issue and not issue["check"](detail, facts or {}):
            continue
        return issue["id"]
    return None
