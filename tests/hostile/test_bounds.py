"""The per-call guard of the property suites (tests/bounds.py) sees time and memory."""

from __future__ import annotations


import numpy as np
import pytest

from tests.bounds import assert_bounded, measure


def test_peak_memory_growth_is_measured_per_call():
    big = measure(lambda: float(np.ones(40_000_000).sum()), ())  # 320 MB of float64
    assert big.result == 40_000_000.0 and big.error is None
    assert big.peak_growth >= 300_000_000
    small = measure(lambda: 1 + 1, ())
    assert small.peak_growth < 50_000_000  # the earlier peak was reset, not carried over
    with pytest.raises(AssertionError, match="peak memory grew"):
        assert_bounded(big, memory=100_000_000)
    assert_bounded(big)  # within the 2 GB


def test_caught_errors():
    caught = measure(lambda: int("x"), ValueError)
    assert isinstance(caught.error, ValueError) and caught.result is None
    with pytest.raises(KeyError):
        measure(lambda: {}["k"], ValueError)
