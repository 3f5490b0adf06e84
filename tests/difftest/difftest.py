#!/usr/bin/python3
"""Differential testing: random valid Tile programs (tilegen.py), each run on
the reference interpreter, on OpenCL and on Vulkan, with the results compared.

    difftest.py --seeds 1..40            the seeds A to B (CI)
    difftest.py --time 3600 --start 1000 as many seeds as fit in the time
    difftest.py --in-process ...         the devices' runs in one process per job

Every finding (a device refusing a program the reference runs, a crash, a
hang, a result that differs) prints one line with the seed and a command that
regenerates the program and runs it, and keeps the program in --keep. A
finding that matches an entry of known_issues.py is "explained"; the exit
status is 1 if any finding is unexplained. docs/testing.md describes the
comparison and the known issues.
"""

import argparse
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, here)
import dtypes as dt  # noqa: E402
import inprocess  # noqa: E402
import known_issues  # noqa: E402
import tilegen  # noqa: E402

BACKENDS = ["opencl", "vulkan"]
# The tolerance of --check (docs/runtime.md, "Comparing results"): a few
# hundred ulps of the format, relative to the element or to the output's
# root mean square, whichever is larger (cancellation in sums).
TOLERANCE = {"f16": 1e-2, "bf16": 5e-2, "f32": 1e-5, "f64": 1e-12}
# Outputs that a transcendental builtin contributed to: the device computes
# those within its accuracy (docs/language.md, "Precision"), which Vulkan
# bounds loosely (4096 ulp for asin, acos, atan, ...; 2^-11 absolute for
# sin and cos): about 2^-10 relative for f32, and 1e-9 for f64. The
# tolerance is the looser of the output's dtype and the builtin's.
APPROX_TOLERANCE = {"f16": 2e-2, "bf16": 6e-2, "f32": 1e-3, "f64": 1e-9}


def root_mean_square(values):
    """Of finite float64 values, without overflowing on values near the
    largest float64."""
    peak = np.max(np.abs(values)) if len(values) else 0.0
    if peak == 0.0:
        return 0.0
    return peak * np.sqrt(np.mean((values / peak) ** 2))


def compare(ref, out, approx, exact=False, precision=None):
    """None if `out` agrees with `ref`, else a short description. `approx` is
    the dtype of the loosest transcendental builtin behind the output, or
    None; an `exact` output (every operation correctly rounded on every
    device) is compared element by element, without the output's scale; an
    inexact one within the tolerance of `precision` too (the loosest float
    dtype it may have been rounded to), where given."""
    if out.shape != ref.shape:
        return "shape %s, reference %s" % (out.shape, ref.shape)
    if out.dtype != ref.dtype:
        return "dtype %s, reference %s" % (out.dtype, ref.dtype)
    dtype = dt.name_of(ref.dtype)
    if not dt.is_float(dtype):
        bad = np.nonzero(out.reshape(-1) != ref.reshape(-1))[0]
        if len(bad) == 0:
            return None
        i = bad[0]
        return "%d element(s) differ, the first [%d]: %s, reference %s" % (
            len(bad), i, out.reshape(-1)[i], ref.reshape(-1)[i])
    r = dt.as_float64(ref).reshape(-1)
    o = dt.as_float64(out).reshape(-1)
    finite = np.isfinite(r)
    # The inputs are of unit scale (tilegen.py), and so are the terms of a
    # sum or difference that cancels: 1 - tanh(x) is 1e-7 on the reference
    # and 2e-7 on a device within tanh's accuracy.
    scale = 0.0 if exact else max(root_mean_square(r[finite]), 1.0)
    tol = TOLERANCE[dtype]
    if precision and not exact:
        tol = max(tol, TOLERANCE[precision])
    if approx:
        tol = max(APPROX_TOLERANCE[dtype], APPROX_TOLERANCE[approx])
    with np.errstate(invalid="ignore", over="ignore"):
        same_special = (np.isnan(r) & np.isnan(o)) | (np.isinf(r) & (r == o))
        close = finite & np.isfinite(o) & (
            np.abs(o - r) <= tol * np.maximum(np.abs(r), scale))
    bad = np.nonzero(~(same_special | close))[0]
    if len(bad) == 0:
        return None
    i = bad[0]
    return "%d element(s) differ, the first [%d]: %r, reference %r" % (
        len(bad), i, o[i], r[i])


