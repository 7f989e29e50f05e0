"""The Glass Empires round, described once (issue 33): one side's turn over named state, every random
value from a :class:`~workbench.fight.draw.Draw`. The fight's interpreters derive from it the exact
chain of rounds-to-kill, optimal play's planned chain and the simulation (workbench/fight/); this
module is the only place the Glass Empires fight is enacted.

The state of each creature (:class:`Combatant`): the damage it has taken, its armor points left, whether
its weapon is jammed, whether its Ray Shield is up.

- CLARIFICATIONS.md, Glass Empires: "Armor points absorb physical damage before HP, 1 AP per 2 damage
  or fraction"; they stay spent from turn to turn. The "or fraction" rounding is per Strike, so armor
  is not a pool damage spills through in order: with 1 AP a 1-damage Strike is absorbed and spends
  the AP, where a pool of 2 damage would absorb two (resolve.py plays Strike by Strike).
- A weapon that jams on a Fumble ("a windgun or Reload weapon jams") is cleared by the turn's next
  action; only a jam on the turn's last Attack carries and costs the next turn's first Attack
  (CLARIFICATIONS.md, "Jams"; the ``jam`` column of resolve.py). With one Attack a turn the turn's
  other instant action clears it, so the jam is state only with two Attacks a turn.
- A Ray Shield, once broken, stays broken for the rest of the fight (shared/data, Moon Rabbit
  Operator: the gem "instantly shatters, destroying the item").

One turn: the outcome table of the attacker's plan against the target's state (armor points left,
Ray Shield up) with the attacker's jam (fewer Attacks) is drawn, and its row applied: damage to the
target, its armor points spent, its shield broken, the attacker's jam. The damage play chooses per
state the plan of highest expected HP damage, then armor points removed, then a shield broken.
"""

from __future__ import annotations

import dataclasses
from itertools import product
from typing import Any, cast

import numpy as np
import polars as pl

from ...columns import Columns, Grouped, distinct_rows, fights_of, row_groups, stacked
from ...dist import Dist
from ...errors import RulesError
from ...fight.draw import Draw
from ...memo import MEMO, hashed
from ...plans import choose_label, dist_table, is_sequence_plan

__all__ = [
    "AttackStep",
    "GivenAttackStep",
    "Combatant",
    "GlassEmpiresRound",
    "StepCombatant",
    "state_effects",
    "duel_couplings",
    "ONE_SIDED",
    "shield_up_at_start",
]

#: the columns of a turn table a round applies
_COLUMNS = ("damage", "ap_damage", "jam", "shield_breaks")


@dataclasses.dataclass(frozen=True)
class PlanOutcome:
    """One plan's turn against one (armor points, shield) state: ``table``, its outcomes with the
    probability summed per distinct (damage, AP damage, jam, shield breaks), sorted (what the turn
    draws), and ``score``, (expected HP damage, expected AP removed, P(the Ray Shield breaks)): the
    damage play's order of plans."""

    table: dict[str, np.ndarray]
    score: tuple[float, float, float]

    @classmethod
    def many(cls, frame: pl.DataFrame, n: int) -> list[PlanOutcome]:
        """Return the outcome of each matchup 0..n-1 of a :func:`resolve` frame: its probability summed
        per distinct (damage, AP damage, jam, shield breaks) row, sorted, and its score, every
        matchup's grouped and scored in one polars group-by each (not one per matchup)."""
        cols = list(_COLUMNS)
        g = frame.group_by(["matchup", *cols]).agg(pl.col("probability").sum()).sort(["matchup", *cols])
        scored = ("damage", "ap_damage", "shield_breaks")
        s = frame.group_by("matchup").agg([(pl.col(c) * pl.col("probability")).sum() for c in scored]).sort("matchup")
        arrays = {c: g[c].to_numpy() for c in (*cols, "probability")}
        for column in arrays.values():  # shared through the memo by every matchup that resolves alike
            column.setflags(write=False)
        bounds = np.searchsorted(g["matchup"].to_numpy(), np.arange(n + 1)).tolist()
        scores = np.column_stack([s[c].to_numpy() for c in scored]).tolist()
        return [
            cls({c: v[a:b] for c, v in arrays.items()}, cast("tuple[float, float, float]", tuple(score)))
            for a, b, score in zip(bounds[:-1], bounds[1:], scores)
        ]


@dataclasses.dataclass
class Combatant(Columns):
    """Glass Empires creatures in a batch of fights: ``damage_taken`` (HP lost), ``armor_points``
    (left), ``jammed`` (its weapon, 0/1) and ``shield_up`` (its Ray Shield, 0/1)."""

    damage_taken: np.ndarray
    armor_points: np.ndarray
    jammed: np.ndarray
    shield_up: np.ndarray


