"""Checks the gradient examples of a Markdown file against `tilec grad`.

usage: check_doc_examples.py FILE.md

A ```-fenced block whose first line is `// grad: ARGS` is a forward program;
the next fenced block must be exactly what `tilec grad BLOCK ARGS` prints.
Prints the number of examples checked; exits non-zero, naming the example,
on any difference or failure.
"""

import difflib
import shlex
import subprocess
import sys
import tempfile

GRAD_LINE = "// grad:"


def fenced_blocks(path):
    """The contents of every ```-fenced block, in order."""
    blocks, current = [], None
    with open(path) as markdown:
        for line in markdown:
            if line.strip().startswith("```"):
                if current is None:
                    current = []
                else:
                    blocks.append("".join(current))
                    current = None
            elif current is not None:
                current.append(line)
    return blocks


def main():
    blocks = fenced_blocks(sys.argv[1])
    checked = 0
    for index, block in enumerate(blocks):
        first = block.lstrip().splitlines()[0] if block.strip() else ""
        if not first.startswith(GRAD_LINE):
            continue
        if index + 1 >= len(blocks):
            sys.exit("example %d: no block of its printed gradient follows" % index)
        with tempfile.NamedTemporaryFile("w", suffix=".tile") as source:
            source.write(block)
            source.flush()
            args = shlex.split(first[len(GRAD_LINE):])
            result = subprocess.run(["tilec", "grad", source.name] + args,
                                    capture_output=True, text=True)
        if result.returncode != 0:
            sys.exit("example %d (%s) failed:\n%s" % (index, first, result.stderr))
        if result.stdout != blocks[index + 1]:
            diff = difflib.unified_diff(blocks[index + 1].splitlines(),
                                        result.stdout.splitlines(),
                                        "documented", "printed", lineterm="")
            sys.exit("example %d (%s) differs:\n%s" % (index, first, "\n".join(diff)))
        checked += 1
    print("%d gradient examples agree" % checked)


main()
