"""Draws tilec's pipeline (docs/architecture.md's diagram) as pipeline.png.

usage: /usr/bin/python3 docs/images/pipeline.py [OUTPUT.png]

Each box is a step with the folder that implements it; the text beside an
arrow is the IR that flows along it and the `tilec compile --emit` that
prints it; the text right of each lowering pass is what it records in the
IR. Keep it in step with the ASCII diagram of docs/architecture.md.
"""

import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import FancyBboxPatch  # noqa: E402

FRONT = "#dbe9f6"
MIDDLE = "#e4f2e0"
TARGET = "#fdebd3"
RUNTIME = "#ece4f5"
ORACLE = "#f9dddd"
INPUT = "#f2f2f2"


def box(ax, x, y, w, h, title, folder, color, detail=None):
    """A rounded box at (x, y) (lower left) with a bold title, an optional
    line of detail and its folder in monospace; returns its geometry."""
    ax.add_patch(FancyBboxPatch((x, y), w, h, boxstyle="round,pad=0.3,rounding_size=1.2",
                                facecolor=color, edgecolor="#444444", linewidth=1.2))
    lines = [(title, dict(fontsize=11, fontweight="bold"))]
    if detail:
        lines.append((detail, dict(fontsize=9)))
    if folder:
        lines.append((folder, dict(fontsize=8.5, family="monospace", color="#555555")))
    step = h / (len(lines) + 1)
    for i, (text, style) in enumerate(lines):
        ax.text(x + w / 2, y + h - step * (i + 1), text, ha="center", va="center", **style)
    return x, y, w, h


def arrow(ax, start, end, label=None, side="right", dashed=False, color="#222222"):
    """An arrow from start to end, with a label beside its middle."""
    ax.annotate("", xy=end, xytext=start,
                arrowprops=dict(arrowstyle="-|>", lw=1.4, color=color, shrinkA=2, shrinkB=2,
                                linestyle="--" if dashed else "-", mutation_scale=14))
    if label:
        mx, my = (start[0] + end[0]) / 2, (start[1] + end[1]) / 2
        offset = 1.2 if side == "right" else -1.2
        ax.text(mx + offset, my, label, ha="left" if side == "right" else "right",
                va="center", fontsize=9, style="italic", color="#1f3f6f")


def bottom(b):
    return (b[0] + b[2] / 2, b[1] - 0.3)


def top(b):
    return (b[0] + b[2] / 2, b[1] + b[3] + 0.3)


