"""The simulation derived from a round description: a :class:`~workbench.simulate.engine.Side`
whose turn is the description played with a :class:`~workbench.fight.draw.Sampler` (the seeded
generator of the fights), its state the description's named columns for every fight."""

from __future__ import annotations

from typing import Any, cast

import numpy as np

from ..columns import distinct_rows, from_key_rows, key_rows
from ..simulate.engine import Fights, Side
from .draw import Enumerator, Sampler
from .round import FightRound, between_of, play

__all__ = ["RoundSide", "PhasedSide", "round_side", "simulation_side"]


#: the fights :meth:`RoundSide.settled` looks at before all of them
_SAMPLE = 64


class RoundSide(Side):
    """``rnd``'s attacker in many fights: its state (``rnd.start()``'s first combatant, one row per
    fight) and its turn (``rnd.turn`` over the fights given, against the foe side's state). Both
    sides of a fight are RoundSides of one system, so each turn reads and writes both states."""

    def __init__(self, rnd: FightRound, name: str):
        self.rnd = rnd
        self.name = name
        self._first = rnd.start()[0]
        self.hp = int(rnd.hit_points(0))
        self._still: dict[tuple[int, ...], bool] = {}

    def start(self, n: int, sim: Fights) -> None:
        super().start(n, sim)
        first = self._first
        if self.immortal:  # rounds to kill's attacker: its foe is passive (neither attacks nor reacts)
            first = self.rnd.start(passive=True)[0]
        self.state = first.tile(n)

    def _play(self, idx: np.ndarray, foe: Side, sim: Fights, steps: tuple[str, ...]) -> None:
        """Play ``steps`` (:func:`~workbench.fight.round.play`) of the fights ``idx`` with a sampler."""
        foe = cast(RoundSide, foe)  # both sides of a fight are built by one rule system
        me, other = play(self.rnd, self.state.take(idx), foe.state.take(idx), Sampler(sim.rng), steps)
        self.state.put(idx, me)
        foe.state.put(idx, other)
        foe.mark_dead(idx, np.asarray(getattr(other, other.POOL)) >= foe.hp, sim)
        self.mark_dead(idx, np.asarray(getattr(me, me.POOL)) >= self.hp, sim)

    def turn(self, idx: np.ndarray, foe: Side, sim: Fights) -> None:
        self._play(idx, foe, sim, ("turn",))

    def passive_turn(self, idx: np.ndarray, foe: Side, sim: Fights) -> None:
        """This side's turn without attacking (a passive target): its attacker's description's
        ``rest`` (the foe is that attacker, built knowing this side's tactics), if it has one."""
        foe = cast(RoundSide, foe)
        if hasattr(foe.rnd, "rest"):
            foe._play(idx, self, sim, ("rest",))

    def settled(self, idx: np.ndarray, foe: Side, passive: bool) -> bool:
        """Return True when no turn (and act between rounds) of this side can change the fights
        ``idx``: from each of their distinct keys (every field but the damage taken), every outcome
        of the enumerated description leaves both keys as they are and deals no damage. A passive
        side does nothing unless its attacker's description gives it a ``rest``."""
        if passive:
            return not hasattr(getattr(foe, "rnd", None), "rest")
        foe = cast(RoundSide, foe)
        # a few fights first: one of them unsettled answers for all (the common case, cheaply)
        return self._still_keys(idx[:_SAMPLE], foe) and (idx.size <= _SAMPLE or self._still_keys(idx, foe))

    def _still_keys(self, idx: np.ndarray, foe: RoundSide) -> bool:
        """Return whether every distinct key of the fights ``idx`` is still (:meth:`settled`), each
        key enumerated once per side."""
        keys, _ = distinct_rows(key_rows((self.state.take(idx), foe.state.take(idx))))
        new = [k for k in map(tuple, keys.tolist()) if k not in self._still]
        if new:
            rows = np.array(new, dtype=np.int64)
            types = (type(self.state), type(foe.state))
            me, other = from_key_rows(types, rows)
            draw = Enumerator(rows.shape[0])
            me2, other2 = play(self.rnd, me, other, draw, ("turn", "between"))
            after = key_rows((me2, other2))
            same = (after == rows[draw.origin]).all(axis=1)
            same &= (np.asarray(getattr(me2, me2.POOL)) == 0) & (np.asarray(getattr(other2, other2.POOL)) == 0)
            still = np.ones(rows.shape[0], dtype=bool)
            np.logical_and.at(still, draw.origin, same)
            self._still.update(zip(new, still.tolist()))
        return all(self._still[k] for k in map(tuple, keys.tolist()))

    def hp_left(self) -> np.ndarray:
        """Return the hit points this side has left in each fight: ``rnd.hp_total(0)`` less
        ``rnd.hp_lost(0, state)`` where the description has them, else its HP less its damage taken."""
        lost, total = getattr(self.rnd, "hp_lost", None), getattr(self.rnd, "hp_total", None)
        if lost is None or total is None:
            return self.hp - np.asarray(getattr(self.state, self.state.POOL), dtype=np.int64)
        return int(total(0)) - np.asarray(lost(0, self.state), dtype=np.int64)


class PhasedSide(RoundSide):
    """A :class:`RoundSide` whose description acts between rounds too (``between``): before the first
    round (``opening``) and after each, in the fights where both sides still stand."""

    def between_rounds(self, idx: np.ndarray, foe: Side, sim: Fights, after_round: int) -> None:
        idx = idx[self.alive()[idx] & foe.alive()[idx]]
        if idx.size:
            self._play(idx, foe, sim, ("opening",) if after_round == 0 else ("between",))


def round_side(rnd: FightRound, name: str) -> RoundSide:
    """Return the simulation side of ``rnd``'s attacker: a :class:`PhasedSide` when its description
    acts between rounds, else a :class:`RoundSide`."""
    return (PhasedSide if between_of(rnd) is not None else RoundSide)(rnd, name)


def simulation_side(
    sys: Any,
    me: Any,
    foe: Any,
    options: Any = None,
    situation: Any = None,
    plan: Any = None,
    tactics: Any = None,
    foe_tactics: Any = None,
) -> Side:
    """Return the simulation side of ``me`` attacking ``foe``: its rule system's round description
    (``RuleSystem.fight_round``) drawn with the fights' seeded generator (:func:`round_side`); a system
    that describes no round gets :class:`~workbench.simulate.turn_side.TurnTableSide` (a draw from its
    turn table each turn against the foe's pools: no state but the pools)."""
    sys.check_tactics(tactics, foe_tactics)
    if sys.tactics_class is not None:
        rnd = sys.fight_round(me, foe, options, situation, plan, tactics, foe_tactics)
    else:
        rnd = sys.fight_round(me, foe, options, situation, plan)
    if rnd is not None:
        return round_side(rnd, me.name)
    from ..simulate.turn_side import TurnTableSide

    return TurnTableSide(me, foe, options, situation, plan)
