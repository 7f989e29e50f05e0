"""The simulation derived from a round description: a :class:`~workbench.simulate.engine.Side`
whose turn is the description played with a :class:`~workbench.fight.draw.Sampler` (the seeded
generator of the fights), its state the description's named columns for every fight."""

from __future__ import annotations

from typing import Any, cast

import numpy as np

from ..columns import Columns, distinct_columns, from_key_rows, key_columns, key_rows
from ..simulate.engine import Fights, Side
from .draw import Enumerator, Sampler
from .round import FightRound, between_of, play

__all__ = ["RoundSide", "PhasedSide", "round_side", "simulation_side"]


#: the fights :meth:`RoundSide.settled` looks at before all of them
_SAMPLE = 64


class _Held:
    """Both sides' states in the fights played last (``rows``, their numbers), as the turn returned
    them: not written back into each side's state (:meth:`RoundSide._flush`) until a turn plays
    fights they do not cover or the states are read whole. The next turn mostly plays the same
    fights or fewer (those still running), so it reads them from here and only the fights it
    leaves out are written back: the states read are those a write and a read would give."""

    def __init__(self, rows: np.ndarray, states: dict[RoundSide, Columns]):
        self.rows = rows
        self.states = states


def _as_taken(out: Columns, state: Columns, m: int) -> Columns:
    """Return ``out``, a turn's state of ``m`` fights, as ``state.take`` of them reads once ``out`` is
    written into ``state`` (:meth:`~workbench.columns.Columns.put`): ``state``'s type and fields,
    each an (m,) array of its dtype. The arrays that already are (almost all) are kept, not copied:
    they are only read (a description never writes into its states)."""
    values = {}
    for name in state.names():
        v, want = getattr(out, name), getattr(state, name).dtype
        if not (isinstance(v, np.ndarray) and v.shape == (m,) and v.dtype == want and v.flags.c_contiguous):
            v = np.array(np.broadcast_to(np.asarray(v), (m,)), dtype=want)
        values[name] = v
    return type(state)(**values)


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
        self._held: _Held | None = None

    def _flush(self) -> None:
        """Write the fights held (:class:`_Held`) back into both sides' states."""
        held = self._held
        if held is not None:
            for side, cols in held.states.items():
                side.state.put(held.rows, cols)
                side._held = None

    def _states(self, idx: np.ndarray, foe: RoundSide) -> tuple[Columns, Columns, np.ndarray | None]:
        """Return (this side's state, the foe's, where they are among the fights held or None) in the
        fights ``idx``: read from the fights held when they cover ``idx`` (all of them: the held
        arrays themselves), else from the states, the fights held written back first."""
        held = self._held
        if held is not None and held is foe._held:
            rows = held.rows
            if np.array_equal(idx, rows):
                return held.states[self], held.states[foe], np.arange(rows.size)
            pos = np.searchsorted(rows, idx)
            if idx.size <= rows.size and (rows[np.minimum(pos, rows.size - 1)] == idx).all():
                return held.states[self].take(pos), held.states[foe].take(pos), pos
        self._flush()
        foe._flush()
        return self.state.take(idx), foe.state.take(idx), None

    def _play(self, idx: np.ndarray, foe: Side, sim: Fights, steps: tuple[str, ...]) -> None:
        """Play ``steps`` (:func:`~workbench.fight.round.play`) of the fights ``idx`` with a sampler;
        both sides' states in them are then held (:class:`_Held`)."""
        foe = cast(RoundSide, foe)  # both sides of a fight are built by one rule system
        mine, theirs, pos = self._states(idx, foe)
        me, other = play(self.rnd, mine, theirs, Sampler(sim.rng), steps)
        held = self._held
        if held is not None and pos is not None and pos.size < held.rows.size:  # the fights left out
            out = np.ones(held.rows.size, dtype=bool)
            out[pos] = False
            for side, cols in held.states.items():
                side.state.put(held.rows[out], cols.take(out))
        self._held = foe._held = _Held(
            idx, {self: _as_taken(me, self.state, idx.size), foe: _as_taken(other, foe.state, idx.size)}
        )
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
        mine, theirs, _ = self._states(idx, foe)
        keys, _ = distinct_columns(key_columns((mine, theirs)), mine.size)
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
        self._flush()
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