def run_tilec(tilec, program, args, backend, out_dir, timeout, env, extra=(), command=("run",)):
    cmd = [tilec] + list(command) + [program] + args + ["--backend", backend,
                                                        "--output-dir", out_dir]
    cmd += list(extra)
    # A run that times out gets a second chance, three times as long: on a
    # loaded machine a slow driver compile is not a hang.
    for limit in (timeout, 3 * timeout):
        try:
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               timeout=limit, env=env)
            break
        except subprocess.TimeoutExpired:
            pass
    else:
        return "timeout", "no result after %d s, then after %d s" % (timeout, 3 * timeout)
    text = p.stdout.decode(errors="replace").strip()
    first = next((line for line in text.splitlines() if "error" in line), text[-300:])
    if p.returncode < 0 or p.returncode > 3:
        return "crash", "exit %d: %s" % (p.returncode, first)
    if p.returncode != 0:
        return "refused", "exit %d: %s" % (p.returncode, first)
    return None, text


def check_seed(seed, options, env, worker=None):
    """Runs one program everywhere, on the devices through `worker` where
    given; returns (seed, [(backend, kind, detail)], directory)."""
    work = tempfile.mkdtemp(prefix="seed%d-" % seed, dir=options.work)
    args, meta = tilegen.write(seed, work)
    program = os.path.join(work, "prog.tile")
    findings = []
    kind, text = run_tilec(options.tilec, program, args, "reference",
                           os.path.join(work, "reference"), options.timeout, env)
    if kind:
        # The generator makes valid programs only: the reference refusing
        # one is a bug of the generator or of the reference.
        findings.append(("reference", kind, text))
        return seed, findings, work
    in_process = worker and worker.run(program, inprocess.input_files(args), work,
                                       options.timeout)
    if worker:
        worker.count(in_process)
    for backend in options.backends:
        out_dir = os.path.join(work, backend)
        kind, text = in_process[backend] if in_process else (None, None)
        if kind or not in_process:
            # What `tilec run` shows decides, as the reproducer runs it.
            kind, text = run_tilec(options.tilec, program, args, backend, out_dir,
                                   options.timeout, env, options.device_args)
        if kind:
            findings.append((backend, kind, text))
            continue
        for name, info in meta["outputs"].items():
            ref = np.load(os.path.join(work, "reference", name + ".npy"))
            out = np.load(os.path.join(out_dir, name + ".npy"))
            diff = compare(ref, out, info["approx"], info["exact"], info["precision"])
            if diff:
                findings.append((backend, "mismatch", "%s (%s): %s" % (
                    name, dt.name_of(ref.dtype), diff)))
    if any(kind == "mismatch" for _, kind, _ in findings):
        ill_conditioned_outputs(options, env, work, args, meta, [], "ill-conditioned")
    if any(backend == "vulkan" and kind == "mismatch" for backend, kind, _ in findings):
        ill_conditioned_outputs(options, env, work, args, meta, ["--perturb-divisions"],
                                "ill-conditioned-divisions")
        flushing_reference_agrees(options, env, work, args, meta)
    # Only for what nothing else explains: each `tilec run` opens the device,
    # which NVIDIA's driver serialises (about 0.3 s each).
    mismatches = [(backend, detail) for backend, kind, detail in findings
                  if kind == "mismatch"]
    if mismatches:
        with open(program) as f:
            source = f.read()
        facts = program_facts(work, options.device_facts)
        unexplained = {backend for backend, detail in mismatches
                       if not known_issues.match(backend, "mismatch", detail, source, facts)}
        for backend in sorted(unexplained):
            unoptimized_driver_agrees(options, env, work, args, meta, backend)
        if "vulkan" in unexplained and options.other_vulkan_device:
            other_vulkan_device_agrees(options, env, work, args, meta)
    return seed, findings, work


def ill_conditioned_outputs(options, env, work, args, meta, extra, name):
    """Writes work/NAME.json: the outputs that the reference itself moves
    past the comparison's tolerance when its inexact builtins and float sums
    and products err as a device's may (its quotients too with `extra`
    --perturb-divisions, as Vulkan's may), down and up, twice each (`tilec
    run --perturb` 1 to 4): a device within its accuracy may differ as much
    there."""
    program = os.path.join(work, "prog.tile")
    names = set()
    for direction in (1, 2, 3, 4):
        out_dir = os.path.join(work, "%s-%d" % (name, direction))
        kind, _ = run_tilec(options.tilec, program, args, "reference", out_dir,
                            options.timeout, env, ["--perturb", str(direction)] + extra)
        if kind:
            continue
        for output, info in meta["outputs"].items():
            ref = np.load(os.path.join(work, "reference", output + ".npy"))
            moved = np.load(os.path.join(out_dir, output + ".npy"))
            if compare(ref, moved, info["approx"], info["exact"], info["precision"]):
                names.add(output)
    with open(os.path.join(work, name + ".json"), "w") as f:
        json.dump(sorted(names), f)


