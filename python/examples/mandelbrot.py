"""The Mandelbrot set on the device, its state kept there between calls.

The set over [-2, 1] x [-1.5, 1.5], 100 iterations per pixel. Tile has no
loops, so a function generated here runs four iterations on every pixel,
with select() keeping z once it has escaped (|z| > 2); it is called 25 times
and the state (z and the count) stays on the device in between (device
tensors); only the final counts come back. NumPy renders the same image with
the same f32 operations in the same order, so the counts must be equal at
every pixel. examples/README.md explains why four iterations a call.

    PYTHONPATH=build/python python3 python/examples/mandelbrot.py \\
        [--size 500] [--image mandelbrot.png]

--image writes the image as an 8-bit RGB PNG (size x size) through Pillow,
coloured as the C++ example colours it: black inside the set, a
blue-to-white ramp outside by escape time.
"""

import argparse
import sys
import time

import numpy as np
import tilec

ITERATIONS = 100
UNROLL = 4


def mandelbrot_source(from_origin: bool) -> str:
    """UNROLL iterations on an H x W image whose column j has Re c = Cr[j] and
    row i has Im c = Ci[i]: from z = 0 (mandelbrot_start) or from a state
    (mandelbrot_step)."""
    if from_origin:
        lines = ["function mandelbrot_start(Cr[W], Ci[H])"]
    else:
        lines = ["function mandelbrot_step(X0[H, W], Y0[H, W], N0[H, W], "
                 "Cr[W], Ci[H])"]
    lines[0] += f" -> (X{UNROLL}, Y{UNROLL}, N{UNROLL}) {{"
    lines.append("  CiColumn = reshape(Ci, H, 1);")
    if from_origin:
        lines += ["  X0 = 0 * Cr + 0 * CiColumn;", "  Y0 = X0;",
                  "  N0 = as_int(X0, 32);"]
    for k in range(1, UNROLL + 1):
        p = k - 1
        lines += [
            f"  In{k} = X{p} * X{p} + Y{p} * Y{p} <= 4;",
            f"  X{k} = select(In{k}, X{p} * X{p} - Y{p} * Y{p} + Cr, X{p});",
            f"  Y{k} = select(In{k}, 2 * X{p} * Y{p} + CiColumn, Y{p});",
            f"  N{k} = N{p} + as_int(In{k}, 32);",
        ]
    return "\n".join(lines + ["}"]) + "\n"


def plane(size: int):
    """Re c of each column and Im c of each row."""
    step = 3.0 / size
    centres = (np.arange(size) + 0.5) * step
    return (-2.0 + centres).astype(np.float32), (-1.5 + centres).astype(
        np.float32)


def render_on_device(start, step, re, im) -> np.ndarray:
    x, y, count = start.on_device(re, im)
    for _ in range(UNROLL, ITERATIONS, UNROLL):
        x, y, count = step.on_device(x, y, count, re, im)
    return count.numpy()


def render_with_numpy(re, im) -> np.ndarray:
    """The same iteration, on every pixel at once, in f32."""
    cr = np.broadcast_to(re, (im.size, re.size))
    ci = np.broadcast_to(im[:, None], (im.size, re.size))
    x = np.zeros_like(cr)
    y = np.zeros_like(cr)
    count = np.zeros(cr.shape, np.int32)
    two, four = np.float32(2), np.float32(4)
    for _ in range(ITERATIONS):
        inside = x * x + y * y <= four
        x, y = (np.where(inside, x * x - y * y + cr, x),
                np.where(inside, two * x * y + ci, y))
        count += inside
    return count


def write_image(path: str, counts: np.ndarray) -> None:
    """The C++ example's colours (examples/mandelbrot.cpp): t = count / 100
    outside the set gives (255 t, 255 t, 128 + 127 t), truncated to bytes."""
    # Imported here: the example needs Pillow only to write an image.
    from PIL import Image

    t = counts.astype(np.float64) / ITERATIONS
    rgb = np.stack([255 * t, 255 * t, 128 + 127 * t], axis=-1).astype(np.uint8)
    rgb[counts >= ITERATIONS] = 0
    Image.fromarray(rgb, mode="RGB").save(path, format="PNG")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=500)
    parser.add_argument("--image", help="write the image to this PNG file")
    args = parser.parse_args()
    if not 1 <= args.size <= 100_000:
        parser.error(f"'{args.size}' is not an image size (1 to 100000)")

    start = tilec.compile(mandelbrot_source(True), name="mandelbrot_start.tile")
    step = tilec.compile(mandelbrot_source(False), name="mandelbrot_step.tile")
    re, im = plane(args.size)
    start.program(re, im)  # compile before the clock starts
    state = np.zeros((args.size, args.size), np.float32)
    step.program(state, state, state.astype(np.int32), re, im)

    began = time.perf_counter()
    counts = render_on_device(start, step, re, im)
    device_seconds = time.perf_counter() - began
    began = time.perf_counter()
    expected = render_with_numpy(re, im)
    numpy_seconds = time.perf_counter() - began

    differing = int(np.count_nonzero(counts != expected))
    print(f"Mandelbrot set, {ITERATIONS} iterations, device: "
          f"{start.context.device_name}")
    print(f"{args.size}x{args.size}: device {device_seconds:.3f} s, "
          f"NumPy {numpy_seconds:.3f} s, {differing} differing pixels, "
          f"{np.count_nonzero(counts == ITERATIONS)} pixels in the set")
    if args.image:
        write_image(args.image, counts)
        print(f"wrote {args.image} ({args.size}x{args.size} PNG)")
    return 0 if differing == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
