"""The Annulus rule system object: outcome tables, combat hooks, upgrade catalog, bundled catalog."""

from __future__ import annotations

from functools import cached_property
from itertools import combinations_with_replacement
from pathlib import Path
from typing import Any, Sequence

import numpy as np
import polars as pl

from ...dist import Dist
from ...errors import RulesError
from ..base import CATALOG_DIR, Catalog, RuleSystem, load_models
from . import resolve
from .models import Attack, Creature, Options, Situation
from .tactics import Tactics
from .upgrades import upgrade_frame

__all__ = ["AnnulusSystem", "SYSTEM"]

RULES = "annulus-attacks.txt"


class AnnulusSystem(RuleSystem):
    """Annulus: d6 success pools against a defense, upgrades and a d12 Trigger Die."""

    name = "annulus"
    title = "Annulus"
    rules_file = RULES
    Creature = Creature
    Attack = Attack
    Options = Options
    Situation = Situation

    # ------------------------------------------------------------------ resolution
    def outcome_tables(self, attacks, attackers, targets, options=None, situation=None) -> pl.DataFrame:
        """Return one polars frame of exact joint outcome tables, row i of the inputs = matchup i.

        See :func:`workbench.systems.annulus.resolve.outcome_tables` for the columns.
        """
        if situation is not None and not isinstance(situation, Situation):
            options, _ = self._defaults(options, None)
        else:
            options, situation = self._defaults(options, situation)
        return resolve.outcome_tables(list(attacks), list(attackers), list(targets), options, situation)

    def area_outcome_tables(self, attack: Attack, attacker: Creature, targets: Sequence[Creature],
                            options=None, situation=None) -> pl.DataFrame:
        """Return the outcome table against each creature in an area: one independent roll per
        target (CLARIFICATIONS: steps 2-5 once per creature in the area); ``matchup`` = target index."""
        if attack.area is None:
            raise RulesError(f"attack set {attack.name!r} has no area upgrade (Arc, Burst or Line)", field="attack",
                             rule=f"{RULES}: Area upgrades allow an attack to strike multiple targets")
        targets = list(targets)
        return self.outcome_tables([attack] * len(targets), [attacker] * len(targets), targets, options, situation)

    def recharge_probability(self, attack: Attack, options=None) -> float:
        """Return the chance an uncharged area set recharges at the start of a turn: a d6 showing 5
        or 6, 1/3 (annulus-attacks.txt: "If the result is a 5 or a 6, the set is recharged"); 1.0 for
        a set without an area upgrade (it never needs recharging)."""
        return 2 / 6 if attack.area else 1.0

    def upgrades(self) -> pl.DataFrame:
        """Return the catalog of all 54 upgrades (name, category, stackable, max_rank, cost,
        threshold, trigger_probability, effect, kind, description)."""
        return upgrade_frame()

    def experience(self, attack: Attack, options=None) -> int:
        """Return the Experience cost of a set: the seed plus each upgrade rank, each
        ``experience_per_rank`` (CLARIFICATIONS: each upgrade, and the seed, costs 1)."""
        options = options or Options()
        return options.experience_per_rank * attack.cost

    # ------------------------------------------------------------------ combat hooks
    def actions_per_turn(self, creature, options=None) -> int:
        """Return 2 (CLARIFICATIONS: 2 actions per turn; option ``actions``)."""
        return (options or Options()).actions

    def attack_cost(self, attack: Attack, options=None) -> int:
        """Return the actions one use costs: 2 for Charged and Flurry, 0 for Gaze and Swansong
        (free at the start of the turn), else 1 (Telegraphed: 1 to announce)."""
        alt = attack.alteration
        if alt in ("Charged", "Flurry"):
            return 2
        if alt in ("Gaze", "Swansong"):
            return 0
        return 1

    def hit_points(self, creature: Creature) -> int:
        """Return Endurance + Vitality: the damage that kills (annulus-attacks.txt: Endurance is
        removed first, then Vitality; the last Vitality removed kills)."""
        return creature.endurance + creature.vitality

    def attacks_of(self, creature: Creature) -> list[Attack]:
        """Return the creature's attack sets."""
        return list(creature.attack_sets)

    def _resolve_attacks(self, attacker: Creature, attacks: Sequence[Any]) -> list[Attack]:
        out = []
        for a in attacks:
            if isinstance(a, str):
                match = [s for s in attacker.attack_sets if s.name.lower() == a.strip().lower()]
                if not match:
                    raise RulesError(f"{attacker.name} has no attack set called {a!r}", field="attacks")
                a = match[0]
            if not isinstance(a, Attack):
                raise RulesError(f"expected an Annulus Attack or its name, not {a!r}", field="attacks")
            out.append(a)
        return out

    def _check_plan(self, attacks: list[Attack], options: Options) -> None:
        actions = sum(self.attack_cost(a, options) for a in attacks)
        if actions > self.actions_per_turn(None, options):
            raise RulesError(f"the plan needs {actions} actions, more than the {options.actions} of a turn",
                             field="attacks", rule="CLARIFICATIONS.md, Annulus: 2 actions per turn")
        for a in attacks:
            if a.alteration in ("Gaze", "Swansong", "Telegraphed") or a.area:
                if sum(x is a or x == a for x in attacks) > 1:
                    why = ("an area set must recharge before it is used again" if a.area else
                           f"a {a.alteration} attack is used at most once per round")
                    raise RulesError(f"{a.name!r} appears twice: {why}", field="attacks",
                                     rule=f"{RULES}: {a.area and 'Area sets must recharge' or a.alteration}")
        if sum(a.alteration == "Telegraphed" for a in attacks) > 1:
            raise RulesError("you may only telegraph a single attack per round", field="attacks",
                             rule=f"{RULES}: Telegraphed")

    def plan_damage(self, attacker: Creature, target: Creature, attacks: Sequence[Any], options=None,
                    situation=None) -> Dist:
        """Return the damage Dist of one turn using ``attacks`` in order; Reroll is used at most
        once in the turn (annulus-attacks.txt: "You cannot reroll more than one attack check per round")."""
        from .pools import plan_joint  # the total is the joint (regular, vital) damage summed

        return _total(plan_joint(self, attacker, target, attacks, options, situation))

    def turn_plans(self, attacker: Creature, target: Creature, options=None, situation=None) -> dict[str, Dist]:
        """Return the damage Dist of each legal way to spend one turn attacking ``target``: every
        multiset of usable sets within the actions of a turn (2-action sets alone, 1-action sets in
        pairs, an area set or a Telegraphed set at most once), each preceded by every usable free
        Gaze or Swansong set. Sets that cannot be used in the situation are left out."""
        options, situation = self._defaults(options, situation)
        usable = []
        for a in attacker.attack_sets:
            try:
                resolve.strike_parameters([a], [attacker], [target], options, situation)
            except RulesError:
                continue
            usable.append(a)
        plans = self._legal_plans(attacker, usable, options)
        from .pools import compose_joint, set_grids

        sets = list({a.name: a for plan in plans for a in plan}.values())
        grids = dict(zip((a.name for a in sets), set_grids(self, attacker, target, sets, options, situation))) \
            if sets else {}
        return {" + ".join(a.name for a in plan):
                _total(compose_joint([grids[a.name] for a in plan], situation.reroll_available))
                for plan in plans}

    def _legal_plans(self, attacker: Creature, usable: list[Attack], options: Options) -> list[list[Attack]]:
        """Return the plans of :meth:`turn_plans` built from the ``usable`` sets, in its order."""
        free = [a for a in usable if self.attack_cost(a, options) == 0]
        paid = [a for a in usable if self.attack_cost(a, options) > 0]
        budget = self.actions_per_turn(attacker, options)
        plans: list[list[Attack]] = []
        for size in range(budget, 0, -1):
            for combo in combinations_with_replacement(paid, size):
                combo = list(combo)
                try:
                    self._check_plan(free + combo, options)
                except RulesError:
                    continue
                if sum(self.attack_cost(a, options) for a in combo) + 1 <= budget and \
                        any(self.attack_cost(a, options) == 1 for a in paid):
                    continue  # an action left over for a 1-action set: not a full turn
                plans.append(free + combo)
        if not plans and free:
            plans.append(free)
        return plans

    def turn_plans_many(self, pairs: Sequence[tuple[Creature, Creature]], options=None,
                        situation=None) -> list[dict[str, Dist]]:
        """Return :meth:`turn_plans` of each (attacker, target) pair (``situation``: one, or one per
        pair), every pair's attack sets resolved in ONE ``outcome_tables`` call and each plan
        composed with the Reroll at most once per round, as ``turn_plans`` does. A set's usability
        (step 1 of the order of resolution) is checked once per (set, attacker, situation): it does
        not depend on which creature is targeted."""
        from .pools import batch_set_totals, compose_total

        options = self.options_of(options)
        pairs = list(pairs)
        sits = self.situations_of(situation, len(pairs))
        usable_of: dict[tuple, bool] = {}
        uses: list[tuple[Any, Any, Any, Any]] = []
        groups: list[list[int]] = []
        per_pair = []
        for (attacker, target), sit in zip(pairs, sits):
            usable = []
            for a in attacker.attack_sets:
                key = (id(a), id(attacker), id(sit), isinstance(target, Creature))
                if key not in usable_of:
                    try:
                        resolve.strike_parameters([a], [attacker], [target], options, sit)
                        usable_of[key] = True
                    except RulesError:
                        usable_of[key] = False
                if usable_of[key]:
                    usable.append(a)
            plans = self._legal_plans(attacker, usable, options)
            sets = list({a.name: a for plan in plans for a in plan}.values())
            index = {a.name: len(uses) + j for j, a in enumerate(sets)}
            groups.append(list(index.values()))
            uses.extend((a, attacker, target, sit) for a in sets)
            per_pair.append((plans, index, sit.reroll_available))
        totals = batch_set_totals(self, uses, groups, options)
        out = []
        for plans, index, reroll in per_pair:
            out.append({" + ".join(a.name for a in plan):
                        Dist(compose_total([totals[index[a.name]] for a in plan], reroll), 0, _trusted=True)
                        for plan in plans})
        return out

    # ------------------------------------------------------------------ catalog
    @cached_property
    def _catalog(self) -> Catalog:
        return load_catalog(CATALOG_DIR / "annulus")

    def catalog(self) -> Catalog:
        """Return the bundled creatures and attack sets (workbench/catalog/annulus/*.toml)."""
        return self._catalog

    # -- fight simulation and build space (registered by each system)
    tactics_class = Tactics

    def simulation_side(self, me, foe, options=None, situation=None, plan=None, tactics=None):
        """Return the AnnulusSide of ``me`` attacking ``foe`` (annulus/simulation.py)."""
        from .simulation import AnnulusSide

        return AnnulusSide(me, foe, options, situation, plan, tactics)

    def state_effects(self, attacker, target, options=None, situation=None, plan=None) -> set[str]:
        """Return the stateful effects of ``attacker`` fighting ``target`` (annulus/simulation.py)."""
        from .simulation import state_effects

        return state_effects(self, attacker, target, options, situation)

    def build_space(self, budget, targets, attacker=None, options=None, situation=None):
        """Return every legal attack set within ``budget`` Experience, collapsed per damage signature
        against ``targets`` (annulus/builds.py)."""
        from .builds import build_space

        return build_space(budget, targets, attacker, options, situation)


def _total(joint: np.ndarray) -> Dist:
    """Return the Dist of regular + vital damage from their joint pmf ``joint[r, v]``."""
    r, v = np.indices(joint.shape)
    total = np.bincount((r + v).ravel(), weights=joint.ravel())
    return Dist(total / total.sum(), 0, _trusted=True)


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
