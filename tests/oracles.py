"""Bridges to the independent oracles (icepool, dyce) used by the tests."""

from __future__ import annotations

import numpy as np

from workbench import Dist


def from_icepool(die) -> Dist:
    """Return the icepool Die as a Dist (probabilities as exact fractions, then float)."""
    outcomes = [int(o) for o in die.outcomes()]
    probs = [float(p) for p in die.probabilities()]
    return Dist.from_outcomes(np.array(outcomes), np.array(probs))


def from_dyce(h) -> Dist:
    """Return the dyce H as a Dist."""
    total = h.total
    items = sorted((int(k), v) for k, v in h.items())
    return Dist.from_outcomes(np.array([k for k, _ in items]), np.array([v / total for _, v in items]))


def to_icepool(d: Dist):
    """Return a Dist as an icepool Die with (float-weighted) quantities scaled to integers."""
    import icepool

    return icepool.Die({int(v): p for v, p in zip(d.outcomes, d.pmf) if p > 0})


def assert_dist_close(ours: Dist, oracle: Dist, tol: float = 1e-12) -> None:
    """Assert every outcome's probability agrees within ``tol``."""
    assert ours.isclose(oracle, tol), f"{ours!r}\n!=\n{oracle!r}"
