"""The known issues of the differential test: findings with a known cause,
each with its reason (docs/testing.md lists them too). A finding matches an
entry when the backend and kind agree and the entry's regular expressions
find the finding's detail and the program's source. When the cause is
fixed, remove its entry: the findings then no longer happen."""

import re

KNOWN_ISSUES = [
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
