"""The exact Annulus duel: an absorbing chain over both sides' state, played as the simulation plays it.

In a duel both sides strike, recover, counter and lay conditions on each other, so the two directions
are not independent chains (every Annulus state effect couples them: a Dazed side has one action for
its own attacks, a Burning one takes damage at the end of its own turn, a Counter strikes inside the
foe's turn). The chain carries, for each pair of side states (the fields of :data:`FIELDS`: Endurance
left when a use deals vital damage, conditions, the sets disarmed, stings waiting, Setup, devoured,
the Blind and Petrify timers, awareness, the charged area sets, a Telegraphed set announced, the
situation's Setup and Killing Spree still waiting, Reroll and Counter used), the joint mass of the
fights still going over (a's damage taken, b's damage taken). A round is each
side's turn as :meth:`~workbench.systems.annulus.simulation.AnnulusSide.turn` plays it, from the same
outcome tables (``AnnulusSide.uses``) and plans (``AnnulusSide._plan``), every random draw of the
simulation enumerated:

- the turn's start: Reroll and Counter unused again, the stings laid on the side read ("Dazed: only 1
  action instead of the normal 2"; Pacified and Terrorized make no attacks; Berserk and Terrorized
  make no recovery checks), uncharged area sets recharged (each 1/3: "If the result is a 5 or a 6,
  the set is recharged"), a devoured foe's two dice ("takes defense-ignoring damage each round on your
  turn equal to the successes on two dice"), a Telegraphed set announced last turn ("used at the
  beginning of your next turn for free before you make any actions");
- recovery checks (1 action, 4 dice, 3+ successes, the first listed condition first), then the plan
  of the state class, use by use; each use one row of its class's table and its effects on both
  sides (annulus-attacks.txt: "Endurance is removed first, then Vitality"; vital damage to Vitality;
  self-damage and Drain on the user), and the foe's Counter ("when damaged by an attack on the chosen
  defense, strike back", once per round) as a use inside the use;
- the turn's end: Burn (2 dice), Choke (1 die) and Sap (1) on the side "at the end of each of their
  turns", and the timers it laid on its foe ("until the end of the blinder's next turn") run down.

A state class reads two things of the damage taken: whether the foe is undamaged (First Blood) and
whether the striker's Vitality is at most half its total (Swansong, "half of your total Vitality"; the
level, as the simulation has it), so each use splits the mass at those two lines. A fight ends after
the turn in which a side falls (both in one turn: a draw), as ``simulate.engine.run_fights`` ends it;
the mass is then the winner's, kept by its damage taken. A turn is linear in the mass, so the turn from
each pair of side states is worked out once (:class:`_Turn`: a few terms A @ M @ B, A on a's axis, B on
b's, each move of an axis a matrix with one more column for a fallen side) and every round plays those
terms on every pair's mass in batched products. When no use against a side deals vital
damage, "Endurance is removed first, then Vitality" makes its two pools one axis of Endurance +
Vitality taken (tried first; a vital row met for a side puts its Endurance in the state instead).
Not chained (None, the duel is simulated): more alive cells than MAX_CELLS, or hit points whose grid
makes one term cost more than MAX_TERM_WORK multiply-adds. The chain plays the default Tactics (its
recovery checks, no Blood Price uses): ``combat.duel`` simulates a stateful duel given others.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from ...arguments import check_time
from ...chains import CHAIN_TAIL
from .simulation import (
    ALERT,
    AWARENESS,
    BERSERK,
    DAZE,
    FX_BIT,
    FX_CONDITIONS,
    FX_STINGS,
    LOW,
    PACIFY,
    SHIFT,
    TERROR,
    AnnulusSide,
)
from .tactics import BURN, CHOKE, DISARM, FATIGUE, PRONE, SAP, WEAK

__all__ = ["duel_chain", "MAX_CELLS", "FIELDS"]

#: the duel is simulated past this many alive cells (pairs of side states x the grid of both sides'
#: damage taken): each round visits every cell of every state a few times per use
MAX_CELLS = 2_000_000

#: the duel is simulated when one term of a turn, A @ M @ B over the two axes (a's damage taken x
#: b's), costs more multiply-adds than this (a x b x (a + b)): every round plays a few such terms for
#: every pair of side states (the catalog's largest: 31 x 31 x 62, about 60,000)
MAX_TERM_WORK = 4_000_000

#: the fields of one side's state, in order (the side's own: conditions on it, stings laid on it, ...)
FIELDS = (
    "endurance",
    "conditions",
    "disarmed",
    "stings",
    "setup",
    "inside",
    "blind",
    "petrify",
    "awareness",
    "charged",
    "telegraph",
    "situation_setup",
    "spree",
    "reroll_used",
    "counter_used",
)
E, COND, DISARMED, STINGS, SETUP, INSIDE, BLIND, PETRIFY, AWARE, CHARGED, TELE, SIT_SETUP, SPREE, REROLL, COUNTER = (
    range(len(FIELDS))
)

_Side = tuple
_Key = tuple[_Side, _Side]


class _Vital(Exception):
    """A row deals vital damage to side ``y`` whose Endurance and Vitality were taken as one axis."""

    def __init__(self, y: int):
        super().__init__(y)
        self.y = y


def _binomial(n: int, p: float) -> list[tuple[int, float]]:
    from math import comb

    return [(k, comb(n, k) * p**k * (1 - p) ** (n - k)) for k in range(n + 1)]


def _convolve(x: list[tuple[int, float]], y: list[tuple[int, float]]) -> list[tuple[int, float]]:
    out: dict[int, float] = {}
    for i, p in x:
        for j, q in y:
            out[i + j] = out.get(i + j, 0.0) + p * q
    return list(out.items())


def _with(s: _Side, **changes: Any) -> _Side:
    n = list(s)
    for name, value in changes.items():
        n[FIELDS.index(name)] = value
    return tuple(n)


@lru_cache(maxsize=4096)
def _move(size: int, shift: int, heal: int) -> np.ndarray:
    """Return the 0/1 matrix (size + 1) x (size + 1) that takes damage taken i (``size``: fallen) to
    min(i + shift, size), then, still standing, ``heal`` less (not below 0)."""
    m = np.zeros((size + 1, size + 1))
    for i in range(size):
        j = min(i + shift, size)
        if j < size and heal:
            j = max(0, j - heal)
        m[i, j] = 1.0
    m[size, size] = 1.0
    return m


@lru_cache(maxsize=4096)
def _spread(size: int, pmf: tuple[tuple[int, float], ...]) -> np.ndarray:
    """Return the matrix (size + 1) x (size + 1) of damage taken i to min(i + d, size) with the
    probability of d in ``pmf``; a fallen side stays fallen with the pmf's total."""
    m = np.zeros((size + 1, size + 1))
    for d, q in pmf:
        for i in range(size):
            m[i, min(i + d, size)] += q
    m[size, size] = sum(q for _, q in pmf)
    return m


