"""The rule-system protocol shared by the four systems (the model base is :mod:`workbench.model`, the
field checks :mod:`workbench.checks`, the catalog :mod:`workbench.systems.catalog`).

Every system module defines ``Creature``, ``Attack``, ``Options`` and ``Situation`` as
:class:`Model` subclasses and one :class:`RuleSystem` subclass whose ``outcome_tables``
resolves many matchups at once (vectorised); a single matchup is a 1 x 1 grid of it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar, cast

import numpy as np

from ..dist import Dist
from ..errors import RulesError
from ..model import Model
from .catalog import Catalog

__all__ = ["RuleSystem", "dists_from_table", "pmf_rows", "summed_uses"]


# --------------------------------------------------------------------------- outcome tables → Dists
class _FrameColumns(Mapping):
    """A frame's columns as numpy arrays, each made when read (the engine reads three of dozens)."""

    def __init__(self, frame: Any):
        self.frame = frame

    def __getitem__(self, name: str) -> np.ndarray:
        return self.frame[name].to_numpy()

    def __iter__(self) -> Iterator[str]:
        return iter(self.frame.columns)

    def __len__(self) -> int:
        return self.frame.width


def dists_from_table(table, n: int | None = None) -> list[Dist]:
    """Return one damage Dist per matchup of an outcome table with a ``matchup`` column (a frame,
    or its columns as numpy arrays: :meth:`RuleSystem.outcome_columns`).

    The table's ``probability`` is summed per ``damage`` within each matchup (numpy scatter-add,
    no loop per row).
    """
    m = np.asarray(table["matchup"]).astype(np.int64)
    d = np.asarray(table["damage"]).astype(np.int64)
    p = np.asarray(table["probability"])
    n = int(m.max()) + 1 if n is None else n
    lo = np.full(n, np.iinfo(np.int64).max)
    hi = np.full(n, np.iinfo(np.int64).min)
    np.minimum.at(lo, m, d)
    np.maximum.at(hi, m, d)
    width = int((hi - lo).max()) + 1
    grid = np.zeros((n, width))
    np.add.at(grid, (m, d - lo[m]), p)
    return [Dist(grid[i] / grid[i].sum(), int(lo[i]), _trusted=True) for i in range(n)]


def _value_key(obj: Any) -> Any:
    """Return ``obj`` if it is hashable (frozen models compare by value), else its identity."""
    try:
        hash(obj)
        return obj
    except TypeError:
        return ("id", id(obj))


def _factorize(keys: Sequence[Any]) -> np.ndarray:
    """Return an int id per key, equal ids for equal keys (first-seen order)."""
    seen: dict[Any, int] = {}
    return np.array([seen.setdefault(k, len(seen)) for k in keys], dtype=np.int64)


def summed_uses(uses: np.ndarray, counts: Sequence[int]) -> list[np.ndarray]:
    """Return the pmf of each plan's total damage: the next ``counts[j]`` rows of ``uses`` (damage
    pmfs from 0, in plan order) convolved, as independent uses sum."""
    from ..dist import _convolve

    out, k = [], 0
    for n in counts:
        total = np.ones(1)
        for row in uses[k : k + n]:
            # counted: a direct convolution is len x len multiply-adds (2e5-wide uses: 4e10, 9 s);
            # past SUMMED_DIRECT of them the FFT's few passes (exact to ~1e-16, clipped at 0)
            total = np.convolve(total, row) if total.size * row.size <= SUMMED_DIRECT else _convolve(total, row)
        out.append(total)
        k += n
    return out


#: multiply-adds of one direct convolution of a plan's uses above which summed_uses convolves by
#: FFT (every catalog turn stays far below: its results stay those of the direct sum, bit for bit)
SUMMED_DIRECT = 10_000_000


def pmf_rows(table, n: int) -> np.ndarray:
    """Return P(matchup, damage) of an outcome table with a ``matchup`` column (a frame, or its
    columns as numpy arrays) as a dense (n, D) array, damage from 0 (scatter-add over the rows;
    RulesError for negative damage)."""
    m = np.asarray(table["matchup"]).astype(np.int64)
    d = np.asarray(table["damage"]).astype(np.int64)
    if d.size and d.min() < 0:
        raise RulesError("damage per use cannot be negative in a fight", field="damage")
    grid = np.zeros((n, int(d.max(initial=0)) + 1))
    np.add.at(grid, (m, d), np.asarray(table["probability"]))
    return grid


