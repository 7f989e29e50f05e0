"""The table of every plan of many (attacker, target) pairs (:class:`TurnTable`): what a rule system's
``turn_tables`` returns and :mod:`workbench.turns` chooses from. A data type only: it names no
system, so the rule systems below and the turns above both import it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .dist import Dist
from .errors import RulesError

__all__ = ["TurnTable"]


@dataclass(frozen=True)
class TurnTable:
    """Every plan of many (attacker, target) pairs, one row per plan.

    ``pair[j]`` is the pair plan j belongs to, ``label[j]`` its label ("Claw + Bite"), ``pmf[j]``
    the joint pmf of one turn's damage over the system's pools (``pmf.ndim - 1`` damage axes, each
    from 0; padded with zeros to a common shape). ``reason[i]`` says why pair i has no plan (None
    when it has one); ``errors[i]`` is the rules' refusal itself (a RulesError naming the field).
    """

    pair: np.ndarray
    label: list[str]
    pmf: np.ndarray
    n_pairs: int
    errors: list[RulesError | None]

    @property
    def reason(self) -> list[str | None]:
        """Return, per pair, why it has no plan (None when it has one)."""
        return [None if e is None else str(e) for e in self.errors]

    def raise_for(self, i: int) -> None:
        """Raise the RulesError that left pair ``i`` without a plan, if any."""
        if (err := self.errors[i]) is not None:
            raise err.with_traceback(None)  # kept in the memo: raised afresh, no earlier traceback

    @classmethod
    def build(
        cls,
        pair: np.ndarray,
        label: list[str],
        pmfs: Sequence[np.ndarray],
        channels: int,
        n_pairs: int,
        errors: list[RulesError | None],
    ) -> TurnTable:
        """Return the table of plans whose pmfs may differ in shape (they are zero-padded)."""
        shape = [1] * channels
        for p in pmfs:
            if p.ndim != channels:
                raise RulesError(f"a turn pmf has {p.ndim} damage axes; the system has {channels} pools", field="turn")
            shape = [max(a, b) for a, b in zip(shape, p.shape)]
        out = np.zeros((len(pmfs), *shape))
        for j, p in enumerate(pmfs):
            corner: tuple[int | slice, ...] = (j, *(slice(0, s) for s in p.shape))
            out[corner] = p
        return cls(pair, list(label), out, n_pairs, list(errors))

    @property
    def total(self) -> np.ndarray:
        """Return P(plan, total damage): the pmf of the damage summed over the pools, from 0."""
        if self.pmf.ndim == 2:
            return self.pmf
        if self.pmf.ndim != 3:
            raise RulesError("turn tables have one or two damage axes", field="turn")
        n, r, v = self.pmf.shape
        out = np.zeros((n, r + v - 1))
        for j in range(v):  # total = regular + vital: each vital column shifts the regular axis
            out[:, j : j + r] += self.pmf[:, :, j]
        return out

    def means(self) -> np.ndarray:
        """Return the mean total damage of each plan."""
        t = self.total
        return t @ np.arange(t.shape[1])

    def dist(self, j: int) -> Dist:
        """Return the total damage Dist of plan ``j``."""
        p = self.total[j]
        nz = np.flatnonzero(p)
        top = int(nz[-1]) if nz.size else 0
        return Dist(p[: top + 1] / p[: top + 1].sum(), 0, _trusted=True)

    def take(self, rows: np.ndarray) -> TurnTable:
        """Return the table of the given plan rows, in that order (pairs renumbered 0..len(rows)-1)."""
        rows = np.asarray(rows, dtype=np.int64)
        return TurnTable(
            np.arange(rows.size), [self.label[j] for j in rows], self.pmf[rows], int(rows.size), [None] * int(rows.size)
        )
