"""The faster draws of the simulation give the numbers of the plain ones, bit for bit.

``Bank.draw_positions`` finds a drawn row from a grid of slices of [0, 1) instead of bisecting every
CDF (``np.searchsorted``); the Annulus end-of-turn dice (``rng.binomial(2, p)`` then ``rng.binomial(1,
p)``) are computed from the uniforms numpy's inversion draws. Both are checked here against the plain
computation on the same generator state, including the rare edges: a uniform that rounds ``class +
u`` up to the next class, zero-probability rows, a class with many rows in one slice, and a value
numpy would draw a second uniform for.
"""

from __future__ import annotations

import numpy as np
import pytest

from workbench.simulate.engine import Bank
from workbench.systems.annulus import simulation as sim


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


@pytest.mark.parametrize("p", [0.5, 1 / 3, 2 / 3, 0.1, 0.9, 1e-12, 1 - 1e-12, 0.0, 1.0, 5 / 6])
@pytest.mark.parametrize("m", [0, 1, 3000])
def test_end_of_turn_dice_are_rng_binomial(p, m):
    for values in (True, False):
        a, b = np.random.default_rng(11), np.random.default_rng(11)
        two, one = sim._dice_of_two_and_one(a, p, m, values)
        want_two, want_one = b.binomial(2, p, m), b.binomial(1, p, m)
        if values:
            assert np.array_equal(two, want_two) and np.array_equal(one, want_one)
        else:
            assert two is None and one is None
        assert a.random() == b.random()  # the generator is left where the two calls leave it


def test_a_value_numpy_would_redraw_falls_back_to_rng_binomial(monkeypatch):
    real = sim._inversion

    def again_at_first(u, n, p):
        x, again = real(u, n, p)
        again[:1] = True
        return x, again

    monkeypatch.setattr(sim, "_inversion", again_at_first)
    monkeypatch.setattr(sim, "_BINOMIAL_AGREES", {(2, 0.5): True, (1, 0.5): True})
    for values in (True, False):
        a, b = np.random.default_rng(4), np.random.default_rng(4)
        two, one = sim._dice_of_two_and_one(a, 0.5, 100, values)
        assert np.array_equal(two, b.binomial(2, 0.5, 100)) and np.array_equal(one, b.binomial(1, 0.5, 100))
        assert a.random() == b.random()


def test_without_agreement_the_dice_are_rng_binomial(monkeypatch):
    monkeypatch.setattr(sim, "_BINOMIAL_AGREES", {(2, 0.5): False, (1, 0.5): True})
    a, b = np.random.default_rng(6), np.random.default_rng(6)
    two, one = sim._dice_of_two_and_one(a, 0.5, 50, False)
    assert np.array_equal(two, b.binomial(2, 0.5, 50)) and np.array_equal(one, b.binomial(1, 0.5, 50))
    assert a.random() == b.random()
