"""The faster draws of the simulation give the numbers of the plain ones, bit for bit.

``Bank.draw_positions`` finds a drawn row from a grid of slices of [0, 1) instead of bisecting every
CDF (``np.searchsorted``). It is checked here against the plain computation on the same generator
state, including the rare edges: a uniform that rounds ``class + u`` up to the next class,
zero-probability rows, a class with many rows in one slice.
"""

from __future__ import annotations

import numpy as np

from workbench.simulate.engine import Bank


def _tables():
    rng = np.random.default_rng(5)
    out = []
    for size in (1, 3, 7, 40, 300):
        p = rng.random(size)
        if size > 3:
            p[:2] = 0.0  # zero-probability rows first and last
            p[-1] = 0.0
        if size == 300:
            p[100:] = 1e-9  # many rows in the last slice
        out.append({"probability": p / p.sum(), "value": np.arange(size) * 10 + size})
    return out


def _bank():
    tables = _tables()
    return Bank(lambda keys: [tables[k] for k in keys])


def _plain(bank, keys, u):
    """The draw before the grid: bisect the CDFs laid end to end, clip to the class."""
    cls = bank._classes(keys)
    bank.columns()
    pos = np.searchsorted(bank._cdf, cls + u, side="right")
    return np.clip(pos, bank._start[cls], bank._end[cls] - 1)


class _Uniforms:
    """A generator stand-in whose random() returns given uniforms."""

    def __init__(self, u):
        self.u = u

    def random(self, size):
        assert size == self.u.size
        return self.u


def test_grid_draws_are_the_bisection_draws():
    bank = _bank()
    keys = np.random.default_rng(1).integers(0, 5, 200_000)
    u = np.random.default_rng(2).random(keys.size)
    # the edges: u = 0, u just below 1 (class + u rounds up to class + 1 for class >= 1), slice edges
    edge = np.array([0.0, np.nextafter(1.0, 0.0), 0.5, 1 / 64, np.nextafter(1 / 64, 0.0), 63 / 64])
    keys = np.concatenate([keys, np.repeat(np.arange(5), edge.size)])
    u = np.concatenate([u, np.tile(edge, 5)])
    got = bank.draw_positions(keys, _Uniforms(u))
    assert np.array_equal(got, _plain(bank, keys, u))
    rows = bank.draw(keys, _Uniforms(u))
    assert np.array_equal(rows["value"], bank.columns()[0]["value"][got])


def test_grid_draws_on_a_seeded_generator_match_draw():
    a, b = _bank(), _bank()
    keys = np.random.default_rng(3).integers(0, 5, 5000)
    r1, r2 = np.random.default_rng(9), np.random.default_rng(9)
    pos = a.draw_positions(keys, r1)
    row = b.draw(keys, r2)
    assert np.array_equal(a.columns()[0]["value"][pos], row["value"])
    assert r1.random() == r2.random()
