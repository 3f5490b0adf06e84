"""Device work releases the GIL: Python threads run during a long call."""

import threading
import time

import numpy as np
import tilec

from conftest import MATMUL, uniform


def test_other_threads_run_during_a_device_call(rng):
    f = tilec.compile(MATMUL)
    a, b = uniform(rng, (768, 768)), uniform(rng, (768, 768))
    f.program(a, b)  # the compile, out of the measured call
    call_seconds = []

    def work():
        began = time.perf_counter()
        f(a, b)
        call_seconds.append(time.perf_counter() - began)

    worker = threading.Thread(target=work)
    longest_gap, last = 0.0, time.perf_counter()
    worker.start()
    while worker.is_alive():
        now = time.perf_counter()
        longest_gap, last = max(longest_gap, now - last), now
    worker.join()
    # With the GIL held through the call, this thread would stall for all of
    # it; released, it runs on, switching every few milliseconds.
    assert call_seconds[0] > 0.05, "the call is too short to tell"
    assert longest_gap < call_seconds[0] / 2, (longest_gap, call_seconds[0])