def shield_up_at_start(creature: Any, situation: Any) -> bool:
    """Return whether ``creature`` starts a fight behind an up Ray Shield: it has one
    (``ray_shield_breaks_at``) and ``situation.target_shield_up`` (True by default)."""
    return bool(creature.ray_shield_breaks_at) and bool(situation.target_shield_up)


class GlassEmpiresRound:
    """The turn of ``me`` attacking ``foe`` (module docstring): the one Glass Empires round."""

    def __init__(self, sys: Any, me: Any, foe: Any, options: Any, situation: Any, plan: Any = None):
        self.sys = sys  # the GlassEmpires rule system (its models, resolution and action economy)
        self.me, self.foe, self.plan = me, foe, plan
        self.options = self.sys.options_of(options)
        self.situation = situation if situation is not None else self.sys.Situation()
        self.attacks = self.sys.attacks_per_turn(me, self.options)
        self.jam_matters = self.attacks > 1
        # the tables are a function of the models, options, situation and plan alone: memoised under
        # those (a plan function is not: its tables are built per round)
        named = tuple(plan) if is_sequence_plan(plan) else plan
        self.key = None if callable(plan) else hashed(("glass_empires", me, foe, self.options, self.situation, named))
        self._tables: dict[tuple, dict[str, PlanOutcome]] = {}
        #: the turn table played from a state key: the damage play's (plan None) or a plan's
        self._turns: dict[tuple[tuple, str | None], dict[str, np.ndarray]] = {}
        #: the rounds whose fights a batch of this round holds, read by each row's ``fight``: this
        #: round alone, or the rounds of a :meth:`stack`
        self.members: tuple[GlassEmpiresRound, ...] = (self,)
        #: the weapons a given plan is made of, when the damage play over them stands for it (an
        #: encounter's Attack by Attack, :meth:`steps`); None: the creature's weapons
        self.only: tuple[Any, ...] | None = None

    @classmethod
    def stack(cls, rounds: list[GlassEmpiresRound]) -> GlassEmpiresRound:
        """Return one round over the fights of ``rounds``: each row of a batch plays the round its
        ``fight`` names (:func:`~workbench.columns.fights_of`), so a level of many fights is
        enumerated in one call of :meth:`turn` (workbench/fight/chain.py) and their missing plan
        tables resolved together (:func:`_plan_tables_all`). Only :meth:`turn` is played on it."""
        out = cls.__new__(cls)
        out.members, out.key = tuple(rounds), None
        return out

    # ------------------------------------------------------------------ in a group (optional hooks)
    @property
    def refunds(self) -> bool:
        """Return whether a kill by this turn refunds its action in a group (CLARIFICATIONS.md,
        Encounters: "a Strike that kills ends its Attack (its remaining Strikes are lost) and refunds
        the Attack's action, which makes a new Attack on the next living foe by the same policy in the
        same turn; a kill by that Attack refunds again"; the option ``kill_refunds_action``): for a turn
        of one Attack, whose outcome table is that Attack's (the Strikes after the kill only ever hurt
        the fallen). A turn of two Attacks is played an Attack at a time in a group (:meth:`steps`)."""
        return self.attacks == 1 and bool(self.options.kill_refunds_action)

    def steps(self, refund: bool = True) -> list[GlassEmpiresRound]:
        """Return the turn as rounds of one Attack each, played in order by an encounter (a kill
        refunds the Attack under way, not the whole turn): for a turn of two Attacks when kills refund
        (``refund``: the encounter's option), the damage play's (:class:`AttackStep`) or a given
        plan's, a list or a label (:class:`GivenAttackStep`, :meth:`given`); else the turn whole (a
        plan function)."""
        if self.attacks == 1 or not (refund and self.options.kill_refunds_action):
            return [self]
        if self.plan is None:
            return [AttackStep(self, k) for k in range(self.attacks)]
        given = self.given()
        if given is None:
            return [self]
        over = GlassEmpiresRound(self.sys, self.me, self.foe, self.options, self.situation, None)
        over.only = tuple(dict.fromkeys(given))
        over.key = None if self.key is None else hashed((self.key, "given"))
        order = [over.only.index(w) for w in given]
        return [GivenAttackStep(over, k, order) for k in range(self.attacks)]

    def given(self) -> list[Any] | None:
        """Return the weapons of a given plan, Attack by Attack: a list (an encounter's (creature,
        attack), compare's attack rows, the build's attack, ``plan=[...]``), or a label naming my
        weapons ("Bite + Claw"); None for no plan or a plan function."""
        if is_sequence_plan(self.plan):
            return list(self.plan)
        if isinstance(self.plan, str):
            mine = {w.name: w for w in self.sys.attacks_of(self.me)}
            names = [n.strip() for n in self.plan.split(" + ")]
            if names and all(n in mine for n in names):
                return [mine[n] for n in names]
        return None

    @property
    def weapons(self) -> list[Any]:
        """Return the weapons my plans are made of: the creature's, or a given plan's (:meth:`given`,
        each once)."""
        return list(self.sys.attacks_of(self.me)) if self.only is None else list(self.only)

    # ------------------------------------------------------------------ the state
    def _combatant(self, creature: Any) -> Combatant:
        one = np.ones(1, np.int64)
        return Combatant(
            damage_taken=0 * one,
            armor_points=int(self.sys.armor_points(creature, self.options)) * one,
            jammed=0 * one,
            shield_up=int(shield_up_at_start(creature, self.situation)) * one,
        )

    def start(self, passive: bool = False) -> tuple[Combatant, Combatant]:
        """Return (the attacker's state, the target's state) as a fight starts: no damage, every
        armor point (Armor x Power), no jam, the Ray Shield up if it has one."""
        return self._combatant(self.me), self._combatant(self.foe)

    def hit_points(self, who: int) -> int:
        """Return the HP of the attacker (0) or the target (1): 4 x Power."""
        return int(self.sys.hit_points(self.foe if who else self.me))

    # ------------------------------------------------------------------ the turn tables
    def _candidates(self, attacks: int) -> dict[str, list[Any]]:
        """Return the plans a turn of ``attacks`` Attacks chooses from (label -> its weapons): every
        sequence of my weapons up to ``attacks`` long; a given list, its first ``attacks`` (a turn
        that starts jammed spends its first Attack clearing the jam: "only a jam on the turn's last
        action carries into the next turn and costs its first action", CLARIFICATIONS.md, Glass
        Empires); with :attr:`only`, every sequence of the given plan's weapons."""
        if is_sequence_plan(self.plan):
            return {"plan": list(self.plan)[:attacks]}
        weapons = self.weapons
        return {
            " + ".join(w.name for w in c): list(c) for k in range(1, attacks + 1) for c in product(weapons, repeat=k)
        }

    def plan_tables(self, keys: list[tuple[int, ...]]) -> list[dict[str, PlanOutcome]]:
        """Return, per (armor points left, jammed, shield up), the outcome of every plan legal there
        (label -> :class:`PlanOutcome`; a jam costs an Attack, and a plan out of reach is left out),
        built by :func:`_plan_tables_all`."""
        got = _plan_tables_all([(self, keys)])[0]
        if isinstance(got, RulesError):
            raise got.with_traceback(None)
        return got

    def _missing(self, keys: list[tuple[int, ...]]) -> dict[int, list[tuple[int, ...]]]:
        """Return the keys of ``keys`` whose plan tables are not built yet, with the states at or
        below them, by the Attacks a turn from them has left: armor points only go down and a broken
        Ray Shield stays broken, so a fight that meets a state meets only states at or below it
        (built in the same resolve calls). Tables kept in the memo are read first."""
        missing = [k for k in dict.fromkeys(keys) if k not in self._tables]
        if missing and self.key is not None:
            for k in missing:
                got = MEMO.lookup((self.key, "plans", k))
                if got is not None:
                    self._tables[k] = cast(dict[str, PlanOutcome], got)
            missing = [k for k in missing if k not in self._tables]
        if missing:
            below = {
                (ap, jam, up)
                for top_ap, _, top_up in missing
                for ap in range(top_ap + 1)
                for jam in ((0, 1) if self.jam_matters else (0,))
                for up in range(top_up + 1)
            }
            missing = sorted(k for k in below if k not in self._tables)
        groups: dict[int, list[tuple[int, ...]]] = {}
        for key in missing:
            groups.setdefault(max(1, self.attacks - (1 if key[1] else 0)), []).append(key)
        return groups

    def _chosen(self, tables: dict[str, PlanOutcome]) -> dict[str, np.ndarray]:
        """Return the table of the plan this side plays among ``tables`` (label -> its outcome):
        the highest expected HP damage, then the most armor points removed, then the likeliest to
        break a Ray Shield; or the given plan."""
        if not tables:
            return {**{c: np.zeros(1, np.int64) for c in _COLUMNS}, "probability": np.ones(1)}
        if self.plan is None or is_sequence_plan(self.plan):
            label = max(tables, key=lambda k: tables[k].score)
        else:
            dists = {k: Dist.from_outcomes(t.table["damage"], t.table["probability"]) for k, t in tables.items()}
            chosen = choose_label(dists, self.plan)
            if isinstance(chosen, Dist):
                return dist_table(chosen, ap_damage=0, jam=False, shield_breaks=0)
            assert chosen is not None  # None only when there is no plan, and tables is not empty
            label = chosen
        return tables[label].table

    def _table(self, keys: np.ndarray, plan: Any) -> Grouped:
        """Return the turn table of every row of ``keys`` ((n, 4): the row's round among
        :attr:`members`, its foe's armor points left, its jam, its foe's shield up) as (n, R) arrays,
        padded with probability 0: the damage play's plan, or ``plan`` (one label, or one per row).
        The plan tables no member has yet are built in one :func:`_plan_tables_all` call."""
        groups, inverse = row_groups(keys, plan)
        missing: dict[int, list[tuple[int, ...]]] = {}
        for (f, *k), label in groups:
            if (tuple(k), label) not in self.members[f]._turns:
                missing.setdefault(f, []).append(tuple(k))
        for got in _plan_tables_all([(self.members[f], k) for f, k in missing.items()]):
            if isinstance(got, RulesError):
                raise got.with_traceback(None)
        tables = []
        for (f, *k), label in groups:
            member, at = self.members[f], (tuple(k), label)
            if at not in member._turns:
                plans = member._tables[at[0]]
                member._turns[at] = member._chosen(plans) if label is None else plans[label].table
            tables.append(member._turns[at])
        return stacked(tables, inverse, _COLUMNS)

    # ------------------------------------------------------------------ the round
    def turn(self, me: Combatant, foe: Combatant, draw: Draw, plan: Any = None) -> tuple[Combatant, Combatant]:
        """Return (me, foe) after my turn: one row of my turn table drawn against the foe's armor
        points and Ray Shield, with my jam; the foe takes its damage to HP, loses the armor points
        it spent ("1 AP per 2 damage or fraction", never below 0), and a broken Ray Shield stays
        broken; my weapon ends the turn jammed when the row's last Attack jammed (two Attacks a
        turn only: with one, the turn's other action clears it). Each row plays its own round of
        :attr:`members` (its ``fight``)."""
        keys = np.stack([fights_of(me), foe.armor_points, me.jammed, foe.shield_up], axis=1)
        (drawn_me, drawn_foe), row = draw.row((me, foe), self._table(keys, plan))
        me, foe = cast(Combatant, drawn_me), cast(Combatant, drawn_foe)
        foe = foe.replace(
            damage_taken=foe.damage_taken + row["damage"],
            armor_points=np.maximum(0, foe.armor_points - row["ap_damage"]),
            shield_up=foe.shield_up * (row["shield_breaks"] == 0),
        )
        jam_matters = np.array([m.jam_matters for m in self.members], np.int64)[fights_of(me)]
        me = me.replace(jammed=(row["jam"] != 0) * jam_matters)
        return me, foe

    def plans(self, me: Combatant, foe: Combatant) -> list[str]:
        """Return the plan labels legal in the one state given (a jam costs an Attack; a weapon out
        of reach is left out), in the order ties go by."""
        return list(self.plan_tables([(int(foe.armor_points[0]), int(me.jammed[0]), int(foe.shield_up[0]))])[0])

    def describe(self, me: Combatant, foe: Combatant) -> dict[str, Any]:
        """Return the parts of the one state given a reader needs: the target's armor points left,
        the attacker's jam (two Attacks a turn) and the Ray Shield (if the target has one)."""
        named: dict[str, Any] = {"armor_points_left": int(foe.armor_points[0])}
        if self.jam_matters:
            named["jammed"] = bool(me.jammed[0])
        if shield_up_at_start(self.foe, self.situation):
            named["ray_shield_up"] = bool(foe.shield_up[0])
        return named


