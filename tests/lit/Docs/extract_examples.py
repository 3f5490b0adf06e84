"""Runs every Tile example of a Markdown file through `tilec run`.

usage: extract_examples.py FILE.md WORKDIR

Every ```-fenced block that contains `function` is a Tile example. It must
carry one or more `// run: ARGS` lines; each runs `tilec run EXAMPLE --random
ARGS --output-dir DIR`, which must succeed and produce outputs that are not all zero
(an all-zero result usually means a contraction that selects no tuple). A
block with several functions needs a run line with `--entry NAME` for each.

The examples named in REFERENCES are also run on NumPy-made inputs (`--in`)
and compared with a direct NumPy computation. Exits non-zero, naming the
example, on any failure.
"""

import os
import re
import shlex
import shutil
import subprocess
import sys

import numpy as np

FENCE = re.compile(r"^\s*```")
RUN_LINE = re.compile(r"^\s*//\s*run:(.*)$")
FUNCTION = re.compile(r"\bfunction\b\s*([A-Za-z_][A-Za-z0-9_]*)?\s*\(")
ARG_SPEC = re.compile(r"^([A-Za-z_][A-Za-z0-9_']*)=([a-z0-9]+)\[([0-9, ]*)\]$")


def conv1d(I, F, out_size, index):
    """O[x] = sum over k of I[index(x, k)] * F[k], skipping taps whose index
    is fractional or outside I."""
    O = np.zeros(out_size)
    for x in range(out_size):
        for k in range(len(F)):
            i = index(x, k)
            if i == int(i) and 0 <= i < len(I):
                O[x] += I[int(i)] * F[k]
    return O


def maxpool(I):
    H, W = I.shape[0] // 2, I.shape[1] // 2
    return I[: 2 * H, : 2 * W].reshape(H, 2, W, 2).max(axis=(1, 3))


def pool(I, K, S):
    """Max over K x K windows S apart of an NHWC image ("valid")."""
    N, H, W, C = I.shape
    OH, OW = (H - K) // S + 1, (W - K) // S + 1
    O = np.full((N, OH, OW, C), -np.inf)
    for i in range(K):
        for j in range(K):
            O = np.maximum(O, I[:, i:i + S * OH:S, j:j + S * OW:S, :])
    return O


def set_diagonal(A, B):
    O = B.copy()
    np.fill_diagonal(O, np.diag(A))
    return O


