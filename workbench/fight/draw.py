"""Where a round description takes its random values: a :class:`Draw` samples them (the
simulation) or enumerates them (the exact chains). The description never knows which.

A draw picks one row of an outcome table per fight: ``draw.row(states, table)`` with ``table`` a
dict of (n, R) arrays, one row of R outcomes per fight and a ``probability`` entry (rows may be
padded with probability 0), or a :class:`Grouped` table (the few distinct tables of a batch and
each fight's, never copied out per fight). It returns the states (expanded, for the enumerator,
once per outcome of positive probability) and the drawn outcome's values per (expanded) fight.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Protocol

import numpy as np

from ..columns import Columns, Grouped

__all__ = ["Carrying", "Draw", "Grouped", "Sampler", "Enumerator"]


#: an outcome table a draw takes: one (n, R) row per fight, or the few distinct tables of a batch
Table = dict[str, np.ndarray] | Grouped


class Draw(Protocol):
    """The source of a round's random values (module docstring)."""

    def row(self, states: tuple[Columns, ...], table: Table) -> tuple[tuple[Columns, ...], dict[str, np.ndarray]]:
        """Return (the states, the drawn row's values per fight) of one draw from ``table``."""
        ...


class Sampler:
    """A :class:`Draw` that samples one outcome per fight from a seeded generator (inverse CDF)."""

    def __init__(self, rng: np.random.Generator):
        self.rng = rng

    def row(self, states: tuple[Columns, ...], table: Table) -> tuple[tuple[Columns, ...], dict[str, np.ndarray]]:
        """Return the states unchanged and the values of one row per fight, drawn with its probability."""
        if isinstance(table, Grouped):
            return states, self._grouped(table)
        p = table["probability"]
        n = p.shape[0]
        cdf = np.cumsum(p, axis=1)
        u = self.rng.random(n) * cdf[:, -1]
        j = np.minimum((cdf <= u[:, None]).sum(axis=1), p.shape[1] - 1)
        # (a row of probability 0 is never drawn: u < cdf at the first row of positive probability)
        rows = np.arange(n)
        return states, {k: v[rows, j] for k, v in table.items() if k != "probability"}

    def _grouped(self, table: Grouped) -> dict[str, np.ndarray]:
        """Return one drawn row per fight of a :class:`Grouped` table: the tables' CDFs laid end to
        end (table g's over [g, g + 1]) and one ``searchsorted`` for every fight, the same inverse
        CDF (and random numbers) as a table per fight."""
        p = table.columns["probability"]
        g, width = p.shape
        cdf = np.cumsum(p, axis=1)
        cdf = cdf / cdf[:, -1:] + np.arange(g)[:, None]
        inv = table.inverse
        u = self.rng.random(inv.size) + inv
        j = np.searchsorted(cdf.ravel(), u, side="right")
        # (a sum g + u that rounds up to g + 1 stays in its table, at its last outcome of positive probability)
        last = width - 1 - np.argmax(p[:, ::-1] > 0, axis=1)
        j = np.minimum(j, inv * width + last[inv])
        # a column 0 in every table (most effects in most batches) is 0 in every draw: not gathered
        # but one 0 seen by every fight (read-only, as a drawn value is only read)
        return {
            k: v.ravel()[j] if v.any() else np.broadcast_to(np.zeros(1, v.dtype), j.shape)
            for k, v in table.columns.items()
            if k != "probability"
        }


class Enumerator:
    """A :class:`Draw` that expands every fight over each outcome of positive probability: after a
    round, ``origin`` is the fight of the batch each expanded fight came from and ``weight`` its
    probability."""

    def __init__(self, n: int):
        self.origin = np.arange(n)
        self.weight = np.ones(n)

    def row(self, states: tuple[Columns, ...], table: Table) -> tuple[tuple[Columns, ...], dict[str, np.ndarray]]:
        """Return the states repeated once per outcome of positive probability, and the outcomes."""
        if isinstance(table, Grouped):
            return self._grouped(states, table)
        p = table["probability"]
        rows, j = np.nonzero(p > 0)
        self.origin = self.origin[rows]
        self.weight = self.weight[rows] * p[rows, j]
        return tuple(s.take(rows) for s in states), {k: v[rows, j] for k, v in table.items() if k != "probability"}

    def _grouped(
        self, states: tuple[Columns, ...], table: Grouped
    ) -> tuple[tuple[Columns, ...], dict[str, np.ndarray]]:
        """:meth:`row` of a :class:`Grouped` table: each fight expanded over its table's outcomes of
        positive probability, in the order of a table per fight."""
        p = table.columns["probability"]
        gi, ji = np.nonzero(p > 0)  # (by table, then outcome)
        nnz = np.bincount(gi, minlength=p.shape[0])
        counts = nnz[table.inverse]
        rows = np.repeat(np.arange(counts.size), counts)
        first = np.cumsum(nnz) - nnz
        pos = np.repeat(first[table.inverse] - (np.cumsum(counts) - counts), counts) + np.arange(rows.size)
        g, j = gi[pos], ji[pos]
        self.origin = self.origin[rows]
        self.weight = self.weight[rows] * p[g, j]
        return tuple(s.take(rows) for s in states), {k: v[g, j] for k, v in table.columns.items() if k != "probability"}


class Carrying:
    """A :class:`Draw` over another that carries columns held beside the states through each of its
    draws: an enumerating draw expands them with the fights they belong to (a sampling one leaves them
    as they are). A description whose step keeps more of a batch than one call passes along (a turn
    over several foes: the foes not struck now, what it counted so far) holds them, makes its calls,
    and takes them back, innermost first::

        draw.hold(other_foe, counted)
        me, foe = use(me, foe, draw)
        other_foe, counted = draw.release()
    """

    def __init__(self, draw: Draw):
        self.draw = draw
        self.frames: list[list[Columns]] = []

    def hold(self, *columns: Columns) -> None:
        """Carry ``columns`` through every draw until :meth:`release`."""
        self.frames.append(list(columns))

    def release(self) -> list[Any]:
        """Return the columns of the last :meth:`hold` as the draws since left them (each of the class
        it was held as), and stop carrying them."""
        return self.frames.pop()

    @contextmanager
    def holding(self, *columns: Columns) -> Iterator[list[Any]]:
        """Carry ``columns`` through the draws of the ``with`` block; the list it gives is filled, on
        leaving the block, with them as those draws left them (:meth:`hold`, :meth:`release`)::

            with draw.holding(other_foe, counted) as held:
                me, foe = use(me, foe, draw)
            other_foe, counted = held
        """
        held: list[Any] = []
        self.hold(*columns)
        try:
            yield held
        finally:
            held.extend(self.release())

    def row(self, states: tuple[Columns, ...], table: Table) -> tuple[tuple[Columns, ...], dict[str, np.ndarray]]:
        """Return :meth:`Draw.row` of the inner draw, the held columns drawn with the states."""
        held = [c for frame in self.frames for c in frame]
        drawn, values = self.draw.row((*states, *held), table)
        rest = iter(drawn[len(states) :])
        self.frames = [[next(rest) for _ in frame] for frame in self.frames]
        return drawn[: len(states)], values
