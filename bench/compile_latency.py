#!/usr/bin/env python3
"""Whole-process compile latency: how long `tilec compile` takes from exec to exit, beside
`tilec --version` (the cost of starting the process at all), on this machine's CPU.

    python3 bench/compile_latency.py [--tilec build/bin/tilec] [--repeat 41] [--kernels 200]
                                     [--copies 4] [--schedules]

Prints medians of wall-clock and CPU (user + system) milliseconds over --repeat runs of:
- `tilec --version`;
- `tilec compile --emit bundle` of one matmul with OpenCL C, and with SPIR-V, for a GPU described by a complete
  --profile, so that no device is opened and no driver is loaded;
- the same for a program of --kernels chained matrix products, and from it the cost of each further
  kernel: (chain - one) / (kernels - 1);
- for one workload of bench/run.py per schedule (the implicit-GEMM convolutions, reductions, row
  kernels, elementwise kernels, a pooling window, a whole CNN), the cost of each kernel to OpenCL C
  and to SPIR-V:
  a program of --copies copies of the workload's statements, each copy with tensors of its own, less
  a program of one copy, per kernel (`--schedules` alone prints only these).
No GPU is needed. Run it on an otherwise idle machine: other work shows up in the wall-clock column.
"""
import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# What each compile emits: a bundle carrying the code of one target.
TARGETS = ("opencl", "spirv")

# Every key of a device profile (`tilec devices --json`), so that tilec opens no device. An H200 as
# its OpenCL driver reports it.
GPU_PROFILE = {
    "name": "NVIDIA H200", "vendor": "NVIDIA Corporation", "driver_version": "580.159.04",
    "type": "gpu", "max_work_group_size": 1024, "max_work_item_sizes": [1024, 1024, 64],
    "local_mem_bytes": 49152, "compute_units": 132,
    "preferred_vector_width_char": 1, "preferred_vector_width_short": 1,
    "preferred_vector_width_int": 1, "preferred_vector_width_long": 1,
    "preferred_vector_width_float": 1, "preferred_vector_width_double": 1,
    "preferred_vector_width_half": 0, "subgroup_size": 32,
    "max_alloc_bytes": 37580963840, "global_mem_bytes": 150110011392, "clock_mhz": 1980,
    "supports_fp64": True, "supports_fp16": False, "max_loop_iterations": 0,
    "max_work_group_count": [0, 0, 0], "signed_zero_inf_nan_preserve": [16, 32, 64],
}


def chain_program(kernels):
    """`kernels` matrix products in a chain: each one's result is the next one's left operand."""
    lines = ["function (A[N, N], B[N, N]) -> (C%d) {" % kernels]
    previous = "A"
    for k in range(1, kernels + 1):
        lines.append("  C%d[i, j : N, N] = +(%s[i, k] * B[k, j]);" % (k, previous))
        previous = "C%d" % k
    lines.append("}")
    return "\n".join(lines) + "\n"


# One bench/run.py workload of each schedule, by its row's name.
SCHEDULE_ROWS = (
    "matmul 1024^3", "matmul 4096^3", "batched matmul 64 x 512^3",
    "conv 3x3 NHWC N128 56x56 C64 K64", "conv 3x3 NCHW N128 56x56 C64 K64",
    "conv 7x7/2 stem N64 224x224 C3 K64", "conv 1x1 NHWC N128 56x56 C64 K256",
    "conv 3x3 grouped (4 groups) N128 56x56 C64 K64", "conv 3x3 depthwise N128 56x56 C64",
    "conv 3x3 filter gradient N128 56x56 C64 K64", "conv 3x3 input gradient N128 56x56 C64 K64",
    "maxpool 3x3/2 NHWC N128 112x112 C64", "sum 2^24", "column sum 8192x8192",
    "channel sum NCHW 128x64x56x56", "softmax 8192x8192", "layer norm 8192x8192",
    "5-op chain 2^28", "12-layer CNN forward, batch 128, 32x32x3",
)


def split_top_level(text):
    """`text` split at the commas outside brackets and parentheses."""
    parts, depth, start = [], 0, 0
    for i, char in enumerate(text):
        if char in "[(":
            depth += 1
        elif char in "])":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [part.strip() for part in parts if part.strip()]


def copies_program(source, copies):
    """The function of `source` with its statements `copies` times, each copy's tensors (inputs,
    outputs and the statements' results) suffixed `_<copy>`, so that no copy shares a kernel
    with another; returns the program and the renaming of its inputs for each copy."""
    match = re.search(r"function\s+\w+\s*\((.*?)\)\s*->\s*\((.*?)\)\s*\{(.*)\}", source,
                      re.S)
    inputs, outputs = split_top_level(match.group(1)), split_top_level(match.group(2))
    body = match.group(3)
    tensors = [re.match(r"\w+", arg).group(0) for arg in inputs]
    tensors += outputs
    tensors += re.findall(r"^\s*(\w+)\s*(?:\[|=)", body, re.M)
    pattern = re.compile(r"\b(%s)\b" % "|".join(sorted(set(tensors), key=len, reverse=True)))
    renamed = [lambda text, k=k: pattern.sub(lambda m: "%s_%d" % (m.group(1), k), text)
               for k in range(copies)]
    program = "".join(line + "\n" for line in source.splitlines() if line.startswith("import "))
    program += "function copies(%s) -> (%s) {\n%s\n}\n" % (
        ", ".join(rename(arg) for rename in renamed for arg in inputs),
        ", ".join(rename(out) for rename in renamed for out in outputs),
        "\n".join(rename(body) for rename in renamed))
    return program, renamed