@dataclasses.dataclass
class StepCombatant(Combatant):
    """A Glass Empires creature whose turn an encounter plays an Attack at a time
    (:class:`AttackStep`): also ``queued``, the weapon (its index) of the turn's next Attack as the
    turn's plan chose it; -1 none chosen (the next Attack is planned), -2 none (the plan has no more
    Attacks)."""

    queued: np.ndarray


class AttackStep(GlassEmpiresRound):
    """Attack ``step`` (0-based) of a turn of several Attacks (``turn``: the whole turn's round), as
    an encounter plays it: CLARIFICATIONS.md, Encounters, Glass Empires: "a Strike that kills ends its
    Attack (its remaining Strikes are lost) and refunds the Attack's action, which makes a new Attack
    on the next living foe by the same policy in the same turn; a kill by that Attack refunds again".

    The Attacks are those of the whole turn's plan, in order, with the same tables: the first Attack
    plays the first weapon of the plan the damage play chooses against the target and queues the
    next; a later one plays the queued weapon. A jam ("Clearing the jam takes an instant action")
    spends the Attack clearing it and drops the queued one, as the whole turn's table does. A refunded
    Attack (:meth:`refunded`) is planned again against its new foe: the first Attack of a new plan
    of the Attacks the turn has left, or, as the turn's last, the best single Attack (the whole
    turn's tables of a turn with one Attack left: a jam on it carries to the next turn). Against one
    foe the steps are the whole turn's table, Attack by Attack."""

    def __init__(self, turn: GlassEmpiresRound, step: int):
        self.__dict__.update(turn.__dict__)
        self.whole, self.step = turn, step
        self.key = None if turn.key is None else hashed((turn.key, "step", step))
        self.members = (self,)

    def start(self, passive: bool = False) -> tuple[StepCombatant, StepCombatant]:
        """Return the whole turn's start, no Attack queued."""
        return cast(
            tuple[StepCombatant, StepCombatant],
            tuple(
                StepCombatant(**{**c.__dict__, "queued": np.full(1, -1, np.int64)}) for c in self.whole.start(passive)
            ),
        )

    @property
    def refunds(self) -> bool:
        """Return True: a kill refunds the Attack under way (``steps`` makes these only when kills
        refund)."""
        return True

    def refunded(self, me: StepCombatant) -> StepCombatant:
        """Return the attacker's state for a refunded Attack: nothing queued (planned again against
        the next foe)."""
        return me.replace(queued=np.full(me.size, -1, np.int64))

    def idle(self, me: StepCombatant) -> tuple[np.ndarray, StepCombatant]:
        """Return (where the turn under way has no Attack left: its plan has no more, ``queued`` -2,
        the states as a later step leaves them: nothing queued, as between turns). An encounter
        passes those states over, and the step makes no attack (workbench/fight/encounter.py)."""
        none = np.asarray(me.queued) == -2
        return none, me.replace(queued=np.where(none, -1, me.queued))

    def _weapons(self) -> dict[str, list[int]]:
        """Return each plan label's weapons (indices into the attacker's weapons), in order."""
        got = self.__dict__.get("_weapon_ids")
        if got is None:
            weapons = self.weapons
            index = {id(w): i for i, w in enumerate(weapons)}
            got = {
                label: [index[id(w)] for w in combo]
                for k in range(1, self.attacks + 1)
                for label, combo in self._candidates(k).items()
            }
            self.__dict__["_weapon_ids"] = got
        return got

    def turn(self, me: Combatant, foe: Combatant, draw: Draw, plan: Any = None) -> tuple[Combatant, Combatant]:
        """Return (me, foe) after this Attack (class docstring): a jammed weapon is cleared; else the
        queued weapon, or the first of the plan chosen now (the turn's last Attack: the best single
        Attack), drawn from the whole turn's one-Attack table against the foe's armor points and Ray
        Shield; the foe takes its damage, armor points spent and shield broken, my jam is the
        Attack's (an Attack the plan does not make keeps it: it carries to the next turn)."""
        m = cast(StepCombatant, me)
        weapons = self.weapons
        ap, up = np.asarray(foe.armor_points, np.int64), np.asarray(foe.shield_up, np.int64)
        jammed, queued = np.asarray(m.jammed, np.int64), np.asarray(m.queued, np.int64)
        # the whole turn's tables: its plans at (AP, no jam, shield) choose a plan of the Attacks left;
        # at (AP, jam, shield), those of one Attack (a jammed turn has one left)
        states, at = distinct_rows(np.stack([ap, up], axis=1))
        keys: list[tuple[int, ...]] = [(int(a), j, int(u)) for a, u in states.tolist() for j in (0, 1)]
        tables = dict(zip(keys, self.whole.plan_tables(keys)))
        # this Attack's weapon (-2: none, -3: clearing a jam), and the queue after it
        weapon, after = self._aim(tables, states, at, jammed, queued)
        group = np.stack([weapon, np.where(weapon >= 0, ap, 0), np.where(weapon >= 0, up, 0)], axis=1)
        uniq, inverse = distinct_rows(group)
        keep = {
            **{c: np.zeros(1, np.int64) for c in _COLUMNS},
            "jam": np.full(1, 2, np.int64),
            "probability": np.ones(1),
        }
        clear = {**{c: np.zeros(1, np.int64) for c in _COLUMNS}, "probability": np.ones(1)}
        chosen = [
            keep if w == -2 else clear if w == -3 else tables[(a, 1, u)][weapons[w].name].table
            for w, a, u in uniq.tolist()
        ]
        m = m.replace(queued=after)  # (carried through the draw with its row)
        (drawn_me, drawn_foe), row = draw.row((m, foe), stacked(chosen, inverse.ravel(), _COLUMNS))
        me2, foe2 = cast(StepCombatant, drawn_me), cast(Combatant, drawn_foe)
        foe2 = foe2.replace(
            damage_taken=foe2.damage_taken + row["damage"],
            armor_points=np.maximum(0, foe2.armor_points - row["ap_damage"]),
            shield_up=foe2.shield_up * (row["shield_breaks"] == 0),
        )
        jam = np.where(row["jam"] == 2, me2.jammed, (row["jam"] != 0).astype(np.int64))
        return me2.replace(jammed=jam), foe2

    def _aim(
        self,
        tables: dict[tuple[int, ...], dict[str, PlanOutcome]],
        states: np.ndarray,
        at: np.ndarray,
        jammed: np.ndarray,
        queued: np.ndarray,
    ) -> tuple[np.ndarray, np.ndarray]:
        """Return (per fight, this Attack's weapon: an index into :attr:`weapons`, -2 none, -3
        clearing a jam; the queue after it) of the damage play: the queued weapon, or the first of
        the plan of highest score chosen now among ``tables`` at the fight's (AP, shield) (``states``,
        its row ``at``), queueing that plan's next (the turn's last Attack: the best single one)."""
        last = int(self.step == self.attacks - 1)
        labels = self._weapons()
        first = np.full(len(states), -2, np.int64)  # per state: the chosen plan's first weapon, then its next
        then = np.full(len(states), -2, np.int64)
        for s_, (a, u) in enumerate(states.tolist()):
            plans = tables[(a, last, u)]
            if plans:
                combo = labels[max(plans, key=lambda k: plans[k].score)]
                first[s_] = combo[0]
                then[s_] = combo[1] if len(combo) > 1 and not last else -2
        fresh = (jammed == 0) & (queued == -1)
        weapon = np.where(queued == -2, -2, np.where(jammed == 1, -3, np.where(fresh, first[at], queued)))
        after = np.where(fresh, then[at], -1)
        return weapon, np.where(last, -1, after)


