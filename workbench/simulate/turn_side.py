"""The simulation side of a state-free fight: every turn is one draw from the turn table.

A creature whose fight carries no state but its hit pools needs no system-specific side: each of
its turns draws one cell of its :class:`workbench.turn_table.TurnTable` row (damage per pool channel)
and applies it to the foe's pools in order, exactly as :func:`workbench.chains.kill_chains` does
(channel i enters pool i; what a pool cannot take spills into the next; the last pool empty kills).
``RuleSystem.simulation_side`` returns it by default, so ``duel(simulate=True)`` works for any
registered system, and its numbers agree with the exact chain within their standard error.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import RulesError
from .engine import Fights, Side

__all__ = ["TurnTableSide"]


class TurnTableSide(Side):
    """One side whose state is its own hit pools; its turn is a draw from its turn table."""

    def __init__(self, me: Any, foe: Any, options: Any = None, situation: Any = None, plan: Any = None):
        from ..systems import system_of
        from ..turns import side_turn

        pmf, _ = side_turn(me, foe, options, situation, plan)
        self.name = me.name
        self.pools = np.array(system_of(me).hit_pools(me), dtype=np.int64)
        self.cells = np.argwhere(pmf > 0).reshape(-1, max(pmf.ndim, 1))
        p = pmf[tuple(self.cells.T)] if pmf.ndim else np.ones(1)
        self.cdf = np.cumsum(p / p.sum())
        self.cdf[-1] = 1.0

    def start(self, n: int, sim: Fights) -> None:
        super().start(n, sim)
        self.left = np.tile(self.pools, (n, 1))

    def take(self, idx: np.ndarray, damage: np.ndarray, sim: Fights) -> None:
        """Apply per-channel ``damage`` (fights × channels) to these pools, spilling onward."""
        if damage.shape[1] != self.left.shape[1]:
            raise RulesError(
                f"a turn deals {damage.shape[1]} kinds of damage; {self.name} has {self.left.shape[1]} pools",
                field="turn",
            )
        left = self.left[idx]
        carry = np.zeros(idx.size, dtype=np.int64)
        for c in range(left.shape[1]):
            hit = carry + damage[:, c]
            taken = np.minimum(left[:, c], hit) if c < left.shape[1] - 1 else hit
            left[:, c] -= taken
            carry = hit - taken
        self.left[idx] = left
        self.mark_dead(idx, left[:, -1] <= 0, sim)

    def turn(self, idx: np.ndarray, foe: Side, sim: Fights) -> None:
        if not isinstance(foe, TurnTableSide):
            raise RulesError("a turn-table side fights another turn-table side", field="b")
        row = np.searchsorted(self.cdf, sim.rng.random(idx.size), side="right")
        foe.take(idx, self.cells[np.minimum(row, self.cells.shape[0] - 1)], sim)

    def hp_left(self) -> np.ndarray:
        return np.maximum(self.left, 0).sum(axis=1)
