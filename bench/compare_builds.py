#!/usr/bin/env python3
"""Two or more builds of tilec timed on the same rows of bench/run.py, in one run on one GPU: whether a
change of the code generation is faster, measured before it lands.

    python3 bench/compare_builds.py --build main=build/bin/tilec --build new=../b/build/bin/tilec \
        [--only REGEX] [--quick] [--rounds 3] [--device NVIDIA] [--backends opencl,vulkan] [--output-dir DIR]

Each build is LABEL=TILEC, a tilec executable; its directory's sibling `lib/` goes first on
LD_LIBRARY_PATH while it runs (bench/pack-gpu.sh --build packs a build so, with its libtilec_runtime).
For each row and backend, every build runs `tilec bench` once per round, in an order that rotates from
round to round, so that a drift of the GPU's clocks over a row weighs on every build alike; a build's
time is the median over the rounds of the sum of its kernels' medians. The process holds a CUDA
context through PyTorch where it is installed, as bench/run.py does, which keeps the GPU's clocks from
dropping between the runs. Writes <out>/<date>-<device>-builds.md (the times, and each build's speed
as a ratio to the first build's: above 1 is faster) and .json (every round's time).
"""
import argparse
import datetime
import json
import os
import re
import statistics
import sys

import run as bench


def parse_build(text):
    label, sep, path = text.partition("=")
    if not sep or not label or not path:
        raise argparse.ArgumentTypeError("expected LABEL=TILEC, got '%s'" % text)
    if not os.path.isfile(path):
        raise argparse.ArgumentTypeError("no tilec executable at '%s'" % path)
    return label, os.path.abspath(path)


def time_build(args, tilec, w, backend):
    """One `tilec bench` of row `w` by the tilec at `tilec`: (ms or None, the error)."""
    library = os.path.join(os.path.dirname(os.path.dirname(tilec)), "lib")
    saved = os.environ.get("LD_LIBRARY_PATH")
    os.environ["LD_LIBRARY_PATH"] = library + (":" + saved if saved else "")
    try:
        args.tilec = tilec
        ms, out = bench.tilec_time(args, w, backend)
    finally:
        if saved is None:
            del os.environ["LD_LIBRARY_PATH"]
        else:
            os.environ["LD_LIBRARY_PATH"] = saved
    return ms, (None if ms is not None else out)


def write_report(args, rows, results, labels, backends):
    os.makedirs(args.output_dir, exist_ok=True)
    stem = os.path.join(args.output_dir, "%s-%s-builds" % (datetime.date.today().isoformat(),
                                                          args.name))
    with open(stem + ".json", "w") as f:
        json.dump({"description": args.description, "builds": dict(args.build),
                   "rounds": args.rounds, "results": results}, f, indent=1)
    first = labels[0]
    header = ["workload", "backend"] + ["%s ms" % l for l in labels]
    header += ["%s / %s" % (l, first) for l in labels[1:]]
    lines = ["# tilec builds compared (%s)" % datetime.date.today().isoformat(), "",
             "```", args.description, "```", "",
             "Builds: " + ", ".join("`%s` = %s" % (l, p) for l, p in args.build) + ".", "",
             "`python3 bench/compare_builds.py`: the median of %d rounds of `tilec bench --repeat=%d` "
             "(the sum of the kernels' medians), the builds in a rotating order; a ratio above 1 means "
             "the build is faster than `%s`." % (args.rounds, args.repeat, first), "",
             "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for w in rows:
        for b in backends:
            times = results.get(w.name, {}).get(b)
            if times is None:
                continue
            medians = [statistics.median(times[l]["ms"]) if times[l]["ms"] else None
                       for l in labels]
            cells = ["%.3f" % m if m else "error: %s" % (times[l]["error"] or "?")[:60]
                     for l, m in zip(labels, medians)]
            cells += [bench.ratio(medians[0], m) for m in medians[1:]]
            lines.append("| " + " | ".join([w.name, b] + cells) + " |")
    with open(stem + ".md", "w") as f:
        f.write("\n".join(lines) + "\n")
    return stem


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", action="append", type=parse_build, default=[],
                        metavar="LABEL=TILEC", help="a build to time (two or more)")
    parser.add_argument("--only", default="", help="a regular expression over the workload names")
    parser.add_argument("--quick", action="store_true", help="bench/run.py's smaller sizes")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--timeout", type=int, default=300, help="seconds per tilec run")
    parser.add_argument("--device", default="", help="tilec's device (a name substring)")
    parser.add_argument("--backends", default="opencl,vulkan")
    parser.add_argument("--output-dir", default=os.path.join(bench.ROOT, "bench", "results"))
    parser.add_argument("--name", default="gpu", help="the device's name in the file names")
    args = parser.parse_args()
    labels = [label for label, _ in args.build]
    if len(labels) < 2 or len(set(labels)) != len(labels):
        parser.error("give two or more builds with distinct labels")

    torch = bench.load_torch()
    # A CUDA context held for the whole run (see the module's comment).
    held = torch.zeros(1 << 20, device="cuda") if torch is not None else None
    args.tilec = args.build[0][1]
    args.description = bench.device_description(args, torch)
    rows = [w for w in bench.workloads(args.quick) if re.search(args.only, w.name)]
    backends = [b for b in args.backends.split(",") if b]
    results = {}
    for w in rows:
        for b in backends:
            times = {l: {"ms": [], "error": None} for l in labels}
            for r in range(args.rounds):
                for i in range(len(args.build)):
                    label, tilec = args.build[(r + i) % len(args.build)]
                    ms, error = time_build(args, tilec, w, b)
                    if ms is None:
                        times[label]["error"] = error
                    else:
                        times[label]["ms"].append(ms)
            results.setdefault(w.name, {})[b] = times
            print("%-48s %-6s %s" % (w.name, b, "  ".join(
                "%s=%s" % (l, "%.3f" % statistics.median(t["ms"]) if t["ms"] else "error")
                for l, t in times.items())), flush=True)
            write_report(args, rows, results, labels, backends)
    del held
    print("wrote %s.md" % write_report(args, rows, results, labels, backends))
    return 0


if __name__ == "__main__":
    sys.exit(main())