def flushing_reference_agrees(options, env, work, args, meta):
    """Writes work/flushing-agrees.json: the outputs where Vulkan's result
    agrees with the reference run as a device that keeps no f32 subnormals
    computes (`tilec run --flush-subnormals`)."""
    program = os.path.join(work, "prog.tile")
    out_dir = os.path.join(work, "flushing")
    names = set()
    kind, _ = run_tilec(options.tilec, program, args, "reference", out_dir,
                        options.timeout, env, ["--flush-subnormals"])
    if not kind and os.path.isdir(os.path.join(work, "vulkan")):
        for output, info in meta["outputs"].items():
            flushed = np.load(os.path.join(out_dir, output + ".npy"))
            out = np.load(os.path.join(work, "vulkan", output + ".npy"))
            if not compare(flushed, out, info["approx"], info["exact"], info["precision"]):
                names.add(output)
    with open(os.path.join(work, "flushing-agrees.json"), "w") as f:
        json.dump(sorted(names), f)


def unoptimized_driver_agrees(options, env, work, args, meta, backend):
    """Writes work/unoptimized-agrees-BACKEND.json: the outputs that `tilec
    run` on `backend` gets wrong again, and gets right with the driver's
    optimizer off (`--no-driver-optimization`): a miscompile of the
    driver's, shown by the same code. The second optimized run keeps a
    result that changes from run to run (a race) out of the list."""
    program = os.path.join(work, "prog.tile")
    runs = {}
    for name, extra in (("again", []), ("unoptimized", ["--no-driver-optimization"])):
        out_dir = os.path.join(work, "%s-%s" % (backend, name))
        kind, _ = run_tilec(options.tilec, program, args, backend, out_dir,
                            options.timeout, env, options.device_args + extra)
        runs[name] = None if kind else out_dir
    names = set()
    if runs["again"] and runs["unoptimized"]:
        names = agreeing_outputs(work, meta, runs["unoptimized"], runs["again"])
    with open(os.path.join(work, "unoptimized-agrees-%s.json" % backend), "w") as f:
        json.dump(sorted(names), f)


def other_vulkan_device_agrees(options, env, work, args, meta):
    """Writes work/other-vulkan-device-agrees.json: the outputs that the
    Vulkan device gets wrong again from a bundle compiled for it, and that
    another Vulkan implementation (--other-vulkan-device) gets right from
    the same bundle: the same SPIR-V, right on one driver and wrong on the
    other, is a miscompile of the driver's. tile-run runs the bundle on
    both, so that nothing is compiled again."""
    program = os.path.join(work, "prog.tile")
    bundle = os.path.join(work, "vulkan-bundle.json")
    shapes = []
    for name, path in inprocess.input_files(args).items():
        array = np.load(path)
        shapes += ["--arg", "%s=%s[%s]" % (name, dt.name_of(array.dtype),
                                           ",".join(str(d) for d in array.shape))]
    compile_cmd = [options.tilec, "compile", program, "--backend", "vulkan", "--emit",
                   "bundle", "-o", bundle] + shapes + options.device_args
    try:
        compiled = subprocess.run(compile_cmd, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL, timeout=options.timeout,
                                  env=env).returncode == 0
    except subprocess.TimeoutExpired:
        compiled = False
    names = set()
    if compiled:
        tile_run = os.path.join(os.path.dirname(options.tilec), "tile-run")
        runs = {}
        for name, device in (("again", []), ("other", ["--device", options.other_vulkan_device])):
            out_dir = os.path.join(work, "vulkan-bundle-" + name)
            kind, _ = run_tilec(tile_run, bundle, args, "vulkan", out_dir, options.timeout,
                                env, device, command=[])
            runs[name] = None if kind else out_dir
        if runs["again"] and runs["other"]:
            names = agreeing_outputs(work, meta, runs["other"], runs["again"])
    with open(os.path.join(work, "other-vulkan-device-agrees.json"), "w") as f:
        json.dump(sorted(names), f)


