#!/usr/bin/env python3
"""Plots training curves from the epoch lines of examples/train_cnn and
bench/train_cnn_torch.py (`epoch N: loss L, train accuracy A%, test accuracy
T%, S s`): the loss, and the train and test accuracy, per epoch, one line per
log. Needs matplotlib.

    python3 bench/plot_training.py OUT.png "tilec OpenCL=train-opencl.txt" \\
        "tilec Vulkan=train-vulkan.txt" "PyTorch eager=train-pytorch.txt"
"""

import argparse
import re
import sys

EPOCH = re.compile(r"epoch (\d+): loss ([0-9.]+), train accuracy ([0-9.]+)%, "
                   r"test accuracy ([0-9.]+)%, ([0-9.]+) s")


def read_log(path):
    """The (epoch, loss, train accuracy, test accuracy) of each epoch line."""
    rows = []
    with open(path, encoding="utf-8") as log:
        for line in log:
            match = EPOCH.fullmatch(line.strip())
            if match:
                rows.append([float(group) for group in match.groups()[:4]])
    if not rows:
        sys.exit("plot_training.py: no epoch lines in %s" % path)
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("output", help="the PNG to write")
    parser.add_argument("logs", nargs="+", metavar="LABEL=LOG",
                        help="a curve's label and the log it is read from")
    args = parser.parse_args()
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (loss_axes, accuracy_axes) = plt.subplots(1, 2, figsize=(11, 4))
    for index, spec in enumerate(args.logs):
        label, _, path = spec.partition("=")
        if not path:
            sys.exit("plot_training.py: '%s' is not LABEL=LOG" % spec)
        rows = read_log(path)
        epochs = [row[0] for row in rows]
        colour = "C%d" % index
        loss_axes.plot(epochs, [row[1] for row in rows], color=colour, marker="o",
                       label=label)
        accuracy_axes.plot(epochs, [row[2] for row in rows], color=colour,
                           linestyle="--", label=label + ", train")
        accuracy_axes.plot(epochs, [row[3] for row in rows], color=colour,
                           marker="o", label=label + ", test")
    loss_axes.set(xlabel="epoch", ylabel="mean training loss", title="Loss")
    accuracy_axes.set(xlabel="epoch", ylabel="accuracy (%)", title="Accuracy")
    for axes in (loss_axes, accuracy_axes):
        axes.grid(alpha=0.3)
        axes.legend(fontsize=8)
    figure.tight_layout()
    figure.savefig(args.output, dpi=110)
    print("wrote %s" % args.output)


if __name__ == "__main__":
    main()