class GivenAttackStep(AttackStep):
    """Attack ``step`` of a turn whose plan is given (a list, a label: :meth:`GlassEmpiresRound.given`),
    as an encounter plays it: the plan's weapons Attack by Attack (``order``: each an index into the
    turn's :attr:`~GlassEmpiresRound.weapons`, the given plan's weapons once each). ``queued`` is the
    place in the plan of the Attack made last this turn (-1 none yet). A jam ("Clearing the jam takes an
    instant action") spends the Attack and keeps the place, so a turn that starts jammed makes the
    plan's first Attack with its second (the list's first Attacks, as the whole turn's table plays
    it); a plan shorter than the Attacks makes no more. A kill refunds the Attack under way
    (CLARIFICATIONS.md, Encounters: "refunds the Attack's action, which makes a new Attack on the next
    living foe"): the same weapon again on the next foe (:meth:`refunded`), then the plan goes on."""

    def __init__(self, turn: GlassEmpiresRound, step: int, order: list[int]):
        super().__init__(turn, step)
        self.order = np.asarray(order, np.int64)
        self.key = None if turn.key is None else hashed((turn.key, "given step", step, tuple(order)))

    def refunded(self, me: StepCombatant) -> StepCombatant:
        """Return the attacker's state for a refunded Attack: its place one back (the same weapon)."""
        return me.replace(queued=np.asarray(me.queued) - 1)

    def idle(self, me: StepCombatant) -> tuple[np.ndarray, StepCombatant]:
        """Return (where the plan has no Attack left for this step, the states unchanged)."""
        if self.step == 0:
            return np.zeros(me.size, dtype=bool), me
        return np.asarray(me.queued) + 1 >= self.order.size, me

    def _aim(
        self,
        tables: dict[tuple[int, ...], dict[str, PlanOutcome]],
        states: np.ndarray,
        at: np.ndarray,
        jammed: np.ndarray,
        queued: np.ndarray,
    ) -> tuple[np.ndarray, np.ndarray]:
        """Return (this Attack's weapon, the place after it) (class docstring): the turn's first step
        starts at the plan's first place (a refunded first Attack too)."""
        done = np.full(queued.shape, -1, np.int64) if self.step == 0 else queued
        place = done + 1
        none = place >= self.order.size
        weapon = np.where(jammed == 1, -3, np.where(none, -2, self.order[np.minimum(place, self.order.size - 1)]))
        return weapon, np.where((jammed == 1) | none, done, place)