def draw(path):
    fig, ax = plt.subplots(figsize=(12, 15))
    ax.set_xlim(0, 120)
    ax.set_ylim(0, 150)
    ax.axis("off")
    ax.text(60, 147.5, "tilec's pipeline: each step, the folder that implements it, and what it hands on",
            ha="center", va="center", fontsize=13, fontweight="bold")

    cx, w = 22, 52  # the main column: x from cx to cx + w
    source = box(ax, cx + 11, 137, 30, 4.5, ".tile source", None, INPUT)
    frontend = box(ax, cx, 124, w, 8, "Frontend", "compiler/lib/Frontend", FRONT,
                   "lexer, parser, imports (the layer library)")
    sema = box(ax, cx, 109, w, 8, "Sema: specialize", "compiler/lib/Sema", FRONT,
               "shapes, dtypes, casts, inlined calls")
    oracle = box(ax, 84, 109, 33, 8, "reference interpreter", "compiler/lib/Interpreter", ORACLE,
                 "the oracle of every numeric test")
    conversion = box(ax, cx, 94, w, 8, "emitTileModule", "compiler/lib/Conversion", MIDDLE,
                     "one tile op per statement")
    arrow(ax, bottom(source), top(frontend))
    arrow(ax, bottom(frontend), top(sema), "AST  + --arg / --input bindings")
    arrow(ax, bottom(sema), top(conversion), "Program   (--emit tile)")
    arrow(ax, (cx + w + 0.3, 113), (oracle[0] - 0.3, 113))
    ax.text(cx + w + 4.5, 114.3, "Program", fontsize=9, style="italic", color="#1f3f6f")

    # The six lowering passes, in one frame: compiler/lib/Lowering (the last two in one box).
    ax.add_patch(FancyBboxPatch((cx - 3, 36.5), 98, 50.5, boxstyle="round,pad=0.3,rounding_size=1.5",
                                facecolor="none", edgecolor="#6a9a5f", linewidth=1.2,
                                linestyle="--"))
    ax.text(cx - 2, 85.2, "the six lowering passes (tile-opt --tile-lower-to-kernels)   "
            "compiler/lib/Lowering", fontsize=9.5, color="#3f6a35", fontweight="bold", va="center")
    passes = [
        ("--tile-merge-common-expressions", "CSE", "Lowering/Formation", "each expression once"),
        ("--tile-form-kernels", "fusion", "Lowering/Formation", "+ tile.kernel ops"),
        ("--tile-schedule", "the scheduler", "Lowering/Scheduling", "+ #tile.schedule"),
        ("--tile-plan-memory", "pieces, chunks, streaming", "Lowering/MemoryPlan",
         "+ chunk_bounds, piece_bytes"),
        ("--tile-lower-to-kernel-ir", "bodies, host function; then --tile-widen-narrow-integer-reads",
         "Lowering/KernelIR, KernelBodies", "= kernel IR: gpu.module\n   + host func"),
    ]
    previous = conversion
    boxes = []
    for i, (name, detail, folder, records) in enumerate(passes):
        y = 75.5 - 9.3 * i
        b = box(ax, cx, y, w, 7, name, folder, MIDDLE, detail)
        arrow(ax, bottom(previous), top(b))
        ax.text(cx + w + 2.5, y + 3.5, "records: " + records if 1 <= i <= 3 else records,
                fontsize=9.5, va="center", family="monospace", color="#2d5a27")
        previous = b
        boxes.append(b)
    ax.text(cx + w / 2 + 1.2, 90.3, "`tile` dialect   (--emit mlir)", fontsize=9, style="italic",
            color="#1f3f6f", va="center")
    profile = box(ax, 1, 59, 14, 9, "device", "", INPUT, "profile (JSON)")
    for b in boxes[1:4]:
        arrow(ax, (profile[0] + profile[2] + 0.3, 63.5), (b[0] - 0.3, b[1] + 3.5))

    # The targets: each prints the kernel IR.
    opencl = box(ax, 2, 19, 30, 9, "OpenCL C printer", "Target/OpenCL", TARGET, "--emit opencl")
    spirv = box(ax, 40, 19, 34, 9, "SPIR-V: MLIR's conversion", "Target/SPIRV (+ /Math)", TARGET,
                "--emit spirv | spirv-asm")
    msl = box(ax, 84, 19, 33, 9, "MSL via SPIRV-Cross", "Target/MSL", TARGET, "--emit msl")
    kernel_ir = bottom(boxes[-1])
    ax.text(kernel_ir[0] + 2.5, kernel_ir[1] - 4, "kernel IR   (--explain)", fontsize=9,
            style="italic", color="#1f3f6f", va="center")
    for target in (opencl, spirv):
        arrow(ax, kernel_ir, top(target))
    arrow(ax, (spirv[0] + spirv[2] + 0.3, 23.5), (msl[0] - 0.3, 23.5))

    bundle = box(ax, cx, 6.5, w, 7.5, "extractBundle", "compiler/lib/Bundle", TARGET,
                 "launches, buffers, signatures: a bundle (--emit bundle)")
    for target in (opencl, spirv, msl):
        arrow(ax, bottom(target) if target is spirv else (target[0] + target[2] / 2, target[1] - 0.3),
              top(bundle))
    runtime = box(ax, 84, 1, 33, 11.5, "runtime", "runtime/", RUNTIME,
                  "Device (OpenCL | Vulkan)\n-> Executor -> outputs")
    arrow(ax, (bundle[0] + bundle[2] + 0.3, 10), (runtime[0] - 0.3, 8),
          None)
    ax.text(81, 1.5, "tilec run, tile-run,\nthe JIT, Python", ha="right", fontsize=8.5,
            style="italic", color="#1f3f6f")
    # The oracle's outputs are what every run is checked against.
    ax.plot([118.5, 118.5], [108.7, 12.5], color="#b03030", linestyle="--", linewidth=1.2)
    ax.annotate("", xy=(117.6, 11.5), xytext=(118.5, 13.5),
                arrowprops=dict(arrowstyle="-|>", color="#b03030", lw=1.2))
    ax.text(117.5, 30.5, "outputs == reference?\n(--check, every test)", ha="right", fontsize=9,
            color="#b03030", style="italic")

    fig.savefig(path, dpi=80, bbox_inches="tight", metadata={"Software": None})


if __name__ == "__main__":
    draw(sys.argv[1] if len(sys.argv) > 1 else
         os.path.join(os.path.dirname(os.path.abspath(__file__)), "pipeline.png"))
