"""The Last Odyssey rule system: outcome tables, multi-target outcomes, combat hooks and catalog."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations_with_replacement
from typing import Any

import polars as pl

from ...errors import RulesError
from ..base import RuleSystem
from ..catalog import Catalog
from . import catalog as _catalog
from . import models as m
from .models import Attack, Creature, Options, Situation
from .resolve import multi_target_frame, outcome_frame, resolve_grid

__all__ = ["LastOdyssey", "SYSTEM"]

CLAR = "CLARIFICATIONS.md, Last Odyssey"


class LastOdyssey(RuleSystem):
    """Last Odyssey: one d10 hit die decides the hit and adds to the damage (last-odyssey-attacks.txt)."""

    name = "last_odyssey"
    compare_seconds_per_row = 3.9e-4  # measured (docs/limits.md, Bounded work)
    title = "Last Odyssey"
    rules_file = "last-odyssey-attacks.txt"
    # the model classes (public: wb.system(...).Creature, ...); in this class body the bare names are these
    # attributes, so method annotations name the classes through the models module: m.Creature, ...
    Creature = Creature
    Attack = Attack
    Options = Options
    Situation = Situation
    attacks_field = "abilities"

    def __init__(self) -> None:
        self._catalog: Catalog | None = None

    # ------------------------------------------------------------------ resolution
    def outcome_tables(
        self,
        attacks: Sequence[m.Attack],
        attackers: Sequence[m.Creature],
        targets: Sequence[m.Creature],
        options: m.Options | None = None,
        situation: Any = None,
    ) -> pl.DataFrame:
        """Return the joint outcome tables of aligned matchups (row i = matchup i).

        Columns: matchup, probability, damage, hit, status (the ability's status inflicted),
        shell_damage and hp_damage (the Shell absorbs damage first). ``situation`` is one
        Situation or one per matchup.
        """
        grid = resolve_grid(list(attacks), list(attackers), list(targets), self.options_of(options), situation)
        return outcome_frame(grid)

    def multi_target_outcomes(
        self,
        attack: m.Attack,
        attacker: m.Creature,
        targets: Sequence[m.Creature],
        options: m.Options | None = None,
        situation: Any = None,
        by_die: bool = False,
    ) -> pl.DataFrame:
        """Return the exact joint outcome of one multi-target use of ``attack`` against ``targets``.

        One hit die for all targets (last-odyssey-attacks.txt, Multi Attacks), so the per-target
        columns hit_i, damage_i, status_i are correlated through it; ``damage`` is their sum.
        ``situation`` is one Situation or one per target.
        """
        targets = list(targets)
        if not isinstance(attack, Attack):
            raise RulesError(f"expected a Last Odyssey Attack, not {type(attack).__name__}", field="attack")
        if not targets:
            raise RulesError("need at least one target", field="targets")
        if isinstance(attack.targets, int) and len(targets) > attack.targets:  # an int, or "all" (validate)
            raise RulesError(
                f"{attack.name} may target {attack.targets} character(s), not {len(targets)}",
                field="targets",
                rule="last-odyssey-attacks.txt: Multi Attacks",
            )
        grid = resolve_grid(
            [attack] * len(targets), [attacker] * len(targets), targets, self.options_of(options), situation
        )
        return multi_target_frame(grid, by_die=by_die)

    # ------------------------------------------------------------------ combat hooks
    def actions_per_turn(self, creature: m.Creature, options: Any = None) -> int:
        """Return action points per turn: 2 at tiers 1-5, 3 at tiers 6-10 (CLARIFICATIONS.md)."""
        return creature.action_points

    def attack_cost(self, attack: m.Attack, options: Any = None) -> int:
        """Return the action points one use of ``attack`` costs (its ``ap_cost``)."""
        return attack.ap_cost

    def uses_per_turn(self, attacker: m.Creature, attack: m.Attack, options: Any = None) -> int:
        """Return how often one turn can use ``attack`` alone: action points // its AP cost, and at
        most MP // its MP cost (srd/heroes/numbers.md: "Characters may never use an ability that
        costs more than their current MP"; 0 when the MP pays for no use)."""
        n = super().uses_per_turn(attacker, attack, options)
        return n if attack.mp_cost == 0 else min(n, attacker.mp // attack.mp_cost)

    def hit_points(self, creature: m.Creature) -> int:
        """Return the creature's HP (its Shell is separate: :meth:`shell_points`)."""
        return creature.hp

    def shell_points(self, creature: m.Creature) -> int:
        """Return the Shell points that take damage before HP (CLARIFICATIONS.md: Shell)."""
        return creature.shell_points

    def health(self, creature: m.Creature) -> int:
        """Return HP plus Shell points: the total damage that downs the creature."""
        return creature.hp + creature.shell_points

    def attacks_of(self, creature: m.Creature) -> list[m.Attack]:
        """Return the creature's attack abilities (strikes, spells and sleights)."""
        return list(creature.abilities)

    def hurts_between_rounds(self, me: m.Creature, foe: m.Creature, options: Any = None, situation: Any = None) -> bool:
        """Return True when one of ``me``'s phase abilities (played between rounds: Miasma's Poisoned,
        Dragonslayer, Foretell Doom; last_odyssey/round.py) can affect ``foe``: the same test as
        the state it names in :meth:`state_effects`."""
        from .round import phase_effects

        return bool(phase_effects(me, foe))

    def usability(self, attacks, attackers, targets, options=None, situation=None) -> list:
        """Return each matchup's refusal by the ability's reach (last-odyssey-attacks.txt, Ability
        Types: melee only from the front row, into the front row), None when usable."""
        from .resolve import check_reach

        out: list = []
        for a, sit in zip(attacks, self.situations_of(situation, len(attacks))):
            try:
                check_reach(a, sit)
                out.append(None)
            except RulesError as exc:
                out.append(exc)
        return out

    def neutral_attacker(self, attack: m.Attack) -> m.Creature:
        """Return tier 1, every stat 0, holding only ``attack`` (named after it), with the largest MP
        pool (models.MAX_MP), so a bare attack is compared by its dice, not by an MP pool it has none of."""
        return Creature(name=attack.name, hp=1, mp=m.MAX_MP, abilities=(attack,))

    def plan_items(self, attacker: m.Creature, plan, options) -> list[m.Attack]:
        """Return the plan's abilities, or RulesError if their action points exceed the attacker's
        (CLARIFICATIONS.md: 2 action points at tiers 1-5, 3 at tiers 6-10) or their MP costs exceed
        its MP (srd/heroes/numbers.md: "Characters may never use an ability that costs more than
        their current MP")."""
        items = [self.attack_named(attacker, a) for a in plan]
        cost = sum(a.ap_cost for a in items)
        ap = self.actions_per_turn(attacker, options)
        if cost > ap:
            raise RulesError(
                f"these abilities cost {cost} action points; {attacker.name} has {ap} per turn",
                field="attacks",
                rule=f"{CLAR}: action points per turn",
            )
        mp = sum(a.mp_cost for a in items)
        if mp > attacker.mp:
            raise RulesError(
                f"these abilities cost {mp} MP; {attacker.name} has {attacker.mp} MP",
                field="attacks",
                rule=m.MP_RULE,
            )
        return items

    def legal_plans(
        self, attacker: m.Creature, target: m.Creature, options, situation, action_points: int | None = None
    ) -> list[tuple[str, list]]:
        """Return each full turn of damaging abilities: a multiset of the attacker's strikes and
        spells whose action points fit the turn and whose MP costs fit its MP (``attacker.mp``: full
        at the start of a fight; srd/heroes/numbers.md: "Characters may never use an ability that
        costs more than their current MP"), to which no further ability fits. Abilities
        illegal in ``situation`` (melee from the back row or into a guarded back row) are left out.
        Each use has its own hit die and the target is taken as it stands at the start of the turn.
        ``action_points``: the action points left instead of the turn's (the rest of a turn whose
        target fell, planned again against the next foe: CLARIFICATIONS.md, Encounters)."""
        from .resolve import check_reach

        usable = []
        for a in attacker.abilities:
            if not a.deals_damage:
                continue
            try:
                check_reach(a, situation)
            except RulesError:
                continue
            usable.append(a)
        if not usable:
            return []
        return [
            (label, [usable[i] for i in idx])
            for label, idx in _combos(
                usable,
                self.actions_per_turn(attacker, options) if action_points is None else action_points,
                attacker.mp,
            )
        ]

    # ------------------------------------------------------------------ catalog
    def catalog(self) -> Catalog:
        """Return the bundled creatures (from the published stat lines) and their abilities."""
        if self._catalog is None:
            self._catalog = _catalog.load_catalog()
        return self._catalog

    # ------------------------------------------------------------------ build space
    def build_choices(self, options: Any = None) -> dict[str, tuple[Any, ...]]:
        """Return the choices a designer has over one Last Odyssey ability, each value one the rules
        name: ``kind`` the three types of attacks (last-odyssey-attacks.txt: "There are three types
        of attacks: strikes, spells, and sleights"; a sleight must name the status it inflicts, so
        the model refuses a damaging ability without one turned sleight) and ``element`` colorless
        (None) or one of the nine of the element table (CLARIFICATIONS.md, Last Odyssey: "Elements
        (attack row, target column; colorless on either side -> 1)"). The text names no value of an
        ability's own multiplier, so it is not a choice. explore's budget counts these modifications
        (workbench/systems/builds.py, choice_space)."""
        from .elements import ELEMENTS

        return {"kind": m.KINDS, "element": (None, *ELEMENTS)}

    # -- the fight: one round description (last_odyssey/round.py), interpreted by workbench/fight/
    def build_levers(self, attacker, attack):
        """Return the levers of a budget search about the build on screen (Last Odyssey: the ability's multiplier, its element, attack and accuracy;
        ``levers.py`` of this package)."""
        from .levers import levers

        return levers(self, attacker, attack)

    def fight_round(self, attacker, target, options=None, situation=None, plan=None):
        """Return the round of ``attacker`` against ``target`` (last_odyssey/round.py): its turn
        (the plan of the foe's Shell and its MP left, each ability drawn as the Shell stands) and,
        with phase abilities that can affect the target, its phases between rounds."""
        from .round import fight_round

        return fight_round(self, attacker, target, options, situation, plan)

    def state_effects(self, attacker, target, options=None, situation=None, plan=None) -> set[str]:
        """Return the state the fight carries (last_odyssey/round.py): "shell" when ``target`` has
        Shell points, "mp" when one of the attacker's damaging abilities costs MP (spent from turn
        to turn, srd/heroes/numbers.md; with a ``plan`` given as a list or label, only when one of
        its abilities costs MP), and each phase ability that can affect the target."""
        from .round import state_effects

        return state_effects(self, attacker, target, plan)

    def duel_couplings(self, a, b, options=None, situation=None, plan_a=None, plan_b=None) -> set[str]:
        """Return the state effects of the duel of ``a`` and ``b`` through which one side's turns or
        phases change the other direction's fight (last_odyssey/round.py: the phase abilities; the
        MP and the Shell are one-sided)."""
        from .round import duel_couplings

        return duel_couplings(self, a, b, options, situation, plan_a, plan_b)


def _combos(usable: list[Attack], ap: int, mp: int) -> list[tuple[str, list[int]]]:
    """Return (label, indices into ``usable``) of each plan :meth:`LastOdyssey.turn_plans` keeps, in
    its order: multisets within ``ap`` action points and ``mp`` MP to which no further ability fits
    (in both the action points and the MP left; the first multiset of a repeated label wins)."""
    # (plain integers: a few abilities, thousands of calls; numpy's per-call cost dominated)
    costs = [int(a.ap_cost) for a in usable]
    mps = [int(a.mp_cost) for a in usable]
    cheapest = min(costs)
    max_len = ap if cheapest == 0 else ap // max(cheapest, 1)
    seen: dict[str, list[int]] = {}
    for size in range(max_len, 0, -1):
        for combo in combinations_with_replacement(range(len(usable)), size):
            cost, spent = sum(costs[i] for i in combo), sum(mps[i] for i in combo)
            if cost > ap or spent > mp:
                continue
            if cheapest > 0 and any(c <= ap - cost and m <= mp - spent for c, m in zip(costs, mps)):
                continue  # a further ability fits: not a full turn
            seen.setdefault(" + ".join(usable[i].name for i in combo), list(combo))
    return list(seen.items())


SYSTEM = LastOdyssey()