# --------------------------------------------------------------------------- the protocol
class RuleSystem(ABC):
    """One rule system. Subclasses fill in the class attributes and ``outcome_tables``.

    ``outcome_tables(attacks, attackers, targets, options, situation)`` takes three aligned
    sequences (row i is matchup i) and returns one polars frame with columns ``matchup``
    (0..n-1), ``probability``, ``damage`` and the system's extras; the rows of one matchup are
    its exact joint outcome table and their probabilities sum to 1.
    """

    name: str = ""
    #: seconds per row of a compare grid of distinct matchups, for compare's estimate before it
    #: starts (docs/limits.md, Bounded work); measured per system on the CI machine, this default
    #: is the slowest measured (Unbound)
    compare_seconds_per_row: float = 8.6e-4
    title: str = ""
    rules_file: str = ""
    Creature: ClassVar[type[Model]] = Model
    Attack: ClassVar[type[Model]] = Model
    Options: ClassVar[type[Model]] = Model
    Situation: ClassVar[type[Model]] = Model

    # -- required
    @abstractmethod
    def outcome_tables(
        self,
        attacks: Sequence[Any],
        attackers: Sequence[Any],
        targets: Sequence[Any],
        options: Any = None,
        situation: Any = None,
    ):
        """Return the outcome tables of aligned matchups (see the class docstring)."""

    def catalog(self) -> Catalog:
        """Return the bundled creatures and attacks."""
        return Catalog(self.name)

    def usability(
        self,
        attacks: Sequence[Any],
        attackers: Sequence[Any],
        targets: Sequence[Any],
        options: Any = None,
        situation: Any = None,
    ) -> list[RulesError | None]:
        """Return, per aligned matchup, the rules' refusal of that use in its situation (a RulesError
        naming the field and rule), None when it is usable: usability as data, so that no caller
        probes ``outcome_tables`` for exceptions. Default: the batch is resolved once; only if the
        rules refuse it is each distinct (attack, attacker) tried alone, then each matchup. Systems
        with vectorised checks override this."""
        n = len(attacks)
        out: list[RulesError | None] = [None] * n
        try:
            if n:
                self.outcome_tables(attacks, attackers, targets, options, situation)
            return out
        except RulesError:
            pass
        sits = self.situations_of(situation, n)
        for i in range(n):
            try:
                self.outcome_tables([attacks[i]], [attackers[i]], [targets[i]], options, [sits[i]])
            except RulesError as exc:
                out[i] = exc
        return out

    # -- combat hooks (systems override where their rules differ)
    #: the creature's hit pools in the order damage spills through them; a turn table has one damage
    #: axis ("channel") per pool, channel i entering at pool i (Annulus: Endurance then Vitality,
    #: with Vital damage entering at Vitality)
    pools: tuple[str, ...] = ("hp",)
    #: what the rules text calls one attack ("attack set" in Annulus), for messages
    attack_noun: str = "attack"
    #: the Creature field holding its attacks (a bestiary frame's column of attack names)
    attacks_field: str = "attacks"
    #: outcome-table columns whose non-zero value changes the fight's state even without damage
    #: (a defence broken for good, say): ``workbench.simulate.can_damage`` counts a non-zero value
    #: in one of them as progress, next to the damage columns, so such a fight is played, not
    #: refused as "never deals damage". Default: none
    progress_columns: tuple[str, ...] = ()

    def actions_per_turn(self, creature: Any, options: Any = None) -> int:
        """Return the number of actions a creature has in one turn."""
        return 2

    def attack_cost(self, attack: Any, options: Any = None) -> int:
        """Return the actions one use of ``attack`` costs."""
        return 1

    def build_cost(self, creature: Any, options: Any = None) -> int | None:
        """Return what ``creature``'s build costs in the system's budget unit (the unit of
        :meth:`build_space`'s ``cost``), or None when the system has no build economy (the default):
        ``wb.head_to_head`` then cannot say which of two builds is the cheaper."""
        return None

    def hit_points(self, creature: Any) -> int:
        """Return the total damage that kills ``creature`` (the sum of its :meth:`hit_pools`)."""
        return int(sum(self.hit_pools(creature)))

    def hit_pools(self, creature: Any) -> tuple[int, ...]:
        """Return the size of each of :attr:`pools` for ``creature`` (default: its ``hp``)."""
        return (int(creature.hp),)

    def attacks_of(self, creature: Any) -> list[Any]:
        """Return the attacks a creature can use."""
        return list(getattr(creature, "attacks", []) or [])

    def hurts_between_rounds(self, me: Any, foe: Any, options: Any = None, situation: Any = None) -> bool:
        """Return True when ``me`` can hurt ``foe`` in a fight by effects played outside its turns
        (between rounds: ``Side.between_rounds``), which ``can_damage`` cannot read from its attacks'
        damage. Default False."""
        return False

    def attack_named(self, creature: Any, name: Any) -> Any:
        """Return ``name`` if it is an attack of this system, else the creature's attack of that name
        (case-insensitive); RulesError naming ``attacks`` otherwise."""
        if isinstance(name, self.Attack):
            return name
        if not isinstance(name, str):
            raise RulesError(f"expected a {self.title} attack or its name, not {type(name).__name__}", field="attacks")
        key = name.strip().lower()
        for a in self.attacks_of(creature):
            if a.name.lower() == key:
                return a
        raise RulesError(f"{creature.name} has no {self.attack_noun} called {name!r}", field="attacks")

    def damage_keys(
        self, pairs: Sequence[tuple[Any, Any]], targets: Sequence[Any], options: Any = None, situation: Any = None
    ) -> np.ndarray:
        """Return a (pairs x targets) int array of matchup ids, equal for matchups whose damage over
        the pools is equal, per use and per turn of ``uses_per_turn`` uses, and whose usability is
        the same (the comparison engine resolves each id once); ``pairs`` are (attacker, attack).
        Default: equal models (by value, else identity) give equal ids."""
        pid = _factorize([(_value_key(c), _value_key(x)) for c, x in pairs])
        tid = _factorize([_value_key(t) for t in targets])
        return pid[:, None] * (int(tid.max(initial=0)) + 1) + tid[None, :]

    def neutral_attacker(self, attack: Any) -> Any:
        """Return the creature that uses a bare ``attack`` (in ``compare``): the system's neutral stat
        line holding only ``attack``, named after it. Systems override this."""
        raise RulesError(f"the {self.title} rule system has no neutral attacker for bare attacks", field="attackers")

    def uses_per_turn(self, attacker: Any, attack: Any, options: Any = None) -> int:
        """Return how often one turn can use ``attack`` alone: actions // cost (a free attack: once)."""
        cost = self.attack_cost(attack, options)
        return 1 if cost == 0 else self.actions_per_turn(attacker, options) // cost

    def legal_plans(self, attacker: Any, target: Any, options: Any, situation: Any) -> list[tuple[str, list[Any]]]:
        """Return every legal way to spend one turn attacking, as (label, items used in order).

        Default: every multiset of the attacker's attacks whose costs fit the turn's actions and to
        which no further attack fits. ``options`` and ``situation`` are this system's (defaults filled).
        """
        from itertools import combinations_with_replacement

        usable = self.attacks_of(attacker)
        if not usable:
            return []
        ap = self.actions_per_turn(attacker, options)
        costs = [self.attack_cost(a, options) for a in usable]
        cheapest = min(costs)
        longest = ap if cheapest == 0 else ap // cheapest
        seen: dict[str, list[Any]] = {}
        for size in range(longest, 0, -1):
            for combo in combinations_with_replacement(range(len(usable)), size):
                cost = sum(costs[i] for i in combo)
                if cost > ap or ap - cost >= cheapest > 0:
                    continue
                seen.setdefault(" + ".join(usable[i].name for i in combo), [usable[i] for i in combo])
        return list(seen.items())

    def plan_items(self, attacker: Any, plan: Sequence[Any], options: Any) -> list[Any]:
        """Return a plan given as attacks or names as the items :meth:`plan_tables` takes, or raise
        RulesError if the turn's action economy does not allow it (default: total cost <= actions)."""
        items = [self.attack_named(attacker, a) for a in plan]
        cost = sum(self.attack_cost(a, options) for a in items)
        ap = self.actions_per_turn(attacker, options)
        if cost > ap:
            raise RulesError(
                f"the plan costs {cost} actions; {attacker.name} has {ap} per turn",
                field="attacks",
                rule=f"{self.rules_file or self.title}: actions per turn",
            )
        return items

    def plan_label(self, attacker: Any, items: Sequence[Any]) -> str:
        """Return the label of a plan's items ("Claw + Bite")."""
        return " + ".join(x.name for x in items)

    def plan_tables(self, plans: Sequence[tuple[Any, Any, Any, list[Any]]], options: Any) -> list[np.ndarray]:
        """Return, per (attacker, target, situation, items) plan, the joint pmf of one turn's damage
        over :attr:`pools` (one axis per pool, damage from 0).

        Default: the items are independent uses summed (every use resolved in ONE ``outcome_tables``
        call); systems whose uses interact within a turn override this.
        """
        flat = [(x, a, t, s) for a, t, s, items in plans for x in items]
        if not flat:
            return [np.ones(1) for _ in plans]
        table = self.outcome_columns(
            [f[0] for f in flat], [f[1] for f in flat], [f[2] for f in flat], options, [f[3] for f in flat]
        )
        return summed_uses(pmf_rows(table, len(flat)), [len(items) for *_, items in plans])

    # -- the turn stage: generic, through the hooks above
    def turn_tables(
        self,
        pairs: Sequence[tuple[Any, Any]],
        options: Any = None,
        situation: Any = None,
        plans: Sequence[Sequence[Any]] | None = None,
    ):
        """Return the :class:`workbench.turns.TurnTable` of every legal plan of each (attacker, target) pair.

        ``situation``: one Situation or one per pair. ``plans``: None (every legal plan, from
        :meth:`legal_plans`) or one plan per pair (attacks or names used in order; an illegal plan
        raises RulesError). A pair with no usable plan gets none, and its ``reason`` says why.
        """
        from ..memo import MEMO, hashed
        from ..turn_table import TurnTable

        pairs = list(pairs)
        options = self.options_of(options)
        sits = self.situations_of(situation, len(pairs))
        # each pair's plans are a function of its models alone: kept in the bounded memo, so a
        # repeated or overlapping call builds only the pairs it has not met (models compare by value)
        keys = [
            hashed(("turn table", type(self), a, t, options, sit, None if plans is None else tuple(plans[i])))
            for i, ((a, t), sit) in enumerate(zip(pairs, sits))
        ]
        known: list[Any] = [MEMO.lookup(k) for k in keys]
        todo = [i for i, got in enumerate(known) if got is None]
        rows: list[tuple[int, str, tuple]] = []
        reason: list[RulesError | None] = [None] * len(pairs)
        for i in todo:
            (attacker, target), sit = pairs[i], sits[i]
            if plans is None:
                try:
                    legal = self.legal_plans(attacker, target, options, sit)
                except RulesError as exc:  # the rules refuse every plan here, and say why
                    reason[i], legal = exc, []
                    continue
                if not legal:  # nothing usable here: not a refusal of the input (turn_plans is empty)
                    reason[i] = empty = RulesError(
                        f"{attacker.name} has no {self.attack_noun} it can use against {target.name}", field="attacks"
                    )
                    empty.no_plan = True
            else:
                try:
                    items = self.plan_items(attacker, list(plans[i]), options)
                except RulesError as exc:
                    reason[i], legal = exc, []
                else:
                    legal = [(self.plan_label(attacker, items), items)]
            rows.extend((i, label, (attacker, target, sit, items)) for label, items in legal)
        pmfs = self._plan_tables_usable(rows, options, reason)
        of_pair: dict[int, list[int]] = {}
        for j, r in enumerate(rows):
            of_pair.setdefault(r[0], []).append(j)
        for i in todo:  # (labels, pmfs, refusal) of each new pair, its arrays read-only
            js = of_pair.get(i, []) if reason[i] is None else []
            for j in js:
                pmfs[j].flags.writeable = False
            known[i] = (tuple(rows[j][1] for j in js), tuple(pmfs[j] for j in js), reason[i])
            MEMO.put(keys[i], known[i], 64 * (2 + len(js)) + sum(int(pmfs[j].nbytes) for j in js))
        return TurnTable.build(
            np.array([i for i, (labels, _, _) in enumerate(known) for _ in labels], dtype=np.int64),
            [label for labels, _, _ in known for label in labels],
            [pmf for _, pmfs_i, _ in known for pmf in pmfs_i],
            len(self.pools),
            len(pairs),
            [err for _, _, err in known],
        )

    def _plan_tables_usable(self, rows: list, options: Any, reason: list) -> list:
        """Return :meth:`plan_tables` of ``rows``; a pair whose plan the rules refuse here (out of
        reach, a Gaze without sight, ...) gets that refusal as its ``reason`` and no pmf."""
        try:
            return self.plan_tables([r[2] for r in rows], options)
        except RulesError:
            pass
        out: list = [None] * len(rows)
        by_pair: dict[int, list[int]] = {}
        for j, (i, _, _) in enumerate(rows):
            by_pair.setdefault(i, []).append(j)
        for i, js in by_pair.items():
            try:
                for j, pmf in zip(js, self.plan_tables([rows[j][2] for j in js], options)):
                    out[j] = pmf
            except RulesError as exc:
                reason[i] = exc
        return out

    def turn_plans(self, attacker: Any, target: Any, options: Any = None, situation: Any = None) -> dict[str, Dist]:
        """Return every legal way to spend one turn attacking ``target``: label -> total damage Dist
        (the 1 x 1 case of :meth:`turn_plans_many`)."""
        got = self.turn_plans_many([(attacker, target)], options, situation)[0]
        if isinstance(got, RulesError):
            raise got.with_traceback(None)  # a kept refusal: no traceback carried over from an earlier raise
        return got

    def turn_plans_many(
        self, pairs: Sequence[tuple[Any, Any]], options: Any = None, situation: Any = None
    ) -> list[dict[str, Dist] | RulesError]:
        """Return :meth:`turn_plans` of each (attacker, target) pair (``situation``: one, or one per
        pair), or the rules' refusal of the pair: one :meth:`turn_tables` call for all of them."""
        table = self.turn_tables(list(pairs), options, situation)
        out: list[dict[str, Dist] | RulesError] = [{} for _ in pairs]
        for j, i in enumerate(table.pair.tolist()):
            cast(dict, out[i])[table.label[j]] = table.dist(j)
        for i, err in enumerate(table.errors):
            if err is not None and not getattr(err, "no_plan", False):
                out[i] = err
        return out

    def plan_damage(
        self, attacker: Any, target: Any, attacks: Sequence[Any], options: Any = None, situation: Any = None
    ) -> Dist:
        """Return the total damage Dist of one turn using ``attacks`` in order (the 1 x 1 case of
        :meth:`turn_tables` with ``plans``); RulesError if the rules refuse the plan."""
        table = self.turn_tables([(attacker, target)], options, situation, plans=[list(attacks)])
        table.raise_for(0)
        return table.dist(0)

    # -- derived, shared by every system
    def options_of(self, options: Any) -> Any:
        """Return ``options``, or the default Options when None; RulesError for another system's."""
        options = self.Options() if options is None else options
        if not isinstance(options, self.Options):
            raise RulesError(f"expected {self.title} Options, not {type(options).__name__}", field="options")
        return options

    def situations_of(self, situation: Any, n: int) -> list[Any]:
        """Return one Situation per matchup from None (the default), one shared, or an aligned sequence."""
        situation = self.Situation() if situation is None else situation
        if isinstance(situation, self.Situation):
            return [situation] * n
        if isinstance(situation, (list, tuple)) and len(situation) == n:
            for s in situation:
                if not isinstance(s, self.Situation):
                    raise RulesError(f"expected {self.title} Situations, not {type(s).__name__}", field="situation")
            return list(situation)
        raise RulesError(f"must be one {self.title} Situation or one per matchup ({n})", field="situation")

    def defaults(self, options: Any = None, situation: Any = None) -> tuple[Any, Any]:
        """Return (options, situation) with defaults filled in, each checked to be this system's."""
        return self.options_of(options), self.situations_of(situation, 1)[0]

    def outcomes(self, attack: Any, attacker: Any, target: Any, options: Any = None, situation: Any = None):
        """Return the exact joint outcome table of one use of ``attack`` (a 1 x 1 grid)."""
        table = self.outcome_tables([attack], [attacker], [target], options, situation)
        return table.drop("matchup")

    def damage(self, attack: Any, attacker: Any, target: Any, options: Any = None, situation: Any = None) -> Dist:
        """Return the damage Dist of one use of ``attack`` (the outcome table grouped by damage)."""
        return self.damage_dists([attack], [attacker], [target], options, situation)[0]

    def damage_dists(self, attacks, attackers, targets, options=None, situation=None) -> list[Dist]:
        """Return one damage Dist per aligned matchup."""
        table = self.outcome_columns(attacks, attackers, targets, options, situation)
        return dists_from_table(table, len(attacks))

    def outcome_columns(self, attacks, attackers, targets, options=None, situation=None) -> Mapping[str, np.ndarray]:
        """Return :meth:`outcome_tables` as numpy columns (``matchup``, ``probability``, ``damage``
        and the system's extras), what the engine reads. Default: the frame's columns, each made a
        numpy array when read; a system whose tables are numpy columns already overrides it, so no
        frame is built (Annulus)."""
        return _FrameColumns(self.outcome_tables(attacks, attackers, targets, options, situation))

    def __repr__(self) -> str:
        return f"<rule system {self.name!r}: {self.title}>"

    # -- fight simulation and build space (registered by each system)
    #: the model of how a simulated creature spends actions beyond its attack plan (recovery checks,
    #: ...), passed as ``tactics`` to :meth:`simulation_side`; None: this system's simulation takes none
    tactics_class: ClassVar[type | None] = None

    def check_tactics(self, *tactics: Any) -> None:
        """Return None when each of ``tactics`` is None or an instance of :attr:`tactics_class`;
        otherwise raise RulesError (field ``tactics``): the one check of a fight's tactics, made
        where they enter the system's round (:meth:`fight_round`)."""
        for t in tactics:
            if t is None:
                continue
            if self.tactics_class is None:
                raise RulesError(f"the {self.title} round takes no tactics", field="tactics")
            if not isinstance(t, self.tactics_class):
                raise RulesError(
                    f"expected {self.title} {self.tactics_class.__name__}, not {type(t).__name__}", field="tactics"
                )

    def state_effects(
        self, attacker: Any, target: Any, options: Any = None, situation: Any = None, plan: Any = None
    ) -> set[str]:
        """Return the names of the effects of ``attacker`` fighting ``target`` that carry state from
        turn to turn (conditions, armor spent, ...): any makes ``duel`` and ``rounds_to_kill``
        leave the HP-only chain for the chain over the state (``workbench.fight.chain.state_chain``) (a duel also asks :meth:`duel_couplings`),
        else simulate. The default is the empty set: HP is the only state, the exact chain applies."""
        return set()

    def state_effects_many(
        self,
        attackers: Sequence[Any],
        targets: Sequence[Any],
        options: Any = None,
        situation: Any = None,
        plans: Sequence[Any] | None = None,
    ) -> list[set[str]]:
        """Return :meth:`state_effects` of every (``attackers[i]``, ``targets[i]``, ``plans[i]``), one
        set per pair (``explore`` asks this of its returned rows). The default asks
        :meth:`state_effects` once per distinct (attacker, target, plan) object; a system whose
        effects split into an attacker part and a target part overrides it to ask each once."""
        if len(attackers) != len(targets) or (plans is not None and len(plans) != len(attackers)):
            raise RulesError("give as many attackers, targets and plans", field="attackers")
        seen: dict[tuple[int, int, int], set[str]] = {}
        out = []
        for i, (a, t) in enumerate(zip(attackers, targets)):
            plan = None if plans is None else plans[i]
            key = (id(a), id(t), id(plan))
            if key not in seen:
                seen[key] = set(self.state_effects(a, t, options, situation, plan))
            out.append(seen[key])
        return out

    def fight_round(
        self,
        attacker: Any,
        target: Any,
        options: Any = None,
        situation: Any = None,
        plan: Any = None,
        tactics: Any = None,
        foe_tactics: Any = None,
    ) -> Any:
        """Return the system's one description of ``attacker``'s turn against ``target`` (a
        :class:`workbench.fight.round.FightRound`), from which the fight's generic code derives the
        exact chain of rounds-to-kill (``workbench.fight.chain.state_chain``), optimal play's chain
        (``state_plans``), the duel over both sides' state (``workbench.fight.duel.duel_of``) and the
        simulation (``workbench.fight.simulation.simulation_side``) (issue 33); None for a system
        whose fights carry no state beyond its pools (its simulation draws from its turn tables).
        ``tactics`` and ``foe_tactics`` (the attacker's and the target's, instances of
        :attr:`tactics_class`, None the default) are passed only to a system that has a
        ``tactics_class``: both creatures' state is read and written by both directions of a fight,
        so each direction's description knows both sides' tactics."""
        return None

    def build_levers(self, attacker: Any, attack: Any) -> list[Any]:
        """Return the levers a designer of this system changes around ``attacker`` using ``attack``
        (:class:`workbench.build_levers.Lever`: a part of the build and its alternatives, each with
        its cost), for the budget search about the build on screen. The default: none (a system
        whose changes are priced by its own build space, or with no levers)."""
        return []

    def duel_couplings(
        self,
        a: Any,
        b: Any,
        options: Any = None,
        situation: Any = None,
        plan_a: Any = None,
        plan_b: Any = None,
    ) -> set[str]:
        """Return the names of the state effects through which, in a duel of ``a`` and ``b``, one
        side's turns change the other direction's fight (the foe's attacks or tables, its HP outside
        the attacker's turns, effects between rounds): empty when each direction's state is its own,
        so the duel is exact from the two directions' chains over the state (``combat.duel``). The default is
        conservative, every state effect of both directions (the duel is simulated)."""
        return set(self.state_effects(a, b, options, situation, plan_a)) | set(
            self.state_effects(b, a, options, situation, plan_b)
        )

    #: what ``build_space_size`` counts, for explore's estimate ("budget 2 walks 1,234 choice
    #: combinations"), and how many distinct builds one of them makes at most (Annulus: an upgrade
    #: combination is built on each of three seeds)
    build_combinations_noun: str = "choice combinations"
    builds_per_combination: int = 1

    def build_choices(self, options: Any = None) -> dict[str, tuple[Any, ...]] | None:
        """Return the build choices a designer has over one attack, ``{Attack field: (values, ...)}``
        (each value one the rules text names), or None (the default): the system has no build space
        unless it defines its own ``build_space``. Declared choices make :meth:`build_space` the
        generic choice space (``workbench.systems.builds.choice_space``): a build is one catalog
        attack with at most ``budget`` fields set to another of their declared values, each such
        modification costing 1 (the workbench's convention for rules texts without a build economy)."""
        return None

    def build_space_size(self, budget: Any, options: Any = None) -> int | None:
        """Return how many candidates ``build_space(budget, ...)`` walks (counted without walking
        them), for ``explore``'s estimate before it starts; None when the system cannot tell. With
        :meth:`build_choices` declared: the candidates of the choice space
        (``workbench.systems.builds.choice_space_size``); else None."""
        if self.build_choices(options) is None:
            return None
        from .builds import choice_space_size

        return choice_space_size(self, budget, options)

    def build_space(
        self, budget: Any, targets: Sequence[Any], attacker: Any = None, options: Any = None, situation: Any = None
    ) -> Any:
        """Return the :class:`~workbench.systems.builds.BuildSpace` of every legal attack within
        ``budget`` (its cost unit is the system's) used by ``attacker`` against ``targets`` (creatures,
        or in a search against groups ``workbench.encounters.Group`` s), for ``explore(budget=...)``.
        Default: with :meth:`build_choices` declared, the choice space of the catalog attacks
        (``workbench.systems.builds.choice_space``: cost = modifications) against each group's
        creature; without, RulesError. Systems with a build economy of their own override this
        (Annulus)."""
        if self.build_choices(options) is None:
            raise RulesError(f"budget search is not defined for the {self.name} rule system; use vary=", field="budget")
        from .builds import choice_space

        targets = [getattr(t, "creature", t) for t in targets]

        return choice_space(self, budget, targets, attacker, options, situation)
