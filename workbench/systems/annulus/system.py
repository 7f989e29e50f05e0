"""The Annulus rule system object: outcome tables, combat hooks, upgrade catalog, bundled catalog."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from itertools import combinations, combinations_with_replacement
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from ...errors import RulesError
from ..base import RuleSystem
from ..catalog import CATALOG_DIR, Catalog, load_models
from . import models as m
from . import resolve
from .models import Attack, Creature, Options, Situation
from .tactics import Tactics
from .upgrades import upgrade_frame

__all__ = ["AnnulusSystem", "SYSTEM"]

RULES = "annulus-attacks.txt"


class AnnulusSystem(RuleSystem):
    """Annulus: d6 success pools against a defense, upgrades and a d12 Trigger Die."""

    name = "annulus"
    compare_seconds_per_row = 2.6e-4  # measured (docs/limits.md, Bounded work)
    title = "Annulus"
    rules_file = RULES
    # the model classes (public: wb.system(...).Creature, ...); in this class body the bare names are these
    # attributes, so method annotations name the classes through the models module: m.Creature, ...
    Creature = Creature
    Attack = Attack
    Options = Options
    Situation = Situation
    attacks_field = "attack_sets"

    # ------------------------------------------------------------------ resolution
    def outcome_tables(self, attacks, attackers, targets, options=None, situation=None) -> pl.DataFrame:
        """Return one polars frame of exact joint outcome tables, row i of the inputs = matchup i.

        See :func:`workbench.systems.annulus.resolve.outcome_tables` for the columns.
        """
        options, situation = self._filled(options, situation)
        return resolve.outcome_tables(list(attacks), list(attackers), list(targets), options, situation)

    def outcome_columns(self, attacks, attackers, targets, options=None, situation=None) -> dict[str, np.ndarray]:
        """Return :meth:`outcome_tables` as numpy columns, no frame built
        (:func:`~workbench.systems.annulus.resolve.outcome_columns`)."""
        options, situation = self._filled(options, situation)
        return resolve.outcome_columns(list(attacks), list(attackers), list(targets), options, situation)

    def _filled(self, options: Any, situation: Any) -> tuple[Any, Any]:
        """Return (options, situation) with defaults filled in; a sequence of situations (one per
        matchup) as given, resolve checks each."""
        if situation is not None and not isinstance(situation, Situation):
            return self.defaults(options, None)[0], situation
        return self.defaults(options, situation)

    def usability(self, attacks, attackers, targets, options=None, situation=None) -> list:
        """Return each matchup's refusal by step 1 of the order of resolution (airless, range band,
        Gaze sight, Swansong Vitality), None when usable: one vectorised pass."""
        options = self.options_of(options)
        sits = self.situations_of(situation, len(attacks))
        out: list = [None] * len(attacks)
        if attacks:
            resolve.strike_parameters(list(attacks), list(attackers), list(targets), options, sits, refusals=out)
        return out

    def area_outcome_tables(
        self, attack: m.Attack, attacker: m.Creature, targets: Sequence[m.Creature], options=None, situation=None
    ) -> pl.DataFrame:
        """Return the outcome table against each creature in an area: one independent roll per
        target (CLARIFICATIONS: steps 2-5 once per creature in the area); ``matchup`` = target index."""
        if attack.area is None:
            raise RulesError(
                f"attack set {attack.name!r} has no area upgrade (Arc, Burst or Line)",
                field="attack",
                rule=f"{RULES}: Area upgrades allow an attack to strike multiple targets",
            )
        targets = list(targets)
        return self.outcome_tables([attack] * len(targets), [attacker] * len(targets), targets, options, situation)

    def recharge_probability(self, attack: m.Attack, options=None) -> float:
        """Return the chance an uncharged area set recharges at the start of a turn: a d6 showing 5
        or 6, 1/3 (annulus-attacks.txt: "If the result is a 5 or a 6, the set is recharged"); 1.0 for
        a set without an area upgrade (it never needs recharging)."""
        return 2 / 6 if attack.area else 1.0

    def upgrades(self) -> pl.DataFrame:
        """Return the catalog of all 54 upgrades (name, category, stackable, max_rank, cost,
        threshold, trigger_probability, effect, kind, description)."""
        return upgrade_frame()

    def experience(self, attack: m.Attack, options=None) -> int:
        """Return the Experience cost of a set: the seed plus each upgrade rank, each
        ``experience_per_rank`` (CLARIFICATIONS: each upgrade, and the seed, costs 1)."""
        options = options or Options()
        return options.experience_per_rank * attack.cost

    def build_cost(self, creature: m.Creature, options=None) -> int:
        """Return the Experience spent on ``creature``'s attack sets: the sum of :meth:`experience`
        over them (the unit of ``build_space(budget)``; CLARIFICATIONS.md, Annulus: "Each upgrade,
        and the Damage seed itself, costs 1 Experience; a stackable upgrade costs 1 per rank")."""
        return sum(self.experience(a, options) for a in creature.attack_sets)

    # ------------------------------------------------------------------ combat hooks
    def actions_per_turn(self, creature, options=None) -> int:
        """Return 2 (CLARIFICATIONS: 2 actions per turn; option ``actions``)."""
        return (options or Options()).actions

    def attack_cost(self, attack: m.Attack, options=None) -> int:
        """Return the actions one use costs: 2 for Charged and Flurry, 0 for Gaze and Swansong
        (free at the start of the turn), else 1 (Telegraphed: 1 to announce)."""
        alt = attack.alteration
        if alt in ("Charged", "Flurry"):
            return 2
        if alt in ("Gaze", "Swansong"):
            return 0
        return 1

    pools = ("endurance", "vitality")
    attack_noun = "attack set"

    def hit_pools(self, creature: m.Creature) -> tuple[int, int]:
        """Return (Endurance, Vitality): annulus-attacks.txt, "Endurance is removed first, then
        Vitality ... If you remove the last Vitality from a creature, that creature dies"."""
        assert creature.vitality is not None  # validate() fills in the default Vitality
        return (int(creature.endurance), int(creature.vitality))

    def attacks_of(self, creature: m.Creature) -> list[m.Attack]:
        """Return the creature's attack sets."""
        return list(creature.attack_sets)

    def damage_keys(self, pairs, targets, options=None, situation=None) -> np.ndarray:
        """Return matchup ids equal when the damage is: one use's damage over (Endurance, Vitality)
        depends only on the resolved dice parameters of CLARIFICATIONS, Annulus, order of resolution
        (the pool and the pool of a reroll, Reroll, automatic successes, the defense, the Bully /
        assassination bonus, the Trigger Die rolled twice, Critical, Flurry, Vital) and the turn on the
        uses a turn allows and on what holds for its first use only (the assassination bonus, First
        Blood's advantage, Killing Spree's successes: pools.py). Each distinct (set, attacker, target profile) is resolved once by
        ``strike_parameters``; a refused matchup keeps an id of its own."""
        rows, no, inv, shape = self.damage_parameters(pairs, targets, options, situation)
        if rows is None:
            return np.zeros(shape, dtype=np.int64)
        K = np.column_stack([rows, np.where(no, np.arange(no.size), -1)])  # a refused matchup merges with none
        K = K - K.min(axis=0)
        span = K.max(axis=0) + 1
        if np.prod(span.astype(np.float64)) < 2.0**62:  # one integer per row (mixed radix): a 1-D unique
            code = K @ np.concatenate(([1], np.cumprod(span[:-1]))).astype(np.int64)
            _, key = np.unique(code, return_inverse=True)
        else:
            _, key = np.unique(K, axis=0, return_inverse=True)
        return key.ravel()[inv].reshape(shape)

    #: the resolved dice parameters of CLARIFICATIONS, Annulus, order of resolution that decide one
    #: use's damage (resolve.strike_parameters' columns)
    DAMAGE_PARAMETERS = (
        "pool",
        "pool_reroll",
        "reroll",
        "auto",
        "defense",
        "bonus",
        "twice",
        "crit",
        "flurry",
        "vital",
        "assassination",
        "first_blood",
        "spree",
    )

    def damage_parameters(self, pairs, targets, options=None, situation=None):
        """Return (rows, refused, inv, shape) of the pairs x targets grid: one int64 row per distinct
        (set, attacker, target profile) of its :data:`DAMAGE_PARAMETERS` and the uses a turn allows,
        whether the rules refuse it, and ``inv`` mapping each grid cell (pair-major, ``shape``) to
        its row. Each distinct row is resolved once by ``resolve.strike_parameters``; ``rows`` is
        None for an empty grid. :meth:`damage_keys` and ``builds.maths_keys`` read it."""
        from ..base import _factorize

        options = self.options_of(options)
        sit = self.situations_of(situation, 1)[0]
        seeds = ("agility", "toughness", "insight")
        pid = _factorize(
            [(tuple(sorted(x.upgrades.items())), x.counter_type, c.size, c.level, c.vitality) for c, x in pairs]
        )
        seed = np.array([seeds.index(x.defense) for _, x in pairs], dtype=np.int64)
        # senses: a Blind sting on a target that perceives otherwise grants no advantage
        prof = _factorize([(t.size, getattr(t, d), t.awareness, bool(t.senses)) for t in targets for d in seeds])
        prof = prof.reshape(len(targets), 3)
        base = pid[:, None] * (int(prof.max(initial=0)) + 1) + prof[:, seed].T
        if base.size == 0:
            return None, np.zeros(0, dtype=bool), np.zeros(0, dtype=np.int64), base.shape
        _, first, inv = np.unique(base.ravel(), return_index=True, return_inverse=True)
        p_of, t_of = np.divmod(first, len(targets))
        refused: list = [None] * first.size
        P = resolve.strike_parameters(
            [pairs[p][1] for p in p_of],
            [pairs[p][0] for p in p_of],
            [targets[t] for t in t_of],
            options,
            sit,
            refusals=refused,
        )
        # (one per pair, not per row: a pair meets every target profile)
        per_pair = {p: self.uses_per_turn(pairs[p][0], pairs[p][1], options) for p in set(p_of.tolist())}
        k = np.array([per_pair[p] for p in p_of.tolist()], dtype=np.int64)
        rows = np.column_stack([np.asarray(P[c]).astype(np.int64) for c in self.DAMAGE_PARAMETERS] + [k])
        no = np.array([r is not None for r in refused], dtype=bool)
        return rows, no, inv.ravel(), base.shape

    def neutral_attacker(self, attack: m.Attack) -> m.Creature:
        """Return size 5, level 1, every defense 0, holding only ``attack`` (named after it)."""
        return Creature(
            name=attack.name, level=1, endurance=1, agility=0, toughness=0, insight=0, attack_sets=(attack,)
        )

    def uses_per_turn(self, attacker: m.Creature, attack: m.Attack, options=None) -> int:
        """Return 1 for a free (Gaze, Swansong), Telegraphed or area set (once per round: "you may
        only telegraph a single attack per round"; an area set must recharge), else actions // cost."""
        cost = self.attack_cost(attack, options)
        if cost == 0 or attack.area or attack.alteration == "Telegraphed":
            return 1
        return self.actions_per_turn(attacker, options) // cost

    def _check_plan(self, attacks: list[m.Attack], options: m.Options) -> None:
        actions = sum(self.attack_cost(a, options) for a in attacks)
        if actions > self.actions_per_turn(None, options):
            raise RulesError(
                f"the plan needs {actions} actions, more than the {options.actions} of a turn",
                field="attacks",
                rule="CLARIFICATIONS.md, Annulus: 2 actions per turn",
            )
        for a in attacks:
            if a.alteration in ("Gaze", "Swansong", "Telegraphed") or a.area:
                if sum(x is a or x == a for x in attacks) > 1:
                    why = (
                        "an area set must recharge before it is used again"
                        if a.area
                        else f"a {a.alteration} attack is used at most once per round"
                    )
                    raise RulesError(
                        f"{a.name!r} appears twice: {why}",
                        field="attacks",
                        rule=f"{RULES}: {a.area and 'Area sets must recharge' or a.alteration}",
                    )
        if sum(a.alteration == "Telegraphed" for a in attacks) > 1:
            raise RulesError(
                "you may only telegraph a single attack per round", field="attacks", rule=f"{RULES}: Telegraphed"
            )

    def plan_items(self, attacker: m.Creature, plan, options) -> list[m.Attack]:
        """Return the plan's sets, or RulesError if the turn's actions or the once-per-round rules
        refuse it (2 actions a turn; Gaze, Swansong, Telegraphed and area sets at most once)."""
        items = [self.attack_named(attacker, a) for a in plan]
        self._check_plan(items, options)
        return items

    def legal_plans(self, attacker: m.Creature, target: m.Creature, options, situation) -> list[tuple[str, list]]:
        """Return every legal way to spend one turn: every multiset of usable sets within the actions
        of a turn (2-action sets alone, 1-action sets in pairs, an area set or a Telegraphed set at
        most once) to which no further set fits (an area set alone is a full turn when the only other
        one-action set is itself: it must recharge), each preceded by every subset of the usable free
        Gaze and Swansong sets (a free set may be declined), in every order whose turn can differ
        (:meth:`_orders`; a turn is composed use by use, pools.py). Sets that cannot be used in the
        situation (CLARIFICATIONS, order of resolution, step 1) are left out."""
        sets = list(attacker.attack_sets)
        refused = self.usability(sets, [attacker] * len(sets), [target] * len(sets), options, situation)
        usable = [a for a, why in zip(sets, refused) if why is None]
        sit = self.situations_of(situation, 1)[0]
        aware = sit.target_awareness or target.awareness
        first_matters = (aware != "alert" and not sit.target_petrified) or sit.target_setup
        plans = self._legal_plans(attacker, usable, options)
        ordered = self._ordered(plans, usable, first_matters, bool(sit.after_kill))
        return [(" + ".join(a.name for a in plan), plan) for plan in ordered]

    @staticmethod
    def _state_readers(plan: list[m.Attack], after_kill: bool) -> set[int]:
        """Return the ids of the sets of ``plan`` whose use depends on the uses before it beyond the
        first use's state (pools.py): First Blood (undamaged while every earlier use dealt 0), Reroll
        when two uses of the turn could spend the round's one Reroll, Killing Spree after a kill when
        two uses could take its +2 (a lone Reroll or Killing Spree use gets it in any order)."""
        rerolls = sum(a.has("Reroll") for a in plan)
        sprees = sum(a.has("Killing Spree") for a in plan) if after_kill else 0
        return {
            id(a)
            for a in plan
            if a.has("First Blood") or (rerolls > 1 and a.has("Reroll")) or (sprees > 1 and a.has("Killing Spree"))
        }

    def _ordered(
        self, plans: list[list[m.Attack]], usable: list[m.Attack], first_matters: bool, after_kill: bool = False
    ) -> list[list[m.Attack]]:
        """Return every order of each plan's free part and of its paid part (free sets first: "at the
        beginning of your turn") that can change the turn (:meth:`_orders`), or, past
        ``MAX_ORDERED_PLANS`` plans, each plan once with its First Blood sets first."""
        out: list[list[m.Attack]] = []
        for plan in plans:
            free = [a for a in plan if a.alteration in ("Gaze", "Swansong")]
            paid = [a for a in plan if a.alteration not in ("Gaze", "Swansong")]
            readers = self._state_readers(plan, after_kill)
            heads = self._orders(free, usable, first_matters, readers)
            tails = self._orders(paid, usable, first_matters and not free, readers)
            for h in heads:
                for t in tails:
                    out.append(h + t)
                    if len(out) > m.MAX_ORDERED_PLANS:
                        return [
                            [a for a in plan if a.alteration in ("Gaze", "Swansong")]
                            + sorted(
                                (a for a in plan if a.alteration not in ("Gaze", "Swansong")),
                                key=lambda a: not a.has("First Blood"),
                            )
                            for plan in plans
                        ]
        return out

    def _orders(
        self, items: list[m.Attack], usable: list[m.Attack], first_matters: bool, readers: set[int]
    ) -> list[list[m.Attack]]:
        """Return the orders of ``items`` whose turns can differ: every distinct order, except that two
        neighbouring sets that read no state (not in ``readers``, :meth:`_state_readers`) are kept in set
        order, since both meet the same state (they change only what neither reads), and
        the first use is free to vary only when it is special (``first_matters``: a target not yet
        Alert, or a Setup given as the situation). The listed order of ``items`` comes first."""
        rank = {id(a): i for i, a in enumerate(usable)}
        for a in items:
            rank.setdefault(id(a), len(rank))
        order = sorted(
            set(rank[id(a)] for a in items), key=lambda r: min(i for i, a in enumerate(items) if rank[id(a)] == r)
        )
        by_rank = {rank[id(a)]: a for a in items}
        counts = {r: sum(rank[id(a)] == r for a in items) for r in order}
        plain = {r: id(by_rank[r]) not in readers for r in order}
        out: list[list[m.Attack]] = []

        def grow(seq: list[int]) -> None:
            if len(seq) == len(items):
                out.append([by_rank[r] for r in seq])
                return
            for r in order:
                if not counts[r]:
                    continue
                prev = seq[-1] if seq else None
                special = len(seq) == 1 and first_matters  # the first use is special: it may go anywhere
                if prev is not None and plain[prev] and plain[r] and r < prev and not special:
                    continue
                counts[r] -= 1
                seq.append(r)
                grow(seq)
                seq.pop()
                counts[r] += 1

        grow([])
        return out

    def plan_tables(self, plans, options) -> list[np.ndarray]:
        """Return the joint (regular, vital) pmf of each plan's turn (:func:`pools.plan_joints`)."""
        from .pools import plan_joints

        return plan_joints(self, plans, options)

    def _room_for_more(self, plan: list[m.Attack], paid: list[m.Attack], budget: int, options: m.Options) -> bool:
        """Return whether some paid set could still be added to ``plan`` within the turn's actions and
        the once-per-round rules (an area set that must recharge, a second Telegraphed attack)."""
        left = budget - sum(self.attack_cost(a, options) for a in plan)
        for extra in paid:
            if self.attack_cost(extra, options) <= left:
                try:
                    self._check_plan(plan + [extra], options)
                except RulesError:
                    continue
                return True
        return False

    def _legal_plans(self, attacker: m.Creature, usable: list[m.Attack], options: m.Options) -> list[list[m.Attack]]:
        """Return the plans of :meth:`legal_plans` built from the ``usable`` sets, in its order."""
        free = [a for a in usable if self.attack_cost(a, options) == 0]
        paid = [a for a in usable if self.attack_cost(a, options) > 0]
        budget = self.actions_per_turn(attacker, options)
        # a free Gaze or Swansong set may be declined: every subset, all of them first (a tie in the
        # plan chooser goes to the turn that uses them)
        declined = [f for r in range(len(free), -1, -1) for f in combinations(free, r)]
        plans: list[list[Attack]] = []
        for size in range(budget, 0, -1):
            for picked in combinations_with_replacement(paid, size):
                combo = list(picked)
                try:
                    self._check_plan(free + combo, options)
                except RulesError:
                    continue
                if self._room_for_more(free + combo, paid, budget, options):
                    continue  # another set still fits this turn: not a full turn
                plans.extend(list(f) + combo for f in declined)
        if not plans and free:
            plans.extend(list(f) for f in declined if f)
        return plans

    # ------------------------------------------------------------------ catalog
    @cached_property
    def _catalog(self) -> Catalog:
        return load_catalog(CATALOG_DIR / "annulus")

    def catalog(self) -> Catalog:
        """Return the bundled creatures and attack sets (workbench/catalog/annulus/*.toml)."""
        return self._catalog

    # -- fight simulation and build space (registered by each system)
    tactics_class = Tactics

    def state_effects(self, attacker, target, options=None, situation=None, plan=None) -> set[str]:
        """Return the stateful effects of ``attacker`` fighting ``target`` (annulus/effects.py)."""
        from .effects import state_effects

        return state_effects(self, attacker, target, options, situation)

    def state_effects_many(self, attackers, targets, options=None, situation=None, plans=None) -> list[set[str]]:
        """Return the stateful effects of every (attacker, target) pair, each part asked once
        (annulus/effects.py; the plan changes none of them)."""
        from .effects import state_effects_many

        if len(attackers) != len(targets) or (plans is not None and len(plans) != len(attackers)):
            raise RulesError("give as many attackers, targets and plans", field="attackers")
        return state_effects_many(self, list(attackers), list(targets), options, situation)

    #: explore's estimate: "budget 3 walks 315 upgrade combinations", each built on three seeds
    build_combinations_noun = "upgrade combinations"
    builds_per_combination = 3

    def fight_round(self, attacker, target, options=None, situation=None, plan=None, tactics=None, foe_tactics=None):
        """Return the one description of ``attacker``'s turn against ``target`` (annulus/round.py),
        the attacker played with ``tactics`` and the target with ``foe_tactics`` (:class:`Tactics`;
        None the default), from which rounds-to-kill's
        exact chain, optimal play's, the duel over both sides' state and the simulation are derived
        (workbench/fight/)."""
        from .round import AnnulusRound

        self.check_tactics(tactics, foe_tactics)
        return AnnulusRound(self, attacker, target, options, situation, plan, tactics, foe_tactics)

    def build_space(self, budget, targets, attacker=None, options=None, situation=None):
        """Return every legal attack set within ``budget`` Experience, collapsed per damage signature
        against ``targets``: creatures, or groups (``workbench.encounters.Group``) in a search against
        groups, where Killing Spree counts (annulus/builds.py)."""
        from .builds import build_space

        return build_space(self, budget, targets, attacker, options, situation)

    def build_space_size(self, budget, options=None):
        """Return how many upgrade combinations ``build_space`` walks for ``budget`` (annulus/builds.py)."""
        from .builds import build_space_size

        return build_space_size(self, budget, options)


def load_catalog(folder: Path) -> Catalog:
    """Return the Catalog read from ``attacks.toml`` and ``creatures.toml`` in ``folder``; a malformed
    entry raises RulesError naming the file and the field."""
    cat = Catalog("annulus", attacks=load_models(folder / "attacks.toml", "attack", Attack))

    def resolve_sets(row: dict) -> dict:
        row["attack_sets"] = [cat.attack(s) if isinstance(s, str) else s for s in row.get("attack_sets", [])]
        return row

    cat.creatures = load_models(folder / "creatures.toml", "creature", Creature, resolve_sets)
    return cat


SYSTEM = AnnulusSystem()