def _plan_tables_all(
    requests: list[tuple[GlassEmpiresRound, list[tuple[int, ...]]]],
) -> list[list[dict[str, PlanOutcome]] | RulesError]:
    """Return, per (round, keys), :meth:`GlassEmpiresRound.plan_tables` of the keys, or the
    RulesError the rules raise there: each round's missing tables (and those below them,
    :meth:`GlassEmpiresRound._missing`) built for every candidate plan, every round's outcomes in ONE
    :func:`resolve` call per options and Attacks a turn (:func:`_outcomes_all`); a weapon out of
    reach leaves its plans out unless the plan is given."""
    asks: list[tuple[int, GlassEmpiresRound, list[tuple[int, ...]], str, list[Any]]] = []
    built: list[list[dict[str, PlanOutcome]]] = []  # per (round, group): each key's tables
    groups: list[tuple[int, GlassEmpiresRound, list[tuple[int, ...]]]] = []  # (request, round, keys)
    for r, (rnd, keys) in enumerate(requests):
        for attacks, group in rnd._missing(keys).items():
            for label, combo in rnd._candidates(attacks).items():
                asks.append((len(groups), rnd, group, label, combo))
            groups.append((r, rnd, group))
            built.append([{} for _ in group])
    failed: dict[int, RulesError] = {}
    outcomes = _outcomes_all([(rnd, combo, [(k[0], k[2]) for k in group]) for _, rnd, group, _, combo in asks])
    for (g, rnd, group, label, _), got in zip(asks, outcomes):
        if isinstance(got, RulesError):
            if got.field != "distance" or is_sequence_plan(rnd.plan) or rnd.only is not None:
                failed.setdefault(groups[g][0], got)
            continue
        for j in range(len(group)):
            built[g][j][label] = got[j]
    for (r, rnd, group), tables in zip(groups, built):
        if r in failed:
            continue
        for k, t in zip(group, tables):
            rnd._tables[k] = t
            if rnd.key is not None:
                MEMO.put((rnd.key, "plans", k), t)
    return [failed[r] if r in failed else [rnd._tables[k] for k in keys] for r, (rnd, keys) in enumerate(requests)]


