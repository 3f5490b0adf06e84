#!/usr/bin/env python3
"""Prints the code tilec emits for every compile of the end-to-end corpus.

Every `tilec run` and `tilec compile` RUN line of tests/e2e/*.tile becomes
three compiles of the same program, bindings and profile: `--emit opencl`,
`--emit spirv-asm` and `--explain`. Each output goes to its own file of
OUT_DIR, named after the test, the line and the emit. A refactor that must
not change the generated code runs this before and after, then compares the
two directories:

    scripts/emit-corpus.py build/bin/tilec /tmp/before
    ... (the change, a rebuild) ...
    scripts/emit-corpus.py build/bin/tilec /tmp/after
    diff -r /tmp/before /tmp/after

The profiles are those of this machine's default OpenCL and Vulkan devices,
so both runs must be on one machine.
"""

import argparse
import concurrent.futures
import os
import re
import shlex
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
E2E = os.path.join(REPO, "tests", "e2e")
sys.path.insert(0, E2E)
# No __pycache__ in the source tree, which the self-contained test reads.
sys.dont_write_bytecode = True
from runline import compile_options  # noqa: E402


def compile_lines(path):
    """The (line number, compile options) of every tilec run/compile of
    `path` on the file itself. Lines whose inputs are files made by an
    earlier RUN line (%t) are left out."""
    with open(path, encoding="utf-8") as source:
        for number, line in enumerate(source, 1):
            match = re.search(r"RUN: (?:%oclgrind )?tilec (?:run|compile) %s (.*)",
                              line)
            if not match:
                continue
            words = shlex.split(match.group(1).split("|")[0])
            options = compile_options(
                words, lambda value: value.replace("%S", os.path.dirname(path)))
            if options is not None:
                yield number, options


def emit(tilec, path, options, emit_flags, out):
    result = subprocess.run([tilec, "compile", path] + options + emit_flags,
                            capture_output=True, text=True)
    with open(out, "w", encoding="utf-8") as stream:
        stream.write(result.stdout)
        stream.write(result.stderr)
        stream.write("exit %d\n" % result.returncode)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("tilec", help="the tilec binary")
    parser.add_argument("out_dir", help="the directory to write (made anew)")
    args = parser.parse_args()
    os.makedirs(args.out_dir, exist_ok=True)
    emits = {"cl": ["--emit", "opencl"],
             "spvasm": ["--emit", "spirv-asm"],
             "explain": ["--emit", "opencl", "--explain", "-o", os.devnull]}
    jobs = []
    for name in sorted(os.listdir(E2E)):
        if not name.endswith(".tile"):
            continue
        path = os.path.join(E2E, name)
        for number, options in compile_lines(path):
            for suffix, flags in emits.items():
                out = os.path.join(args.out_dir,
                                   "%s.%d.%s" % (name[:-5], number, suffix))
                jobs.append((path, options, flags, out))
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count()) as pool:
        for future in [pool.submit(emit, args.tilec, *job) for job in jobs]:
            future.result()
    print("%d outputs in %s" % (len(jobs), args.out_dir))


if __name__ == "__main__":
    sys.exit(main())
