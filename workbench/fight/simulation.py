"""The simulation derived from a round description: a :class:`~workbench.simulate.engine.Side`
whose turn is the description played with a :class:`~workbench.fight.draw.Sampler` (the seeded
generator of the fights), its state the description's named columns for every fight."""

from __future__ import annotations

from typing import Any, cast

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
        first = self._first
        if self.immortal and hasattr(self.rnd, "rest"):  # rounds to kill's attacker: its foe is passive
            first = cast(Any, self.rnd).start(passive=True)[0]
        self.state = first.tile(n)

    def turn(self, idx: np.ndarray, foe: Side, sim: Fights) -> None:
        foe = cast(RoundSide, foe)  # both sides of a fight are built by one rule system
        me, other = self.rnd.turn(self.state.take(idx), foe.state.take(idx), Sampler(sim.rng))
        self.state.put(idx, me)
        foe.state.put(idx, other)
        foe.mark_dead(idx, np.asarray(getattr(other, other.POOL)) >= foe.hp, sim)
        self.mark_dead(idx, np.asarray(getattr(me, me.POOL)) >= self.hp, sim)

    def passive_turn(self, idx: np.ndarray, foe: Side, sim: Fights) -> None:
        """This side's turn without attacking (a passive target): the foe's description's ``rest``
        (the foe is its attacker), if it has one."""
        foe = cast(RoundSide, foe)
        rest = getattr(foe.rnd, "rest", None)
        if rest is None:
            return
        other, me = rest(foe.state.take(idx), self.state.take(idx), Sampler(sim.rng))
        foe.state.put(idx, other)
        self.state.put(idx, me)
        self.mark_dead(idx, np.asarray(getattr(me, me.POOL)) >= self.hp, sim)
        foe.mark_dead(idx, np.asarray(getattr(other, other.POOL)) >= foe.hp, sim)

    def settled(self, idx: np.ndarray, foe: Side, passive: bool) -> bool:
        """Settled only as a passive side whose foe's description has no ``rest`` (its passive turn
        does nothing)."""
        return passive and getattr(getattr(foe, "rnd", None), "rest", None) is None

    def hp_left(self) -> np.ndarray:
        return self.hp - np.asarray(getattr(self.state, self.state.POOL), dtype=np.int64)
