"""The same package on Vulkan (lavapipe where there is no GPU)."""

import numpy as np
import tilec

from conftest import MATMUL, uniform
from test_device_tensors import check_dense_then_softmax_on_device


def test_matmul_on_vulkan(rng):
    f = tilec.compile(MATMUL, backend="vulkan")
    assert f.context.backend == "vulkan"
    a, b = uniform(rng, (9, 7)), uniform(rng, (7, 5))
    np.testing.assert_allclose(f(a, b), a @ b, rtol=1e-5, atol=1e-6)


def test_chain_on_the_device_on_vulkan(rng):
    check_dense_then_softmax_on_device("vulkan", rng)


def test_vulkan_devices_are_listed():
    assert tilec.devices("vulkan")