class _Turn:
    """One side's turn from one pair of side states, as linear terms of the standing mass M (a's
    damage taken x b's) at the turn's start: ``stand`` [(next pair, A, B)] (the standing mass
    A @ M @ B after the turn), ``wins`` [(side, its damage taken before the axis, A, B)] (the mass of
    the fights the turn ends with that side standing, over its axis)."""

    __slots__ = ("stand", "wins", "to", "a", "b", "starts", "won")

    @staticmethod
    def _product(a: np.ndarray | None, m: np.ndarray, b: np.ndarray | None) -> np.ndarray:
        """Return the stacked a @ m @ b, a None or b None the identity (most terms move one axis)."""
        if a is None:
            return np.matmul(m, b) if b is not None else m[None]  # (one term: _put merges the others)
        return np.matmul(np.matmul(a, m), b) if b is not None else np.matmul(a, m)

    def __init__(self) -> None:
        self.stand: list[tuple[_Key, np.ndarray, np.ndarray]] = []
        self.wins: list[tuple[int, int, np.ndarray, np.ndarray]] = []

    def stack(self) -> None:
        """Stack the standing terms by next pair (``to``; ``a``, ``b`` the terms' matrices, ``starts``
        where each pair's terms begin) so that a round plays them in one batched product."""
        by: dict[_Key, list[tuple[np.ndarray, np.ndarray]]] = {}
        for k, a, b in self.stand:
            by.setdefault(k, []).append((a, b))
        self.to = list(by)
        terms = [t for k in self.to for t in by[k]]
        self.a = _eye_or_stack([a for a, _ in terms])
        self.b = _eye_or_stack([b for _, b in terms])
        self.starts = np.cumsum([0] + [len(by[k]) for k in self.to[:-1]]) if terms else np.zeros(0, np.int64)
        wins: dict[tuple[int, int], list[tuple[np.ndarray, np.ndarray]]] = {}
        for y, lost, a, b in self.wins:
            wins.setdefault((y, lost), []).append((a, b))
        #: [(side, its damage taken before its axis, the terms' a stacked, b stacked)]
        self.won = [
            (y, lost, _eye_or_stack([a for a, _ in t]), _eye_or_stack([b for _, b in t]))
            for (y, lost), t in wins.items()
        ]


def _eye_or_stack(ms: list[np.ndarray]) -> np.ndarray | None:
    """Return the matrices ``ms`` stacked, or None when every one is the identity of its size."""
    if all(m.shape[0] == m.shape[1] and np.array_equal(m, np.eye(m.shape[0])) for m in ms):
        return None
    return np.stack(ms)


