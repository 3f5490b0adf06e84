"""Writes a hand-edited copy of a bundle: edit-bundle.py IN OUT STATEMENTS.

STATEMENTS is Python run with `b` bound to the bundle's JSON object, e.g.
"b['launches'][0]['args'].reverse()".
"""
import json
import sys

source, target, statements = sys.argv[1:4]
with open(source) as f:
    b = json.load(f)
exec(statements)
with open(target, "w") as f:
    json.dump(b, f, indent=1)
