"""The Annulus round, described once (issue 33): one creature's turn over named state, every random
value from a :class:`~workbench.fight.draw.Draw`. The fight's interpreters (workbench/fight/) derive
from it the exact chain of rounds-to-kill, optimal play's planned chain and the simulation; a
passive target's own turn (recovery checks, the damage at the end of its turn, the timers) is
:meth:`AnnulusRound.rest`. The modelling of each effect, with its rule, is in docs/combat.md.

The state of each creature (:class:`Combatant`, one named field per part): its damage taken (the
chain's pool: Vitality taken, Endurance lost a field of its own, or with ``pooled`` Endurance +
Vitality taken as one pool when nothing can deal it vital damage nor heal it), its conditions, the
sets disarmed, the stings laid on it, Setup, devoured, the Blind and Petrify timers, awareness, the
area sets charged, a Telegraphed set announced, Reroll and Counter used this round, and the
situation's Setup and Killing Spree still waiting for its first use.

One turn (the order of the simulation, docs/combat.md): Reroll and Counter unused again, the stings
laid on it read ("Dazed: only 1 action instead of the normal 2"; Pacified and Terrorized make no
attacks; Berserk and Terrorized make no recovery checks); its uncharged area sets recharge ("If the
result is a 5 or a 6, the set is recharged": ``AnnulusSystem.recharge_probability``); a devoured foe
takes two dice ("takes defense-ignoring damage each round on your turn equal to the successes on two
dice"); a Telegraphed set announced last turn strikes ("used at the beginning of your next turn for
free before you make any actions"); recovery checks (1 action, 4 dice, 3+ successes, the first
listed condition first); the plan of its state class, use by use, each use one row of the outcome
table of its state class, and the foe's Counter ("when damaged by an attack on the chosen defense,
strike back", once per round) as a use inside the use; a set disarmed mid-turn gives its actions
left to the best plan still legal; at the turn's end Burn (2 dice), Choke (1 die) and Sap (1) "at the
end of each of their turns", and the timers it laid on its foe ("until the end of the blinder's next
turn") run down.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable, Sequence
from functools import cached_property, partial
from math import comb
from typing import Any, cast

import numpy as np

from ...columns import Columns, Grouped, distinct_columns, distinct_rows, padded
from ...dist import Dist
from ...errors import RulesError
from ...fight.draw import Carrying, Draw
from ...foe_order import FoeOrder
from ...memo import MEMO, hashed
from ...plans import choose_label, is_sequence_plan
from ...turns import best_plan
from . import resolve
from .tactics import Tactics

__all__ = ["AnnulusRound", "Combatant", "disarm_order", "set_mask"]

#: the plan label of a turn with no use (optimal play's only plan when none is legal)
NO_ATTACK = "no attack"
AWARENESS = ("clueless", "suspicious", "alert")
ALERT = AWARENESS.index("alert")
#: conditions on a creature (recovered by a recovery check), by the name Tactics.recover_from uses;
#: Disarm is the sets disarmed (``disarmed``), one condition per set
CONDITIONS = {
    "burn": "burning",
    "choke": "choking",
    "sap": "sapped",
    "fatigue": "fatigued",
    "knockdown": "prone",
    "weaken": "weakened",
}
#: a condition's name in optimal play's frame
_SHOWN = {
    "burning": "burn",
    "choking": "choke",
    "sapped": "sap",
    "fatigued": "fatigue",
    "prone": "prone",
    "weakened": "weaken",
}
#: stings (wear off on their own at the start of the creature's next turn), by trigger
STINGS = {"daze": "dazed", "pacify": "pacified", "terrorize": "terrorized", "berserk": "berserk"}
#: the outcome columns a use applies; the triggers not named here (Grab, Hobble, Push, Silence,
#: Dispel, Immobilize) change nothing in a one-against-one fight at a fixed distance
_EFFECTS = (*CONDITIONS, *STINGS, "setup", "blind", "petrify", "devour", "disarm")
_COLUMNS = ("damage", "vitality_damage", "self_damage", "self_vitality_damage", "self_heal", "rerolled", *_EFFECTS)
#: the state class of a use (the few things of both creatures that change a strike), in the order
#: of a use key's columns
_CLASS = (
    "target_prone",
    "target_setup",
    "target_blind",
    "attacker_blind",
    "attacker_weakened",
    "target_undamaged",
    "target_petrified",
    "target_awareness",
    "reroll_available",
    "inside_devourer",
    "swansong",
    "after_kill",
    "blood_price",
)


def set_mask(sets: Any) -> int:
    """Return the one encoding of a collection of attack sets (charged, disarmed): the sum of 2**i
    over the set indices i."""
    return sum(1 << int(i) for i in sets)


def _has(mask: np.ndarray, i: Any) -> np.ndarray:
    """Return whether set ``i`` (an index or an array of them) is in the masks (:func:`set_mask`)."""
    return (np.asarray(mask) >> np.asarray(i)) & 1 > 0


def _binomial(n: int, p: float) -> np.ndarray:
    return np.array([comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)])


@dataclasses.dataclass
class Combatant(Columns):
    """Annulus creatures in a batch of fights (module docstring): every field a whole number."""

    damage_taken: np.ndarray
    endurance_lost: np.ndarray
    wounded: np.ndarray  # Vitality lost (never comes back): with Endurance lost, undamaged or not
    swansong_lost: np.ndarray  # the damage taken towards Swansong, up to the line
    burning: np.ndarray
    choking: np.ndarray
    sapped: np.ndarray
    fatigued: np.ndarray
    prone: np.ndarray
    weakened: np.ndarray
    disarmed: np.ndarray  # the sets disarmed (set_mask)
    dazed: np.ndarray
    pacified: np.ndarray
    terrorized: np.ndarray
    berserk: np.ndarray
    setup: np.ndarray
    inside: np.ndarray  # devoured: inside its foe
    blind: np.ndarray  # the turns of its foe's left until Blind ends
    petrify: np.ndarray
    awareness: np.ndarray
    charged: np.ndarray  # its area sets charged (set_mask)
    telegraph: np.ndarray  # the Telegraphed set announced, or -1
    reroll_used: np.ndarray
    counter_used: np.ndarray
    situation_setup: np.ndarray  # the situation's Setup still waiting for its first use
    spree_waits: np.ndarray  # the situation's kill still waiting for a Killing Spree use
    foe_passive: np.ndarray  # its foe neither attacks nor reacts (rounds to kill's target)


@dataclasses.dataclass
class _Turn(Columns):
    """The turn under way, per fight (carried through the draws beside the two creatures)."""

    plan: np.ndarray  # the row of its plan in the striker's plan list (-1: none)
    pos: np.ndarray  # the use of the plan next
    left: np.ndarray  # actions left
    given: np.ndarray  # the plan label given for the fight (index into AnnulusRound._labels), -1: none
    attacking: np.ndarray
    free: np.ndarray  # may make recovery checks
    at: np.ndarray  # in an encounter: the foe struck now, its place among the turn's foes (0: the target)


@dataclasses.dataclass
class _Use(Columns):
    """One use in flight, per fight: its set and whether it is made (carried through its draw)."""

    sets: np.ndarray
    go: np.ndarray


@dataclasses.dataclass
class _Check(Columns):
    """A recovery check in flight, per fight: the condition it is against (carried through its draw)."""

    first: np.ndarray


@dataclasses.dataclass
class _Along(Columns):
    """Values a turn over several foes keeps per fight beside its states (columns of one array),
    carried through the draws of its uses (:class:`~workbench.fight.draw.Carrying`)."""

    values: np.ndarray


@dataclasses.dataclass
class _Announced(Columns):
    """The Telegraphed set announced last turn (-1: none), carried through the draws of :meth:`AnnulusRound.ready`."""

    set: np.ndarray


def disarm_order(sys: Any, sets: Any, me: Any, foe: Any, options: Any, situation: Any) -> np.ndarray:
    """Return the indices of ``me``'s ``sets`` it gives up to a Disarm condition, first choice first:
    "The disarmed target chooses one of their attack sets" (the set with the lowest mean damage of one
    use against ``foe``, a set it cannot use here first; ties: the first listed), and a set with
    Inherent never ("they assign the condition to one of their sets that doesn't have it (if any)
    before ignoring the effect entirely")."""
    value = []
    for i, s in enumerate(sets):
        if s.has("Inherent"):
            continue
        try:
            v = sys.damage(s, me, foe, options, situation).mean()
        except RulesError:
            v = -1.0
        value.append((v, i))
    return np.array([i for _, i in sorted(value)], dtype=np.int64)


#: the foes an area set strikes in an encounter, its target and the next living foes by the encounter's
#: policy (CLARIFICATIONS.md, Encounters: "up to default ``foes_in_area``: Arc 3 (a 3 m arc at 1 m),
#: Burst 3, Line 2"; allies in the area, default 0, are not struck)
FOES_IN_AREA = {"Arc": 3, "Burst": 3, "Line": 2}
#: the rule cited when ``foes_in_area`` is refused
AREA_RULE = "CLARIFICATIONS.md: Encounters: Annulus area sets (foes_in_area)"


class _Striker:
    """One creature attacking another: its sets, outcome tables and plans (both directions of a
    fight have one: the foe's Counter is the other direction's use)."""

    def __init__(self, sys: Any, me: Any, foe: Any, options: Any, situation: Any, plan: Any, tactics: Tactics):
        self.sys, self.me, self.foe, self.plan = sys, me, foe, plan
        self.options, self.situation, self.tactics = options, situation, tactics
        self.sets = list(me.attack_sets)
        n = max(1, len(self.sets))
        pad = lambda xs, v: np.array(list(xs) or [v])  # noqa: E731
        self.cost = pad((sys.attack_cost(s, options) for s in self.sets), 0)
        self.area = pad((bool(s.area) for s in self.sets), False)
        #: the foes each set strikes in a group: its area's default ``foes_in_area`` (FOES_IN_AREA), else 1
        self.in_area = pad((FOES_IN_AREA.get(s.area, 1) if s.area else 1 for s in self.sets), 1)
        self.telegraphed = pad((s.alteration == "Telegraphed" for s in self.sets), False)
        self.spree = pad((s.has("Killing Spree") for s in self.sets), False)
        self.defense_of = pad((("agility", "toughness", "insight").index(s.defense) for s in self.sets), 0)
        self.recharge = np.array(
            [sys.recharge_probability(s, options) for s in self.sets] + [1.0] * (n - len(self.sets))
        )
        self.area_sets = [i for i, s in enumerate(self.sets) if s.area]
        self.has_disarm = any("Disarm" in s.triggers for s in self.sets)
        self.can_devour = foe.size <= me.size - 2
        self.sit_setup_on = bool(situation.target_setup)
        self.spree_on = bool(situation.after_kill) and bool(self.spree.any())
        self.swan_sets = any(s.alteration == "Swansong" for s in self.sets)
        #: its Blood Price sets (Tactics.blood_price_uses spends the first)
        self.blood_sets = [i for i, s in enumerate(self.sets) if s.has("Blood Price")]
        self.p = options.p_success
        #: "A recovery check is made by spending 1 action and rolling 4 dice ... 3 or more successes"
        self.p_recover = float(_binomial(4, self.p)[3:].sum())
        #: {defense index it reacts to: set index} of its usable Counter sets
        self.counter_of = np.full(3, -1, np.int64)
        for i, s in enumerate(self.sets):
            if s.alteration != "Counter":
                continue
            try:
                resolve.strike_parameters([s], [me], [foe], options, situation)
            except RulesError:
                continue
            d = ("agility", "toughness", "insight").index(s.counter_type)
            if self.counter_of[d] < 0:
                self.counter_of[d] = i
        self.counters = bool((self.counter_of >= 0).any())
        # (hashed once: every table lookup of a level hashes it, models and all)
        self.memo = hashed(("annulus", me, foe, options, situation))
        self.tables: dict[tuple[int, ...], dict[str, np.ndarray]] = {}
        self.plan_row: dict[tuple[Any, ...], int] = {}
        self.plan_list: list[tuple[int, ...]] = []
        self._steps: np.ndarray | None = None
        self._legal: dict[tuple[int, tuple[int, ...], int], dict[str, tuple[int, ...]]] = {}
        # in an encounter: the other foes' rounds met by a plan choice (see plan_rows), each group
        # of them numbered, and the mean damage of one use of a set on one of them in one class
        self._groups: dict[tuple[Any, ...], int] = {}
        self._group_list: list[tuple[list[Any], np.ndarray]] = []
        self._means: dict[tuple[int, int, tuple[int, ...]], float] = {}

    # ------------------------------------------------------------------ outcome tables
    def _sit(self, cls: tuple[int, ...]) -> Any:
        c = dict(zip(_CLASS, cls))
        base = self.situation
        return base.replace(
            target_prone=base.target_prone or bool(c["target_prone"]),
            target_setup=bool(c["target_setup"]),  # the situation's Setup is the first use's (situation_setup)
            target_blind=base.target_blind or bool(c["target_blind"]),
            # a Blind sting on the attacker: every space has full concealment for it, unless it
            # perceives by a non-visual sense (it still cannot Gaze: mutual_sight below)
            concealment="full" if c["attacker_blind"] and not self.me.senses else base.concealment,
            mutual_sight=base.mutual_sight and not (c["target_blind"] or c["attacker_blind"] or c["inside_devourer"]),
            attacker_weakened=base.attacker_weakened or bool(c["attacker_weakened"]),
            target_undamaged=base.target_undamaged and bool(c["target_undamaged"]),
            target_petrified=base.target_petrified or bool(c["target_petrified"]),
            target_awareness=AWARENESS[c["target_awareness"]],
            reroll_available=base.reroll_available and bool(c["reroll_available"]),
            inside_devourer=base.inside_devourer or bool(c["inside_devourer"]),
            attacker_vitality=self.me.level // 2 if c["swansong"] else None,
            blood_price=bool(c["blood_price"]),
            after_kill=bool(c["after_kill"]),
        )

    def _build(self, keys: list[tuple[int, ...]]) -> None:
        """Build the outcome table of each use key (the state class, then the set), memoised under
        its resolved dice parameters (a use's table is a function of them alone)."""
        sets = [self.sets[k[-1]] for k in keys]
        sits = [self._sit(k[:-1]) for k in keys]
        n = len(keys)
        P = resolve.strike_parameters(sets, [self.me] * n, [self.foe] * n, self.options, sits)
        params = resolve.parameter_rows(P)
        memo = [("annulus round use", self.options, row) for row in params]
        first: dict[bytes, int] = {}
        for i, name in enumerate(memo):
            got = MEMO.lookup(name)
            if got is not None:
                self.tables[keys[i]] = cast(dict[str, np.ndarray], got)
            else:
                first.setdefault(params[i], i)
        if not first:
            return
        picked = np.fromiter(first.values(), dtype=np.int64, count=len(first))
        sub = {k: v[picked] for k, v in P.items() if k != "n"} | {"n": picked.size}
        tables = resolve.parameter_tables(sub, self.options, [params[i] for i in picked.tolist()])
        built = {params[i]: self._merged(t) for i, t in zip(picked.tolist(), tables)}
        for i, k in enumerate(keys):
            if keys[i] not in self.tables:
                self.tables[k] = built[params[i]]
                MEMO.put(memo[i], built[params[i]])

    @staticmethod
    def _merged(t: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        """Return the outcome rows of one use (a table of
        :func:`~workbench.systems.annulus.resolve.outcome_rows`) with the rows equal in the columns
        a turn reads merged, sorted by them."""
        rows, inverse = distinct_columns([t[c] for c in _COLUMNS], t["probability"].size)
        merged = np.bincount(inverse, weights=t["probability"], minlength=rows.shape[0])
        return {**{c: rows[:, j] for j, c in enumerate(_COLUMNS)}, "probability": merged}

    #: the table of no use (a fight of the batch that does not strike now)
    _NONE = {**{c: np.zeros(1, np.int64) for c in _COLUMNS}, "probability": np.ones(1)}

    def table(self, cls: list[np.ndarray], sets: np.ndarray, go: np.ndarray) -> Grouped:
        """Return the outcome table of each fight's use (set ``sets`` in the state class ``cls``, its
        columns, where ``go``; else no use) as a Draw's :class:`~workbench.columns.Grouped` table (the
        tables of a set of use keys stacked once and kept)."""
        # the use keys (class, set; all -1 where no use), numbered as distinct_rows numbers them: the
        # classes first (their numbers sorted as the classes are, every column >= 0), then one number
        # per (class number, set), -1 for no use: the keys' order (no use first) and each fight's
        # index are the whole key's
        classes, number = distinct_columns(cls, go.size)
        width = max(1, len(self.sets))
        keys, inverse = distinct_rows(np.where(go, number * width + sets, -1)[:, None])
        none = (-1,) * (classes.shape[1] + 1)
        rows = classes.tolist()
        groups = [none if k < 0 else (*rows[k // width], k % width) for k in keys[:, 0].tolist()]
        new = [g for g in groups if g[-1] >= 0 and g not in self.tables]
        for g in new:  # a table of these models met by an earlier round (another plan, another call)
            got = MEMO.lookup((self.memo, "round use", g))
            if got is not None:
                self.tables[g] = cast(dict[str, np.ndarray], got)
        new = [g for g in new if g not in self.tables]
        if new:
            self._build(new)
            for g in new:
                MEMO.put((self.memo, "round use", g), self.tables[g])
        # the tables of one set of use keys are stacked once (a fight meets the same sets round after round)
        columns = MEMO.get(
            (self.memo, "round uses", tuple(groups)),
            lambda: padded([self.tables[g] if g[-1] >= 0 else self._NONE for g in groups], _COLUMNS),
        )
        return Grouped(columns, inverse.ravel())

    # ------------------------------------------------------------------ plans
    def _turn_plans(self, avail: int, cls: tuple[int, ...], actions: int) -> dict[str, Dist]:
        """Return the plans of a turn with the sets ``avail`` usable (:func:`set_mask`) and
        ``actions`` actions in the state class ``cls`` (``turn_plans``; with no action left, the
        sets that cost none)."""
        sets = [s for i, s in enumerate(self.sets) if avail >> i & 1]
        if actions == 0:
            sets = [s for s in sets if self.sys.attack_cost(s, self.options) == 0]
        if not sets:
            return {}
        me = self.me.replace(attack_sets=tuple(sets))
        return self.sys.turn_plans(me, self.foe, self.options.replace(actions=max(1, actions)), self._sit(cls))

    def legal(self, avail: int, cls: tuple[int, ...], actions: int) -> dict[str, tuple[int, ...]]:
        """Return every plan legal with the sets ``avail`` usable, label -> set indices, in the order
        ``turn_plans`` lists them (ties go to the first)."""
        got = self._legal.get((avail, cls, actions))
        if got is None:
            by_name = {s.name: i for i, s in enumerate(self.sets)}
            plans = self._turn_plans(avail, cls, actions)
            got = {label: tuple(by_name[n] for n in label.split(" + ")) for label in plans}
            self._legal[(avail, cls, actions)] = got
        return got

    def _fit(self, names: list[str], avail: int, actions: int) -> tuple[int, ...]:
        """Return the sets of the plan ``names`` that are usable and fit the actions, in order."""
        out, budget = [], actions
        for a in [self.sys.attack_named(self.me, x) for x in names]:
            if a not in self.sets:
                raise RulesError(f"{a.name} is not one of {self.me.name}'s attack sets", field="plan")
            i = self.sets.index(a)
            if avail >> i & 1 and self.cost[i] <= budget:
                out.append(i)
                budget -= int(self.cost[i])
        return tuple(out)

    def _choose(self, avail: int, cls: tuple[int, ...], actions: int, given: str | None) -> tuple[int, ...]:
        """Return the sets of the turn played: the label ``given`` (optimal play), the fight's plan
        (its sets that are usable and fit), or the plan the one chooser picks among the legal ones."""
        if given is not None:
            return () if given == NO_ATTACK else self._fit(given.split(" + "), avail, actions)
        if is_sequence_plan(self.plan):
            return self._fit(list(self.plan), avail, actions)
        plans = self._turn_plans(avail, cls, actions)
        custom = self.plan if not (isinstance(self.plan, str) and self.plan not in plans) else None
        label = choose_label(plans, custom)
        if isinstance(label, Dist):
            raise RulesError("a plan function returning a Dist cannot be simulated; return a plan label", field="plan")
        if label is None:
            return ()
        by_name = {s.name: i for i, s in enumerate(self.sets)}
        return tuple(by_name[n] for n in label.split(" + "))

    def _group(self, rounds_: list[Any]) -> int:
        """Return the number of the group of other foes whose rounds are ``rounds_`` (my round
        against each, in the order an area strikes them), with this striker's area reach."""
        sig = (tuple(id(r) for r in rounds_), tuple(self.in_area.tolist()))
        if sig not in self._groups:
            self._groups[sig] = len(self._group_list)
            self._group_list.append((list(rounds_), self.in_area.copy()))
        return self._groups[sig]

    def _mean_on(self, rnd: Any, u: int, cls: tuple[int, ...]) -> float:
        """Return the mean damage of one use of my set ``u`` on the foe of ``rnd`` (my round against
        it) in the state class ``cls``; 0 where the rules refuse the use on that foe."""
        key = (id(rnd), u, cls)
        if key not in self._means:
            try:
                dist = self.sys.damage(self.sets[u], self.me, rnd.foe, self.options, rnd.a._sit(cls))
                self._means[key] = float(dist.mean())
            except RulesError:
                self._means[key] = 0.0
        return self._means[key]

    def _choose_in_group(
        self, avail: int, cls: tuple[int, ...], actions: int, group: int, others: tuple[int, ...]
    ) -> tuple[int, ...]:
        """Return the sets of the damage play's turn in an encounter: the plan of the highest expected
        damage counting every foe it strikes, "an area set's damage to each foe in its area"
        (CLARIFICATIONS.md, Encounters: Targets): each use of an area set adds its mean on each other
        foe in its area (``others``: each foe's state class, -1 where it is down), ties to the first
        listed (:func:`~workbench.turns.best_plan`)."""
        plans = self._turn_plans(avail, cls, actions)
        if not plans:
            return ()
        rounds_, reach = self._group_list[group]
        width = len(_CLASS)
        classes = [others[k * width : (k + 1) * width] for k in range(len(rounds_))]
        by_name = {s.name: i for i, s in enumerate(self.sets)}
        sets_of = {label: tuple(by_name[n] for n in label.split(" + ")) for label in plans}

        def beside(u: int) -> float:  # one use of set u on the other foes in its area: the next living ones
            if not self.area[u]:
                return 0.0
            near = [k for k in range(len(rounds_)) if classes[k][0] >= 0][: int(reach[u]) - 1]
            return sum(self._mean_on(rounds_[k], u, classes[k]) for k in near)

        more = {label: sum(beside(u) for u in sets) for label, sets in sets_of.items()}
        return sets_of[best_plan(plans, more)]

    def _chosen(self, key: tuple[int, ...], avail: int, cls: tuple[int, ...], actions: int) -> tuple[int, ...]:
        """Return :meth:`_choose` of the damage play, memoised by the models' values."""
        got = MEMO.get((self.memo, "round plan", self.plan, key), lambda: self._choose(avail, cls, actions, None))
        return got

    def plan_rows(
        self,
        avail: np.ndarray,
        cls: list[np.ndarray],
        actions: np.ndarray,
        given: np.ndarray,
        labels: list,
        others: tuple[list[Any], list[np.ndarray]] | None = None,
    ) -> np.ndarray:
        """Return the row in :meth:`steps` of each fight's plan (memoised per (usable sets, class,
        actions, given label); ``cls`` the class's columns); ``others``: in an encounter, my rounds against the other foes an area
        set of mine would strike and each one's state class per fight (-1 where it is down): the
        damage play then counts them (:meth:`_choose_in_group`)."""
        n = 3 + len(cls)
        cols = [avail, *cls, actions, given]
        damage_play = self.plan is None
        if others is not None and damage_play and self.area_sets:
            cols += [np.full(avail.size, self._group(others[0])), *others[1]]
        uniq, inverse = distinct_columns(cols, avail.size)
        rows = []
        for k in uniq.tolist():
            key = tuple(int(v) for v in k)
            if key not in self.plan_row:
                a, c, acts, g = key[0], key[1 : n - 2], key[n - 2], key[n - 1]
                label = labels[g] if g >= 0 else None
                if label is None and len(key) > n:  # in an encounter (not memoised across calls)
                    sets = self._choose_in_group(a, c, acts, key[n], key[n + 1 :])
                elif label is None and (self.plan is None or isinstance(self.plan, str)):
                    sets = self._chosen(key, a, c, acts)
                else:
                    sets = self._choose(a, c, acts, label)
                self.plan_row[key] = len(self.plan_list)
                self.plan_list.append(tuple(sets))
                self._steps = None
            rows.append(self.plan_row[key])
        return np.array(rows, dtype=np.int64)[inverse.ravel()]

    def row_of(self, sets: tuple[int, ...]) -> int:
        """Return the row in :meth:`steps` of the plan that uses ``sets`` in order (added if new)."""
        key = ("sets", *sets)
        if key not in self.plan_row:
            self.plan_row[key] = len(self.plan_list)
            self.plan_list.append(tuple(sets))
            self._steps = None
        return self.plan_row[key]

    def steps(self) -> np.ndarray:
        """Return the sets of every plan met, one column per plan and one row per use (-1: none)."""
        if self._steps is None:
            length = max((len(p) for p in self.plan_list), default=0)
            self._steps = np.full((length + 1, max(1, len(self.plan_list))), -1, np.int64)
            for i, p in enumerate(self.plan_list):
                self._steps[: len(p), i] = p
        return self._steps

    @cached_property
    def disarm_order(self) -> np.ndarray:
        """Return the indices of the sets this creature gives up to a Disarm condition, first choice
        first: "The disarmed target chooses one of their attack sets" (the lowest mean damage of one
        use against its foe, a set it cannot use here first; ties: the first listed), and never a set
        with Inherent."""
        return disarm_order(self.sys, self.sets, self.me, self.foe, self.options, self.situation)


class AnnulusRound:
    """The turn of ``me`` attacking ``foe`` (module docstring): the one Annulus round."""

    def __init__(
        self,
        sys: Any,
        me: Any,
        foe: Any,
        options: Any = None,
        situation: Any = None,
        plan: Any = None,
        tactics: Any = None,
        foe_tactics: Any = None,
    ):
        self.sys = sys
        self.options, self.situation = sys.defaults(options, situation)
        #: the attacker's tactics and its foe's (the foe's recovery when it rests, and whether it pays
        #: Blood Price, which decides how its damage is kept)
        self.tactics, self.foe_tactics = tactics or Tactics(), foe_tactics or Tactics()
        self.me, self.foe, self.plan = me, foe, plan
        self.a = _Striker(sys, me, foe, self.options, self.situation, plan, tactics)
        self.b = _Striker(sys, foe, me, self.options, self.situation, None, tactics)
        named = tuple(plan) if is_sequence_plan(plan) else plan
        self.key: tuple[Any, ...] | None = (
            None
            if callable(plan)
            else ("annulus", me, foe, self.options, self.situation, named, self.tactics, self.foe_tactics)
        )
        # pooled: nothing deals the creature vital damage (Vital, its own Blood Price uses) nor heals it
        # (Drain), so its Endurance and Vitality are one pool taken in order ("Endurance is removed
        # first, then Vitality"); both directions of a fight know both tactics, so they agree on it
        self.pooled = (self._pooled(me, foe, self.tactics), self._pooled(foe, me, self.foe_tactics))
        # the target's damage taken is every hit point it has only when its two pools are one
        self.whole_pool = self.pooled[1]
        # a Counter or its own damage may fell the striker, and its foe may fall before the turn's
        # later uses: in a duel the turn reads the damage taken and stops at a fall
        self.falls_mid_turn = True
        self._hp = (self.hit_points(0), self.hit_points(1))
        # whether creature y's being undamaged is ever read: its foe has a First Blood set and the
        # situation leaves the target undamaged at the start
        self._first_blood = tuple(
            bool(self.situation.target_undamaged) and any(s.has("First Blood") for s in other.attack_sets)
            for other in (foe, me)
        )
        self._labels: list[str] = []
        #: in an encounter (:meth:`in_group`): both sides' creatures, and my rounds against my other foes
        self._group: tuple[list[Any], list[Any]] | None = None
        self._others: dict[int, AnnulusRound] = {}
        #: the foes each area strikes when an encounter sets them (:meth:`with_foes_in_area`)
        self._foes_in_area: dict[str, int] | None = None

    def in_group(self, my_foes: list[Any], its_foes: list[Any]) -> AnnulusRound:
        """Return this round with each creature's state kept as all its foes in an encounter need it
        (``my_foes``: the attacker's, ``its_foes``: the target's; workbench/fight/encounter.py): its
        Endurance and Vitality one pool only when none of them deals vital damage, and "wounded"
        kept when any has a First Blood set, so every foe reads the same state the same way."""
        group = copy.copy(self)
        group.pooled = (
            all(self._pooled(self.me, f, self.tactics) for f in my_foes),
            all(self._pooled(self.foe, f, self.foe_tactics) for f in its_foes),
        )
        group.whole_pool = group.pooled[1]
        group._hp = (group.hit_points(0), group.hit_points(1))
        group._first_blood = tuple(
            bool(self.situation.target_undamaged) and any(s.has("First Blood") for f in foes for s in f.attack_sets)
            for foes in (my_foes, its_foes)
        )
        group.key = None if self.key is None else (*self.key, "in a group", tuple(my_foes), tuple(its_foes))
        group._group = (list(my_foes), list(its_foes))
        # in a group a kill leaves foes standing: Killing Spree's "+2 ... the single next use after a
        # kill" can follow (CLARIFICATIONS.md: Encounters, "Killing Spree triggers when the attack
        # kills any of them"), so each striker with the upgrade keeps the kill waiting
        group.a, group.b = copy.copy(self.a), copy.copy(self.b)
        for striker in (group.a, group.b):
            striker.spree_on = bool(striker.spree.any())
        group._others = {}
        return group

    def with_foes_in_area(self, foes_in_area: Any) -> AnnulusRound:
        """Return this round with each area's ``foes_in_area`` (CLARIFICATIONS.md, Encounters: "up to
        default ``foes_in_area``: Arc 3 ..., Burst 3, Line 2"): ``foes_in_area`` maps some of Arc,
        Burst, Line to 1..50 foes, the others keep their default (:data:`FOES_IN_AREA`). RulesError
        naming ``foes_in_area`` for another area or count."""
        if not isinstance(foes_in_area, dict):
            raise RulesError(
                f"must map areas (Arc, Burst, Line) to numbers of foes, not {type(foes_in_area).__name__}",
                field="foes_in_area",
                rule=AREA_RULE,
            )
        for area, n in foes_in_area.items():
            if area not in FOES_IN_AREA:
                raise RulesError(
                    f"has no area {area!r}: the areas are {', '.join(FOES_IN_AREA)}",
                    field="foes_in_area",
                    rule=AREA_RULE,
                )
            if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or not 1 <= int(n) <= 50:
                raise RulesError(f"{area} must strike 1 to 50 foes, not {n!r}", field="foes_in_area", rule=AREA_RULE)
        areas = {**FOES_IN_AREA, **{k: int(v) for k, v in foes_in_area.items()}}
        out = copy.copy(self)
        out.a = copy.copy(self.a)
        out.a.in_area = np.array([areas[s.area] if s.area else 1 for s in self.a.sets] or [1])
        out.key = None if self.key is None else (*self.key, "foes in area", tuple(sorted(areas.items())))
        out._foes_in_area = areas
        return out

    @property
    def has_area(self) -> bool:
        """Return whether I have an area set, which in an encounter with ``allies_in_area`` strikes my
        allies too (workbench/fight/encounter.py)."""
        return bool(self.a.area_sets)

    @property
    def reach(self) -> int:
        """Return the most foes one turn of mine strikes: the most an area set of mine strikes
        (:data:`FOES_IN_AREA`), 1 without one; in an encounter (:meth:`in_group`) each use of the
        turn may strike a foe after the last one's fell (:meth:`_retarget`), so one fewer than that
        plus the most uses a turn makes (its actions, each set that costs none: Gaze, Swansong, and
        its Blood Price uses; or a given list's length)."""
        area = int(self.a.in_area.max())
        if self._group is None:
            return area
        uses = int(self.options.actions) + int((self.a.cost[: len(self.a.sets)] == 0).sum())
        if self.a.blood_sets:
            uses += int(self.tactics.blood_price_uses)
        if is_sequence_plan(self.plan):
            uses = max(uses, len(list(self.plan)))
        return area + max(1, uses) - 1

    def _beside(self, model: Any) -> AnnulusRound:
        """Return my round against ``model``, another foe of the group, kept as the group keeps its
        state (:meth:`in_group`)."""
        got = self._others.get(id(model))
        if got is None:
            rnd = AnnulusRound(
                self.sys, self.me, model, self.options, self.situation, None, self.tactics, self.foe_tactics
            )
            if self._foes_in_area is not None:
                rnd = rnd.with_foes_in_area(self._foes_in_area)
            got = self._others[id(model)] = rnd.in_group(*self._group) if self._group else rnd
        return got

    def group_turn(
        self,
        me: Combatant,
        foes: list[Combatant],
        draw: Draw,
        models: list[Any],
        plan: Any = None,
        allies: int = 0,
        order: FoeOrder | None = None,
    ) -> tuple[Combatant, list[Combatant], np.ndarray]:
        """Return (me, foes, the attacks on each foe: per fight, the uses of mine that struck it) after my
        turn in an encounter (``foes[0]`` my target, then the next living foes by the encounter's
        policy, as many as :attr:`reach`, then ``allies`` living creatures of my own side; ``models``
        their creatures; after :meth:`ready`; ``order``: the policy's order of the foes as the turn
        stands, default the order given): the turn of :meth:`turn` against ``foes[0]``. Once the
        foe struck has fallen, the uses left go to the next living foe by the order as it stands
        then, the damage play's actions left planned again against it (:meth:`_retarget`). An
        area set ("strikes all creatures" in its area) also strikes the next foes up to its
        :data:`FOES_IN_AREA`, "each creature in the area ... rolled for separately" (CLARIFICATIONS.md,
        Encounters): each one a use of the set on that foe, its Counter included, by my round against
        it (:meth:`_beside`). The allies are struck by every area set ("can and will harm the user's
        allies if they are standing in the target area", annulus-attacks.txt; ``allies_in_area``):
        each a use of the set on it with no Counter (one counters "when you are damaged by an enemy",
        annulus-attacks.txt: Counter),
        and the plan is chosen by the damage to the foes alone (CLARIFICATIONS.md: "a plan's damage
        counts every foe it strikes")."""
        extra = [(self._beside(m), f) for m, f in zip(models[1:], foes[1:])]
        n_foes = len(foes) - allies
        order = FoeOrder("given", tuple(range(n_foes))) if order is None else order
        me, foe, extra, struck = self._turn(me, foes[0], draw, plan, extra, allies, order)
        return me, [foe, *(f for _, f in extra)], struck

    @staticmethod
    def _pooled(creature: Any, other: Any, tactics: Tactics) -> bool:
        blood = tactics.blood_price_uses > 0 and any(s.has("Blood Price") for s in creature.attack_sets)
        return (
            not blood
            and not any("Vital" in s.upgrades for s in other.attack_sets)
            and not any("Drain" in s.upgrades for s in creature.attack_sets)
        )

    # ------------------------------------------------------------------ the state
    def _start(self, y: int, foe_passive: bool) -> Combatant:
        creature, striker = (self.me, self.a) if y == 0 else (self.foe, self.b)
        one = np.ones(1, np.int64)
        fields = {n: 0 * one for n in Combatant.names()}
        aware = self.situation.target_awareness or creature.awareness
        fields.update(
            awareness=AWARENESS.index(aware) * one,
            charged=set_mask(striker.area_sets) * one,
            telegraph=-1 * one,
            situation_setup=int(striker.sit_setup_on) * one,
            spree_waits=int(striker.spree_on and bool(self.situation.after_kill)) * one,
            foe_passive=int(foe_passive) * one,
        )
        return Combatant(**fields)

    def start(self, passive: bool = False) -> tuple[Combatant, Combatant]:
        """Return (the attacker's state, the target's state) as a fight starts (``passive``: the
        target neither attacks nor reacts)."""
        return self._start(0, passive), self._start(1, False)

    def hit_points(self, who: int) -> int:
        """Return the damage that fells the attacker (0) or the target (1): its Vitality, or with
        ``pooled`` its Endurance + Vitality."""
        c = self.foe if who else self.me
        return int(c.endurance + c.vitality) if self.pooled[who] else int(c.vitality)

    # ------------------------------------------------------------------ damage
    def _hurt(self, y: int, c: Combatant, regular: np.ndarray, vital: Any = 0) -> Combatant:
        """Return ``c`` (creature y: 0 the attacker, 1 the target) after ``regular`` and ``vital``
        damage: "Endurance is removed first, then Vitality"; vital damage straight to Vitality."""
        creature = self.foe if y else self.me
        regular = np.asarray(regular, dtype=np.int64)
        vital = np.asarray(vital, dtype=np.int64)
        if self.pooled[y]:
            taken = regular + vital
            to_vitality = np.maximum(0, np.minimum(taken, c.damage_taken + taken - creature.endurance))
            lost = c.endurance_lost
        else:
            soak = np.minimum(creature.endurance - c.endurance_lost, regular)
            lost = c.endurance_lost + soak
            taken = to_vitality = regular - soak + vital
        # Swansong: "half or less of your total amount of Vitality" (the level): the damage to the line
        line = self._swan_line(y)
        swan = np.minimum(line, c.swansong_lost + (taken if self.pooled[y] else to_vitality))
        return c.replace(
            damage_taken=c.damage_taken + taken,
            endurance_lost=lost,
            # (read by its foe's First Blood alone: kept only then, else it doubles the keys)
            wounded=c.wounded | (taken > 0 if self.pooled[y] else to_vitality > 0)
            if self._first_blood[y]
            else c.wounded,
            swansong_lost=swan if (self.a if y == 0 else self.b).swan_sets else c.swansong_lost,
        )

    def _playing(self, states: tuple[Columns, ...]) -> np.ndarray:
        """Return, per fight, whether both creatures still stand (annulus-attacks.txt: "If you remove the
        last Vitality from a creature, that creature dies": nothing more strikes or counters in that
        fight, and the striker still takes the damage at its turn's end); always in rounds to kill, whose chain reads no fall inside a
        turn (its attacker never falls, a kill is a kill whatever comes after it in the turn)."""
        me, foe = cast(Combatant, states[0]), cast(Combatant, states[1])
        return (me.foe_passive > 0) | ((me.damage_taken < self._hp[0]) & (foe.damage_taken < self._hp[1]))

    def hp_total(self, who: int) -> int:
        """Return the hit points of the attacker (0) or the target (1): Endurance + Vitality."""
        c = self.foe if who else self.me
        return int(c.endurance + c.vitality)

    def hp_lost(self, who: int, c: Combatant) -> np.ndarray:
        """Return the hit points creature ``who`` has lost in the states ``c``: its damage taken, and
        its Endurance lost where that is a field of its own (not ``pooled``)."""
        return c.damage_taken + (0 if self.pooled[who] else c.endurance_lost)

    def _swan_line(self, y: int) -> int:
        """The damage taken (of the pool) at which creature y's Vitality is half its total or less."""
        c = self.foe if y else self.me
        half = c.level // 2
        if c.vitality <= half:
            return 0
        return int(c.vitality - half + (c.endurance if self.pooled[y] else 0))

    def _undamaged(self, y: int, c: Combatant) -> Any:
        """Return whether each creature y of ``c`` is undamaged (1) or not (0): 0 for every fight,
        one number, where nothing reads it."""
        if not self._first_blood[y]:  # (no First Blood against it: nothing reads it)
            return 0
        return ((c.wounded == 0) & (c.endurance_lost == 0)).astype(np.int64)

    def _classes(self, x: int, att: Combatant, tgt: Combatant) -> np.ndarray:
        """Return the state class (:data:`_CLASS`) of each fight's next use of creature x on its foe,
        one row per fight."""
        cols = self._class_columns(x, att, tgt)
        return np.column_stack([np.broadcast_to(np.asarray(c, dtype=np.int64), (att.size,)) for c in cols])

    def _class_columns(self, x: int, att: Combatant, tgt: Combatant) -> list[Any]:
        """Return the columns of :meth:`_classes`, unstacked, in :data:`_CLASS` order: each an array of
        whole numbers or bools, or one number for every fight."""
        s = self.a if x == 0 else self.b
        setup = tgt.setup | (att.situation_setup if s.sit_setup_on else 0)
        swan = att.swansong_lost >= self._swan_line(x)
        cols = {
            "target_prone": tgt.prone,
            "target_setup": setup,
            "target_blind": tgt.blind > 0,
            "attacker_blind": att.blind > 0,
            "attacker_weakened": att.weakened,
            "target_undamaged": self._undamaged(1 - x, tgt),
            "target_petrified": tgt.petrify > 0,
            "target_awareness": tgt.awareness,
            "reroll_available": att.reroll_used == 0,
            "inside_devourer": att.inside,
            "swansong": np.broadcast_to(swan, (att.size,)),
            # (one value for every fight where nothing reads the part: known without a look)
            "after_kill": att.spree_waits if s.spree_on else 0,
            "blood_price": 0,
        }
        return [cols[n] for n in _CLASS]

    # ------------------------------------------------------------------ one use
    def _use(
        self,
        x: int,
        states: tuple[Columns, ...],
        sets: np.ndarray,
        go: np.ndarray,
        draw: Draw,
        own_turn: bool,
        counter: bool,
        blood_price: bool = False,
    ) -> tuple[Columns, ...]:
        """Return ``states`` (the attacker, the target, then any columns carried along) after creature
        x's use of ``sets`` on its foe where ``go``, the foe's Counter included; ``blood_price``: the
        use is paid with Vitality ("pay the action cost of the attack with Vitality instead")."""
        s, other = (self.a, self.b) if x == 0 else (self.b, self.a)
        att, tgt = (states[0], states[1]) if x == 0 else (states[1], states[0])
        att, tgt = cast(Combatant, att), cast(Combatant, tgt)

        go = go & self._playing(states)
        use = _Use(np.maximum(sets, 0), go.astype(np.int64))
        cls = self._class_columns(x, att, tgt)
        if blood_price:
            cls[_CLASS.index("blood_price")] = 1
        table = s.table(cls, use.sets, go)
        drawn, row = draw.row((att, tgt, use, *states[2:]), table)
        att, tgt, use = cast(Combatant, drawn[0]), cast(Combatant, drawn[1]), cast(_Use, drawn[2])
        rest = drawn[3:]
        g = use.go > 0
        i = use.sets
        dmg = row["damage"]
        standing = tgt.damage_taken < self._hp[1 - x]
        tgt = self._hurt(1 - x, tgt, dmg - row["vitality_damage"], row["vitality_damage"])
        # "The single next attack against a Setuped target ... removes the Setup sting"
        tgt = tgt.replace(setup=np.where(g, 0, tgt.setup))
        changes: dict[str, Any] = {"situation_setup": np.where(g, 0, att.situation_setup)}
        if s.spree_on:  # Killing Spree's +2 "the single next time you use the attack"
            waits = np.where(g & s.spree[i], 0, att.spree_waits)
            if self._group is not None:  # a kill by this use in a group: the next use gets it (above)
                waits = np.where(g & standing & (tgt.damage_taken >= self._hp[1 - x]), 1, waits)
            changes["spree_waits"] = waits
        att = att.replace(**changes)
        if row["self_damage"].any() or row["self_vitality_damage"].any():
            att = self._hurt(x, att, row["self_damage"], row["self_vitality_damage"])
        if row["self_heal"].any():  # Drain: Endurance back, not while Fatigued (never pooled)
            heal = row["self_heal"] * (att.fatigued == 0)
            att = att.replace(endurance_lost=np.maximum(0, att.endurance_lost - heal))
        att = att.replace(
            reroll_used=att.reroll_used | row["rerolled"],
            awareness=np.where(g, ALERT, att.awareness),
            charged=np.where(g & s.area[i], att.charged & ~(1 << i), att.charged),
        )
        tgt = tgt.replace(awareness=np.where(g, ALERT, tgt.awareness))
        # conditions ("If a target with a Burn condition enters water or an airless environment, the
        # condition is automatically removed": in an airless environment it never holds) and stings
        tc: dict[str, Any] = {}
        for trigger, name in (*CONDITIONS.items(), *STINGS.items(), ("setup", "setup")):
            if trigger == "burn" and self.situation.airless:
                continue
            hit = row[trigger] > 0
            if hit.any():
                tc[name] = np.where(hit, 1, getattr(tgt, name))
        until = 2 if own_turn else 1  # "until the end of the blinder's [petrifier's] next turn"
        for trigger in ("blind", "petrify"):
            hit = row[trigger] > 0
            if hit.any():
                tc[trigger] = np.where(hit, until, getattr(tgt, trigger))
        if s.can_devour and row["devour"].any():
            tc["inside"] = tgt.inside | ((row["devour"] > 0) & (att.inside == 0))
        tgt = tgt.replace(**tc)
        if s.has_disarm and row["disarm"].any():
            tgt = self._disarm(other, tgt, row["disarm"] > 0)
        # "deal 2 or more damage ... from the inside ... they can escape"
        att = att.replace(inside=np.where(g & (dmg >= 2), 0, att.inside))
        out_states: tuple[Columns, ...] = (att, tgt) if x == 0 else (tgt, att)
        out_states = (*out_states, *rest)
        if not counter or not other.counters:
            return out_states
        # Counter: once per round, when damaged by an attack on the chosen defense, strike back for free
        c = other.counter_of[s.defense_of[i]]
        ok = (
            g
            & (dmg >= 1)
            & (c >= 0)
            & (tgt.counter_used == 0)
            & (att.inside == 0)
            & (tgt.petrify == 0)
            & (att.foe_passive == 0)
        )
        ok &= self._playing(out_states)
        ok &= np.where(other.area[np.maximum(c, 0)], _has(tgt.charged, np.maximum(c, 0)), True)
        ok &= ~_has(tgt.disarmed, np.maximum(c, 0))
        if not ok.any():
            return out_states
        tgt = tgt.replace(counter_used=np.where(ok, 1, tgt.counter_used))
        out_states = ((att, tgt) if x == 0 else (tgt, att)) + tuple(rest)
        return self._use(1 - x, out_states, c, ok, draw, own_turn=False, counter=False)

    def _disarm(self, s: _Striker, c: Combatant, hit: np.ndarray) -> Combatant:
        """Put a Disarm condition on the first set of ``s.disarm_order`` (the disarmed creature's) not
        yet disarmed where ``hit`` ("A single creature can be under the effect of multiple Disarm
        conditions, so long as each one affects a different attack set"); none left: ignored."""
        order = s.disarm_order
        if not order.size:
            return c
        free = ~_has(c.disarmed[:, None], order[None, :])
        has = free.any(axis=1) & hit
        first = order[np.argmax(free, axis=1)]
        return c.replace(disarmed=np.where(has, c.disarmed | (1 << first), c.disarmed))

    # ------------------------------------------------------------------ parts of a turn
    def _recover(self, y: int, states: tuple[Columns, ...], draw: Draw, tactics: Tactics) -> tuple[Columns, ...]:
        """Return ``states`` (creature y's turn third) after creature y's recovery checks by its
        ``tactics``: 1 action, 4 dice, 3+ successes each, against the first condition of
        ``Tactics.recover_from`` on it."""
        s = self.a if y == 0 else self.b
        names = tactics.recover_from
        if not names:
            return states

        for _ in range(tactics.recovery_actions):
            c, t = cast(Combatant, states[y]), cast(_Turn, states[2])
            on = np.stack([self._condition(c, n) for n in names], axis=1)
            want = (t.free > 0) & (t.left > 0) & on.any(axis=1)
            if not want.any():
                break
            p = np.where(want, s.p_recover, 0.0)
            table = {"ok": np.tile([0, 1], (c.size, 1)), "probability": np.column_stack([1 - p, p])}
            t = t.replace(left=t.left - want)
            drawn, row = draw.row((*states[:2], t, _Check(np.argmax(on, axis=1))), table)
            c, first = cast(Combatant, drawn[y]), cast(_Check, drawn[3]).first
            ok = row["ok"] > 0
            for j, n in enumerate(names):
                hit = ok & (first == j)
                if hit.any():
                    c = self._cure(s, c, n, hit)
            states = ((c, drawn[1]) if y == 0 else (drawn[0], c)) + (drawn[2],)
        return states

    @staticmethod
    def _condition(c: Combatant, name: str) -> np.ndarray:
        return c.disarmed != 0 if name == "disarm" else getattr(c, CONDITIONS[name]) > 0

    def _cure(self, s: _Striker, c: Combatant, name: str, hit: np.ndarray) -> Combatant:
        if name != "disarm":
            return c.replace(**{CONDITIONS[name]: np.where(hit, 0, getattr(c, CONDITIONS[name]))})
        # one Disarm condition per successful check: the set it values most (the last of disarm_order
        # disarmed) comes back
        order = s.disarm_order
        held = _has(c.disarmed[:, None], order[None, :])
        last = order[held.shape[1] - 1 - np.argmax(held[:, ::-1], axis=1)]
        return c.replace(disarmed=np.where(hit & held.any(axis=1), c.disarmed & ~(1 << last), c.disarmed))

    def _dots(self, y: int, states: tuple[Columns, ...], draw: Draw) -> tuple[Columns, ...]:
        """Return ``states`` after the damage at the end of creature y's turn: Burn 2 dice, Choke 1
        die, Sap 1, "ignoring defense ... at the end of each of their turns"."""
        c = cast(Combatant, states[y])
        if not (c.burning.any() or c.choking.any() or c.sapped.any()):
            return states
        p = (self.a if y == 0 else self.b).p
        burn, choke = _binomial(2, p), _binomial(1, p)
        pmf = np.zeros((c.size, 4))
        pmf[:, 0] = 1.0
        for k in range(3):
            pmf[:, k] = np.where(c.burning > 0, burn[k], 1.0 if k == 0 else 0.0)
        pmf = np.where((c.choking > 0)[:, None], pmf * choke[0] + np.pad(pmf[:, :-1], ((0, 0), (1, 0))) * choke[1], pmf)
        table = {"dots": np.tile(np.arange(4), (c.size, 1)) + c.sapped[:, None], "probability": pmf}
        drawn, row = draw.row(states, table)
        c = cast(Combatant, drawn[y])
        c = self._hurt(y, c, row["dots"])
        return (c, drawn[1], *drawn[2:]) if y == 0 else (drawn[0], c, *drawn[2:])

    def _recharge(self, states: tuple[Columns, ...], draw: Draw) -> tuple[Columns, ...]:
        """Return ``states`` after the attacker's uncharged area sets' recharge rolls ("roll a die for
        every uncharged set ... If the result is a 5 or a 6, the set is recharged")."""
        for j in self.a.area_sets:
            me = cast(Combatant, states[0])
            q = np.where(_has(me.charged, j), 1.0, self.a.recharge[j])
            if (q >= 1.0).all():
                continue
            table = {"back": np.tile([0, 1], (me.size, 1)), "probability": np.column_stack([1 - q, q])}
            states, row = draw.row(states, table)
            me = cast(Combatant, states[0])
            states = (me.replace(charged=np.where(row["back"] > 0, me.charged | (1 << j), me.charged)), *states[1:])
        return states

    # ------------------------------------------------------------------ the round
    def _begin(self, c: Combatant, plan_given: np.ndarray) -> tuple[Combatant, _Turn]:
        """Return (the creature, its turn) once the dice before its plan are rolled: the stings laid on
        it read and gone ("Dazed: only 1 action instead of the normal 2"; Pacified and Terrorized make
        no attacks; Berserk and Terrorized make no recovery checks; Petrified "cannot take any actions
        ... at all")."""
        can_act = c.petrify == 0
        t = _Turn(
            plan=np.full(c.size, -1, np.int64),
            pos=np.zeros(c.size, np.int64),
            left=np.where(can_act, np.where(c.dazed > 0, 1, self.options.actions), 0).astype(np.int64),
            given=plan_given,
            attacking=self._attacking(c).astype(np.int64),
            free=(can_act & (c.berserk == 0) & (c.terrorized == 0)).astype(np.int64),
            at=np.zeros(c.size, np.int64),
        )
        zero = 0 * c.dazed
        return c.replace(dazed=zero, pacified=zero, terrorized=zero, berserk=zero), t

    @staticmethod
    def _attacking(c: Combatant) -> np.ndarray:
        return (c.petrify == 0) & (c.pacified == 0) & (c.terrorized == 0)

    def ready(self, me: Combatant, foe: Combatant, draw: Draw) -> tuple[Combatant, Combatant]:
        """Return (me, foe) after what my turn rolls before my plan is chosen: Reroll and Counter
        unused again; my uncharged area sets' recharge rolls; a devoured foe's two dice; the
        Telegraphed set I announced last turn strikes."""
        zero = 0 * me.reroll_used
        tel = _Announced(me.telegraph)
        me = me.replace(reroll_used=zero, counter_used=zero, telegraph=zero - 1)
        states = self._recharge((me, foe, tel), draw)
        # Devour: the devoured foe "takes defense-ignoring damage each round on your turn equal to the
        # successes on two dice"
        inside = cast(Combatant, states[1]).inside
        if inside.any():
            two = _binomial(2, self.a.p)
            pmf = np.where((inside > 0)[:, None], two[None, :], np.array([[1.0, 0.0, 0.0]]))
            k = np.tile(np.arange(3), (inside.size, 1))
            states, row = draw.row(states, {"k": k, "probability": pmf})
            states = (states[0], self._hurt(1, cast(Combatant, states[1]), row["k"]), states[2])
        # Telegraphed: "used at the beginning of your next turn for free before you make any actions"
        me, foe, telegraph = cast(Combatant, states[0]), cast(Combatant, states[1]), cast(_Announced, states[2]).set
        go = (telegraph >= 0) & self._attacking(me) & (foe.inside == 0)
        go &= ~_has(me.disarmed, np.maximum(telegraph, 0))
        if go.any():
            me, foe = cast(Any, self._use(0, (me, foe), telegraph, go, draw, own_turn=True, counter=True))
        return me, foe

    def _usable(self, me: Combatant) -> np.ndarray:
        """Return the sets usable now (set_mask): charged (a set that is not an area set always is)
        and not disarmed."""
        always = set_mask(i for i in range(len(self.a.sets)) if not self.a.area[i])
        return ((me.charged | always) & ~me.disarmed).astype(np.int64)

    def _plans(
        self,
        me: Combatant,
        foe: Combatant,
        t: _Turn,
        rows: np.ndarray,
        labels: list,
        extra: Sequence[tuple[AnnulusRound, Combatant]] = (),
    ) -> np.ndarray:
        """Return each fight's plan (its row in the striker's steps) where ``rows``, else the one it has;
        ``extra``: the other foes an area set of mine strikes in an encounter (:meth:`group_turn`),
        whose damage the choice counts."""
        actions = np.where(t.attacking > 0, t.left, 0)
        others = None
        if extra:
            width = len(_CLASS)
            # each other foe's class once (-1 where it is down), as columns
            classes = [np.where((f.damage_taken < r._hp[1])[:, None], r._classes(0, me, f), -1) for r, f in extra]
            others = ([r for r, _ in extra], [c[:, i] for c in classes for i in range(width)])
        got = self.a.plan_rows(self._usable(me), self._class_columns(0, me, foe), actions, t.given, labels, others)
        return np.where(rows, got, t.plan)

    def turn(self, me: Combatant, foe: Combatant, draw: Draw, plan: Any = None) -> tuple[Combatant, Combatant]:
        """Return (me, foe) after my turn from after its :meth:`ready` (module docstring)."""
        me, foe, _, _ = self._turn(me, foe, draw, plan, [])
        return me, foe

    def _turn(
        self,
        me: Combatant,
        foe: Combatant,
        draw: Draw,
        plan: Any,
        extra: list[tuple[AnnulusRound, Combatant]],
        allies: int = 0,
        order: FoeOrder | None = None,
    ) -> tuple[Combatant, Combatant, list[tuple[AnnulusRound, Combatant]], np.ndarray]:
        """Return (me, foe, ``extra``, the uses made on each foe) after my turn (:meth:`turn`);
        ``extra``: in an encounter the other foes of the turn, then ``allies`` creatures of my side,
        each with my round against it (:meth:`group_turn`; ``order``: the policy's order of the foes);
        the uses made: per fight, how many of my uses struck each of (foe, the other foes) while it
        stood, each an attack (spread targeting)."""
        n_foes = len(extra) - allies
        if plan is None or isinstance(plan, str):
            labels = [] if plan is None else [plan]
            given = np.full(me.size, 0 if labels else -1, np.int64)
        else:
            labels = list(dict.fromkeys(np.asarray(plan).tolist()))
            given = np.array([labels.index(v) for v in np.asarray(plan).tolist()], dtype=np.int64)
        me, t = self._begin(me, given)
        # the turn's creatures: the foe struck first, then in an encounter the next living foes by the
        # policy and the allies in my areas, each with my round against it; those a call does not
        # take, and what the turn counts, are carried through its draws (Carrying)
        rounds = [self, *(r for r, _ in extra)]
        every = [foe, *(f for _, f in extra)]
        draw = carrying = Carrying(draw)

        def beside(k: int) -> list[tuple[AnnulusRound, Combatant]]:  # the foes after foe k
            return list(zip(rounds[k + 1 : 1 + n_foes], every[k + 1 : 1 + n_foes]))

        # recovery checks
        with carrying.holding(*every[1:]) as held:
            me, foe, t = cast(Any, self._recover(0, (me, foe, t), draw, self.tactics))
        every = [foe, *held]
        # the plan of the state class, use by use; ``t.at``: the foe struck now
        t = t.replace(plan=self._plans(me, foe, t, (t.attacking > 0) & (foe.inside == 0), labels, beside(0)))
        struck = np.zeros((me.size, 1 + n_foes), dtype=np.int64)
        while True:
            foes = every[: 1 + n_foes]
            if n_foes:
                t = self._retarget(me, foes, rounds[: 1 + n_foes], t, labels, cast(FoeOrder, order), struck)
            s = self._next_sets(rounds[: 1 + n_foes], t)
            # Disarm during a turn (CLARIFICATIONS.md, Annulus): a set disarmed while the turn is under way
            # (by the foe's Counter) "cannot be used for the rest of that turn either": the actions left go
            # to the best plan still legal with them, if any
            blocked = (s >= 0) & _has(me.disarmed, np.maximum(s, 0))
            if blocked.any():
                for k in range(1 + n_foes):
                    rows = blocked & (t.at == k)
                    if rows.any():
                        t = t.replace(plan=rounds[k]._plans(me, foes[k], t, rows, labels, beside(k)))
                t = t.replace(pos=np.where(blocked, 0, t.pos))
                s = np.where(blocked, -1, s)
            elif not (s >= 0).any():
                break
            on = s >= 0
            t = t.replace(pos=t.pos + on, left=t.left - np.where(on, self.a.cost[np.maximum(s, 0)], 0))
            inside = np.choose(t.at, [f.inside for f in foes])
            live = on & (me.petrify == 0) & (inside == 0)
            tele = live & self.a.telegraphed[np.maximum(s, 0)]
            if tele.any():  # announced now, strikes at the start of the next turn
                me = me.replace(telegraph=np.where(tele, s, me.telegraph))
            go = live & ~tele
            if not go.any():
                continue
            for k in range(1 + n_foes):  # each fight's use on the foe it strikes now
                here = go & (t.at == k)
                if not here.any():
                    continue
                struck[:, k] += here & rounds[k]._playing((me, foes[k]))
                use = partial(rounds[k]._use, 0, sets=s, go=here, draw=draw, own_turn=True, counter=True)
                me, t, every, kept = self._use_among(draw, me, t, every, k, [go, s, struck], use)
                go, s, struck = kept[:, 0] > 0, kept[:, 1], kept[:, 2:]
                foes = every[: 1 + n_foes]
            area = go & self.a.area[np.maximum(s, 0)]
            if len(every) > 1 and area.any():
                me, t, every, struck = self._area(me, t, every, rounds, s, area, draw, allies, struck, order)
        me, t, every, struck = self._blood_price(me, t, every, rounds[: 1 + n_foes], draw, struck, order)
        # the turn's end: the damage of my conditions, then the timers I laid on the foe run down
        with carrying.holding(*every[1:], _Along(struck)) as held:
            me, foe = cast(tuple[Combatant, Combatant], self._dots(0, (me, every[0]), draw))
        *others, along = held
        struck = along.values
        # what no later turn reads: Counter used (reset before it can counter again), the foe's Reroll
        # (reset at its turn), mine unless I counter before my next turn
        me = me.replace(counter_used=0 * me.counter_used, reroll_used=me.reroll_used * int(self.a.counters))
        foe = foe.replace(
            blind=np.maximum(0, foe.blind - 1),
            petrify=np.maximum(0, foe.petrify - 1),
            counter_used=0 * foe.counter_used,
            reroll_used=0 * foe.reroll_used,
        )
        others = [
            f.replace(
                blind=np.maximum(0, f.blind - 1), petrify=np.maximum(0, f.petrify - 1), counter_used=0 * f.counter_used
            )
            for f in others
        ]
        return me, foe, list(zip(rounds[1:], others)), struck

    @staticmethod
    def _use_among(
        draw: Draw,
        me: Combatant,
        t: _Turn,
        every: list[Combatant],
        k: int,
        kept: list[np.ndarray],
        use: Callable[[tuple[Columns, ...]], tuple[Columns, ...]],
    ) -> tuple[Combatant, _Turn, list[Combatant], np.ndarray]:
        """Return (me, t, ``every``, ``kept`` as columns of one array) after ``use`` of mine on creature
        k of ``every`` (the turn's foes, then allies; ``use`` takes and returns (me, it, t)): the other
        creatures and ``kept`` (per fight, what the turn counts) carried through the use's draws, so
        that an enumerating draw expands them with the fights they belong to."""
        with cast(Carrying, draw).holding(*every[:k], *every[k + 1 :], _Along(np.column_stack(kept))) as held:
            me, it, t = cast(tuple[Combatant, Combatant, _Turn], use((me, every[k], t)))
        *others, along = held
        return me, t, [*others[:k], it, *others[k:]], along.values

    @staticmethod
    def _next_sets(rounds: list[AnnulusRound], t: _Turn) -> np.ndarray:
        """Return each fight's next use (a set, -1: none): the use ``t.pos`` of its plan ``t.plan``,
        a row of the plans of my round against the foe struck now (``t.at``)."""
        s = np.full(t.size, -1, np.int64)
        for k, r in enumerate(rounds):
            rows = (t.at == k) & (t.plan >= 0)
            if rows.any():
                steps = r.a.steps()
                got = steps[np.minimum(t.pos, steps.shape[0] - 1), np.clip(t.plan, 0, steps.shape[1] - 1)]
                s = np.where(rows, got, s)
        return s

    @staticmethod
    def _standing(rounds: list[AnnulusRound], foes: list[Combatant]) -> np.ndarray:
        """Return (fights, foes): whether each foe of the turn still stands (my round against it reads
        its hit points)."""
        return np.stack([f.damage_taken < r._hp[1] for r, f in zip(rounds, foes)], axis=1)

    @staticmethod
    def _left(rounds: list[AnnulusRound], foes: list[Combatant]) -> np.ndarray:
        """Return (fights, foes): each foe's hit points left now (Endurance + Vitality: "the fewest
        hit points left", CLARIFICATIONS.md, Encounters: Targets)."""
        return np.stack([r.hp_total(1) - r.hp_lost(1, f) for r, f in zip(rounds, foes)], axis=1)

    def _retarget(
        self,
        me: Combatant,
        foes: list[Combatant],
        rounds: list[AnnulusRound],
        t: _Turn,
        labels: list,
        order: FoeOrder,
        struck: np.ndarray,
    ) -> _Turn:
        """Return the turn ``t`` where the foe it strikes has fallen with uses of its plan left: "the
        remaining attacks of the action under way go to the next living foe by the same policy, and
        the turn's remaining actions are planned again against that foe" (CLARIFICATIONS.md,
        Encounters; ``order``: the policy read as the turn stands, the attacks it made so far
        ``struck``). The damage play plans the actions left again against it (:meth:`_plans`, with
        the area sets' damage to the living foes next in the order); a plan given (a label, a list, a
        function) keeps its uses left."""
        n = t.size
        up = self._standing(rounds, foes)
        left = self._next_sets(rounds, t) >= 0
        # (rounds-to-kill's attacker never falls: its foes are passive)
        standing = (me.foe_passive > 0) | (me.damage_taken < self._hp[0])
        move = ~up[np.arange(n), t.at] & left & up.any(axis=1) & standing
        if not move.any():
            return t
        left_hp = self._left(rounds, foes)
        to = order.first(up, left_hp, struck)
        keep = move & ((t.given >= 0) | (self.plan is not None))
        plan = t.plan.copy()
        if keep.any():  # the uses left of each given plan, as a plan of my round against the new foe
            combos, inverse = np.unique(np.stack([t.at, t.plan, t.pos, to], axis=1)[keep], axis=0, return_inverse=True)
            rows = np.flatnonzero(keep)
            for c, (old, row, pos, new) in enumerate(combos.tolist()):
                sets = rounds[old].a.plan_list[row][pos:]
                plan[rows[inverse.ravel() == c]] = rounds[new].a.row_of(tuple(sets))
        t = t.replace(at=np.where(move, to, t.at), plan=plan, pos=np.where(move, 0, t.pos))
        again = move & ~keep
        if again.any():  # (the others in the order as it stands, after the new foe: one plan call per order met)
            ranked = order.ranked(up, left_hp, struck)
            ranked = np.column_stack([to, np.where(ranked == to[:, None], -1, ranked)])
            orders, inverse = distinct_rows(ranked[again])
            rows_of = np.flatnonzero(again)
            for g, (k, *rest) in enumerate(orders.tolist()):
                rows = np.zeros(n, dtype=bool)
                rows[rows_of[inverse.ravel() == g]] = True
                beside = [(rounds[x], foes[x]) for x in rest if x >= 0]
                t = t.replace(plan=rounds[k]._plans(me, foes[k], t, rows, labels, beside))
        return t

    def _area(
        self,
        me: Combatant,
        t: _Turn,
        every: list[Combatant],
        rounds: list[AnnulusRound],
        sets: np.ndarray,
        area: np.ndarray,
        draw: Draw,
        allies: int,
        struck: np.ndarray,
        order: FoeOrder | None,
    ) -> tuple[Combatant, _Turn, list[Combatant], np.ndarray]:
        """Return (me, t, ``every``, ``struck``) after the area set ``sets`` used where ``area`` also
        strikes the next living foes by the policy's ``order`` as the turn stands (``every``: the
        turn's foes, then ``allies`` creatures of my side, ``rounds`` my round against each) in its
        area, up to its :data:`FOES_IN_AREA` (the foe struck now, ``t.at``, is the first; a foe fallen
        this turn takes no place), and the allies: each a use of the set on that creature by my round
        against it, where it still stands (an ally with no Counter); ``struck`` counts the uses on
        foes (spread targeting)."""
        reach = self.a.in_area[np.maximum(sets, 0)]
        foes = len(every) - 1 - allies
        # the foes in the area: the next living ones by the policy as things stand ("its target and
        # the next living foes by the same policy"), as many as its reach less the one struck now
        order = FoeOrder("given", tuple(range(1 + foes))) if order is None else order
        up = self._standing(rounds[: 1 + foes], every[: 1 + foes])
        places = order.places(up, self._left(rounds[: 1 + foes], every[: 1 + foes]), struck, t.at)
        near = places < (reach[:, None] - 1)
        strike = np.column_stack([area[:, None] & near[:, 1:], np.repeat(area[:, None], allies, axis=1)])
        width = strike.shape[1]
        for k in range(1, len(every)):
            go = strike[:, k - 1]
            if not go.any():
                continue
            if k <= foes:
                struck[:, k] += go & rounds[k]._playing((me, every[k]))
            use = partial(rounds[k]._use, 0, sets=sets, go=go, draw=draw, own_turn=True, counter=k <= foes)
            me, t, every, kept = self._use_among(draw, me, t, every, k, [strike, sets, struck], use)
            strike, sets, struck = kept[:, :width] > 0, kept[:, width], kept[:, width + 1 :]
        return me, t, every, struck

    def _blood_price(
        self,
        me: Combatant,
        t: _Turn,
        every: list[Combatant],
        rounds: list[AnnulusRound],
        draw: Draw,
        struck: np.ndarray,
        order: FoeOrder | None = None,
    ) -> tuple[Combatant, _Turn, list[Combatant], np.ndarray]:
        """Return (me, t, ``every``, ``struck``) after my Blood Price uses (``Tactics.blood_price_uses``,
        after my plan): each a use of my first Blood Price set paid with Vitality ("There is no limit
        to how many times you may use an attack each round in this manner"), made while the Vitality
        left exceeds the price (its action cost, at least 1), the set usable (charged, not disarmed)
        and me attacking this turn (not Petrified, Pacified nor Terrorized; my foe not inside me). My
        Vitality is then a field of its own (not ``pooled``). Each strikes the foe struck now, or, in
        an encounter once it has fallen, the next living foe of the turn by the policy's ``order`` as
        it stands (``every``, ``rounds``: the turn's foes and my round against each), as the plan's
        uses do ("the remaining attacks ... go to the next living foe", CLARIFICATIONS.md,
        Encounters); ``struck`` counts them."""
        order = FoeOrder("given", tuple(range(len(rounds)))) if order is None else order
        for _ in range(self.tactics.blood_price_uses if self.a.blood_sets else 0):
            up = self._standing(rounds, every[: len(rounds)])
            here = up[np.arange(t.size), t.at] | ~up.any(axis=1)
            nxt = order.first(up, self._left(rounds, every[: len(rounds)]), struck)
            t = t.replace(at=np.where(here, t.at, nxt))
            went = np.zeros(t.size, dtype=bool)
            for k, r in enumerate(rounds):
                go = (t.at == k) & r._blood_ready(me, every[k], t)
                if not go.any():
                    continue
                b = np.full(t.size, r.a.blood_sets[0], np.int64)
                use = partial(r._use, 0, sets=b, go=go, draw=draw, own_turn=True, counter=True, blood_price=True)
                me, t, every, kept = self._use_among(draw, me, t, every, k, [went | go, go, struck], use)
                went, struck = kept[:, 0] > 0, kept[:, 2:]
                struck[:, k] += kept[:, 1]
            if not went.any():
                break
        return me, t, every, struck

    def _blood_ready(self, me: Combatant, foe: Combatant, t: _Turn) -> np.ndarray:
        """Return where I can make a Blood Price use on ``foe`` now (:meth:`_blood_price`)."""
        s = self.a
        b = s.blood_sets[0]
        price = max(1, int(s.cost[b]))
        go = (t.attacking > 0) & (self.me.vitality - me.damage_taken > price) & (foe.inside == 0)
        go &= ~_has(me.disarmed, b) & (_has(me.charged, b) if s.area[b] else True)
        return go & self._playing((me, foe))

    def rest(self, me: Combatant, foe: Combatant, draw: Draw) -> tuple[Combatant, Combatant]:
        """Return (me, foe) after the foe's turn when it does not attack (rounds to kill's target):
        its stings read and gone, its recovery checks by its tactics, the damage of its conditions at
        its turn's end, and the timers it laid on ``me`` run down. What only its own attacks read is
        dropped (a creature that never attacks never reads it), unless its tactics recover from it."""
        c, t = self._begin(foe, np.full(foe.size, -1, np.int64))
        states = self._recover(1, (me, c, t), draw, self.foe_tactics)[:2]
        me, c = cast(tuple[Combatant, Combatant], self._dots(1, states, draw))
        me = me.replace(blind=np.maximum(0, me.blind - 1), petrify=np.maximum(0, me.petrify - 1))
        zero = 0 * c.charged
        kept = self.foe_tactics.recover_from
        c = c.replace(
            charged=zero,
            telegraph=zero - 1,
            reroll_used=zero,
            counter_used=zero,
            situation_setup=zero,
            spree_waits=zero,
            fatigued=c.fatigued if "fatigue" in kept else zero,
            weakened=c.weakened if "weaken" in kept else zero,
            disarmed=c.disarmed if "disarm" in kept else zero,
        )
        return me, c

    def plans(self, me: Combatant, foe: Combatant) -> list[str]:
        """Return the plans legal in the one state given, in the order ties go by."""
        _, t = self._begin(me, np.full(1, -1, np.int64))
        if not (t.attacking[0] and foe.inside[0] == 0) or not self.a.sets:
            return [NO_ATTACK]
        cls = tuple(int(v) for v in self._classes(0, me, foe)[0])
        legal = self.a.legal(int(self._usable(me)[0]), cls, int(t.left[0]))
        return list(legal) or [NO_ATTACK]

    def describe(self, me: Combatant, foe: Combatant) -> dict[str, Any]:
        """Return the parts of the one state given a reader needs: the target's conditions,
        awareness and the rest of its state that is set."""
        conditions = [_SHOWN[f] for f in CONDITIONS.values() if int(getattr(foe, f)[0])]
        named: dict[str, Any] = {}
        if not self.pooled[1]:
            named["endurance_left"] = int(self.foe.endurance - foe.endurance_lost[0])
        named["conditions"] = ", ".join(conditions)
        named["awareness"] = AWARENESS[int(foe.awareness[0])]
        shown = ("setup", "blind", "petrify", "inside")
        rest = [f"{n}={int(getattr(foe, n)[0])}" for n in shown if int(getattr(foe, n)[0])]
        if self.a.area_sets:
            named["area_sets_charged"] = ", ".join(
                self.a.sets[i].name for i in self.a.area_sets if _has(me.charged[0], i)
            )
        named["state"] = ", ".join(rest)
        return named
