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
        "id": "vulkan-trigonometry-out-of-range",
        "reason": "Vulkan bounds the error of sin and cos only on [-pi, pi] (and tan through "
                  "them): lavapipe's cos(-3.4e38) is 1.0, the reference's 0.853; "
                  "docs/language.md (\"Precision\") sets no accuracy there for Vulkan",
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
