#!/usr/bin/env python3
"""PyTorch eager baseline of examples/train_cnn.cpp: Keras' mnist_cnn on
Fashion-MNIST with Adadelta (lr 1.0, rho 0.95, eps 1e-7), the same layers,
initialisation (Glorot uniform, zero biases), batch and epochs, TF32 off.

Prints one line per epoch in train_cnn's format, so that the two are read
side by side: the seconds are those of the training steps (forward, loss,
backward, update) over the epoch's full batches, measured after a
synchronisation; the accuracies are evaluated afterwards, outside the time,
in inference mode (no dropout), over whole batches as train_cnn does.

    python3 bench/train_cnn_torch.py --data /usr/share/datasets/fashion-mnist
"""

import argparse
import gzip
import os
import sys
import time

import numpy
import torch


def read_idx(directory, name):
    """The array of IDX file `name` (raw or gzipped) in `directory`."""
    for path, opener in ((os.path.join(directory, name), open),
                         (os.path.join(directory, name + ".gz"), gzip.open)):
        if os.path.exists(path):
            with opener(path, "rb") as stream:
                data = stream.read()
            dims = data[3]
            shape = [int.from_bytes(data[4 + 4 * i:8 + 4 * i], "big")
                     for i in range(dims)]
            return numpy.frombuffer(data, numpy.uint8, offset=4 + 4 * dims).reshape(shape)
    sys.exit("train_cnn_torch.py: cannot open %s(.gz) in %s" % (name, directory))


def load(directory, prefix, limit, device):
    images = read_idx(directory, prefix + "-images-idx3-ubyte")
    labels = read_idx(directory, prefix + "-labels-idx1-ubyte")
    if limit:
        images, labels = images[:limit], labels[:limit]
    images = torch.tensor(images, dtype=torch.float32, device=device) / 255.0
    return images.unsqueeze(1), torch.tensor(labels, dtype=torch.int64, device=device)


def make_model(device):
    model = torch.nn.Sequential(
        torch.nn.Conv2d(1, 32, 3), torch.nn.ReLU(),
        torch.nn.Conv2d(32, 64, 3), torch.nn.ReLU(),
        torch.nn.MaxPool2d(2), torch.nn.Dropout(0.25), torch.nn.Flatten(),
        torch.nn.Linear(9216, 128), torch.nn.ReLU(), torch.nn.Dropout(0.5),
        torch.nn.Linear(128, 10))
    for layer in model:
        if isinstance(layer, (torch.nn.Conv2d, torch.nn.Linear)):
            torch.nn.init.xavier_uniform_(layer.weight)
            torch.nn.init.zeros_(layer.bias)
    return model.to(device)


def accuracy(model, images, labels, batch):
    model.eval()
    correct = 0
    count = images.shape[0] // batch * batch
    with torch.no_grad():
        for start in range(0, count, batch):
            logits = model(images[start:start + batch])
            correct += (logits.argmax(1) == labels[start:start + batch]).sum().item()
    model.train()
    return 100.0 * correct / count


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", default="/usr/share/datasets/fashion-mnist")
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--train-limit", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch.manual_seed(args.seed)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    train_images, train_labels = load(args.data, "train", args.train_limit, device)
    test_images, test_labels = load(args.data, "t10k", 0, device)
    model = make_model(device)
    optimizer = torch.optim.Adadelta(model.parameters(), lr=1.0, rho=0.95, eps=1e-7)
    loss_function = torch.nn.CrossEntropyLoss()
    steps = train_images.shape[0] // args.batch
    name = torch.cuda.get_device_name() if device == "cuda" else "CPU"
    print("device: PyTorch %s eager on %s" % (torch.__version__, name))
    for epoch in range(1, args.epochs + 1):
        order = torch.randperm(train_images.shape[0], device=device)
        if device == "cuda":
            torch.cuda.synchronize()
        start = time.perf_counter()
        losses = []
        for step in range(steps):
            index = order[step * args.batch:(step + 1) * args.batch]
            optimizer.zero_grad(set_to_none=True)
            loss = loss_function(model(train_images[index]), train_labels[index])
            loss.backward()
            optimizer.step()
            losses.append(loss.detach())
        mean_loss = torch.stack(losses).mean().item()
        seconds = time.perf_counter() - start
        print("epoch %d: loss %.4f, train accuracy %.2f%%, test accuracy %.2f%%, %.2f s"
              % (epoch, mean_loss, accuracy(model, train_images, train_labels, args.batch),
                 accuracy(model, test_images, test_labels, args.batch), seconds),
              flush=True)


if __name__ == "__main__":
    main()
