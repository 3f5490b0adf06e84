"""Checks train_cnn's epoch lines (read from standard input): the loss of the
last epoch is below the first's, and the last test accuracy is above chance
(10% for ten classes). Prints the lines it read; exits 1 otherwise.
"""

import re
import sys

EPOCH = re.compile(r"epoch (\d+): loss ([0-9.]+), train accuracy ([0-9.]+)%, "
                   r"test accuracy ([0-9.]+)%, ([0-9.]+) s")


def main():
    epochs = []
    for line in sys.stdin:
        match = EPOCH.fullmatch(line.strip())
        if match:
            print(line.strip())
            epochs.append([float(group) for group in match.groups()])
    if len(epochs) < 2:
        sys.exit("check_training.py: fewer than two epoch lines")
    first, last = epochs[0], epochs[-1]
    if not last[1] < first[1]:
        sys.exit("check_training.py: the loss did not fall (%g, then %g)" % (first[1], last[1]))
    if not last[3] > 10:
        sys.exit("check_training.py: test accuracy %g%% is not above chance" % last[3])
    print("the loss falls and the test accuracy is above chance")


if __name__ == "__main__":
    main()
