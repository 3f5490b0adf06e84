"""Training with gradients from Tile: the logistic regression of Kompute.

First array multiplication (the element-wise product of two arrays on the
device, checked against NumPy), then logistic regression on five points with
two features, x_i = {0, 1, 1, 1, 1}, x_j = {0, 0, 0, 1, 1},
y = {0, 0, 0, 1, 1}, trained by 100 steps of gradient descent with learning
rate 1: a Tile function computes the predictions, the gradient of the mean
cross-entropy and the loss on the device, NumPy applies the update. The
training data stays on the device: uploaded once, used by every step. Fails
unless every point is classified right. (examples/logistic_regression.cpp is
the same program in C++.)

    PYTHONPATH=build/python python3 python/examples/logistic_regression.py
"""

import sys

import numpy as np
import tilec

ARRAY_MULTIPLY = """
function array_multiply(A[N], B[N]) -> (C) {
  C = A * B;
}
"""

# One evaluation of p = sigmoid(X w + b) on every point: the gradient of the
# mean cross-entropy with respect to w and b, the loss and the predictions.
LOGISTIC_GRADIENT = """
function logistic_gradient(X[N, D], W[D], B[], Y[N]) -> (DW, DB, Loss, P) {
  Z[n : N] = +(X[n, d] * W[d]);
  P = sigmoid(Z + B);
  G = P - Y;
  SumGW[d : D] = +(X[n, d] * G[n]);
  DW = SumGW / N;
  SumG[] = +(G[n]);
  DB = SumG / N;
  CrossEntropy = -(Y * log(P) + (1 - Y) * log(1 - P));
  SumLoss[] = +(CrossEntropy[n]);
  Loss = SumLoss / N;
}
"""

def multiply_arrays() -> bool:
    a = np.arange(1, 11, dtype=np.float32)
    b = np.array([0.5, -1, 2, 0.25, 3, -2, 1.5, 0, 4, -0.5], np.float32)
    c = tilec.compile(ARRAY_MULTIPLY, name="array_multiply.tile")(a, b)
    print("a * b =", " ".join(f"{value:g}" for value in c))
    agrees = bool(np.array_equal(c, a * b))
    print("array multiplication", "agrees with" if agrees else "DIFFERS from",
          "NumPy")
    return agrees


def main() -> int:
    gradient = tilec.compile(LOGISTIC_GRADIENT, name="logistic_gradient.tile",
                             dtypes={"W": "f32", "B": "f32"})
    print(f"device: {gradient.context.device_name}")
    ok = multiply_arrays()

    features = np.array([[0, 0], [1, 0], [1, 0], [1, 1], [1, 1]], np.float32)
    labels = np.array([0, 0, 0, 1, 1], np.float32)
    x, y = tilec.to_device(features), tilec.to_device(labels)

    w, b = np.zeros(2, np.float32), np.float32(0)
    iterations, learning_rate = 100, np.float32(1)
    for _ in range(iterations):
        dw, db, _, _ = gradient(x, w, b, y)
        w = w - learning_rate * dw
        b = b - learning_rate * db

    _, _, loss, p = gradient(x, w, b, y)
    print(f"after {iterations} iterations: w = {{{w[0]:.4f}, {w[1]:.4f}}}, "
          f"b = {float(b):.4f}, loss = {float(loss):.4f}")
    predicted = (p > 0.5).astype(np.float32)
    for point, probability, cls, label in zip(features, p, predicted, labels):
        print(f"point ({point[0]:g}, {point[1]:g}): p = {probability:.4f}, "
              f"class {cls:g}, label {label:g}")
    correct = int(np.count_nonzero(predicted == labels))
    print(f"{correct} of {labels.size} training points classified right")
    return 0 if ok and correct == labels.size else 1


if __name__ == "__main__":
    sys.exit(main())