def _outcomes_all(
    requests: list[tuple[GlassEmpiresRound, list[Any], list[tuple[int, int]]]],
) -> list[list[PlanOutcome] | RulesError]:
    """Return, per (round, the turn's Attacks ``combo``, states), the outcome of the turn against each
    (armor points left, shield up) of the states (:meth:`GlassEmpires.plan_table` for each),
    grouped as the turn draws it, with its score; or the RulesError the rules raise for it. The
    outcomes not kept yet are resolved in ONE :func:`resolve` call per options and Attacks a turn,
    for every request at once."""
    from .resolve import Segment, resolve, segment

    names = [f.name for f in dataclasses.fields(Segment)]
    out: list[Any] = [None] * len(requests)
    # resolve reads these numbers alone (each Attack's damage, modifier, jams, resistance, armor,
    # Strikes and the target's traits; the armor points and HP at the start): an outcome is kept
    # under them, so every matchup of a grid that resolves alike (another creature with the same
    # armor and HP, a second weapon with the same numbers) reuses it
    # per (options, Attacks a turn): each outcome not kept yet, once: its key -> (request, row)
    todo: dict[tuple[Any, int], dict[Any, tuple[int, int]]] = {}
    parts_of: dict[int, tuple[list[Segment], Any, Any]] = {}
    # a round's candidate plans share its states, and their Attacks their weapons. A state (armor
    # points left, Ray Shield up) changes only the armor points at the start and whether the shield
    # is up (the Attack's numbers read neither): each weapon's Segment is built once per round, for
    # one matchup, and repeated over the states; the target's state checked once per (situation,
    # target, options, states), shared by every attacker of that target
    made: dict[Any, Any] = {}
    for r, (rnd, combo, states) in enumerate(requests):
        n = len(states)
        aps = np.fromiter((ap for ap, _ in states), np.int64, n)
        ups = np.fromiter((up for _, up in states), bool, n)
        target = (rnd.situation, id(rnd.foe), rnd.options, tuple(states))
        try:
            if target not in made:
                # (the most armor points of the states checked against the target's: the rest are fewer)
                most = rnd.situation.replace(target_ap=int(aps.max(initial=0)), target_hp=None)
                _, hp1 = rnd.sys._target_state([rnd.foe], [most], rnd.options)
                made[target] = (aps, np.repeat(hp1, n))
            ap0, hp = made[target]
            segs = []
            for w in rnd.sys.plan_items(rnd.me, combo, rnd.options):
                one = made.get((id(rnd), id(w)))
                if one is None:
                    one = made[(id(rnd), id(w))] = segment([w], [rnd.me], [rnd.foe], rnd.options, [rnd.situation])
                segs.append(_repeated(one, ups & bool(rnd.foe.ray_shield_breaks_at)))
        except RulesError as exc:
            out[r] = exc
            continue
        parts_of[r] = (segs, np.asarray(ap0), np.asarray(hp))
        numbers = np.stack(
            [np.asarray(getattr(g, f), dtype=np.float64) for g in segs for f in names]
            + [np.asarray(ap0, dtype=np.float64), np.asarray(hp, dtype=np.float64)],
            axis=1,
        )
        opts = made.get(("options", id(rnd.options)))
        if opts is None:  # (the options hashed once, not once per row)
            opts = made[("options", id(rnd.options))] = hashed(("glass empires plan outcome", rnd.options))
        keys = [(opts, row.tobytes()) for row in numbers]
        out[r] = [(k, MEMO.lookup(k)) for k in keys]
        batch = todo.setdefault((rnd.options, len(segs)), {})
        for i, (k, got) in enumerate(out[r]):
            if got is None and k not in batch:
                batch[k] = (r, i)
    fresh: dict[Any, PlanOutcome] = {}
    for (options, width), batch in todo.items():
        if not batch:
            continue
        rows: dict[int, list[int]] = {}  # each request's rows to resolve
        order: dict[int, list[Any]] = {}  # and their keys
        for k, (r, i) in batch.items():
            rows.setdefault(r, []).append(i)
            order.setdefault(r, []).append(k)
        sub = [
            Segment(
                **{
                    f: np.concatenate([np.asarray(getattr(parts_of[r][0][a], f))[idx] for r, idx in rows.items()])
                    for f in names
                }
            )
            for a in range(width)
        ]
        ap0 = np.concatenate([parts_of[r][1][idx] for r, idx in rows.items()])
        hp = np.concatenate([parts_of[r][2][idx] for r, idx in rows.items()])
        frame = resolve(sub, ap0, hp, options)
        for k, outcome in zip((k for r in rows for k in order[r]), PlanOutcome.many(frame, len(ap0))):
            fresh[k] = outcome
            MEMO.put(k, outcome)
    return [
        got if isinstance(got, RulesError) else [cast(PlanOutcome, fresh[k] if o is None else o) for k, o in got]
        for got in out
    ]


