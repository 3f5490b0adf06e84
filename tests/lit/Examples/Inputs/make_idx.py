"""Writes a small synthetic data set in Fashion-MNIST's IDX format (gzipped):
ten classes, each a fixed random pattern of blobs, seen through noise, so
that a CNN learns them within an epoch. For the CI run of train_cnn.

usage: make_idx.py DIR TRAIN_COUNT TEST_COUNT
"""

import gzip
import os
import struct
import sys

import numpy as np


def write(path, magic, dims, data):
    with gzip.open(path, "wb") as out:
        out.write(struct.pack(">I", magic) + b"".join(struct.pack(">I", d) for d in dims))
        out.write(data.astype(np.uint8).tobytes())


def main():
    out, train, test = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(7)
    patterns = (rng.random((10, 7, 7)) > 0.6).repeat(4, axis=1).repeat(4, axis=2)
    for prefix, count in [("train", train), ("t10k", test)]:
        labels = rng.integers(0, 10, count)
        images = patterns[labels] * 160 + rng.random((count, 28, 28)) * 95
        write(os.path.join(out, prefix + "-images-idx3-ubyte.gz"), 0x803, [count, 28, 28], images)
        write(os.path.join(out, prefix + "-labels-idx1-ubyte.gz"), 0x801, [count], labels)


if __name__ == "__main__":
    main()
