"""Encounters: groups against groups, played through each system's one round description (issue 39).

No second fight model: every creature's turn is its system's :class:`~workbench.fight.round.FightRound`
of (that creature, the foe it targets), over that pair's two state columns; the other creatures'
states ride along. The group rules of ../shared/rules/CLARIFICATIONS.md "Encounters: groups against
groups" that are not a system's own live here (turn order, targeting, the end of a fight); those of
a system are optional hooks of its round description, read with ``getattr``:

- ``flanked()``: the same round with the system's flanking bonus (Unbound: +2 to melee attacks),
  and ``melee``: whether the attacker attacks in melee (who can flank).
- ``in_group(my_foes, its_foes)``: the same round with each creature's state kept as every one of its
  foes needs it (Annulus: Endurance and Vitality one pool only when no foe deals vital damage;
  "wounded" kept when any foe has First Blood), so a creature's state means the same whichever foe
  reads it.
- ``hp_total(who)`` / ``hp_lost(who, c)`` (:class:`~workbench.fight.round.FightRound`): hit points
  when the damage taken is not all of them (Annulus: Endurance + Vitality), read by ``focus``
  targeting and the HP left.
- ``refunds`` (a bool attribute): a kill by the turn refunds it (Glass Empires): the turn is played
  again on the next living foe; ``refunded(me)``: the attacker's state such a turn starts from.
- ``steps(refund)``: the turn as rounds played in order, each step's target the turn's while it
  stands, else the next living foe by the policy (``Encounter.steps``): Glass Empires, a turn of two
  Attacks an Attack at a time (a kill refunds the Attack under way); Unbound, its attack rolls one at
  a time ("the remaining attacks of the action under way go to the next living foe").

The state of an encounter is one :class:`~workbench.columns.Columns` per creature (its system's own
combatant state, the first of ``rnd.start()``), plus per fight what the group rules read: the
attacks made on each creature this round (``spread`` targeting, flanking off ``focus``).

A passive encounter (``Encounter.passive``, compare's group targets: ``workbench.encounters.group_rounds``)
is rounds-to-kill grown to a group: side b's creatures only rest, side a's never fall.

Two interpreters of the same turns: the exact chain over every creature's state
(:mod:`workbench.fight.encounter_chain`, each turn enumerated) and the simulation here
(:func:`simulate`: a :class:`~workbench.fight.draw.Sampler` on every fight at once). Both record
what the fights came to in a :class:`Tally`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np

from ..arguments import check_time
from ..columns import Columns, concatenated
from ..errors import RulesError
from ..foe_order import Foe, FoeOrder
from .draw import Sampler
from .round import FightRound, between_of, play

__all__ = [
    "ORDERS",
    "TARGETING",
    "FLANKING",
    "Encounter",
    "Tally",
    "schedule",
    "simulate",
    "flanked_by_later",
    "later_allies",
]

#: the turn orders (CLARIFICATIONS.md, Encounters: Rounds)
ORDERS = ("sides", "alternate")
#: the targeting policies (CLARIFICATIONS.md, Encounters: Targets)
TARGETING = ("focus", "spread", "random")
#: Unbound flanking (CLARIFICATIONS.md, Encounters: "default auto")
FLANKING = ("auto", "never", "always")


@dataclass
class Encounter:
    """The creatures of an encounter and how their turns are played.

    ``side[i]`` 0 (side a) or 1 (side b) of creature i, in listed order (a's then b's);
    ``round_of(i, j, flanked)`` the round description of i attacking j (built once per pair);
    ``hp[i]`` the damage taken that fells it; ``total[i]`` its hit points (``hp_total``: Annulus's
    Endurance + Vitality, else ``hp[i]``); ``start[i]`` its state as the fight starts (one row).

    ``passive``: side b is a group of passive targets, rounds-to-kill's fight grown to a group (how
    long side a takes to fell them all): side b's creatures neither attack nor react, each one's turn
    is its ``rest`` (:class:`~workbench.fight.round.FightRound`) against side a's first creature, and
    side a's creatures never fall (``immortal``), as rounds-to-kill's attacker. A round is side a's
    turns in listed order, their acts between rounds, then side b's rests: one against one, the round
    of rounds-to-kill (:func:`~workbench.fight.round.round_steps`).

    ``allies_in_area`` (Annulus, default 0): the living creatures of the attacker's own side, in
    listed order, that an area set also strikes (CLARIFICATIONS.md, Encounters: area attacks "can and
    will harm the user's allies if they are standing in the target area": ``allies_in_area`` adds
    them); then every creature can be hurt by every other, so each one's state is kept as all of them
    need it (:meth:`hurters`)."""

    creatures: list[Any]
    side: np.ndarray
    make_round: Any  # (attacker model, target model, flanked) -> FightRound
    targeting: Any = "focus"  # one of TARGETING, or a function of each foe (foe_order.Foe) -> its score
    flanking: str = "auto"
    refund: bool = True
    passive: bool = False
    allies_in_area: int = 0
    hp: np.ndarray = field(init=False)
    total: np.ndarray = field(init=False)
    start: list[Columns] = field(init=False)
    immortal: np.ndarray = field(init=False)
    _rounds: dict[tuple[int, int, bool], FightRound] = field(init=False, default_factory=dict)
    _step_rounds: dict[tuple[int, int, bool], list[FightRound]] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        n = len(self.creatures)
        self.hp = np.zeros(n, np.int64)
        self.total = np.zeros(n, np.int64)
        self.immortal = (self.side == 0) & self.passive
        self.start = []
        for i in range(n):
            rnd, who = self._own(i)
            self.hp[i] = int(rnd.hit_points(who))
            total = getattr(rnd, "hp_total", None)
            self.total[i] = int(total(who)) if total is not None else self.hp[i]
            self.start.append(rnd.start(passive=self.passive)[who])
        acting = [i for i in range(n) if not self.resting(i)]
        self.phased = [i for i in acting if any(between_of(self.round_of(i, j)) for j in self.foes(i))]

    def resting(self, i: int) -> bool:
        """Return whether creature i is a passive target (side b of a ``passive`` encounter)."""
        return bool(self.passive and self.side[i] == 1)

    def _own(self, i: int) -> tuple[FightRound, int]:
        """Return (a round description holding creature i, which of its two it is: 0 the attacker, 1
        the target): its own round against its first foe, or, resting, side a's first creature's
        round against it (rounds-to-kill reads a passive target from its attacker's round)."""
        if self.resting(i):
            return self.round_of(0, i), 1
        return self.round_of(i, int(self.foes(i)[0])), 0

    def standing(self, i: int, s: Columns) -> np.ndarray:
        """Return per state of ``s`` whether creature i stands: its damage taken short of its HP, or
        always where it is immortal (a passive encounter's side a)."""
        return (_damage(s) < self.hp[i]) | self.immortal[i]

    def turns(self, order: str, first: int) -> list[int]:
        """Return the creatures whose turns make a round, in order (:func:`schedule`; in a passive
        encounter side a's only: side b's rests come after the acts between rounds)."""
        if self.passive:
            return [int(i) for i in np.flatnonzero(self.side == 0)]
        sizes = (int((self.side == 0).sum()), int((self.side == 1).sum()))
        return schedule(sizes, order, first)

    @property
    def resters(self) -> list[int]:
        """Return the passive targets, whose rests end each round, in listed order."""
        return [i for i in range(self.size) if self.resting(i)]

    @property
    def size(self) -> int:
        return len(self.creatures)

    def foes(self, i: int) -> np.ndarray:
        """Return the indices of creature i's foes, in listed order."""
        return np.flatnonzero(self.side != self.side[i])

    def allies(self, i: int) -> np.ndarray:
        """Return the indices of the other creatures of creature i's side, in listed order."""
        return np.flatnonzero((self.side == self.side[i]) & (np.arange(self.size) != i))

    def hurters(self, i: int) -> list[Any]:
        """Return the creatures that can hurt creature i: its foes, or with ``allies_in_area`` every
        creature of the encounter (an ally's area set strikes it too; itself included, which keeps
        the list the same whichever round reads it). A round's ``in_group`` keeps i's state as they
        all need it."""
        if self.allies_in_area:
            return list(self.creatures)
        return [self.creatures[k] for k in self.foes(i)]

    def round_of(self, i: int, j: int, flanked: bool = False, step: int = 0) -> FightRound:
        """Return the round description of creature i attacking creature j (the flanked one when
        ``flanked`` and the description has the hook); built once per pair of models. A turn played
        in steps (:meth:`steps`) has one round per step: ``step``'s."""
        key = (i, j, flanked)
        got = self._rounds.get(key)
        if got is None:
            got = self.make_round(self.creatures[i], self.creatures[j], flanked)
            grouped = getattr(got, "in_group", None)
            if grouped is not None:
                got = grouped(self.hurters(i), self.hurters(j))
            self._rounds[key] = got
        parts = self._steps_of(key, got)
        return parts[min(step, len(parts) - 1)]

    def _steps_of(self, key: tuple[int, int, bool], rnd: FightRound) -> list[FightRound]:
        """Return the rounds of ``rnd``'s turn played in steps, or [rnd]: its hook ``steps(refund)``
        (Glass Empires: a turn of two Attacks an Attack at a time when kills refund here, so that a
        kill refunds the Attack under way; Unbound: a roll at a time, so that the rolls left after a
        kill go to the next foe)."""
        got = self._step_rounds.get(key)
        if got is None:
            split = getattr(rnd, "steps", None)
            got = self._step_rounds[key] = list(split(refund=self.refund)) if split is not None else [rnd]
        return got

    def steps(self, i: int) -> int:
        """Return how many steps make creature i's turn (:meth:`round_of`): 1 but for a turn played
        in steps."""
        if self.resting(i):
            return 1
        j = int(self.foes(i)[0])
        self.round_of(i, j)
        return len(self._step_rounds[(i, j, False)])

    def idle(self, i: int, k: int, s: Columns) -> tuple[np.ndarray, Columns] | None:
        """Return (where creature i's turn, played in steps, has nothing left at step ``k`` >= 1 in
        its states ``s``; those states as the step leaves them) from its step round's hook ``idle``,
        or None (every state plays the step). An idle state is passed over: the step makes no attack,
        so it is not counted under ``spread`` nor read by flanking (CLARIFICATIONS.md, Encounters:
        "the living foe targeted by the fewest attacks so far this round")."""
        if not k or self.resting(i):
            return None
        hook = getattr(self.round_of(i, int(self.foes(i)[0]), False, k), "idle", None)
        return None if hook is None else hook(s)

    def retarget(self, i: int, k: int, s: Columns) -> Columns | None:
        """Return creature i's states ``s`` as step ``k`` >= 1 of its turn finds them where the turn's
        target fell before it (the step attacks the next living foe): its step round's hook
        ``retarget`` (Last Odyssey: the actions left planned again against that foe,
        CLARIFICATIONS.md, Encounters); None without the hook (the same weapons go on)."""
        if not k or self.resting(i):
            return None
        hook = getattr(self.round_of(i, int(self.foes(i)[0]), False, k), "retarget", None)
        return None if hook is None else hook(s)

    def left(self, i: int, s: Columns) -> np.ndarray:
        """Return creature i's hit points left in the states ``s`` (module docstring: ``hp_lost``
        where its round has it, else its damage taken): 0 once it has fallen (Annulus: Vitality gone
        to vital damage with Endurance left is a fall)."""
        rnd, who = self._own(i)
        lost = getattr(rnd, "hp_lost", None)
        taken = np.asarray(lost(who, s) if lost is not None else _damage(s), dtype=np.int64)
        return np.where(self.standing(i, s), np.maximum(self.total[i] - taken, 0), 0)

    @property
    def reads_attacks(self) -> bool:
        """Return whether the targeting policy reads the attacks made this round (``spread``, a
        function)."""
        return self.targeting == "spread" or callable(self.targeting)

    @property
    def reads_hp(self) -> bool:
        """Return whether the targeting policy reads the foes' HP left (``focus``, a function)."""
        return self.targeting == "focus" or callable(self.targeting)

    def foe_score(self, f: int, left: Any, attacks: Any) -> Any:
        """Return the targeting policy's score of foe f (the living foe of lowest score is attacked,
        ties in listed order; CLARIFICATIONS.md, Encounters: Targets): ``focus`` its HP left
        (``left``), ``spread`` the attacks on it this round (``attacks``), a function its value of
        :class:`~workbench.foe_order.Foe` (arrays broadcasting together: per fight or per cell)."""
        if self.targeting == "focus":
            return left
        if self.targeting == "spread":
            return attacks
        shape = np.broadcast(np.asarray(left), np.asarray(attacks)).shape
        foe = Foe(
            name=str(getattr(self.creatures[f], "name", f)),
            place=int(f),
            hp=int(self.total[f]),
            hp_left=np.asarray(left),
            attacks=np.asarray(attacks),
        )
        try:
            got = np.asarray(self.targeting(foe), dtype=np.float64)
            got = np.broadcast_to(got, shape) if got.shape != shape else got
        except Exception as exc:  # (a user's function: any failure is its input error)
            raise RulesError(
                f"the targeting function must return a number (or one per fight) for a foe, but gave {exc!r}",
                field="targeting",
                rule="CLARIFICATIONS.md: Encounters: Targets",
            ) from None
        if not np.isfinite(got).all():
            raise RulesError(
                "the targeting function returned a score that is not a finite number",
                field="targeting",
                rule="CLARIFICATIONS.md: Encounters: Targets",
            )
        return got

    def foe_order(self, i: int, tup: Sequence[int], before: np.ndarray | None = None) -> FoeOrder:
        """Return the order in which creature i's turn over the foes ``tup`` (its target first, then
        the next living foes as the turn began) takes the next living foe as the turn stands: the
        targeting policy read again ("the next living foe by the same policy", CLARIFICATIONS.md,
        Encounters), ties in listed order; ``before``: under ``spread``, the attacks on each of them
        this round before the turn. ``random`` keeps the uniformly random order the turn began
        with."""
        listed = tuple(int(t) for t in tup)
        if callable(self.targeting):
            return FoeOrder("score", listed, before, lambda k, left, attacks: self.foe_score(listed[k], left, attacks))
        policy = {"focus": "focus", "spread": "spread"}.get(self.targeting, "given")
        return FoeOrder(policy, listed, before if policy == "spread" else None)

    def reach(self, i: int) -> int:
        """Return how many foes one turn of creature i strikes at most: 1, or where its round has the
        hook ``group_turn`` (a turn over several foes) its ``reach``, at most its foes' number."""
        if self.resting(i):
            return 1
        rnd = self.round_of(i, int(self.foes(i)[0]))
        if getattr(rnd, "group_turn", None) is None:
            return 1
        return max(1, min(int(getattr(rnd, "reach", 1)), len(self.foes(i))))

    def allies_struck(self, i: int) -> int:
        """Return how many of its allies one turn of creature i strikes at most: ``allies_in_area``
        where its round has area sets (its ``has_area`` hook, Annulus), at most its allies' number;
        else 0."""
        if self.resting(i) or not self.allies_in_area:
            return 0
        rnd = self.round_of(i, int(self.foes(i)[0]))
        if not getattr(rnd, "has_area", False):
            return 0
        return min(self.allies_in_area, len(self.allies(i)))

    def refunds(self, i: int) -> bool:
        """Return whether a kill by creature i's turn refunds it (its round's hook ``refunds``, Glass
        Empires; the encounter's option ``refund``): the turn is played again on the next living foe."""
        if self.resting(i):
            return False
        return self.refund and bool(getattr(self.round_of(i, int(self.foes(i)[0])), "refunds", False))

    def can_flank(self, i: int) -> bool:
        """Return whether creature i's attacks can be flanking ones (its round has the hook and it
        attacks in melee)."""
        if self.resting(i):
            return False
        j = int(self.foes(i)[0])
        rnd = self.round_of(i, j)
        return getattr(rnd, "flanked", None) is not None and bool(getattr(rnd, "melee", False))


def schedule(sides: tuple[int, int], order: str, first: int) -> list[int]:
    """Return the creatures' turns in a round (indices: side a's 0..na-1, then b's): ``sides`` every
    creature of the side acting first in listed order, then the other side's; ``alternate`` a1, b1,
    a2, b2, ... (the side acting first opening each pair), the larger side's extra creatures last."""
    na, nb = sides
    a, b = list(range(na)), list(range(na, na + nb))
    one, two = (a, b) if first == 0 else (b, a)
    if order == "sides":
        return one + two
    out = []
    for k in range(max(na, nb)):
        out += [x[k] for x in (one, two) if k < len(x)]
    return out


def flanked_by_later(
    enc: Encounter, actor: int, target: Any, alive: list[Any], hits: list[Any], later: list[int]
) -> Any:
    """Return where a living melee ally still to act this round will attack ``target`` as things stand
    at ``actor``'s attack (CLARIFICATIONS.md, Encounters, Unbound flanking: "another living creature
    of its side that attacks in melee has the same foe as its target this round (acted already or
    still to act ...)"), off ``focus`` targeting. ``later``: the allies whose turns come after the
    actor's this round, in turn order; ``alive[c]`` where creature c stands and ``hits[c]`` the
    attacks on it so far this round (arrays over fights or cells, or numbers, all broadcasting
    together); ``target`` a foe per fight or one foe.

    As things stand: the kills still to come are not foreseen. ``spread`` plays the allies' picks in
    turn order (the living foe attacked the fewest times, ties in listed order), the actor's own
    attack counted; ``random`` and a targeting function: an ally's pick is certain only when the
    target is the only living foe.
    """
    foes = [int(f) for f in enc.foes(actor)]
    flankers = [c for c in later if enc.can_flank(c)]
    out: Any = False
    if not flankers:
        return out
    if enc.targeting == "random" or callable(enc.targeting):  # (a function: its picks not foreseen)
        only = sum(np.asarray(alive[f], dtype=np.int64) for f in foes) == 1
        return only & np.logical_or.reduce([np.asarray(alive[c]) for c in flankers])
    big = np.iinfo(np.int64).max // 4
    count = [np.asarray(hits[f], dtype=np.int64) + (np.asarray(target) == f) for f in foes]
    for c in later:
        scores = np.stack(np.broadcast_arrays(*[np.where(alive[f], count[n], big) for n, f in enumerate(foes)]))
        pick = np.asarray(foes)[np.argmin(scores, axis=0)]  # (ties: the first in listed order)
        acts = np.asarray(alive[c]) & (scores.min(axis=0) < big)
        count = [h + (acts & (pick == f)) for h, f in zip(count, foes)]
        if c in flankers:
            out = out | (acts & (pick == target))
    return out


def later_allies(enc: Encounter, turns: list[int]) -> dict[int, list[int]]:
    """Return, per creature of ``turns`` (a round's turns in order), the creatures of its side whose
    turns come after its own, in turn order."""
    return {i: [c for c in turns[n + 1 :] if enc.side[c] == enc.side[i]] for n, i in enumerate(turns)}


# ---------------------------------------------------------------------------------------- the batch
@dataclass
class _Batch:
    """Fights in one interpreter's hands: each creature's state, each fight's weight (exact: its
    probability; simulated: 1) and per fight the attacks made on each creature this round (``hits``)
    and the melee attackers that struck each (``melee``, one bit per attacker), and the fight's index
    (simulated: where its result goes)."""

    states: list[Columns]
    weight: np.ndarray
    hits: np.ndarray
    melee: np.ndarray
    fight: np.ndarray
    intact: np.ndarray  # nobody has fallen yet (the first to fall is recorded when one does)
    aim: np.ndarray  # the target of the turn under way, for its later steps (-1: none)

    @property
    def n(self) -> int:
        return int(self.weight.shape[0])

    def take(self, idx: Any) -> _Batch:
        return _Batch(
            [s.take(idx) for s in self.states],
            self.weight[idx],
            self.hits[idx],
            self.melee[idx],
            self.fight[idx],
            self.intact[idx],
            self.aim[idx],
        )

    @staticmethod
    def concat(parts: list[_Batch]) -> _Batch:
        parts = [p for p in parts if p.n] or parts[:1]
        return _Batch(
            [concatenated([p.states[c] for p in parts]) for c in range(len(parts[0].states))],
            np.concatenate([p.weight for p in parts]),
            np.concatenate([p.hits for p in parts]),
            np.concatenate([p.melee for p in parts]),
            np.concatenate([p.fight for p in parts]),
            np.concatenate([p.intact for p in parts]),
            np.concatenate([p.aim for p in parts]),
        )


def _damage(s: Columns) -> np.ndarray:
    return np.asarray(getattr(s, s.POOL), dtype=np.int64)


@dataclass
class Tally:
    """What the fights came to, weighted (exact: probabilities; simulated: counts of fights).

    ``ends[k, r]``: fights ended in round r + 1 with outcome k (0: a wins, 1: b wins, 2: draw);
    ``unresolved``: still going at the round limit; ``survivors[s, k]``: fights ending with k of side
    s's creatures standing; ``hp_left[i][o, h]``: creature i with h HP left at the end of a fight of
    outcome o (0 a wins, 1 b wins, 2 draw, 3 unresolved); ``first[i]``: creature i fell first (when
    one turn over several foes fells several, the first it struck, its target first; else the first
    in listed order)."""

    ends: np.ndarray
    unresolved: float
    survivors: np.ndarray
    hp_left: list[np.ndarray]
    first: np.ndarray

    @staticmethod
    def empty(enc: Encounter, max_rounds: int) -> Tally:
        sizes = [int((enc.side == s).sum()) for s in (0, 1)]
        return Tally(
            np.zeros((3, max_rounds)),
            0.0,
            np.zeros((2, max(sizes) + 1)),
            [np.zeros((4, int(h) + 1)) for h in enc.total],
            np.zeros(enc.size),
        )

    def add(self, other: Tally, w: float = 1.0) -> None:
        self.ends += w * other.ends
        self.unresolved += w * other.unresolved
        self.survivors += w * other.survivors
        for a, b in zip(self.hp_left, other.hp_left):
            a += w * b
        self.first += w * other.first

    def record(self, enc: Encounter, b: _Batch, outcome: np.ndarray, r: int) -> None:
        """Record the fights of ``b`` as ended in round r + 1 (0-based r; r None: unresolved) with
        ``outcome`` per fight (0, 1, 2; 3: unresolved)."""
        w = b.weight
        for k in range(3):
            self.ends[k, r] += float(w[outcome == k].sum()) if r >= 0 else 0.0
        self.unresolved += float(w[outcome == 3].sum())
        alive = np.stack([enc.standing(i, s) for i, s in enumerate(b.states)], axis=1)
        for x in (0, 1):
            count = alive[:, enc.side == x].sum(axis=1)
            np.add.at(self.survivors[x], count, w)
        for i, s in enumerate(b.states):
            np.add.at(self.hp_left[i], (outcome, enc.left(i, s)), w)


# ---------------------------------------------------------------------------------------- the play
class _Play:
    """The simulation's turns (module docstring): every random value from a Sampler of ``rng``."""

    def __init__(self, enc: Encounter, rng: np.random.Generator, first: np.ndarray):
        self.enc, self.rng = enc, rng
        self.first = first  # per fight, the creature that fell first (-1: none yet)
        self.flankers = np.array([enc.can_flank(i) for i in range(enc.size)], dtype=bool)
        #: per creature, its allies whose turns come after its own this round (:func:`later_allies`)
        self.later: dict[int, list[int]] = {}

    def alive(self, b: _Batch, rows: np.ndarray | None = None) -> np.ndarray:
        """Return (n, C): creature c stands in fight i (:meth:`Encounter.standing` of every creature
        at once); of ``rows`` only where given."""
        taken = np.stack([_damage(s) if rows is None else _damage(s)[rows] for s in b.states], axis=1)
        return (taken < self.enc.hp) | self.enc.immortal

    # ------------------------------------------------------------ targeting
    def targets(
        self, b: _Batch, actor: int, alive: np.ndarray | None = None, left: np.ndarray | None = None
    ) -> tuple[_Batch, np.ndarray]:
        """Return (the fights, expanded over a random choice when enumerated; each one's target):
        the living foe of ``actor`` the policy picks (CLARIFICATIONS.md, Encounters: Targets)
        (``alive``: :meth:`alive` of ``b``, ``left``: the HP left of each foe, where worked out
        already)."""
        enc = self.enc
        foes = enc.foes(actor)
        alive = (self.alive(b) if alive is None else alive)[:, foes]
        if enc.targeting != "random":  # the policy's lowest score (Encounter.foe_score), ties in listed order
            if left is None and enc.reads_hp:
                left = np.stack([enc.left(f, b.states[f]) for f in foes], axis=1)
            score = self.scores(foes, left, b.hits)
            return b, foes[np.argmin(np.where(alive, score, np.inf), axis=1)]
        # random: uniform over the living foes
        count = alive.sum(axis=1)
        pick = np.floor(self.rng.random(b.n) * count).astype(np.int64)
        rank = np.cumsum(alive, axis=1) - 1
        col = np.argmax(alive & (rank == pick[:, None]), axis=1)
        return b, foes[col]

    def scores(self, foes: np.ndarray, left: np.ndarray | None, hits: np.ndarray) -> np.ndarray:
        """Return the targeting policy's score of each of ``foes`` in each fight (fights x foes):
        :meth:`Encounter.foe_score` of its HP left (``left``, fights x foes; None where the policy does
        not read it) and the attacks on it this round (``hits``, fights x creatures)."""
        n = hits.shape[0]
        return np.stack(
            [
                np.broadcast_to(
                    np.asarray(self.enc.foe_score(f, left[:, x] if left is not None else 0, hits[:, f]), np.float64),
                    (n,),
                )
                for x, f in enumerate(foes)
            ],
            axis=1,
        )

    def flanked(self, b: _Batch, actor: int, target: np.ndarray, alive: np.ndarray | None = None) -> np.ndarray:
        """Return per fight whether ``actor``'s attack on ``target`` flanks (CLARIFICATIONS.md,
        Encounters, Unbound flanking): never / always (a melee attacker with the hook), or ``auto``:
        under ``focus`` another living melee creature of its side, otherwise another melee creature of
        its side has attacked that foe this round or will as things stand (:func:`flanked_by_later`)."""
        enc = self.enc
        if not self.flankers[actor] or enc.flanking == "never":
            return np.zeros(b.n, dtype=bool)
        if enc.flanking == "always":
            return np.ones(b.n, dtype=bool)
        if enc.targeting == "focus":
            mates = [c for c in np.flatnonzero(enc.side == enc.side[actor]) if c != actor and self.flankers[c]]
            if not mates:
                return np.zeros(b.n, dtype=bool)
            alive = self.alive(b) if alive is None else alive
            return np.asarray(alive[:, mates].any(axis=1))
        alive = self.alive(b) if alive is None else alive
        ahead = flanked_by_later(enc, actor, target, list(alive.T), list(b.hits.T), self.later.get(actor, []))
        # (``melee`` holds, per creature, the melee attackers that struck it this round as bits: the
        # actor's own earlier rolls are not "another creature")
        others = (b.melee[np.arange(b.n), target] & ~(1 << actor)) != 0
        return np.asarray(others | ahead, dtype=bool)

    # ------------------------------------------------------------ one creature's turn
    def turn(self, b: _Batch, actor: int) -> _Batch:
        """Return the fights after ``actor``'s turn: its steps in order (:meth:`Encounter.steps`:
        one, or a Glass Empires turn's Attacks), each played by :meth:`step`."""
        steps = self.enc.steps(actor)
        for k in range(steps):
            b = self.step(b, actor, k)
            if steps > 1:
                self.fallen(b)
        if steps > 1:
            b.aim[:] = -1
        return b

    def fallen(self, b: _Batch, alive: np.ndarray | None = None) -> None:
        """Record, in the fights of ``b`` where nobody had fallen yet (``intact``), the creature that
        has fallen since (several: the first in listed order): after every turn (:meth:`settle`) and
        every step of a turn played in steps (it fells its foes one step at a time). ``alive``:
        :meth:`alive` of ``b``, where worked out already."""
        alive = self.alive(b) if alive is None else alive
        fell = ~alive.all(axis=1) & b.intact
        if fell.any():
            idx = np.flatnonzero(fell)
            self.first[b.fight[idx]] = np.argmin(alive[idx], axis=1)
            b.intact = b.intact & ~fell

    def step(self, b: _Batch, actor: int, k: int = 0, rows: np.ndarray | None = None) -> _Batch:
        """Return the fights after step ``k`` of ``actor``'s turn in those where it stands (and the
        fight goes on; ``rows``: in those rows only, a refunded step): its target by the policy,
        then its system's round of (actor, target) played on that pair's states (enumerated or
        sampled), written back into their rows (the other creatures' states untouched); a kill that
        refunds plays the step again on the next living foe."""
        enc = self.enc
        alive = self.alive(b)
        if rows is None:
            acting = alive[:, actor] & self._going(b, alive)
            passed = enc.idle(actor, k, b.states[actor])
            if passed is not None:  # (a turn with nothing left: the step passes it over, no attack)
                over, after = passed
                b.states[actor] = after
                b.aim = np.where(over, -1, b.aim)
                acting = acting & ~over
            rows = np.flatnonzero(acting)
        if not rows.size:
            return b
        # the acting rows, each creature's state taken only where the policy reads it
        up = alive[rows]
        sub = _Batch(
            cast(list[Columns], _Taken(b.states, rows)),
            b.weight[rows],
            b.hits[rows],
            b.melee[rows],
            b.fight[rows],
            b.intact[rows],
            b.aim[rows],
        )
        left = None
        if enc.reads_hp:  # (the foes' HP left read on the whole batch: no state taken)
            left = np.stack([enc.left(f, b.states[f]) for f in enc.foes(actor)], axis=1)[rows]
        sub, target = self.targets(sub, actor, up, left)
        reach = enc.reach(actor)
        if reach > 1 or enc.allies_struck(actor):  # (a turn over several foes)
            return self.group(b, actor, rows, target, reach, up, left)
        if k:  # a later step of the turn: its target while it stands ("one living foe ... at the start of its turn")
            keep = (sub.aim >= 0) & up[np.arange(sub.n), np.maximum(sub.aim, 0)]
            target = np.where(keep, sub.aim, target)
            moved = rows[~keep]
            if moved.size:  # the target fell: the step goes on against the next foe (the round's hook)
                found = enc.retarget(actor, k, b.states[actor].take(moved))
                if found is not None:
                    b.states[actor].put(moved, found)
        flank = self.flanked(sub, actor, target, up)
        for t in np.unique(target):
            t = int(t)
            for f in (False, True):
                sel = (target == t) & (flank == f)
                if not sel.any():
                    continue
                idx = rows[sel]
                rnd = enc.round_of(actor, t, f, k)
                me, foe = play(rnd, b.states[actor].take(idx), b.states[t].take(idx), Sampler(self.rng), ("turn",))
                b.states[actor].put(idx, me)
                b.states[t].put(idx, foe)
                b.aim[idx] = t
                b.hits[idx, t] += 1
                if self.flankers[actor]:
                    b.melee[idx, t] |= 1 << actor
                if enc.refunds(actor):  # a kill refunds the turn: played again on the next living foe
                    again = idx[(_damage(foe) >= enc.hp[t]) & enc.standing(actor, me)]
                    again = again[self._going(b, rows=again)] if again.size else again
                    if again.size:
                        fell = again[b.intact[again]]  # the first to fall, before the refunded turn
                        self.first[b.fight[fell]] = t
                        b.intact[fell] = False
                        refunded = getattr(rnd, "refunded", None)
                        if refunded is not None:  # (the state a refunded action starts from)
                            b.states[actor].put(again, refunded(b.states[actor].take(again)))
                        b = self.step(b, actor, k, again)
        return b

    def group(
        self,
        b: _Batch,
        actor: int,
        rows: np.ndarray,
        target: np.ndarray,
        reach: int,
        alive: np.ndarray,
        left: np.ndarray | None,
    ) -> _Batch:
        """Return the fights after ``actor``'s turn over several foes in the fights ``rows`` of ``b``
        (its round's ``ready``, then its ``group_turn``): its ``target``, then the next living foes by
        the same policy (random: in a uniformly random order), up to ``reach``; then its living allies in listed
        order, up to ``allies_struck`` (an area set strikes them too, ``Encounter.allies_in_area``).
        ``alive``: :meth:`alive` of those rows, ``left``: the foes' HP left there (``focus``). Each
        creature's state is written back in place (the other rows and creatures untouched)."""
        enc = self.enc
        foes = enc.foes(actor)
        up = alive[:, foes]
        big = np.iinfo(np.int64).max // 4
        if (
            enc.targeting == "random"
        ):  # the others in a uniformly random order ("the next living foes by the same policy")
            score = self.rng.random(up.shape)
        else:
            score = self.scores(foes, left, b.hits[rows])
        score = np.where(up, score, big)
        score[foes[None, :] == target[:, None]] = -np.inf  # (the target first, whatever the scores)
        order = np.argsort(score, axis=1, kind="stable")[:, :reach]
        struck = np.where(np.take_along_axis(up, order, axis=1), foes[order], -1)
        n_allies = enc.allies_struck(actor)
        if n_allies:  # the first living allies in listed order
            mates = enc.allies(actor)
            near_up = alive[:, mates]
            rank = np.where(near_up, np.cumsum(near_up, axis=1), n_allies + 1)
            near = [
                np.where((rank == k).any(axis=1), mates[np.argmax(rank == k, axis=1)], -1)
                for k in range(1, n_allies + 1)
            ]
            struck = np.column_stack([struck, *near])
        uniq, inverse = np.unique(struck, axis=0, return_inverse=True)
        for g, row in enumerate(uniq.tolist()):
            tup = [int(t) for t in row[: struck.shape[1] - n_allies] if t >= 0]
            friends = [int(t) for t in row[struck.shape[1] - n_allies :] if t >= 0]
            idx = rows[inverse.ravel() == g]
            rnd = enc.round_of(actor, tup[0])
            draw = Sampler(self.rng)
            # the dice its turn rolls before its plan (play's "ready"), then the turn over the foes
            me, first = play(rnd, b.states[actor].take(idx), b.states[tup[0]].take(idx), draw, ("ready",))
            everyone = [*tup, *friends]
            more = {"allies": len(friends)} if friends else {}
            foe_order = enc.foe_order(actor, tup, b.hits[np.ix_(idx, tup)])
            me, hit, attacked = rnd.group_turn(  # type: ignore[attr-defined]
                me,
                [first, *(b.states[t].take(idx) for t in everyone[1:])],
                draw,
                [enc.creatures[t] for t in everyone],
                order=foe_order,
                **more,
            )
            b.states[actor].put(idx, me)
            for t, s in zip(everyone, hit):
                b.states[t].put(idx, s)
            for x, t in enumerate(tup):  # the attacks made on each foe this round (spread targeting)
                b.hits[idx, t] += attacked[:, x]
            # who fell first, where several fell in this turn: in the order it struck them (its
            # target first), then the actor (a Counter), as the exact chain counts them
            intact = idx[b.intact[idx]]
            if intact.size:
                up = self.alive(b, intact)
                for c in [*everyone, actor]:
                    down = b.intact[intact] & ~up[:, c]
                    if down.any():
                        self.first[b.fight[intact[down]]] = c
                        b.intact[intact[down]] = False
        return b

    def between(self, b: _Batch, actor: int, opening: bool) -> _Batch:
        """Return the fights after ``actor``'s acts between rounds (Last Odyssey's phases; ``opening``:
        before the first round), against the foe the policy picks then, where it stands."""
        enc = self.enc
        acting = self.alive(b)[:, actor] & self._going(b)
        if not acting.any():
            return b
        idle = b.take(~acting)
        b, target = self.targets(b.take(acting), actor)
        parts = [idle]
        for t in np.unique(target):
            sub = b.take(target == t)
            rnd = enc.round_of(actor, int(t))
            step = between_of(rnd)
            if step is None:
                parts.append(sub)
                continue
            me, foe = step(sub.states[actor], sub.states[int(t)], Sampler(self.rng), opening)
            sub.states[actor], sub.states[int(t)] = me, foe
            parts.append(sub)
        return _Batch.concat(parts)

    def rest(self, b: _Batch, j: int) -> _Batch:
        """Return the fights after passive target j's turn (its ``rest`` against side a's first
        creature, the round rounds-to-kill reads it from) in those where it stands."""
        rnd = self.enc.round_of(0, j)
        acting = self.alive(b)[:, j] & self._going(b)
        if not hasattr(rnd, "rest") or not acting.any():
            return b
        sub = b.take(acting)
        sub.states[0], sub.states[j] = play(rnd, sub.states[0], sub.states[j], Sampler(self.rng), ("rest",))
        return _Batch.concat([b.take(~acting), sub])

    def _going(self, b: _Batch, alive: np.ndarray | None = None, rows: np.ndarray | None = None) -> np.ndarray:
        """Return per fight (of ``rows``: those rows only) whether both sides have a creature standing
        (``alive``: :meth:`alive` of ``b``, where worked out already)."""
        if alive is None:
            alive = self.alive(b, rows)
        return np.asarray(alive[:, self.enc.side == 0].any(axis=1) & alive[:, self.enc.side == 1].any(axis=1))

    # ------------------------------------------------------------ after a turn
    def settle(self, b: _Batch, tally: Tally, r: int) -> _Batch:
        """Return the fights still going after a turn; the ended ones recorded in round r + 1; in a
        fight where nobody had fallen before (``intact``) the first to fall is recorded
        (:meth:`fallen`)."""
        enc = self.enc
        alive = self.alive(b)
        self.fallen(b, alive)
        a_up, b_up = alive[:, enc.side == 0].any(axis=1), alive[:, enc.side == 1].any(axis=1)
        ended = ~(a_up & b_up)
        if ended.any():
            outcome = np.where(a_up, 0, np.where(b_up, 1, 2))
            tally.record(enc, b.take(ended), outcome[ended], r)
            b = b.take(~ended)
        return b


class _Taken(Sequence[Columns]):
    """The creatures' states of some rows of a batch, each creature's taken when first read (a
    policy reads its foes' states, not every creature's)."""

    def __init__(self, states: list[Columns], rows: np.ndarray):
        self._states, self._rows = states, rows
        self._got: dict[int, Columns] = {}

    def __len__(self) -> int:
        return len(self._states)

    def __getitem__(self, c: Any) -> Any:
        if not isinstance(c, (int, np.integer)):
            return [self[x] for x in range(len(self))][c]
        got = self._got.get(int(c))
        if got is None:
            got = self._got[int(c)] = self._states[int(c)].take(self._rows)
        return got


def _start(enc: Encounter, n: int) -> _Batch:
    return _Batch(
        [s.tile(n) for s in enc.start],
        np.ones(n),
        np.zeros((n, enc.size), np.int64),
        np.zeros((n, enc.size), np.int64),
        np.arange(n),
        np.ones(n, dtype=bool),
        np.full(n, -1, np.int64),
    )


def simulate(
    enc: Encounter, order: str, first: np.ndarray, max_rounds: int, rng: np.random.Generator
) -> tuple[Tally, np.ndarray]:
    """Return (the :class:`Tally` of ``first.size`` sampled fights, counts; each fight's outcome
    (0 a wins, 1 b wins, 2 draw, 3 unresolved)): fight i's side ``first[i]`` acts first."""
    n = int(first.size)
    fell_first = np.full(n, -1, np.int64)
    play = _Play(enc, rng, fell_first)
    tally = Tally.empty(enc, max_rounds)
    outcome = np.full(n, 3, np.int64)
    for side in (0, 1):
        idx = np.flatnonzero(first == side)
        if not idx.size:
            continue
        b = _start(enc, idx.size)
        b.fight = idx
        turns = enc.turns(order, side)
        play.later = later_allies(enc, turns)
        sub = Tally.empty(enc, max_rounds)
        for i in enc.phased:
            b = _settle_sim(play, play.between(b, i, True), sub, 0, outcome)
        for r in range(max_rounds):
            if not b.n:
                break
            b.hits[:] = 0
            b.melee[:] = 0
            for actor in turns:
                b = _settle_sim(play, play.turn(b, actor), sub, r, outcome)
            for i in enc.phased:
                b = _settle_sim(play, play.between(b, i, False), sub, r, outcome)
            for j in enc.resters:
                b = _settle_sim(play, play.rest(b, j), sub, r, outcome)
            check_time(f"the simulated encounter, round {r + 1:,}")
        if b.n:
            sub.record(enc, b, np.full(b.n, 3), -1)
        tally.add(sub)
    tally.first = np.bincount(fell_first[fell_first >= 0], minlength=enc.size).astype(np.float64)
    return tally, outcome


def _settle_sim(play: _Play, b: _Batch, tally: Tally, r: int, outcome: np.ndarray) -> _Batch:
    going = play._going(b)
    ended_fights = b.fight[~going]
    alive = play.alive(b)
    enc = play.enc
    a_up, b_up = alive[:, enc.side == 0].any(axis=1), alive[:, enc.side == 1].any(axis=1)
    outcome[ended_fights] = np.where(a_up, 0, np.where(b_up, 1, 2))[~going]
    return play.settle(b, tally, r)