# Example name -> inputs -> expected outputs, computed in f64.
REFERENCES = {
    "matmul": lambda t: {"C": t["A"] @ t["B"]},
    "total": lambda t: {"S": t["A"].sum()},
    "rowmax": lambda t: {"R": t["A"].max(axis=1)},
    "argmax": lambda t: {"Arg": t["A"].argmax(axis=1)},
    "conv1d_same": lambda t: {
        "O": conv1d(t["I"], t["F"], len(t["I"]),
                    lambda x, k: x + k - (len(t["F"]) - 1) // 2)},
    "conv1d_strided": lambda t: {
        "O": conv1d(t["I"], t["F"], (len(t["I"]) - 2 * (len(t["F"]) - 1) - 1) // 2 + 1,
                    lambda x, k: 2 * x + 2 * k)},
    "maxpool": lambda t: {"O": maxpool(t["I"])},
    "cumsum": lambda t: {"O": np.cumsum(t["I"])},
    "pool": lambda t: {"O": pool(t["I"], 2, 2)},
    "pools": lambda t: {"P2": pool(t["I"], 2, 2), "P3": pool(t["I"], 3, 3),
                        "P31": pool(t["I"], 3, 1)},
    "conv1d_transposed": lambda t: {
        "O": conv1d(t["I"], t["F"], 2 * len(t["I"]) + len(t["F"]) - 2,
                    lambda x, k: (x - k) / 2)},
    "set_diagonal": lambda t: {"O": set_diagonal(t["A"], t["B"])},
    "dense": lambda t: {"Y": np.maximum(t["X"] @ t["W"] + t["B"], 0)},
    "normalize": lambda t: {"Y": t["X"] - t["X"].sum() / len(t["X"])},
}

NUMPY_DTYPES = {
    "bool": np.bool_, "i8": np.int8, "i16": np.int16, "i32": np.int32,
    "i64": np.int64, "u8": np.uint8, "u16": np.uint16, "u32": np.uint32,
    "u64": np.uint64, "f16": np.float16, "f32": np.float32, "f64": np.float64,
}


class ExampleError(Exception):
    pass


def extract_blocks(markdown):
    """Yields (first line number, text) of every fenced block with `function`."""
    block, start = None, 0
    for number, line in enumerate(markdown.splitlines(), 1):
        if FENCE.match(line):
            if block is None:
                block, start = [], number + 1
            else:
                text = "\n".join(block) + "\n"
                if re.search(r"\bfunction\b", text):
                    yield start, text
                block = None
        elif block is not None:
            block.append(line)
    if block is not None:
        raise ExampleError(f"line {start - 1}: unterminated ``` block")


def parse_run_args(args):
    """Returns (entry or None, {name: (dtype, shape)}) of a run line."""
    entry, bindings = None, {}
    it = iter(args)
    for arg in it:
        if arg == "--entry":
            entry = next(it, None)
        elif arg.startswith("--entry="):
            entry = arg.split("=", 1)[1]
        elif arg == "--arg" or arg.startswith("--arg="):
            spec = next(it, "") if arg == "--arg" else arg.split("=", 1)[1]
            match = ARG_SPEC.match(spec)
            if not match:
                raise ExampleError(f"malformed --arg '{spec}'")
            name, dtype, dims = match.groups()
            shape = tuple(int(d) for d in dims.split(",") if d.strip())
            bindings[name] = (dtype, shape)
        else:
            raise ExampleError(f"unexpected run argument '{arg}' "
                               "(only --entry and --arg)")
    return entry, bindings


def run_tilec(tilec, args):
    result = subprocess.run([tilec, "run"] + args, capture_output=True,
                            text=True)
    if result.returncode != 0:
        raise ExampleError(f"`tilec run {shlex.join(args)}` exited with "
                           f"{result.returncode}:\n{result.stderr}")


def load_outputs(directory):
    return {name[:-4]: np.load(os.path.join(directory, name))
            for name in sorted(os.listdir(directory)) if name.endswith(".npy")}


def make_inputs(bindings, directory, rng):
    """Writes NumPy-made inputs for `bindings`; returns them as arrays."""
    os.makedirs(directory, exist_ok=True)
    arrays = {}
    for name, (dtype, shape) in bindings.items():
        if dtype not in NUMPY_DTYPES:
            raise ExampleError(f"no NumPy dtype for {dtype} of {name}")
        numpy_dtype = np.dtype(NUMPY_DTYPES[dtype])
        if numpy_dtype.kind == "f":
            values = rng.standard_normal(shape)
        elif numpy_dtype.kind == "b":
            values = rng.integers(0, 2, shape)
        else:
            low = 0 if numpy_dtype.kind == "u" else -8
            values = rng.integers(low, low + 16, shape)
        arrays[name] = np.asarray(values).astype(numpy_dtype)
        np.save(os.path.join(directory, name + ".npy"), arrays[name])
    return arrays


def check_against_numpy(tilec, path, entry, reference, bindings, workdir,
                        rng):
    inputs = make_inputs(bindings, os.path.join(workdir, "in"), rng)
    out_dir = os.path.join(workdir, "numpy-out")
    args = [path, "--output-dir", out_dir]
    if entry:
        args += ["--entry", entry]
    for name in bindings:
        args += ["--in", f"{name}={os.path.join(workdir, 'in', name + '.npy')}"]
    run_tilec(tilec, args)
    actual = load_outputs(out_dir)
    expected = REFERENCES[reference](
        {name: array.astype(np.float64) for name, array in inputs.items()})
    for name, want in expected.items():
        if name not in actual:
            raise ExampleError(f"no output '{name}' to compare with NumPy")
        got = actual[name]
        if got.shape != np.shape(want):
            raise ExampleError(f"output {name} has shape {got.shape}, "
                               f"NumPy's has {np.shape(want)}")
        if not np.allclose(got.astype(np.float64), want, rtol=1e-5, atol=1e-5):
            raise ExampleError(f"output {name} differs from NumPy:\n"
                               f"tilec: {got}\nnumpy: {want}")


def prepare_example(text, path):
    """Checks the run lines of an example and writes it to `path`.
    Returns its functions and its runs: (entry, bindings, arguments)."""
    functions = FUNCTION.findall(text)
    run_lines = [shlex.split(m.group(1))
                 for m in map(RUN_LINE.match, text.splitlines()) if m]
    if not run_lines:
        raise ExampleError("no `// run: ARGS` line: give the arguments that "
                           "run it, e.g. `// run: --arg A=f32[4,6]`")
    runs = [parse_run_args(args) + (args,) for args in run_lines]
    if len(functions) > 1:
        entries = {entry for entry, _, _ in runs}
        if None in entries or entries != set(functions):
            raise ExampleError(
                f"it defines {', '.join(f or '(unnamed)' for f in functions)}: "
                "give one `// run: --entry NAME ...` line per function")
    with open(path, "w") as f:
        f.write(text)
    return functions, runs


def run_once(tilec, path, function, entry, bindings, args, run_dir, rng):
    """Runs one run line on random inputs, then, if `function` has a NumPy
    reference, on NumPy-made inputs. Returns whether it was compared."""
    out_dir = os.path.join(run_dir, "random-out")
    run_tilec(tilec, [path, "--random", "--output-dir", out_dir] + args)
    outputs = load_outputs(out_dir)
    if not outputs:
        raise ExampleError("tilec wrote no outputs")
    for name, value in outputs.items():
        if not np.any(value):
            raise ExampleError(f"output {name} is all zeros: does a "
                               "contraction select no index tuple?")
    if function not in REFERENCES:
        return False
    check_against_numpy(tilec, path, entry, function, bindings, run_dir, rng)
    return True


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    markdown_path, workdir = sys.argv[1:]
    tilec = shutil.which("tilec")
    if not tilec:
        sys.exit("error: tilec is not on PATH")
    rng = np.random.default_rng(2024)
    with open(markdown_path) as f:
        markdown = f.read()
    try:
        blocks = list(extract_blocks(markdown))
    except ExampleError as error:
        sys.exit(f"{markdown_path}: {error}")

    failures, defined, compared, run_count = [], set(), set(), 0
    for number, (start, text) in enumerate(blocks, 1):
        label = f"{markdown_path}:{start}: example {number}"
        directory = os.path.join(workdir, f"example{number}")
        os.makedirs(directory, exist_ok=True)
        path = os.path.join(directory, "example.tile")
        defined.update(FUNCTION.findall(text))
        try:
            functions, runs = prepare_example(text, path)
        except ExampleError as error:
            failures.append(f"{label}: {error}")
            continue
        for index, (entry, bindings, args) in enumerate(runs):
            function = entry or functions[0] or "(unnamed)"
            run_dir = os.path.join(directory, f"run{index}")
            run_count += 1
            try:
                if run_once(tilec, path, function, entry, bindings, args,
                            run_dir, rng):
                    compared.add(function)
            except ExampleError as error:
                failures.append(f"{label}, {function} "
                                f"(`{shlex.join(args)}`): {error}")
    for name in sorted(set(REFERENCES) - defined):
        failures.append(f"{markdown_path}: no example defines '{name}', which "
                        "extract_examples.py has a NumPy reference for")
    if failures:
        print("\n".join(failures), file=sys.stderr)
        sys.exit(f"{len(failures)} example failure(s)")
    print(f"{len(blocks)} examples, {run_count} runs; "
          f"{len(compared)} agree with NumPy")


if __name__ == "__main__":
    main()