def _repeated(one: Any, shield_up: np.ndarray) -> Any:
    """Return the Segment of one matchup repeated over states whose Ray Shield is up where
    ``shield_up`` says."""
    fields = {f.name: np.repeat(getattr(one, f.name), shield_up.size) for f in dataclasses.fields(one)}
    fields["shield_up"] = shield_up.copy()
    return type(one)(**fields)


def state_effects(sys: Any, attacker: Any, target: Any, options: Any = None, situation: Any = None) -> set[str]:
    """Return the stateful effects of Glass Empires ``attacker`` fighting ``target`` (empty: HP-only).

    "armor points" when the target has armor points and the attacker a physical weapon
    (CLARIFICATIONS.md, Glass Empires: "Armor points absorb physical damage before HP"; they stay
    spent), "jams" when a turn has two Attacks and a weapon can jam ("a windgun or Reload weapon
    jams" on a Fumble: a jam on the turn's last Attack costs the next turn's first), "ray shield" when the target starts behind an up
    Ray Shield (shared data, Moon Rabbit Operator: once broken the gem is destroyed, so it stays
    down for the rest of the fight).
    """
    opts = sys.options_of(options)
    sit = sys.situations_of(situation, 1)[0]
    out: set[str] = set()
    if shield_up_at_start(target, sit):
        out.add("ray shield")
    physical = any("physical" in w.types for w in attacker.weapons)
    if sys.armor_points(target, opts) > 0 and physical:
        out.add("armor points")
    if sys.attacks_per_turn(attacker, opts) > 1 and any(w.jams for w in attacker.weapons):
        out.add("jams")
    return out