def agreeing_outputs(work, meta, right_dir, wrong_dir):
    """The outputs that agree with the reference in `right_dir` and not in
    `wrong_dir`."""
    names = set()
    for output, info in meta["outputs"].items():
        ref = np.load(os.path.join(work, "reference", output + ".npy"))
        agrees = [not compare(ref, np.load(os.path.join(out_dir, output + ".npy")),
                              info["approx"], info["exact"], info["precision"])
                  for out_dir in (right_dir, wrong_dir)]
        if agrees == [True, False]:
            names.add(output)
    return names


def program_facts(work, device_facts):
    """What the known issues test of the program in `work`
    (known_issues.py): `device_facts` and what the checks above wrote."""
    return dict(device_facts, subnormal_inputs=subnormal_inputs(work),
                ill_conditioned_outputs=outputs_named(work, "ill-conditioned"),
                ill_conditioned_division_outputs=outputs_named(
                    work, "ill-conditioned-divisions"),
                flushing_agrees_outputs=outputs_named(work, "flushing-agrees"),
                opencl_unoptimized_agrees_outputs=outputs_named(
                    work, "unoptimized-agrees-opencl"),
                vulkan_unoptimized_agrees_outputs=outputs_named(
                    work, "unoptimized-agrees-vulkan"),
                other_vulkan_device_agrees_outputs=outputs_named(
                    work, "other-vulkan-device-agrees"))


def outputs_named(work, name):
    """The outputs that work/NAME.json lists, if it was written."""
    try:
        with open(os.path.join(work, name + ".json")) as f:
            return set(json.load(f))
    except OSError:
        return set()


def subnormal_inputs(work):
    """The float dtypes ("f32", "bf16", ...) of the program's inputs in
    `work` that hold a subnormal value (bf16's are f32's, which is what a
    device computes bf16 in)."""
    found = set()
    for name in os.listdir(work):
        if not name.endswith(".npy"):
            continue
        values = np.load(os.path.join(work, name))
        dtype = dt.name_of(values.dtype)
        if dtype == "bf16":
            values, tiny = dt.as_float64(values), np.finfo(np.float32).tiny
        elif values.dtype.kind == "f":
            tiny = np.finfo(values.dtype).tiny
        else:
            continue
        if np.any((values != 0) & (np.abs(values) < tiny)):
            found.add(dtype)
    return found


def vulkan_facts(tilec, env):
    """The default Vulkan device's vendor and the float widths whose
    subnormals it keeps (its profile's denorm_preserve); {} without one."""
    try:
        p = subprocess.run([tilec, "devices", "--json", "--backend", "vulkan"],
                           capture_output=True, timeout=120, env=env)
        profile = json.loads(p.stdout)
    except (OSError, subprocess.TimeoutExpired, ValueError):
        return {}
    return {"vulkan_vendor": profile.get("vendor"),
            "vulkan_denorm_preserve": set(profile.get("denorm_preserve", []))}


def parse_seeds(text):
    if ".." in text:
        a, b = text.split("..")
        return list(range(int(a), int(b) + 1))
    return [int(s) for s in text.split(",")]


