#!/usr/bin/env python3
"""The benchmark table: every workload of bench/workloads through tilec (OpenCL and Vulkan), beside
CLBlast (matrix products) and PyTorch (where it is installed with CUDA), timed in one run on one GPU.

    python3 bench/run.py [--device NVIDIA] [--quick] [--only REGEX] [--output-dir bench/results] [--previous RUN.json [--missing]]

writes <out>/<date>-<device>.md (the table, with ratios against the baseline measured in the same run),
<out>/<date>-<device>.json (the raw medians) and <out>/<date>-<device>.png (TFLOP/s against size for
the matrix product and the 3x3 convolution; needs matplotlib). tilec's times are the sum of its kernels'
medians from the device's profiling events (`tilec bench`); PyTorch's are CUDA events around the call
(TF32 off), medians of the same number of timed runs after a warm-up; CLBlast's come from
`clblast_sgemm`. A ratio above 1 means tilec is faster. A memory-bound row also shows its bandwidth as a
share of a copy's of as many elements (2^26 for the 8192 x 8192 rows), on the same backend in the same run,
and a reduction also as a share of a copy that moves as many bytes as it reads (a copy of half as many
elements: a sum of 2^24 reads 64 MiB, a copy of 2^23 moves 64 MiB), which is as short a launch.
"""
import argparse
import datetime
import json
import os
import re
import shutil
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORKLOADS = os.path.join(ROOT, "bench", "workloads")


def shape_arg(name, dims, dtype="f32"):
    return "--arg=%s=%s[%s]" % (name, dtype, ",".join(str(d) for d in dims))


class Workload:
    """One row: a .tile file, its input shapes, its work (flops or bytes) and its PyTorch twin."""

    def __init__(self, name, group, tile, inputs, flops=0.0, bytes_moved=0.0, torch_fn=None,
                 clblast=None, plot=None, copy=None, same_bytes=None):
        self.name = name
        self.group = group  # "compute" (TFLOP/s) or "memory" (GB/s) or "network" (ms)
        self.tile = tile
        self.inputs = inputs  # [(name, shape)] or [(name, shape, dtype)], f32 by default
        self.flops = flops
        self.bytes_moved = bytes_moved
        self.torch_fn = torch_fn  # torch module -> (setup -> callable)
        self.clblast = clblast  # (M, N, K) or None
        self.plot = plot  # (series, x) for the plot, or None
        # The copy row (of as many elements, or the largest) whose bandwidth, measured in the same run
        # on the same backend, this memory-bound row's is a share of.
        self.copy = copy
        # For a reduction, the copy row that moves as many bytes as it reads: its fixed costs (the
        # launch, the first loads' latency, the last wave) weigh as much as the reduction's.
        self.same_bytes = same_bytes


def matmul_torch(m, n, k):
    def make(torch):
        a = torch.randn(m, k, device="cuda")
        b = torch.randn(k, n, device="cuda")
        return lambda: a @ b
    return make