class _Duel:
    """The duel of two AnnulusSides (a against b, b against a): each pair of side states' turns
    compiled once into linear terms (:class:`_Turn`) and played on the mass every round;
    ``pooled[y]``: side y's axis is its Endurance + Vitality taken (else its Vitality taken, its
    Endurance in its state)."""

    def __init__(self, sides: tuple[AnnulusSide, AnnulusSide], pooled: tuple[bool, bool], rounds: int):
        self.s = sides
        self.pooled = pooled
        self.e0 = tuple(int(x.me.endurance) for x in sides)
        self.v0 = tuple(int(x.me.vitality) for x in sides)
        #: the axis of each side: damage taken 0..size - 1 standing (size: fallen)
        self.size = tuple(e + v if p else v for e, v, p in zip(self.e0, self.v0, pooled))
        # Swansong: "half of your total Vitality" (the level, as the simulation has it): the damage
        # taken from which the side's Vitality is at most that
        self.swan_at = tuple(
            max(0, v - x.me.level // 2) + (e if p else 0) if v > x.me.level // 2 else 0
            for e, v, p, x in zip(self.e0, self.v0, pooled, sides)
        )
        self.area_mask = tuple(sum(1 << i for i in x.area_sets) for x in sides)
        # the two lines matter only to the sets that read them (resolve.py: Swansong's usability reads
        # attacker_vitality, First Blood's advantage target_undamaged): else one class either side
        self.reads_swan = tuple(any(s.alteration == "Swansong" for s in x.sets) for x in sides)
        self.reads_undamaged = tuple(
            bool(x.situation.target_undamaged) and any(s.has("First Blood") for s in x.sets) for x in sides
        )
        self.eye = tuple(np.eye(n) for n in self.size)
        self.wins = np.zeros((2, rounds))
        self.left = [np.zeros(self.e0[y] + self.v0[y]) for y in (0, 1)]
        self.rows: dict[tuple[int, int], list[tuple]] = {}
        self.steps: dict[tuple, list] = {}
        self.turns: dict[tuple[int, _Key], _Turn] = {}
        self._out: _Turn = _Turn()  # the turn being compiled
        self._x = 0  # its side

    # ------------------------------------------------------------------ states
    def start(self) -> _Key:
        """Return the pair of side states of the first round (AnnulusSide.start of both sides)."""
        out = []
        for y, x in enumerate(self.s):
            aware = AWARENESS.index(x.situation.target_awareness or x.me.awareness)
            side: _Side = (0 if self.pooled[y] else self.e0[y], 0, 0, 0, False, False, 0, 0, aware)
            side += (self.area_mask[y], -1, x.sit_setup_on, x.spree_on, False, False)
            out.append(side)
        return (out[0], out[1])

    def canon(self, key: _Key) -> _Key:
        """Return ``key`` at the end of a turn with what the next turns never read merged: Counter used
        (reset at the side's turn before it can counter again), and Reroll used unless the side
        counters before its own next turn."""
        return tuple(  # type: ignore[return-value]
            _with(s, counter_used=False, reroll_used=bool(s[REROLL]) and bool(self.s[y].counters))
            for y, s in enumerate(key)
        )

    @staticmethod
    def _key(x: int, me: _Side, foe: _Side) -> _Key:
        return (me, foe) if x == 0 else (foe, me)

    def _hurt(self, y: int, e: int, regular: int, vital: int) -> tuple[int, int]:
        """Return (side y's Endurance left, the damage to its axis) after ``regular`` and ``vital``
        damage with ``e`` Endurance left ("Endurance is removed first, then Vitality")."""
        if self.pooled[y]:
            if vital:
                raise _Vital(y)
            return e, regular
        soak = min(e, regular)
        return e - soak, regular - soak + vital

    def _lost(self, y: int, side: _Side) -> int:
        """Side y's damage taken before its axis (its Endurance lost when not pooled)."""
        return 0 if self.pooled[y] else self.e0[y] - side[E]

    # ------------------------------------------------------------------ terms
    def _put(self, d: dict, key: _Key, a: np.ndarray, b: np.ndarray) -> None:
        """Add the term (a, b) to ``key`` in ``d``, merged with a term sharing the matrix of the turn's
        side (A M B1 + A M B2 = A M (B1 + B2))."""
        if not a.any() or not b.any():
            return
        mine = a if self._x == 0 else b
        slot = d.setdefault(key, {})
        h = (mine.shape, mine.tobytes())
        got = slot.get(h)
        if got is None:
            slot[h] = [a, b]
        elif self._x == 0:
            got[1] = got[1] + b
        else:
            got[0] = got[0] + a

    def _scale(self, a: np.ndarray, b: np.ndarray, q: float) -> tuple[np.ndarray, np.ndarray]:
        """Return the term (a, b) times ``q``, on the matrix of the turn's side's foe (the side's own
        stays a move, shared by more terms in :meth:`_put`)."""
        if q == 1.0:
            return a, b
        return (a, q * b) if self._x == 0 else (q * a, b)

    @staticmethod
    def _terms(d: dict):
        for key, slot in d.items():
            for a, b in slot.values():
                yield key, a, b

    def _route(self, stand: dict, pend: dict, key: _Key, a2: np.ndarray, b2: np.ndarray) -> None:
        """File the terms of (a2, b2), whose rows and columns past each axis are the fallen side's:
        both standing to ``stand``, the turn's side standing alone to ``pend`` (its end-of-turn damage
        still to come), its foe standing alone a win of the foe; both fallen a draw (dropped)."""
        sa, sb = self.size
        x = self._x
        self._put(stand, key, a2[:sa], b2[:, :sb])
        if a2.shape[0] > sa:
            (self._put(pend, key, a2[sa:], b2[:, :sb]) if x == 1 else self._win(1, key, a2[sa:], b2[:, :sb]))
        if b2.shape[1] > sb:
            (self._put(pend, key, a2[:sa], b2[:, sb:]) if x == 0 else self._win(0, key, a2[:sa], b2[:, sb:]))

    def _win(self, y: int, key: _Key, a: np.ndarray, b: np.ndarray) -> None:
        if a.any() and b.any():
            self._out.wins.append((y, self._lost(y, key[y]), a, b))

    def _axis(self, y: int, a: np.ndarray, b: np.ndarray, t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Return the term (a, b) moved along side y's axis by ``t`` (size x size + 1: the last column
        fallen)."""
        return (t.T @ a, b) if y == 0 else (a, b @ t)

    def _region(self, y: int, a: np.ndarray, b: np.ndarray, part: slice) -> tuple[np.ndarray, np.ndarray]:
        """Return the term (a, b) kept to damage taken ``part`` of side y."""
        if y == 0:
            a = a.copy()
            a[: part.start], a[part.stop :] = 0.0, 0.0
            return a, b
        b = b.copy()
        b[:, : part.start], b[:, part.stop :] = 0.0, 0.0
        return a, b

    # ------------------------------------------------------------------ state classes
    def _regions(self, x: int, foe: _Side) -> list[tuple[bool, bool, slice, slice]]:
        """Return the parts of the standing mass with one state class for x's next use: (x at
        Swansong, foe undamaged, x's damage taken, the foe's)."""
        so, sf = self.size[x], self.size[1 - x]
        if self.reads_swan[x]:
            cut = min(self.swan_at[x], so)
            own = [(False, slice(0, cut)), (True, slice(cut, so))]
        else:
            own = [(False, slice(0, so))]
        undamaged = self.reads_undamaged[x] and (self.pooled[1 - x] or foe[E] == self.e0[1 - x])
        foes = [(True, slice(0, 1)), (False, slice(1, sf))] if undamaged else [(False, slice(0, sf))]
        return [(sw, und, r, c) for sw, r in own if r.stop > r.start for und, c in foes if c.stop > c.start]

    def _split(self, x: int, key: _Key, a: np.ndarray, b: np.ndarray):
        """Yield (x at Swansong, foe undamaged, the term's part) for each state class of x's next use."""
        regions = self._regions(x, key[1 - x])
        if len(regions) == 1:
            yield regions[0][0], regions[0][1], (a, b)
            return
        for swan, und, own, foe in regions:
            part = self._region(x, a, b, own)
            part = self._region(1 - x, *part, foe)
            if part[0].any() and part[1].any():
                yield swan, und, part

    def _bits(self, x: int, me: _Side, foe: _Side, swan: bool, undamaged: bool) -> int:
        """Return the state-class bits of x's next use (AnnulusSide._bits)."""
        side = self.s[x]
        setup = foe[SETUP] or (side.sit_setup_on and me[SIT_SETUP])
        return (
            (1 if foe[COND] & PRONE else 0)
            | (2 if setup else 0)
            | (4 if foe[BLIND] > 0 else 0)
            | (8 if me[BLIND] > 0 else 0)
            | (16 if me[COND] & WEAK else 0)
            | (32 if undamaged else 0)
            | (64 if foe[PETRIFY] > 0 else 0)
            | foe[AWARE] << 7
            | (0 if me[REROLL] else 512)
            | (1024 if me[INSIDE] else 0)
            | (2048 if swan else 0)
            | (8192 if side.spree_on and me[SPREE] else 0)
        )

    def _fetch(self, x: int, classes: list[int]) -> None:
        """Build the outcome tables of x's use classes not seen yet, in one call (AnnulusSide.uses)."""
        new = [k for k in dict.fromkeys(classes) if (x, k) not in self.rows]
        if not new:
            return
        cols = ("damage", "vitality_damage", "self_damage", "self_vitality_damage", "self_heal", "rerolled", "fx")
        for k, t in zip(new, self.s[x].uses.tables(new)):
            arrays = [np.asarray(t[c]).tolist() for c in cols]
            self.rows[(x, k)] = [(*r, p) for *r, p in zip(*arrays, np.asarray(t["probability"]).tolist()) if p > 0]

    # ------------------------------------------------------------------ one use
    def _use_steps(self, x: int, me: _Side, foe: _Side, i: int, swan: bool, und: bool, own_turn: bool, counter: bool):
        """Return the outcomes of x's use of set ``i`` from (me, foe) in one state class, grouped:
        [(x's state, foe's state, the move of x's axis, of the foe's, the foe's state when it
        counters or None)] (AnnulusSide.strike)."""
        ck = (x, me, foe, i, swan, und, own_turn, counter)
        got = self.steps.get(ck)
        if got is not None:
            return got
        side, other = self.s[x], self.s[1 - x]
        rows = self.rows[(x, self._bits(x, me, foe, swan, und) | i << SHIFT)]
        until = 2 if own_turn else 1  # "until the end of the blinder's [petrifier's] next turn"
        burn = ~BURN if other.situation.airless else -1  # Burn never holds in an airless environment
        c = other.counters.get(int(side.defense_of[i])) if counter else None
        groups: dict[tuple, dict[int, float]] = {}
        for dmg, vit, sd, svd, heal, rer, fx, q in rows:
            fe, to_foe = self._hurt(1 - x, foe[E], dmg - vit, vit)
            n_foe = list(foe)
            n_foe[E] = fe
            n_foe[SETUP] = False  # "The single next attack against a Setuped target ... removes the Setup"
            n_foe[AWARE] = ALERT
            n = list(me)
            n[SIT_SETUP] = False
            if side.spree[i]:
                n[SPREE] = False  # Killing Spree: "the single next time you use the attack"
            shift = 0
            if sd or svd:
                n[E], shift = self._hurt(x, n[E], sd, svd)
            healed = 0
            if heal and not me[COND] & FATIGUE:  # Drain: Endurance back, not while Fatigued
                if self.pooled[x]:
                    healed = min(heal, self.e0[x])  # the Endurance part of the damage taken comes back
                else:
                    n[E] = min(self.e0[x], n[E] + heal)
            if rer:
                n[REROLL] = True
            n[AWARE] = ALERT
            if side.area[i]:
                n[CHARGED] &= ~(1 << i)  # an area set waits for its recharge
            if fx:
                n_foe[COND] |= int(FX_CONDITIONS[fx]) & burn
                if side.has_disarm and fx & FX_BIT["disarm"]:
                    n_foe[COND], n_foe[DISARMED] = _disarm(other, n_foe[COND], n_foe[DISARMED])
                n_foe[STINGS] |= int(FX_STINGS[fx])
                if fx & FX_BIT["setup"]:
                    n_foe[SETUP] = True
                if fx & FX_BIT["blind"]:
                    n_foe[BLIND] = until
                if fx & FX_BIT["petrify"]:
                    n_foe[PETRIFY] = until
                if side.can_devour and fx & FX_BIT["devour"] and not me[INSIDE]:
                    n_foe[INSIDE] = True
            if me[INSIDE] and dmg >= 2:  # "deal 2 or more damage ... from the inside ... they can escape"
                n[INSIDE] = False
            counters = (
                c is not None
                and dmg >= 1
                and not foe[COUNTER]
                and not n[INSIDE]
                and n_foe[PETRIFY] == 0
                and (not other.area[c] or bool(n_foe[CHARGED] >> c & 1))
                and not n_foe[DISARMED] >> c & 1
            )
            g = groups.setdefault((tuple(n), tuple(n_foe), shift, healed, counters), {})
            g[to_foe] = g.get(to_foe, 0.0) + q
        so, sf = self.size[x], self.size[1 - x]
        got = []
        for (n, n_foe, shift, healed, counters), pmf in groups.items():
            back = _with(n_foe, counter_used=True) if counters else None
            own = _move(so, shift, healed)[:so]
            got.append((n, n_foe, own, _spread(sf, tuple(sorted(pmf.items())))[:sf], back))
        self.steps[ck] = got
        return got

    def strike(self, d: dict, pend: dict, x: int, i: int, own_turn: bool = True, counter: bool = True) -> dict:
        """Return the standing terms after x's use of set ``i`` from the standing terms ``d``, the
        foe's Counter included (the fights it ends filed by :meth:`_route`)."""
        parts = [(key, swan, und, t) for key, a, b in self._terms(d) for swan, und, t in self._split(x, key, a, b)]
        self._fetch(x, [self._bits(x, key[x], key[1 - x], swan, und) | i << SHIFT for key, swan, und, _ in parts])
        out: dict = {}
        back: dict = {}
        for key, swan, und, (a, b) in parts:
            me, foe = key[x], key[1 - x]
            for n, n_foe, own, spread, countered in self._use_steps(x, me, foe, i, swan, und, own_turn, counter):
                a2, b2 = self._axis(x, a, b, own)
                a2, b2 = self._axis(1 - x, a2, b2, spread)
                k2 = self._key(x, n, n_foe)
                if countered is None:
                    self._route(out, pend, k2, a2, b2)
                    continue
                # the fights where both still stand counter; the others are ended
                sa, sb = self.size
                self._put(back, self._key(x, n, countered), a2[:sa], b2[:, :sb])
                self._route({}, pend, k2, a2, b2)
        if back:
            c = self.s[1 - x].counters[int(self.s[x].defense_of[i])]
            for key, a, b in self._terms(self.strike(back, pend, 1 - x, c, own_turn=False, counter=False)):
                self._put(out, key, a, b)
        return out

    # ------------------------------------------------------------------ one turn
    def _damage(self, d: dict, pend: dict, y: int, amounts: Any, standing: bool = True) -> dict:
        """Return the terms of ``d`` after regular damage to side y, ``amounts(side)`` -> [(damage,
        probability)], the fights it ends filed (:meth:`_route`; with ``standing`` False, ``d`` is the
        turn's side standing alone: what it survives is its win)."""
        out: dict = {}
        for key, a, b in self._terms(d):
            by: dict[int, dict[int, float]] = {}
            for k, q in amounts(key[y]):
                e, hit = self._hurt(y, key[y][E], k, 0)
                by.setdefault(e, {})
                by[e][hit] = by[e].get(hit, 0.0) + q
            for e, pmf in by.items():
                k2 = self._key(y, _with(key[y], endurance=e), key[1 - y])
                a2, b2 = self._axis(y, a, b, _spread(self.size[y], tuple(sorted(pmf.items())))[: self.size[y]])
                if standing:
                    self._route(out, pend, k2, a2, b2)
                else:  # the turn's side y alone stands: what it survives is its win
                    sy = self.size[y]
                    self._win(y, k2, a2[:sy], b2) if y == 0 else self._win(y, k2, a2, b2[:, :sy])
        return out

    def _rekey(self, d: dict, x: int, f: Any) -> dict:
        """Return ``d`` with each pair (me, foe) replaced by ``f(me, foe)`` -> [(me', foe', probability)]."""
        out: dict = {}
        for key, a, b in self._terms(d):
            for me, foe, q in f(key[x], key[1 - x]):
                if q > 0:
                    self._put(out, self._key(x, me, foe), *self._scale(a, b, q))
        return out

    def turn_of(self, x: int, key: _Key) -> _Turn:
        """Return side x's turn from ``key`` (module docstring), compiled once."""
        got = self.turns.get((x, key))
        if got is None:
            self._out, self._x = _Turn(), x
            stand = self._one_turn({key: {(): [self.eye[0], self.eye[1]]}}, x)
            merged: dict = {}
            for k, a, b in self._terms(stand):
                self._put(merged, self.canon(k), a, b)
            self._out.stand = list(self._terms(merged))
            self._out.stack()
            got = self.turns[(x, key)] = self._out
        return got

    def _one_turn(self, d: dict, x: int) -> dict:
        side = self.s[x]
        key0 = next(iter(d))
        now = key0[x][STINGS]  # the stings laid on this side, read at its turn's start
        area = self.area_mask[x]
        pend: dict = {}  # the terms where this side stands alone (its foe fell this turn)

        def start(me: _Side, foe: _Side) -> list:
            me = _with(me, stings=0, reroll_used=False, counter_used=False)
            missing = [i for i in side.area_sets if not me[CHARGED] >> i & 1]
            out = []
            for pattern in range(1 << len(missing)):
                q, charged = 1.0, me[CHARGED]
                for j, i in enumerate(missing):
                    if pattern >> j & 1:
                        charged |= 1 << i
                        q *= 2 / 6
                    else:
                        q *= 4 / 6
                out.append((_with(me, charged=charged), foe, q))
            return out

        d = self._rekey(d, x, start)
        # Devour: the devoured foe "takes defense-ignoring damage each round on your turn equal to the
        # successes on two dice"
        if key0[1 - x][INSIDE]:
            d = self._damage(d, pend, 1 - x, lambda foe: _binomial(2, side.p))
        can_act = key0[x][PETRIFY] == 0  # Petrified: "cannot take any actions ... at all"
        attacking = can_act and not now & (PACIFY | TERROR)
        # Telegraphed: strikes first, unless the set was disarmed since or the foe is inside
        tel = key0[x][TELE]
        d = self._rekey(d, x, lambda me, foe: [(_with(me, telegraph=-1), foe, 1.0)])
        if tel >= 0 and attacking and not key0[1 - x][INSIDE] and not key0[x][DISARMED] >> tel & 1:
            d = self.strike(d, pend, x, tel)
        # recovery checks: 1 action, 4 dice, 3+ successes; a Berserk or Terrorized side cannot
        actions = (1 if now & DAZE else int(side.options.actions)) if can_act else 0
        work = {(k, actions): v for k, v in d.items()}
        pend_work = {(k, actions): v for k, v in pend.items()}
        free = can_act and not now & (BERSERK | TERROR)
        for _ in range(side.tactics.recovery_actions if free else 0):
            work, pend_work = (self._recover(w) for w in (work, pend_work))
        pend = {}
        for (k, _), slot in pend_work.items():
            for a, b in slot.values():
                self._put(pend, k, a, b)
        # the plan of each state class, use by use: (the plan's uses still to come, actions left) -> terms
        done: dict = {}
        plans: dict[tuple, dict] = {}

        def plan_from(d: dict, key: _Key, a: np.ndarray, b: np.ndarray, acts: int) -> None:
            """File the term under the plan the side plays from ``key`` with ``acts`` actions."""
            me, foe = key[x], key[1 - x]
            avail = (side.always_charged | (me[CHARGED] & area)) & ~me[DISARMED]
            for swan, und, (pa, pb) in self._split(x, key, a, b):
                plan = tuple(side._plan(self._bits(x, me, foe, swan, und) & LOW, avail, acts))
                self._put(d.setdefault((plan, acts), {}), key, pa, pb)

        for (key, acts), slot in work.items():
            if not (attacking and side.sets and not key[1 - x][INSIDE]):
                for a, b in slot.values():
                    self._put(done, key, a, b)
                continue
            for a, b in slot.values():
                plan_from(plans, key, a, b, acts)
        while plans:
            later: dict[tuple, dict] = {}
            for (plan, acts), pd in plans.items():
                if not plan:
                    for k, a, b in self._terms(pd):
                        self._put(done, k, a, b)
                    continue
                i, rest = plan[0], plan[1:]
                # Disarm during a turn (CLARIFICATIONS.md, Annulus): a set disarmed since the plan was
                # made (by the foe's Counter) "cannot be used for the rest of that turn either": the
                # actions left go to the best plan still legal with them
                for k, a, b in self._terms({k: v for k, v in pd.items() if k[x][DISARMED] >> i & 1}):
                    plan_from(later, k, a, b, acts)
                pd = {k: v for k, v in pd.items() if not k[x][DISARMED] >> i & 1}
                live = {k: v for k, v in pd.items() if k[x][PETRIFY] == 0 and not k[1 - x][INSIDE]}
                idle = {k: v for k, v in pd.items() if k not in live}
                if side.telegraphed[i]:  # announced now, strikes at the start of the next turn
                    live = self._rekey(live, x, lambda me, foe, i=i: [(_with(me, telegraph=i), foe, 1.0)])
                else:
                    live = self.strike(live, pend, x, i)
                for k, a, b in self._terms(idle):
                    self._put(live, k, a, b)
                nxt = later.setdefault((rest, acts - int(side.cost[i])), {})
                for k, a, b in self._terms(live):
                    self._put(nxt, k, a, b)
            plans = later

        # the turn's end: Burn 2 dice, Choke 1 die, Sap 1 on this side; the timers it laid run down
        def dots(me: _Side) -> list[tuple[int, float]]:
            pmf = [(0, 1.0)]
            c = me[COND]
            if c & BURN:
                pmf = _convolve(pmf, _binomial(2, side.p))
            if c & CHOKE:
                pmf = _convolve(pmf, _binomial(1, side.p))
            if c & SAP:
                pmf = [(k + 1, q) for k, q in pmf]
            return pmf

        done = self._damage(done, pend, x, dots)
        self._damage(pend, {}, x, dots, standing=False)
        return self._rekey(
            done,
            x,
            lambda me, foe: [(me, _with(foe, blind=max(0, foe[BLIND] - 1), petrify=max(0, foe[PETRIFY] - 1)), 1.0)],
        )

    def _recover(self, work: dict) -> dict:
        """Return ``work`` ((pair, actions left) -> terms) after one recovery check of the turn's side
        where it has an action and a condition it checks against (AnnulusSide.turn)."""
        x = self._x
        side = self.s[x]
        nxt: dict = {}
        for (key, actions), slot in work.items():
            me, foe = key[x], key[1 - x]
            if not (actions > 0 and me[COND] & side.recover_mask):
                for a, b in slot.values():
                    self._put(nxt, (key, actions), a, b)
                continue
            bit = next(b for b in side.recover_bits if me[COND] & b)
            if bit == DISARM:
                cond, disarmed = _recover_disarm(side, me[COND], me[DISARMED])
            else:
                cond, disarmed = me[COND] & ~bit, me[DISARMED]
            ok = self._key(x, _with(me, conditions=cond, disarmed=disarmed), foe)
            for a, b in slot.values():
                self._put(nxt, (ok, actions - 1), *self._scale(a, b, side.p_recover))
                self._put(nxt, (key, actions - 1), *self._scale(a, b, 1 - side.p_recover))
        return nxt

    # ------------------------------------------------------------------ one round
    def play(self, alive: dict, x: int, r: int) -> dict:
        """Return the standing mass after side x's turn of round ``r``, the fights it ends counted as
        wins in that round (kept by the winner's damage taken)."""
        out: dict = {}
        for key, m in alive.items():
            t = self.turn_of(x, key)
            if t.to:
                got = t._product(t.a, m, t.b)
                if len(t.to) < got.shape[0]:
                    got = np.add.reduceat(got, t.starts, axis=0)
                for k2, g in zip(t.to, got):
                    if k2 in out:
                        out[k2] += g
                    else:
                        out[k2] = g
            for y, lost, a, b in t.won:
                v = t._product(a, m, b).sum(axis=0).ravel()
                self.wins[y, r - 1] += v.sum()
                self.left[y][lost : lost + v.size] += v
        return out


def _disarm(side: AnnulusSide, cond: int, disarmed: int) -> tuple[int, int]:
    """Return (conditions, sets disarmed) after a Disarm on ``side`` (AnnulusSide._disarm: the first set
    of its ``disarm_order`` not yet disarmed; none left: ignored)."""
    for i in side.disarm_order.tolist():
        if not disarmed >> i & 1:
            return cond | DISARM, disarmed | 1 << i
    return cond, disarmed


def _recover_disarm(side: AnnulusSide, cond: int, disarmed: int) -> tuple[int, int]:
    """Return (conditions, sets disarmed) after a successful check against Disarm (AnnulusSide._recover_disarm:
    the set it values most, the last of ``disarm_order`` disarmed, comes back)."""
    for i in reversed(side.disarm_order.tolist()):
        if disarmed >> i & 1:
            disarmed &= ~(1 << i)
            break
    return (cond | DISARM) if disarmed else (cond & ~DISARM), disarmed


def _one_order(duel: _Duel, order: tuple[int, int], rounds: int) -> bool:
    """Play the duel with ``order`` acting within each round; False past MAX_CELLS."""
    sa, sb = duel.size
    m = np.zeros((sa, sb))
    m[0, 0] = 1.0
    alive: dict = {duel.start(): m}
    for r in range(1, rounds + 1):
        for x in order:
            alive = duel.play(alive, x, r)
        if len(alive) * sa * sb > MAX_CELLS:
            return False
        check_time(f"the Annulus duel chain over both sides' state, round {r:,}")
        if sum(float(v.sum()) for v in alive.values()) < CHAIN_TAIL:
            break
    return True


def duel_chain(
    sys: Any,
    a: Any,
    b: Any,
    options: Any,
    situation: Any,
    first: str,
    max_rounds: int,
    plan_a: Any,
    plan_b: Any,
):
    """Return (win_a, win_b, left_a, left_b) of the duel of ``a`` and ``b`` (``RuleSystem.duel_chain``:
    P(a wins in round t), t = 1..max_rounds, b's, a's damage taken when a wins, b's), or None when
    the state passes MAX_CELLS or a term's work MAX_TERM_WORK (the module docstring)."""
    orders = [(0, 1), (1, 0)] if first == "random" else [(0, 1) if first == "a" else (1, 0)]
    ha, hb = int(sys.hit_points(a)), int(sys.hit_points(b))
    if ha * hb * (ha + hb) > MAX_TERM_WORK:
        return None
    pooled = [True, True]
    while True:
        total_w, total_l = np.zeros((2, max_rounds)), [np.zeros(sys.hit_points(a)), np.zeros(sys.hit_points(b))]
        try:
            for order in orders:
                sides = (AnnulusSide(a, b, options, situation, plan_a), AnnulusSide(b, a, options, situation, plan_b))
                duel = _Duel(sides, (pooled[0], pooled[1]), max_rounds)
                if not _one_order(duel, order, max_rounds):
                    return None
                total_w += duel.wins
                total_l[0] += duel.left[0]
                total_l[1] += duel.left[1]
        except _Vital as exc:  # that side's Endurance goes in the state
            pooled[exc.y] = False
            continue
        n = len(orders)
        return total_w[0] / n, total_w[1] / n, total_l[0] / n, total_l[1] / n