def reproducer(seed, backend, device_args):
    return ("/usr/bin/python3 tests/difftest/tilegen.py %d -o /tmp/difftest-%d | "
            "xargs build/bin/tilec run --backend %s%s --print" % (
                seed, seed, backend, "".join(" " + arg for arg in device_args)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--seeds", help="A..B or a comma-separated list")
    group.add_argument("--time", type=float, help="seconds to run for (long mode)")
    parser.add_argument("--start", type=int, default=1000000,
                        help="the first seed of --time (default 1000000)")
    parser.add_argument("--tilec", default=os.path.join(here, "..", "..", "build", "bin",
                                                        "tilec"))
    parser.add_argument("--backends", default=",".join(BACKENDS))
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--timeout", type=int, default=60,
                        help="seconds per run before it counts as a hang")
    parser.add_argument("--keep", default="difftest-findings",
                        help="where the programs with findings are kept")
    parser.add_argument("--work", default=None, help="scratch directory")
    parser.add_argument("--quiet", action="store_true", help="print findings only")
    parser.add_argument("--validation", action="store_true",
                        help="run Vulkan under the validation layers (TILEC_VULKAN_VALIDATION=1)")
    parser.add_argument("--profile", default=None,
                        help="a device profile (JSON) over the devices' own, as tilec run "
                             "--profile takes it: a GPU's schedules on CPU devices")
    parser.add_argument("--other-vulkan-device", default=None, metavar="SEL",
                        help="a second Vulkan device (--device SEL of tilec) that runs the "
                             "default Vulkan device's own bundle of a program with a Vulkan "
                             "finding nothing else explains: right there and wrong again on "
                             "the default device, it is the known issue "
                             "vulkan-driver-miscompile")
    parser.add_argument("--in-process", action="store_true",
                        help="run the devices' side through a tile-difftest-worker per job "
                             "(beside --tilec), which opens each device once")
    options = parser.parse_args()
    options.backends = options.backends.split(",")
    options.tilec = os.path.abspath(options.tilec)
    options.device_args = (["--profile", os.path.abspath(options.profile)]
                           if options.profile else [])
    own_work = options.work is None
    options.work = options.work or tempfile.mkdtemp(prefix="difftest-")
    os.makedirs(options.work, exist_ok=True)
    env = dict(os.environ)
    if options.validation:
        env["TILEC_VULKAN_VALIDATION"] = "1"

    options.device_facts = (vulkan_facts(options.tilec, env)
                            if "vulkan" in options.backends else {})
    counts = {"programs": 0, "findings": 0, "explained": 0, "unexplained": 0}
    lock = threading.Lock()
    deadline = time.time() + options.time if options.time else None
    next_seed = [options.start]

    def seeds():
        if options.seeds:
            yield from parse_seeds(options.seeds)
            return
        while time.time() < deadline:
            with lock:
                seed = next_seed[0]
                next_seed[0] += 1
            yield seed

    def report(result):
        seed, findings, work = result
        with lock:
            counts["programs"] += 1
            with open(os.path.join(work, "prog.tile")) as f:
                source = f.read()
            facts = program_facts(work, options.device_facts)
            issues = [known_issues.match(b, k, d, source, facts)
                      for b, k, d in findings]
            for (backend, kind, detail), issue in zip(findings, issues):
                counts["findings"] += 1
                label = "explained (%s)" % issue if issue else "UNEXPLAINED"
                if not issue and kind == "mismatch":
                    # Another output of the program, on the same backend,
                    # that a known issue explains: the value flowed here.
                    issue = next((i for (b, k, _), i in zip(findings, issues)
                                  if i and b == backend and k == kind), None)
                    if issue:
                        label = "explained (%s, in another output)" % issue
                counts["explained" if issue else "unexplained"] += 1
                print("difftest: seed %d: %s on %s: %s [%s]\n  reproduce: %s" % (
                    seed, kind, backend, detail, label,
                    reproducer(seed, backend, options.device_args)), flush=True)
            if findings:
                kept = os.path.join(options.keep, "seed%d" % seed)
                shutil.rmtree(kept, ignore_errors=True)
                shutil.copytree(work, kept)
            elif not options.quiet:
                print("difftest: seed %d: agrees" % seed, flush=True)
            if options.quiet and counts["programs"] % 100 == 0:
                print("difftest: %d programs so far" % counts["programs"], flush=True)
            shutil.rmtree(work, ignore_errors=True)

    workers = []
    local = threading.local()

    def job_worker():
        if not options.in_process:
            return None
        if not hasattr(local, "worker"):
            local.worker = inprocess.Worker(
                os.path.join(os.path.dirname(options.tilec), "tile-difftest-worker"),
                options.device_args + options.backends, env)
            with lock:
                workers.append(local.worker)
        return local.worker

    def checked(seed):
        try:
            return check_seed(seed, options, env, job_worker())
        except Exception as error:  # a bug of the driver is a finding too
            work = tempfile.mkdtemp(prefix="seed%d-" % seed, dir=options.work)
            open(os.path.join(work, "prog.tile"), "w").close()
            return seed, [("driver", "error", repr(error))], work

    with concurrent.futures.ThreadPoolExecutor(options.jobs) as pool:
        pending = set()
        for seed in seeds():
            pending.add(pool.submit(checked, seed))
            while len(pending) >= 2 * options.jobs:
                done, pending = concurrent.futures.wait(
                    pending, return_when=concurrent.futures.FIRST_COMPLETED)
                for f in done:
                    report(f.result())
        for f in concurrent.futures.as_completed(pending):
            report(f.result())
    for worker in workers:
        worker.stop()
    if options.in_process:
        print("difftest: %d programs ran in-process, %d through tilec run" % (
            sum(w.answered for w in workers), sum(w.fallbacks for w in workers)))
    if own_work:
        shutil.rmtree(options.work, ignore_errors=True)
    print("difftest: %(programs)d programs, %(findings)d findings, %(explained)d "
          "explained, %(unexplained)d unexplained" % counts)
    return 1 if counts["unexplained"] else 0


if __name__ == "__main__":
    sys.exit(main())
