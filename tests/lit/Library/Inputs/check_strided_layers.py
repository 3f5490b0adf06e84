"""Checks the library's strided, dilated and padded convolutions and its
poolings (tilec/conv.tile) against NumPy, in f64 on the reference
interpreter.

usage: check_strided_layers.py TILEC LAYERS.tile WORKDIR

Each case of LAYERS.tile runs on random inputs; its output must have the
shape Keras (valid/same) or PyTorch (explicit padding) gives and agree with
a direct NumPy computation written from those libraries' definitions.
"""

import os
import subprocess
import sys

import numpy as np


def out_size(size, window, stride, dilation, mode, pad=0):
    """(output size, padding before) of one axis."""
    extent = dilation * (window - 1) + 1
    if mode == "valid":
        return (size - extent) // stride + 1, 0
    if mode == "same":  # TensorFlow's SAME
        out = -(-size // stride)
        total = max((out - 1) * stride + extent - size, 0)
        return out, total // 2
    return (size + 2 * pad - extent) // stride + 1, pad


def conv(I, F, B, stride, dilation, mode, pad=0, depthwise=False):
    N, H, W, C = I.shape
    KH, KW = F.shape[:2]
    OH, top = out_size(H, KH, stride, dilation, mode, pad)
    OW, left = out_size(W, KW, stride, dilation, mode, pad)
    P = np.zeros((N, H + OH * stride + KH * dilation,
                  W + OW * stride + KW * dilation, C))
    P[:, top:top + H, left:left + W, :] = I
    O = np.zeros((N, OH, OW, B.shape[0]))
    for i in range(KH):
        for j in range(KW):
            patch = P[:, dilation * i:dilation * i + stride * OH:stride,
                      dilation * j:dilation * j + stride * OW:stride, :]
            if depthwise:  # output channel c*CM + m
                O += np.einsum("nyxc,cm->nyxcm", patch,
                               F[i, j]).reshape(O.shape)
            else:
                O += np.einsum("nyxc,cd->nyxd", patch, F[i, j])
    return O + B


def pool(I, K, S, reduce):
    N, H, W, C = I.shape
    OH, OW = (H - K) // S + 1, (W - K) // S + 1
    windows = [I[:, i:i + S * OH:S, j:j + S * OW:S, :]
               for i in range(K) for j in range(K)]
    return reduce(np.stack(windows), axis=0)


I_SHAPE = (2, 11, 12, 3)
CASES = {
    "conv_s2": ((3, 3, 3, 4), lambda I, F, B: conv(I, F, B, 2, 1, "valid")),
    "conv_d2": ((3, 2, 3, 4), lambda I, F, B: conv(I, F, B, 1, 2, "valid")),
    "conv_s2_d2": ((3, 3, 3, 4),
                   lambda I, F, B: conv(I, F, B, 2, 2, "valid")),
    "same_s2": ((4, 3, 3, 4), lambda I, F, B: conv(I, F, B, 2, 1, "same")),
    "same_s3_d2": ((3, 2, 3, 4),
                   lambda I, F, B: conv(I, F, B, 3, 2, "same")),
    "same_s4": ((1, 1, 3, 4), lambda I, F, B: conv(I, F, B, 4, 1, "same")),
    "padded_p3_s2": ((7, 7, 3, 4),
                     lambda I, F, B: conv(I, F, B, 2, 1, "pad", pad=3)),
    "depthwise_s2": ((3, 3, 3, 2),
                     lambda I, F, B: conv(I, F, B, 2, 1, "valid",
                                          depthwise=True)),
    "depthwise_same_s2_d2": ((3, 3, 3, 2),
                             lambda I, F, B: conv(I, F, B, 2, 2, "same",
                                                  depthwise=True)),
    "maxpool_k3_s2": (None, lambda I: pool(I, 3, 2, np.max)),
    "maxpool_k3": (None, lambda I: pool(I, 3, 3, np.max)),
    "avgpool_k3_s1": (None, lambda I: pool(I, 3, 1, np.mean)),
}


def main():
    tilec, layers, workdir = sys.argv[1:]
    rng = np.random.default_rng(7)
    failures = 0
    for name, (filter_shape, reference) in CASES.items():
        directory = os.path.join(workdir, name)
        os.makedirs(directory, exist_ok=True)
        inputs = {"I": rng.standard_normal(I_SHAPE)}
        if filter_shape:
            inputs["F"] = rng.standard_normal(filter_shape)
            channels = filter_shape[3] * (filter_shape[2]
                                          if "depthwise" in name else 1)
            inputs["B"] = rng.standard_normal(channels)
        args = [tilec, "run", layers, "--entry", name, "--backend",
                "reference", "--output-dir", directory]
        for key, value in inputs.items():
            path = os.path.join(directory, key + ".npy")
            np.save(path, value)
            args += ["--in", f"{key}={path}"]
        subprocess.run(args, check=True, capture_output=True)
        actual = np.load(os.path.join(directory, "O.npy"))
        expected = reference(*inputs.values())
        if actual.shape != expected.shape:
            print(f"{name}: shape {actual.shape}, expected {expected.shape}")
            failures += 1
        elif not np.allclose(actual, expected, rtol=1e-12, atol=1e-12):
            print(f"{name}: differs by {np.abs(actual - expected).max()}")
            failures += 1
        else:
            print(f"{name}: {list(actual.shape)} agrees")
    sys.exit(failures)


if __name__ == "__main__":
    main()
