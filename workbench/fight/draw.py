"""Where a round description takes its random values: a :class:`Draw` samples them (the
simulation) or enumerates them (the exact chains). The description never knows which.

A draw picks one row of an outcome table per fight: ``draw.row(states, table)`` with ``table`` a
dict of (n, R) arrays, one row of R outcomes per fight and a ``probability`` entry (rows may be
padded with probability 0). It returns the states (expanded, for the enumerator, once per outcome
of positive probability) and the drawn outcome's values per (expanded) fight.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from ..columns import Columns

__all__ = ["Draw", "Sampler", "Enumerator"]


class Draw(Protocol):
    """The source of a round's random values (module docstring)."""

    def row(
        self, states: tuple[Columns, ...], table: dict[str, np.ndarray]
    ) -> tuple[tuple[Columns, ...], dict[str, np.ndarray]]:
        """Return (the states, the drawn row's values per fight) of one draw from ``table``."""
        ...


class Sampler:
    """A :class:`Draw` that samples one outcome per fight from a seeded generator (inverse CDF)."""

    def __init__(self, rng: np.random.Generator):
        self.rng = rng

    def row(
        self, states: tuple[Columns, ...], table: dict[str, np.ndarray]
    ) -> tuple[tuple[Columns, ...], dict[str, np.ndarray]]:
        """Return the states unchanged and the values of one row per fight, drawn with its probability."""
        p = table["probability"]
        n = p.shape[0]
        cdf = np.cumsum(p, axis=1)
        u = self.rng.random(n) * cdf[:, -1]
        j = np.minimum((cdf <= u[:, None]).sum(axis=1), p.shape[1] - 1)
        # (a row of probability 0 is never drawn: u < cdf at the first row of positive probability)
        rows = np.arange(n)
        return states, {k: v[rows, j] for k, v in table.items() if k != "probability"}


class Enumerator:
    """A :class:`Draw` that expands every fight over each outcome of positive probability: after a
    round, ``origin`` is the fight of the batch each expanded fight came from and ``weight`` its
    probability."""

    def __init__(self, n: int):
        self.origin = np.arange(n)
        self.weight = np.ones(n)

    def row(
        self, states: tuple[Columns, ...], table: dict[str, np.ndarray]
    ) -> tuple[tuple[Columns, ...], dict[str, np.ndarray]]:
        """Return the states repeated once per outcome of positive probability, and the outcomes."""
        p = table["probability"]
        rows, j = np.nonzero(p > 0)
        self.origin = self.origin[rows]
        self.weight = self.weight[rows] * p[rows, j]
        return tuple(s.take(rows) for s in states), {k: v[rows, j] for k, v in table.items() if k != "probability"}
