"""The simulation derived from a round description: a :class:`~workbench.simulate.engine.Side`
whose turn is the description played with a :class:`~workbench.fight.draw.Sampler` (the seeded
generator of the fights), its state the description's named columns for every fight."""

from __future__ import annotations

from typing import cast

import numpy as np

from ..simulate.engine import Fights, Side
from .draw import Sampler
from .round import FightRound

__all__ = ["RoundSide"]


class RoundSide(Side):
    """``rnd``'s attacker in many fights: its state (``rnd.start()``'s first combatant, one row per
    fight) and its turn (``rnd.turn`` over the fights given, against the foe side's state). Both
    sides of a fight are RoundSides of one system, so each turn reads and writes both states."""

    def __init__(self, rnd: FightRound, name: str):
        self.rnd = rnd
        self.name = name
        self._first = rnd.start()[0]
        self.hp = int(rnd.hit_points(0))

    def start(self, n: int, sim: Fights) -> None:
        super().start(n, sim)
        self.state = self._first.tile(n)

    def turn(self, idx: np.ndarray, foe: Side, sim: Fights) -> None:
        foe = cast(RoundSide, foe)  # both sides of a fight are built by one rule system
        me, other = self.rnd.turn(self.state.take(idx), foe.state.take(idx), Sampler(sim.rng))
        self.state.put(idx, me)
        foe.state.put(idx, other)
        foe.mark_dead(idx, np.asarray(getattr(other, other.POOL)) >= foe.hp, sim)
        self.mark_dead(idx, np.asarray(getattr(me, me.POOL)) >= self.hp, sim)

    def hp_left(self) -> np.ndarray:
        return self.hp - np.asarray(getattr(self.state, self.state.POOL), dtype=np.int64)