def time_runs(command, repeat):
    """Medians of wall-clock and CPU milliseconds of `command`, run `repeat` times."""
    walls, cpus = [], []
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        walls.append((time.perf_counter() - start) * 1e3)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append((after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1e3)
    return statistics.median(walls), statistics.median(cpus)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tilec", default=os.path.join(ROOT, "build", "bin", "tilec"))
    parser.add_argument("--repeat", type=int, default=41)
    parser.add_argument("--kernels", type=int, default=200)
    parser.add_argument("--copies", type=int, default=4)
    parser.add_argument("--schedules", action="store_true",
                        help="only the cost of each schedule's kernels")
    args = parser.parse_args()
    if args.kernels < 2 or args.copies < 2:
        parser.error("--kernels and --copies must be at least 2")

    with tempfile.TemporaryDirectory() as work:
        profile = os.path.join(work, "gpu.json")
        with open(profile, "w") as f:
            json.dump(GPU_PROFILE, f)
        if args.schedules:
            return schedule_costs(args, work, profile)
        one = os.path.join(work, "matmul.tile")
        chain = os.path.join(work, "chain.tile")
        with open(one, "w") as f:
            f.write(chain_program(1))
        with open(chain, "w") as f:
            f.write(chain_program(args.kernels))
        shapes = ["--arg", "A=f32[1024,1024]", "--arg", "B=f32[1024,1024]"]

        def compile_command(source, target):
            return [args.tilec, "compile", source, "--profile", profile, "--emit", "bundle",
                    "--target", target, "-o", os.path.join(work, "out.json")] + shapes

        rows = [("tilec --version", [args.tilec, "--version"], args.repeat)]
        for target in TARGETS:
            rows.append(("compile 1 matmul, %s" % target, compile_command(one, target),
                         args.repeat))
            rows.append(("compile %d matmuls, %s" % (args.kernels, target),
                         compile_command(chain, target), max(3, args.repeat // 8)))
        print("%-34s %10s %10s" % ("whole process, median", "wall ms", "CPU ms"))
        results = {}
        for name, command, repeat in rows:
            wall, cpu = time_runs(command, repeat)
            results[name] = (wall, cpu)
            print("%-34s %10.1f %10.1f" % (name, wall, cpu))
        for target in TARGETS:
            single = results["compile 1 matmul, %s" % target]
            many = results["compile %d matmuls, %s" % (args.kernels, target)]
            print("%-34s %10.2f %10.2f" % (
                "each further kernel, %s" % target,
                (many[0] - single[0]) / (args.kernels - 1),
                (many[1] - single[1]) / (args.kernels - 1)))
        print()
        return schedule_costs(args, work, profile)


def schedule_costs(args, work, profile):
    """Prints the CPU and wall-clock milliseconds of each kernel of SCHEDULE_ROWS' workloads, to
    OpenCL C and to SPIR-V."""
    sys.path.insert(0, os.path.join(ROOT, "bench"))
    import run as bench
    rows = {w.name: w for w in bench.workloads(quick=False)}
    print("%-48s %7s %10s %10s %10s %10s" % ("each kernel, median", "kernels", "OpenCL C",
                                             "", "SPIR-V", ""))
    print("%-48s %7s %10s %10s %10s %10s" % ("", "", "CPU ms", "wall ms", "CPU ms", "wall ms"))
    for name in SCHEDULE_ROWS:
        w = rows[name]
        with open(os.path.join(ROOT, "bench", "workloads", w.tile)) as f:
            source = f.read()
        # The program of one copy and of --copies copies, each with its --arg shapes.
        programs = []
        for copies in (1, args.copies):
            program, renamed = copies_program(source, copies)
            path = os.path.join(work, "copies%d.tile" % copies)
            with open(path, "w") as f:
                f.write(program)
            shapes = [bench.shape_arg(rename(shape[0]), *shape[1:])
                      for rename in renamed for shape in w.inputs]
            programs.append([path] + shapes)
        out = os.path.join(work, "copies.json")
        costs, kernels = [], 0
        for target in TARGETS:
            times = []
            for copies, program in zip((1, args.copies), programs):
                command = [args.tilec, "compile", "--profile", profile, "--emit", "bundle",
                           "--target", target, "-o", out] + program
                times.append(time_runs(command, max(5, args.repeat // 2)))
                if copies == 1:
                    with open(out) as f:
                        kernels = len(json.load(f)["kernels"])
            extra = kernels * (args.copies - 1)
            costs += [(times[1][1] - times[0][1]) / extra, (times[1][0] - times[0][0]) / extra]
        print("%-48s %7d %10.2f %10.2f %10.2f %10.2f" % ((name[:48], kernels) + tuple(costs)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