#: the state effects whose state belongs to one direction of a duel: only the attacker's own turns
#: change it, and the attacker's turns are all that read it (GlassEmpiresRound.turn draws against
#: the foe's armor points and shield with its own jam, and changes nothing of its own but the jam)
ONE_SIDED = {
    # the target's armor points: "Armor points absorb physical damage before HP, 1 AP per 2 damage or
    # fraction" (CLARIFICATIONS.md, Glass Empires): spent by the attacker's Strikes only, and the
    # target's own Strike Saves, weapons and damage never read them
    "armor points",
    # the attacker's jam: "a windgun or Reload weapon jams" on a Fumble (glass-empires-attack.txt),
    # a jam left at the turn's end costs the attacker's own next Attack; the foe's turns neither jam nor read it
    "jams",
    # the target's Ray Shield: "immune to all damage" until an effect of 6 or more breaks it, then the
    # gem "instantly shatters, destroying the item" (shared/data/glass_empires_creatures.toml, Moon
    # Rabbit Operator); it guards against the attacker's damage only and gives its bearer no attack
    "ray shield",
}


def duel_couplings(
    sys: Any, a: Any, b: Any, options: Any = None, situation: Any = None, plan_a: Any = None, plan_b: Any = None
) -> set[str]:
    """Return the state effects of the duel of ``a`` and ``b`` (both directions' :func:`state_effects`)
    through which one side's turns change the other direction's fight: those not in
    :data:`ONE_SIDED`. Empty for every effect Glass Empires names today; an effect added later
    couples (is simulated) until it is shown to be one-sided."""
    both = state_effects(sys, a, b, options, situation) | state_effects(sys, b, a, options, situation)
    return both - ONE_SIDED
