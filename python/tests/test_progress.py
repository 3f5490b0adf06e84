"""The progress bar of runs streamed through the device (docs/python.md,
"Progress"): the tools' bar on the process's stderr, drawn only where that is
a terminal (never under pytest, whose stderr is captured), or forced with
TILEC_FORCE_PROGRESS=1, and off with TILEC_NO_PROGRESS."""

import re

import numpy as np
import pytest
import tilec

from conftest import MATMUL, uniform

# A device of 256 KiB: the 1500 x 100 by 100 x 120 product (1.3 MB of
# buffers) streams through it in pieces, as tests/e2e/stream_matmul.tile
# does with tilec run.
SMALL_MEMORY = {"name": "small-memory", "max_alloc_bytes": 131072,
                "global_mem_bytes": 262144}
FINISHED = re.compile(r"device \[#+\] 100%")


@pytest.fixture(scope="module")
def streamed_matmul():
    context = tilec.Context(profile_overrides=SMALL_MEMORY)
    return context.compile(MATMUL)


@pytest.fixture
def operands(rng):
    return uniform(rng, (1500, 100)), uniform(rng, (100, 120))


def test_forced_bar_over_a_streamed_run(streamed_matmul, operands, capfd,
                                        monkeypatch):
    monkeypatch.setenv("TILEC_FORCE_PROGRESS", "1")
    monkeypatch.delenv("TILEC_NO_PROGRESS", raising=False)
    a, b = operands
    c = streamed_matmul(a, b)
    captured = capfd.readouterr()
    assert FINISHED.search(captured.err), captured.err
    assert captured.out == ""
    np.testing.assert_allclose(c, a.astype(np.float64) @ b, rtol=1e-4,
                               atol=1e-4)


def test_nothing_without_a_terminal(streamed_matmul, operands, capfd,
                                    monkeypatch):
    monkeypatch.delenv("TILEC_FORCE_PROGRESS", raising=False)
    monkeypatch.delenv("TILEC_NO_PROGRESS", raising=False)
    streamed_matmul(*operands)
    assert capfd.readouterr().err == ""


def test_no_progress_wins_over_forcing(streamed_matmul, operands, capfd,
                                       monkeypatch):
    monkeypatch.setenv("TILEC_FORCE_PROGRESS", "1")
    monkeypatch.setenv("TILEC_NO_PROGRESS", "1")
    streamed_matmul(*operands)
    assert capfd.readouterr().err == ""


def test_no_bar_for_a_run_that_fits_the_device(rng, capfd, monkeypatch):
    monkeypatch.setenv("TILEC_FORCE_PROGRESS", "1")
    monkeypatch.delenv("TILEC_NO_PROGRESS", raising=False)
    matmul = tilec.compile(MATMUL)
    matmul(uniform(rng, (8, 4)), uniform(rng, (4, 8)))
    assert capfd.readouterr().err == ""
