"""The known issues of the differential test: findings with a known cause,
each with its reason (docs/testing.md lists them too). A finding matches an
entry when the backend and kind agree and the entry's regular expressions
find the finding's detail and the program's source. When the cause is
fixed, remove its entry: the findings then no longer happen.

A program's other findings on the same backend are explained by the same
entry (the driver labels them so): a wrong value flows into every output
computed from it."""

import re

KNOWN_ISSUES = [
    {
        "id": "vulkan-sign-of-zero",
        "reason": "Vulkan: sign(x) of 0, -0 and NaN gives -0.0 where docs/language.md "
                  "says 0 (the reference and OpenCL give +0.0): `1.0 / sign(A)` is -inf",
        "backend": "vulkan", "kind": "mismatch",
        "detail": r": -inf, reference inf\b",
        "source": r"\bsign\(",
    },
    {
        "id": "max-min-aggregation-of-only-nan",
        "reason": "a `>` or `<` float aggregation whose every value is NaN: the reference "
                  "and OpenCL give the initial value (-inf, +inf), Vulkan NaN; "
                  "docs/language.md says NaN (\"ignored unless every value is NaN\")",
        "backend": "vulkan", "kind": "mismatch",
        "detail": r": nan, reference -?inf$",
        "source": r"= [<>]\(",
    },
    {
        "id": "vulkan-trigonometry-out-of-range",
        "reason": "Vulkan bounds the error of sin and cos only on [-pi, pi] (and tan through "
                  "them): lavapipe's cos(-3.4e38) is 1.0, the reference's 0.853; "
                  "docs/language.md lets a device's builtins differ within its accuracy",
        "backend": "vulkan", "kind": "mismatch",
        "source": r"\b(sin|cos|tan)\(",
    },
]


def match(backend, kind, detail, source):
    """The id of the first known issue that explains a finding, or None."""
    for issue in KNOWN_ISSUES:
        if issue.get("backend", backend) != backend or issue.get("kind", kind) != kind:
            continue
        if "detail" in issue and not re.search(issue["detail"], detail):
            continue
        if "source" in issue and not re.search(issue["source"], source, re.M):
            continue
        return issue["id"]
    return None
