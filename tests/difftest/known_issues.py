"""The known issues of the differential test: findings with a known cause,
each with its reason (docs/testing.md lists them too). A finding matches an
entry when the backend and kind agree and the entry's regular expressions
find the finding's detail and the program's source. When the cause is
fixed, remove its entry: the findings then no longer happen."""

import re

KNOWN_ISSUES = [
    {
        "id": "vulkan-division-by-constant-zero",
        "reason": "Vulkan: a float division by a compile-time zero gives NaN instead of "
                  "+-inf, and atan2(x, 0.0) gives 0 (issue 15, section 1: no "
                  "SignedZeroInfNanPreserve)",
        "backend": "vulkan", "kind": "mismatch",
        "source": r"/ 0(\.0)?(?![\d.e])|atan2\([^;]*, 0(\.0)?\)",
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