def conv_nhwc_torch(n, h, w, c, k, r, stride=1, pad=None, dilation=1, groups=1):
    pad = (r - 1) // 2 * dilation if pad is None else pad

    def make(torch):
        x = torch.randn(n, c, h, w, device="cuda").to(memory_format=torch.channels_last)
        f = torch.randn(k, c // groups, r, r, device="cuda").to(memory_format=torch.channels_last)
        conv = torch.nn.functional.conv2d
        return lambda: conv(x, f, stride=stride, padding=pad, dilation=dilation, groups=groups)
    return make


def conv_flops(n, ho, wo, k, r, c_per_group):
    return 2.0 * n * ho * wo * k * r * r * c_per_group


def workloads(quick):
    rows = []
    sizes = [1024, 2048, 4096] if quick else [1024, 2048, 4096, 8192, 16384]
    for s in sizes:
        rows.append(Workload("matmul %d^3" % s, "compute", "matmul.tile",
                             [("A", [s, s]), ("B", [s, s])], flops=2.0 * s ** 3,
                             torch_fn=matmul_torch(s, s, s), clblast=(s, s, s),
                             plot=("matmul", s)))
    for m, n, k in [(4096, 4096, 1024), (8192, 1024, 8192), (1024, 8192, 1024)]:
        rows.append(Workload("matmul %dx%dx%d (MxNxK)" % (m, n, k), "compute", "matmul.tile",
                             [("A", [m, k]), ("B", [k, n])], flops=2.0 * m * n * k,
                             torch_fn=matmul_torch(m, n, k), clblast=(m, n, k)))

    def batched(torch):
        a = torch.randn(64, 512, 512, device="cuda")
        b = torch.randn(64, 512, 512, device="cuda")
        return lambda: torch.bmm(a, b)
    rows.append(Workload("batched matmul 64 x 512^3", "compute", "batched_matmul.tile",
                         [("A", [64, 512, 512]), ("B", [64, 512, 512])], flops=2.0 * 64 * 512 ** 3,
                         torch_fn=batched))

    def transposed(torch):
        a = torch.randn(4096, 4096, device="cuda")
        b = torch.randn(4096, 4096, device="cuda")
        return lambda: a.t() @ b
    rows.append(Workload("matmul A^T B 4096^3", "compute", "matmul_tn.tile",
                         [("A", [4096, 4096]), ("B", [4096, 4096])], flops=2.0 * 4096 ** 3,
                         torch_fn=transposed))

    def dense(torch):
        x = torch.randn(4096, 4096, device="cuda")
        w = torch.randn(4096, 4096, device="cuda")
        b = torch.randn(4096, device="cuda")
        return lambda: torch.relu(torch.addmm(b, x, w))
    rows.append(Workload("dense + bias + relu 4096^3", "compute", "dense_bias_relu.tile",
                         [("X", [4096, 4096]), ("W", [4096, 4096]), ("B", [4096])],
                         flops=2.0 * 4096 ** 3, torch_fn=dense))

    batches = [16, 32, 64] if quick else [16, 32, 64, 128]
    for n in batches:
        rows.append(Workload("conv 3x3 NHWC N%d 56x56 C64 K64" % n, "compute", "conv2d_nhwc.tile",
                             [("I", [n, 56, 56, 64]), ("F", [3, 3, 64, 64])],
                             flops=conv_flops(n, 56, 56, 64, 3, 64),
                             torch_fn=conv_nhwc_torch(n, 56, 56, 64, 64, 3), plot=("conv 3x3", n)))

    def conv_nchw(torch):
        x = torch.randn(128, 64, 56, 56, device="cuda")
        f = torch.randn(64, 64, 3, 3, device="cuda")
        return lambda: torch.nn.functional.conv2d(x, f, padding=1)
    rows.append(Workload("conv 3x3 NCHW N128 56x56 C64 K64", "compute", "conv2d_nchw.tile",
                         [("I", [128, 64, 56, 56]), ("F", [64, 64, 3, 3])],
                         flops=conv_flops(128, 56, 56, 64, 3, 64), torch_fn=conv_nchw))
    rows.append(Workload("conv 7x7/2 stem N64 224x224 C3 K64", "compute", "conv2d_stem.tile",
                         [("I", [64, 224, 224, 3]), ("F", [7, 7, 3, 64])],
                         flops=conv_flops(64, 112, 112, 64, 7, 3),
                         torch_fn=conv_nhwc_torch(64, 224, 224, 3, 64, 7, stride=2, pad=3)))
    rows.append(Workload("conv 1x1 NHWC N128 56x56 C64 K256", "compute", "conv2d_nhwc.tile",
                         [("I", [128, 56, 56, 64]), ("F", [1, 1, 64, 256])],
                         flops=conv_flops(128, 56, 56, 256, 1, 64),
                         torch_fn=conv_nhwc_torch(128, 56, 56, 64, 256, 1)))
    rows.append(Workload("conv 3x3 dilation 2 N128 56x56 C64 K64", "compute", "conv2d_dilated.tile",
                         [("I", [128, 56, 56, 64]), ("F", [3, 3, 64, 64])],
                         flops=conv_flops(128, 56, 56, 64, 3, 64),
                         torch_fn=conv_nhwc_torch(128, 56, 56, 64, 64, 3, dilation=2)))
    rows.append(Workload("conv 3x3 grouped (4 groups) N128 56x56 C64 K64", "compute",
                         "conv2d_grouped.tile",
                         [("I", [128, 56, 56, 4, 16]), ("F", [3, 3, 4, 16, 16])],
                         flops=conv_flops(128, 56, 56, 64, 3, 16),
                         torch_fn=conv_nhwc_torch(128, 56, 56, 64, 64, 3, groups=4)))
    rows.append(Workload("conv 3x3 depthwise N128 56x56 C64", "compute", "conv2d_depthwise.tile",
                         [("I", [128, 56, 56, 64]), ("F", [3, 3, 64])],
                         flops=conv_flops(128, 56, 56, 64, 3, 1),
                         torch_fn=conv_nhwc_torch(128, 56, 56, 64, 64, 3, groups=64)))

    def conv_grad(which):
        def make(torch):
            x = torch.randn(128, 64, 56, 56, device="cuda").to(memory_format=torch.channels_last)
            f = torch.randn(64, 64, 3, 3, device="cuda").to(memory_format=torch.channels_last)
            dy = torch.randn(128, 64, 56, 56, device="cuda").to(memory_format=torch.channels_last)
            grad = torch.nn.grad
            if which == "filter":
                return lambda: grad.conv2d_weight(x, f.shape, dy, padding=1)
            return lambda: grad.conv2d_input(x.shape, f, dy, padding=1)
        return make
    rows.append(Workload("conv 3x3 filter gradient N128 56x56 C64 K64", "compute",
                         "conv2d_grad_filter.tile",
                         [("I", [128, 56, 56, 64]), ("DO", [128, 56, 56, 64])],
                         flops=conv_flops(128, 56, 56, 64, 3, 64), torch_fn=conv_grad("filter")))
    rows.append(Workload("conv 3x3 input gradient N128 56x56 C64 K64", "compute",
                         "conv2d_grad_input.tile",
                         [("DO", [128, 56, 56, 64]), ("F", [3, 3, 64, 64])],
                         flops=conv_flops(128, 56, 56, 64, 3, 64), torch_fn=conv_grad("input")))

    n28 = 1 << 24 if quick else 1 << 28

    def vec(torch, count, fn, dtype="float32"):
        xs = [torch.randn(n28, device="cuda", dtype=getattr(torch, dtype)) for _ in range(count)]
        return lambda: fn(*xs)
    def copy_row(count):
        power = count & (count - 1) == 0
        name = "copy 2^%d" % (count.bit_length() - 1) if power else "copy %d" % count
        return Workload(name, "memory", "copy.tile", [("X", [count])], bytes_moved=8.0 * count,
                        torch_fn=lambda t: (lambda x: (lambda: x.clone()))(
                            t.randn(count, device="cuda")))
    copies = {e: copy_row(1 << e) for e in ([20, 24] if quick else [20, 24, 26, 28])}
    rows += copies.values()
    # Copies of half as many elements as the reductions below read: as many bytes moved.
    channel_elements = 128 * 64 * 56 * 56
    halves = {} if quick else {n: copy_row(n) for n in
                               [1 << 19, 1 << 23, 1 << 25, 1 << 27, channel_elements // 2]}
    rows += halves.values()
    copy28 = copies[n28.bit_length() - 1]
    rows.append(Workload("add 2^%d" % (n28.bit_length() - 1), "memory", "add.tile",
                         [("A", [n28]), ("B", [n28])], bytes_moved=12.0 * n28, copy=copy28,
                         torch_fn=lambda t: vec(t, 2, lambda a, b: a + b)))
    rows.append(Workload("relu 2^%d" % (n28.bit_length() - 1), "memory", "relu.tile", [("X", [n28])],
                         bytes_moved=8.0 * n28, copy=copy28, torch_fn=lambda t: vec(t, 1, t.relu)))
    rows.append(Workload("5-op chain 2^%d" % (n28.bit_length() - 1), "memory", "chain5.tile",
                         [("X", [n28])], bytes_moved=8.0 * n28, copy=copy28,
                         torch_fn=lambda t: vec(t, 1, lambda x: t.relu(x * 0.5 + 1.0) * x - 2.0)))
    rows.append(Workload("add f16 2^%d" % (n28.bit_length() - 1), "memory", "add.tile",
                         [("A", [n28], "f16"), ("B", [n28], "f16")], bytes_moved=6.0 * n28,
                         copy=copy28, torch_fn=lambda t: vec(t, 2, lambda a, b: a + b, "float16")))
    rows.append(Workload("cast f32 to f16 2^%d" % (n28.bit_length() - 1), "memory",
                         "cast_f16.tile", [("X", [n28])], bytes_moved=6.0 * n28,
                         copy=copy28, torch_fn=lambda t: vec(t, 1, lambda x: x.half())))
    for e in ([20, 24] if quick else [20, 24, 28]):
        rows.append(Workload("sum 2^%d" % e, "memory", "sum.tile", [("A", [1 << e])],
                             bytes_moved=4.0 * (1 << e), copy=copies[e],
                             same_bytes=halves.get(1 << (e - 1)),
                             torch_fn=lambda t, e=e: (lambda a: (lambda: a.sum()))(
                                 t.randn(1 << e, device="cuda"))))

    def mat(rows_, cols, fn):
        def make(torch):
            x = torch.randn(rows_, cols, device="cuda")
            return lambda: fn(torch, x)
        return make
    rows.append(Workload("row sum 8192x8192", "memory", "row_sum.tile", [("A", [8192, 8192])],
                         bytes_moved=4.0 * 8192 * 8192, copy=copies.get(26),
                         same_bytes=halves.get(1 << 25),
                         torch_fn=mat(8192, 8192, lambda t, x: x.sum(1))))
    rows.append(Workload("column sum 8192x8192", "memory", "column_sum.tile", [("A", [8192, 8192])],
                         bytes_moved=4.0 * 8192 * 8192, copy=copies.get(26),
                         same_bytes=halves.get(1 << 25),
                         torch_fn=mat(8192, 8192, lambda t, x: x.sum(0))))

    def channel(torch):
        x = torch.randn(128, 64, 56, 56, device="cuda")
        return lambda: x.sum((0, 2, 3))
    rows.append(Workload("channel sum NCHW 128x64x56x56", "memory", "channel_sum.tile",
                         [("A", [128, 64, 56, 56])], bytes_moved=4.0 * channel_elements,
                         copy=copies.get(26), same_bytes=halves.get(channel_elements // 2),
                         torch_fn=channel))
    for m, n in [(8192, 8192), (65536, 1024), (16384, 4096), (4096, 16384), (2048, 32768)]:
        rows.append(Workload("softmax %dx%d" % (m, n), "memory", "softmax.tile", [("X", [m, n])],
                             bytes_moved=8.0 * m * n, copy=copies.get(26),
                             torch_fn=mat(m, n, lambda t, x: t.softmax(x, 1))))
    def maxpool(torch):
        x = torch.randn(128, 64, 112, 112, device="cuda").to(memory_format=torch.channels_last)
        return lambda: torch.nn.functional.max_pool2d(x, 3, 2)
    rows.append(Workload("maxpool 3x3/2 NHWC N128 112x112 C64", "memory", "maxpool.tile",
                         [("I", [128, 112, 112, 64])],
                         bytes_moved=4.0 * 128 * 64 * (112 * 112 + 55 * 55), torch_fn=maxpool))
    for m, n in [(8192, 8192), (65536, 1024), (16384, 4096), (4096, 16384), (2048, 32768)]:
        rows.append(Workload("layer norm %dx%d" % (m, n), "memory", "layer_norm.tile",
                             [("X", [m, n])], bytes_moved=8.0 * m * n, copy=copies.get(26),
                             torch_fn=mat(m, n, lambda t, x, n=n: t.nn.functional.layer_norm(
                                 x, (n,)))))

    def cnn(torch):
        f = torch.nn.functional
        g = lambda *s: torch.randn(*s, device="cuda")
        x = g(128, 3, 32, 32).to(memory_format=torch.channels_last)
        convs = [(g(32, 3, 3, 3), g(32)), (g(32, 32, 3, 3), g(32)), (g(64, 32, 3, 3), g(64)),
                 (g(64, 64, 3, 3), g(64)), (g(128, 64, 3, 3), g(128)), (g(128, 128, 3, 3), g(128))]
        convs = [(w.to(memory_format=torch.channels_last), b) for w, b in convs]
        w7, b7, w8, b8 = g(2048, 256), g(256), g(256, 10), g(10)

        def forward():
            y = x
            for i, (w, b) in enumerate(convs):
                y = f.relu(f.conv2d(y, w, b, padding=1))
                if i % 2 == 1:
                    y = f.max_pool2d(y, 2)
            y = y.permute(0, 2, 3, 1).reshape(128, 2048)  # NHWC flatten, as the Tile program
            y = f.relu(torch.addmm(b7, y, w7))
            return torch.softmax(torch.addmm(b8, y, w8), 1)
        return forward
    rows.append(Workload("12-layer CNN forward, batch 128, 32x32x3", "network", "cnn12.tile",
                         [("X", [128, 32, 32, 3]), ("F1", [3, 3, 3, 32]), ("B1", [32]),
                          ("F2", [3, 3, 32, 32]), ("B2", [32]), ("F3", [3, 3, 32, 64]),
                          ("B3", [64]), ("F4", [3, 3, 64, 64]), ("B4", [64]),
                          ("F5", [3, 3, 64, 128]), ("B5", [128]), ("F6", [3, 3, 128, 128]),
                          ("B6", [128]), ("W7", [2048, 256]), ("B7", [256]), ("W8", [256, 10]),
                          ("B8", [10])], torch_fn=cnn))
    return rows


def run(cmd, timeout):
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           timeout=timeout)
        return p.returncode, p.stdout
    except subprocess.TimeoutExpired:
        return 124, "timed out after %d s" % timeout


def tilec_time(args, w, backend):
    """The sum of the kernels' median times in ms (tilec bench's `total` line), or an error string."""
    cmd = [args.tilec, "bench", os.path.join(WORKLOADS, w.tile), "--repeat=%d" % args.repeat]
    cmd += [shape_arg(*spec) for spec in w.inputs]
    if backend == "vulkan":
        cmd.append("--backend=vulkan")
    if args.device:
        cmd.append("--device=%s" % args.device)
    rc, out = run(cmd, args.timeout)
    m = re.search(r"^total\s+\d+\s+([0-9.]+)", out, re.M)
    if rc != 0 or not m:
        return None, out.strip().splitlines()[-1] if out.strip() else "exit %d" % rc
    return float(m.group(1)), out


def clblast_time(args, w):
    if not w.clblast or not args.clblast:
        return None
    m, n, k = w.clblast
    cmd = [args.clblast, str(m), str(n), str(k), str(args.repeat)]
    if args.device:
        cmd.append(args.device)
    rc, out = run(cmd, args.timeout)
    found = re.search(r"median ([0-9.]+) ms", out)
    return float(found.group(1)) if rc == 0 and found else None


def torch_time(torch, w, repeat):
    if torch is None or w.torch_fn is None:
        return None
    fn = w.torch_fn(torch)
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(repeat):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    del fn
    torch.cuda.empty_cache()
    return statistics.median(times)


def load_torch():
    try:
        import torch
    except ImportError:
        return None
    if not torch.cuda.is_available():
        return None
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    return torch


def device_description(args, torch):
    lines = []
    if shutil.which("nvidia-smi"):
        _, out = run(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"], 30)
        lines.append("GPU (nvidia-smi): " + out.strip())
    if torch is not None:
        lines.append("PyTorch %s, CUDA %s, cuDNN %s, TF32 off" %
                     (torch.__version__, torch.version.cuda, torch.backends.cudnn.version()))
    _, out = run([args.tilec, "devices"], 60)
    lines.append("tilec devices:\n" + out.rstrip())
    return "\n".join(lines)


def rate(w, ms):
    if ms is None:
        return ""
    if w.group == "compute":
        return "%.2f TFLOP/s" % (w.flops / ms / 1e9)
    if w.group == "memory":
        return "%.0f GB/s" % (w.bytes_moved / ms / 1e6)
    return ""


def cell(w, ms, error=None):
    if ms is None:
        return "error: %s" % error[:60] if error else "-"
    r = rate(w, ms)
    return "%.3f ms%s" % (ms, (", " + r) if r else "")


def ratio(base, mine):
    return "%.2fx" % (base / mine) if base and mine else "-"


def share_of_copy(w, results, backend, copy):
    """The row's bandwidth as a share of copy row `copy`'s (or "-" without one) on the same backend,
    in the same run."""
    ms = results[w.name].get(backend)
    copy_ms = results.get(copy.name, {}).get(backend) if copy else None
    if not ms or not copy_ms:
        return "-"
    return "%.0f%%" % (100.0 * (w.bytes_moved / ms) / (copy.bytes_moved / copy_ms))


def write_plot(path, rows, results):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    series = {}
    for w in rows:
        if w.plot:
            series.setdefault(w.plot[0], []).append(w)
    if not series:
        return False
    fig, axes = plt.subplots(1, len(series), figsize=(6 * len(series), 4.5), squeeze=False)
    # One colour per column in every panel.
    columns = [("pytorch", "PyTorch (cuBLAS/cuDNN, TF32 off)", "C0"), ("clblast", "CLBlast", "C1"),
               ("opencl", "tilec OpenCL", "C2"), ("vulkan", "tilec Vulkan", "C3")]
    for ax, (name, ws) in zip(axes[0], series.items()):
        xs = [w.plot[1] for w in ws]
        for key, label, colour in columns:
            ys = [w.flops / results[w.name][key] / 1e9 if results[w.name].get(key) else None
                  for w in ws]
            if any(y is not None for y in ys):
                ax.plot([x for x, y in zip(xs, ys) if y is not None], [y for y in ys if y is not None],
                        marker="o", label=label, color=colour)
        ax.set_xscale("log", base=2)
        ax.set_xlabel("size (M=N=K)" if name == "matmul" else "batch N")
        ax.set_ylabel("TFLOP/s (f32)")
        ax.set_title(name)
        ax.grid(True, alpha=0.3)
        ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def write_report(args, torch, rows, results, backends):
    """Writes the .json, .png and .md files of the rows measured so far; returns their stem."""
    today = datetime.date.today().isoformat()
    device = args.name or (args.device or "default").lower().replace(" ", "-")
    os.makedirs(args.output_dir, exist_ok=True)
    stem = os.path.join(args.output_dir, "%s-%s" % (today, device))
    with open(stem + ".json", "w") as f:
        json.dump({"date": today, "description": args.description, "repeat": args.repeat,
                   "results": results}, f, indent=1)
    plotted = write_plot(stem + ".png", rows, results)

    lines = ["# tilec benchmark, %s, %s" % (today, device), "",
             "Generated by `python3 bench/run.py%s`. Medians of %d timed runs after a warm-up; a ratio "
             "above 1 means tilec is faster than the baseline measured in the same run." %
             (" --device " + args.device if args.device else "", args.repeat), "",
             "```", args.description, "```", ""]
    if plotted:
        lines += ["![TFLOP/s against size](%s)" % os.path.basename(stem + ".png"), ""]
    head = ["workload", "PyTorch", "CLBlast"] + ["tilec " + b for b in backends]
    head += ["%s / PyTorch" % b for b in backends] + ["OpenCL / CLBlast"]
    if "opencl" in backends and "vulkan" in backends:
        head.append("Vulkan / OpenCL")
    head += ["%s of copy" % b for b in backends]
    head += ["%s of same-bytes copy" % b for b in backends]
    lines += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for w in rows:
        r = results[w.name]
        cells = [w.name, cell(w, r.get("pytorch")), cell(w, r.get("clblast"))]
        cells += [cell(w, r.get(b), r.get(b + "_error")) for b in backends]
        cells += [ratio(r.get("pytorch"), r.get(b)) for b in backends]
        cells.append(ratio(r.get("clblast"), r.get("opencl")))
        if "opencl" in backends and "vulkan" in backends:
            cells.append(ratio(r.get("opencl"), r.get("vulkan")))
        cells += [share_of_copy(w, results, b, w.copy) for b in backends]
        cells += [share_of_copy(w, results, b, w.same_bytes) for b in backends]
        lines.append("| " + " | ".join(cells) + " |")
    with open(stem + ".md", "w") as f:
        f.write("\n".join(lines) + "\n")
    return stem


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tilec", default=shutil.which("tilec") or os.path.join(ROOT, "build/bin/tilec"))
    parser.add_argument("--clblast", default=shutil.which("clblast_sgemm")
                        or os.path.join(ROOT, "build/bin/clblast_sgemm"))
    parser.add_argument("--device", default="", help="tilec's and CLBlast's device (a name substring)")
    parser.add_argument("--backends", default="opencl,vulkan")
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--timeout", type=int, default=300, help="seconds per tilec run")
    parser.add_argument("--quick", action="store_true", help="smaller sizes, for a smoke run")
    parser.add_argument("--only", default="", help="a regular expression over the workload names")
    parser.add_argument("--output-dir", default=os.path.join(ROOT, "bench", "results"))
    parser.add_argument("--previous", action="append", default=[], metavar="JSON",
                        help="results of an earlier run of the same table (its .json) to report "
                             "with this run's rows; with --only '^$', only the report is written")
    parser.add_argument("--missing", action="store_true",
                        help="measure only the rows that no --previous JSON holds: a run that a "
                             "device command's time limit cut short goes on where it stopped")
    parser.add_argument("--name", default="", help="the device's name in the file names")
    args = parser.parse_args()
    if not os.path.exists(args.clblast):
        args.clblast = None

    torch = load_torch()
    results = {}
    args.description = None
    for path in args.previous:
        with open(path) as f:
            previous = json.load(f)
        results.update(previous["results"])
        args.description = args.description or previous.get("description")
    if args.description is None:
        args.description = device_description(args, torch)
    table = workloads(args.quick)
    rows = [w for w in table if re.search(args.only, w.name)]
    if args.missing:
        rows = [w for w in rows if w.name not in results]
    backends = [b for b in args.backends.split(",") if b]
    for w in rows:
        r = results[w.name] = {}
        for b in backends:
            ms, out = tilec_time(args, w, b)
            r[b] = ms
            if ms is None:
                r[b + "_error"] = out
        r["clblast"] = clblast_time(args, w)
        r["pytorch"] = torch_time(torch, w, args.repeat)
        print("%-48s %s" % (w.name, "  ".join("%s=%s" % (k, v) for k, v in r.items()
                                             if not k.endswith("_error"))), flush=True)
        write_report(args, torch, [v for v in table if v.name in results], results, backends)

    print("wrote %s.md" % write_report(args, torch, [v for v in table if v.name in results],
                                        results, backends))
    return 0


if __name__ == "__main__":
    sys.exit(main())
