#!/usr/bin/env python3
"""Whole-process compile latency: how long `tilec compile` takes from exec to exit, beside
`tilec --version` (the cost of starting the process at all), on this machine's CPU.

    python3 bench/compile_latency.py [--tilec build/bin/tilec] [--repeat 41] [--kernels 200]

Prints medians of wall-clock and CPU (user + system) milliseconds over --repeat runs of:
- `tilec --version`;
- `tilec compile --emit bundle` of one matmul with OpenCL C, and with SPIR-V, for a GPU described by a complete
  --profile, so that no device is opened and no driver is loaded;
- the same for a program of --kernels chained matrix products, and from it the cost of each further
  kernel: (chain - one) / (kernels - 1).
No GPU is needed. Run it on an otherwise idle machine: other work shows up in the wall-clock column.
"""
import argparse
import json
import os
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
    args = parser.parse_args()
    if args.kernels < 2:
        parser.error("--kernels must be at least 2")

    with tempfile.TemporaryDirectory() as work:
        profile = os.path.join(work, "gpu.json")
        with open(profile, "w") as f:
            json.dump(GPU_PROFILE, f)
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
    return 0


if __name__ == "__main__":
    sys.exit(main())
