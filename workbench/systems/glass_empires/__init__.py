"""Glass Empires: 2d6 Strike Saves in five bands, flat weapon damage, armor points (glass-empires-attack.txt).

``wb.system("glass_empires")`` returns :data:`SYSTEM`, with ``Creature``, ``Attack`` (a weapon),
``Options`` and ``Situation``. Outcome columns: ``damage`` (to HP), ``ap_damage`` (armor points
removed), ``shield_breaks`` (1: the target's Ray Shield broke), ``crit`` / ``fumble`` (on any Strike), ``jam`` (the weapon
is still jammed after the table's last Attack; CLARIFICATIONS.md "Jams"), ``strikes_passed`` (Strikes that landed:
Crit, Pass or Seven) and ``kill`` (damage >= the target's current HP: the action is refunded).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product
from typing import Any, cast

import numpy as np
import polars as pl

from ...errors import RulesError
from ..base import RuleSystem, pmf_rows
from ..catalog import Catalog
from . import catalog as _catalog
from . import models as m
from .melee import into_melee_outcomes, into_melee_victims
from .models import Attack, Creature, Options, Situation
from .resolve import BANDS, armor_points, band_probabilities, resolve, segment, strike_modifier
from .weapons import CLAR, RULES, WEAPONS

__all__ = ["SYSTEM", "GlassEmpires", "Creature", "Attack", "Options", "Situation", "WEAPONS", "BANDS"]

_ECONOMY = f"{CLAR}: 2 instant actions per turn, at most one of them a Save action"


class GlassEmpires(RuleSystem):
    """The Glass Empires rule system (see docs/systems/glass_empires.md)."""

    name = "glass_empires"
    compare_seconds_per_row = 3.2e-4  # measured (docs/limits.md, Bounded work)
    title = "Glass Empires"
    rules_file = RULES
    # the model classes (public: wb.system(...).Creature, ...); in this class body the bare names are these
    # attributes, so method annotations name the classes through the models module: m.Creature, ...
    Creature = Creature
    Attack = Attack
    Options = Options
    Situation = Situation
    attacks_field = "weapons"
    # a Strike that breaks the Ray Shield deals no damage but changes the fight: the shield stays
    # broken (shared data: the gem "instantly shatters, destroying the item")
    progress_columns = ("shield_breaks",)

    def __init__(self) -> None:
        self._catalog: Catalog | None = None

    # ------------------------------------------------------------------ inputs
    def armor_points(self, creature: m.Creature, options: Any = None) -> int:
        """Return the full armor points of ``creature`` under the options' formula (default Armor x Power)."""
        return armor_points(creature, self.options_of(options))

    def _target_state(self, targets: Sequence[m.Creature], situations: Sequence[m.Situation], options: m.Options):
        ap0, hp = [], []
        for t, s in zip(targets, situations):
            if not isinstance(t, Creature):
                raise RulesError(f"expected a Glass Empires Creature, not {type(t).__name__}", field="target")
            assert t.hp is not None  # validate() fills in HP = 4 x Power
            full = armor_points(t, options)
            if s.target_ap is not None and s.target_ap > full:
                raise RulesError(
                    f"{s.target_ap} exceeds {t.name}'s {full} armor points",
                    field="target_ap",
                    rule=f"{CLAR}: Armor points = Armor x Power",
                )
            if s.target_hp is not None and s.target_hp > t.hp:
                raise RulesError(f"{s.target_hp} exceeds {t.name}'s {t.hp} HP", field="target_hp", rule=CLAR)
            ap0.append(full if s.target_ap is None else s.target_ap)
            hp.append(t.hp if s.target_hp is None else s.target_hp)
        return np.array(ap0, dtype=np.int64), np.array(hp, dtype=np.int64)

    # ------------------------------------------------------------------ resolution
    def outcome_tables(
        self,
        attacks: Sequence[Any],
        attackers: Sequence[Any],
        targets: Sequence[Any],
        options: Any = None,
        situation: Any = None,
    ) -> pl.DataFrame:
        """Return the joint outcome tables of aligned matchups (row i = matchup i), one polars frame.

        Columns: matchup, probability, damage (to HP), ap_damage, shield_breaks (0 / 1: a Ray Shield broke),
        crit, fumble, jam, strikes_passed, kill.
        """
        if not (len(attacks) == len(attackers) == len(targets)) or len(attacks) == 0:
            raise RulesError("attacks, attackers and targets must be non-empty and of the same length", field="attacks")
        options = self.options_of(options)
        sits = self.situations_of(situation, len(attacks))
        ap0, hp = self._target_state(targets, sits, options)
        seg = segment(attacks, attackers, targets, options, sits)
        return resolve([seg], ap0, hp, options)

    def band_table(self, modifier: int = 0) -> pl.DataFrame:
        """Return the Strike Save bands and their probabilities for one modifier (a polars frame)."""
        return pl.DataFrame({"band": list(BANDS), "probability": band_probabilities([modifier])[0]})

    def strike_modifier(self, attack: m.Attack, attacker: m.Creature, situation: Any = None) -> int:
        """Return the Strike Save modifier (range, cover, environment, Conditions), or raise if out of reach."""
        return strike_modifier(attack, attacker, self.situations_of(situation, 1)[0])

    def into_melee_victims(self, intended: m.Creature, nearby: Sequence[m.Creature]) -> pl.DataFrame:
        """Return the victim distribution of a shot into melee (see melee.into_melee_victims)."""
        return into_melee_victims(intended, nearby)

    def into_melee_outcomes(
        self,
        attack: m.Attack,
        attacker: m.Creature,
        intended: m.Creature,
        nearby: Sequence[m.Creature],
        options: Any = None,
        situation: Any = None,
    ) -> pl.DataFrame:
        """Return the joint victim x outcome table of a ranged Attack into melee."""
        return into_melee_outcomes(self, attack, attacker, intended, nearby, options, situation)

    # ------------------------------------------------------------------ combat hooks
    def actions_per_turn(self, creature: Any, options: Any = None) -> int:
        """Return 2: two instant actions per turn (CLARIFICATIONS.md)."""
        return 2

    def attack_cost(self, attack: Any, options: Any = None) -> int:
        """Return 1: an Attack is one instant action ("Duration: Instant")."""
        return 1

    def attacks_per_turn(self, creature: Any = None, options: Any = None) -> int:
        """Return the Attacks one turn allows: 1 if an Attack is the turn's Save action (default), else 2."""
        return 1 if self.options_of(options).attack_is_save_action else 2

    def refunds_action(self, outcome_row: dict[str, Any], options: Any = None) -> bool:
        """Return whether an outcome row gives the Attack's action back ("enough Damage to outright kill")."""
        return bool(self.options_of(options).kill_refunds_action and outcome_row.get("kill", False))

    def attacks_of(self, creature: Any) -> list[Any]:
        """Return the creature's weapons."""
        return list(creature.weapons)

    def usability(self, attacks, attackers, targets, options=None, situation=None) -> list:
        """Return each matchup's refusal by reach (glass-empires-attack.txt: ranged up to twice the
        listed range; melee within reach), None when usable."""
        out: list = []
        for w, a, sit in zip(attacks, attackers, self.situations_of(situation, len(attacks))):
            try:
                strike_modifier(w, a, sit)
                out.append(None)
            except RulesError as exc:
                if exc.field != "distance":
                    raise
                out.append(exc)
        return out

    def neutral_attacker(self, attack: m.Attack) -> m.Creature:
        """Return Power 1, holding only ``attack`` (named after it)."""
        return Creature(name=attack.name, power=1, weapons=(attack,))

    def uses_per_turn(self, attacker: Any, attack: Any, options: Any = None) -> int:
        """Return the Attacks one turn allows (:meth:`attacks_per_turn`)."""
        return self.attacks_per_turn(attacker, options)

    def plan_items(self, attacker: m.Creature, plan, options) -> list[m.Attack]:
        """Return the plan's weapons, or RulesError past the Attacks a turn allows (CLARIFICATIONS.md:
        2 instant actions per turn, at most one of them a Save action)."""
        weapons = [self.attack_named(attacker, a) for a in plan]
        allowed = self.attacks_per_turn(attacker, options)
        if len(weapons) > allowed:
            raise RulesError(
                f"{len(weapons)} Attacks in one turn; this reading allows {allowed} (option attack_is_save_action)",
                field="attacks",
                rule=_ECONOMY,
            )
        return weapons

    def plan_table(
        self,
        attacker: m.Creature,
        target: m.Creature,
        attacks: Sequence[Any],
        options: Any = None,
        situation: Any = None,
    ) -> pl.DataFrame:
        """Return the joint outcome table of one turn's Attacks in order (armor points carry over):
        the full columns (ap_damage, crit, jam, ...) of the resolution :meth:`plan_tables` sums."""
        options = self.options_of(options)
        weapons = self.plan_items(attacker, attacks, options)
        sits = self.situations_of(situation, 1)
        ap0, hp = self._target_state([target], sits, options)
        segs = [segment([w], [attacker], [target], options, sits) for w in weapons]
        return resolve(segs, ap0, hp, options)

    def legal_plans(self, attacker: m.Creature, target: m.Creature, options, situation) -> list[tuple[str, list]]:
        """Return one Attack per weapon (two, ordered, if the options allow two), leaving out plans
        with a weapon that cannot reach the target (glass-empires-attack.txt: range); "No attack"
        for a creature without weapons."""
        weapons = self.attacks_of(attacker)
        if not weapons:  # a creature without weapons (True Immortal, Kain) spends its turn otherwise
            return [("No attack", [])]
        n = len(weapons)
        ok = [why is None for why in self.usability(weapons, [attacker] * n, [target] * n, options, [situation] * n)]
        if not any(ok):
            raise RulesError(f"none of {attacker.name}'s weapons reaches the target", field="distance", rule=RULES)
        return [
            (" + ".join(weapons[i].name for i in combo), [weapons[i] for i in combo])
            for k in range(1, self.attacks_per_turn(attacker, options) + 1)
            for combo in product(range(len(weapons)), repeat=k)
            if all(ok[i] for i in combo)
        ]

    def plan_tables(self, plans, options) -> list[np.ndarray]:
        """Return the HP damage pmf of each (attacker, target, situation, weapons) turn. The plans
        with the same number of Attacks are resolved together in ONE :func:`resolve` call, Attack by
        Attack, so armor points carry from one Attack of a plan to the next (CLARIFICATIONS.md)."""
        out: list[np.ndarray | None] = [None] * len(plans)
        by_len: dict[int, list[int]] = {}
        for j, (*_, weapons) in enumerate(plans):
            if weapons:
                by_len.setdefault(len(weapons), []).append(j)
            else:
                out[j] = np.ones(1)
        for k, js in by_len.items():
            att = [plans[j][0] for j in js]
            tgt = [plans[j][1] for j in js]
            sits = [plans[j][2] for j in js]
            ap0, hp = self._target_state(tgt, sits, options)
            segs = [segment([plans[j][3][i] for j in js], att, tgt, options, sits) for i in range(k)]
            rows = pmf_rows(resolve(segs, ap0, hp, options), len(js))
            for j, r in zip(js, rows):
                out[j] = r
        return cast(list[np.ndarray], out)  # every plan got its pmf: np.ones(1) or its row

    # ------------------------------------------------------------------ catalog
    # ------------------------------------------------------------------ build space
    def build_choices(self, options: Any = None) -> dict[str, tuple[Any, ...]]:
        """Return the choices a designer has over one Glass Empires weapon (the loadouts themselves
        are the catalog's weapons: its weapon table and the creatures' weapons), each value one the
        rules name: ``damage_type`` the damage types of the published stat lines
        (weapons.DAMAGE_TYPES, shared/data/README.md; CLARIFICATIONS.md, Glass Empires: "Resistance
        halves damage (round down), weakness doubles, immunity zeroes") and ``two_handed``
        (CLARIFICATIONS.md, Glass Empires: "medium melee 5 (+1 two-handed)"; a weapon the table
        wields two-handed stays so, the same build). explore's budget counts these modifications
        (workbench/systems/builds.py, choice_space)."""
        from .weapons import DAMAGE_TYPES

        return {"damage_type": DAMAGE_TYPES, "two_handed": (False, True)}

    def catalog(self) -> Catalog:
        """Return the bundled catalog (cached): creatures from the published stat lines and the weapon table."""
        if self._catalog is None:
            self._catalog = _catalog.load()
        return self._catalog

    # -- the fight: one round description (glass_empires/round.py), interpreted by workbench/fight/
    def build_levers(self, attacker, attack):
        """Return the levers of a budget search about the build on screen (Glass Empires: the weapon's damage, Power, Strikes, the damage type, another weapon of its kind;
        ``levers.py`` of this package)."""
        from .levers import levers

        return levers(self, attacker, attack)

    def fight_round(self, attacker, target, options=None, situation=None, plan=None):
        """Return the :class:`~workbench.systems.glass_empires.round.GlassEmpiresRound` of ``attacker``
        against ``target``: armor points stay spent, a jam left at a turn's end costs the next turn an
        Attack, a broken Ray Shield stays broken (CLARIFICATIONS.md)."""
        from .round import GlassEmpiresRound

        return GlassEmpiresRound(self, attacker, target, options, situation, plan)

    def duel_couplings(self, a, b, options=None, situation=None, plan_a=None, plan_b=None) -> set[str]:
        """Return the state effects of the duel of ``a`` and ``b`` through which one side's turns change
        the other direction's fight (glass_empires/round.py: :data:`ONE_SIDED` are not): empty
        for every Glass Empires effect today, so each direction is its own chain (``combat.duel``)."""
        from .round import duel_couplings

        return duel_couplings(self, a, b, options, situation, plan_a, plan_b)

    def state_effects(self, attacker, target, options=None, situation=None, plan=None) -> set[str]:
        """Return the armor points / jams / ray shield effects of ``attacker`` on ``target``
        (glass_empires/round.py)."""
        from .round import state_effects

        return state_effects(self, attacker, target, options, situation)


SYSTEM = GlassEmpires()
