"""Checks the SPIR-V and MSL of every end-to-end program.

For each `tilec run %s ... --arg ...` RUN line of tests/e2e/*.tile (or
`tilec run %S/OTHER.tile ...`, which compiles OTHER.tile), with the same
--arg, --entry and --profile options (inputs given with --input become the
--arg of their dtype and shape, runline.py):
  - `tilec compile --emit bundle --target opencl,spirv` must succeed and
    `spirv-val --target-env vulkan1.2` must accept each kernel's module;
  - `tilec compile --emit msl` must give, for each kernel of the program's
    bundle for Metal (`--backend metal`, which --emit msl implies), a
    `kernel void <name>(...)` whose `[[buffer(i)]]` arguments are
    the kernel's argument i, named as the OpenCL C names its parameter i
    (SPIRV-Cross keeps only the buffers a kernel uses), preceded by a
    comment with the launch's threadgroup size.
Programs that compute in f64 (their OpenCL C has `double`) must instead be
refused for MSL: Metal has no double.
Prints one line per problem and exits 1 if there is any.

usage: spirv-harness.py E2E_DIR WORK_DIR
"""

import base64
import json
import os
import re
import shlex
import subprocess
import sys

# No __pycache__ in the source tree, which the self-contained test reads.
sys.dont_write_bytecode = True
from runline import compile_options  # noqa: E402

TARGET_ENV = "vulkan1.2"


def run_lines(path, e2e_dir):
    """The programs and option lists of the file's `tilec run %s` and
    `tilec run %S/OTHER.tile` RUN lines, deduplicated."""
    seen = []
    with open(path) as f:
        for line in f:
            match = re.search(
                r"RUN:\s*(?:%oclgrind\s+)?tilec run (%s|%S/\S+\.tile)(.*)",
                line)
            if not match:
                continue
            source = match.group(1).replace("%s", path).replace("%S", e2e_dir)
            words = shlex.split(match.group(2).replace("%S", e2e_dir))
            options = compile_options(words, lambda value: value)
            if options and "--arg" in options and (source, options) not in seen:
                seen.append((source, options))
    return seen


def compile_to(source, options, emit, extra=()):
    return subprocess.run(
        ["tilec", "compile", source, *options, "--emit", emit, *extra],
        capture_output=True, text=True)


def opencl_parameters(source, name):
    """The parameter names of kernel `name` in OpenCL C `source`."""
    match = re.search(r"\bvoid %s\(([^)]*)\)" % re.escape(name), source)
    return re.findall(r"\*restrict (\w+)", match.group(1)) if match else []


def check_msl(msl, bundle):
    """The problems of `msl` against the bundle's kernels and launches."""
    problems = []
    for index, kernel in enumerate(bundle["kernels"]):
        name = kernel["name"]
        launch = next(l for l in bundle["launches"] if l["kernel"] == index)
        local = launch["local_size"] + [1] * (3 - len(launch["local_size"]))
        header = "// Kernel %s: threadgroup size %d x %d x %d;" % (
            name, *local)
        if header not in msl:
            problems.append("%s: no '%s'" % (name, header))
        match = re.search(r"kernel void %s\(([^)]*)\)" % re.escape(name), msl)
        if not match:
            problems.append("%s: no entry point 'kernel void %s('" %
                            (name, name))
            continue
        buffers = re.findall(r"(\w+) \[\[buffer\((\d+)\)\]\]", match.group(1))
        parameters = opencl_parameters(bundle["opencl_source"], name)
        for variable, index_text in buffers:
            binding = int(index_text)
            if (binding >= len(launch["args"]) or
                    binding >= len(parameters) or
                    variable != parameters[binding]):
                problems.append("%s: argument %s at [[buffer(%d)]]" %
                                (name, variable, binding))
    return problems


def check(source, options, work):
    """The problems of one compilation."""
    problems = []
    bundled = compile_to(source, options, "bundle",
                         ["--target", "opencl,spirv"])
    if bundled.returncode != 0:
        return ["--emit bundle failed: " + bundled.stderr.strip()]
    bundle = json.loads(bundled.stdout)
    spv = os.path.join(work, "kernel.spv")
    for kernel in bundle["kernels"]:
        with open(spv, "wb") as f:
            f.write(base64.b64decode(kernel["spirv"]))
        validated = subprocess.run(
            ["spirv-val", "--target-env", TARGET_ENV, spv],
            capture_output=True, text=True)
        if validated.returncode != 0:
            problems.append("%s: spirv-val: %s" % (
                kernel["name"], (validated.stdout + validated.stderr).strip()))

    msl = compile_to(source, options, "msl")
    if re.search(r"\bdouble\b", bundle["opencl_source"]):
        if msl.returncode == 0 or "error: Metal has no f64" not in msl.stderr:
            problems.append("f64 is not refused for MSL: " + msl.stderr)
        return problems
    if msl.returncode != 0:
        return problems + ["--emit msl failed: " + msl.stderr.strip()]
    # The MSL is scheduled for a Metal device: compare it with the bundle
    # compiled for the same one, whose OpenCL C names the parameters.
    metal = compile_to(source, options, "bundle",
                       ["--backend", "metal", "--target", "opencl,msl"])
    if metal.returncode != 0:
        return problems + ["--emit bundle --backend metal failed: " +
                           metal.stderr.strip()]
    return problems + check_msl(msl.stdout, json.loads(metal.stdout))


def main():
    e2e_dir, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    failures = 0
    count = 0
    print("spirv-harness: the e2e programs in %s" % e2e_dir)
    for name in sorted(os.listdir(e2e_dir)):
        if not name.endswith(".tile"):
            continue
        for source, options in run_lines(os.path.join(e2e_dir, name),
                                         e2e_dir):
            count += 1
            problems = check(source, options, work)
            for problem in problems:
                failures += 1
                print("%s %s: %s" % (name, " ".join(options), problem))
    print("%d compilations checked, %d problems" % (count, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
