"""A tiny rule system for the widget tests: one die + bonus - armor - cover, at least ``minimum``.

Rules ("toy rules", written here, not from /work/shared/rules): roll one die of ``sides`` sides,
add the attack's ``bonus``, subtract the target's ``armor`` and the situation's ``cover``; damage is
never below ``Options.minimum`` (default 0). With ``Options.crit_on_max`` the top face doubles the
damage. A melee attack cannot reach past ``distance`` 5.
"""

from __future__ import annotations

from typing import ClassVar, Literal

import numpy as np
import polars as pl

from workbench.errors import RulesError
from workbench.systems.catalog import Catalog
from workbench.model import Model
from workbench.systems.base import RuleSystem
from workbench.fields import spec

RULE = "toy rules"


class Attack(Model):
    system: ClassVar[str] = "toy"
    model_kind: ClassVar[str] = "attack"
    choices: ClassVar[dict] = {"reach": ("melee", "ranged")}

    name: str = spec("Club", kind="text", help="the attack's name", rule=RULE)
    bonus: int = spec(0, kind="int", minimum=-5, maximum=10, help="bonus", rule=f"{RULE}: bonus is -5..+10")
    sides: int = spec(6, kind="choice", choices=(4, 6, 8), help="die sides", rule=f"{RULE}: d4, d6 or d8")
    reach: str = spec("melee", kind="choice", choices=("melee", "ranged"), help="reach", rule=RULE)


class Creature(Model):
    system: ClassVar[str] = "toy"
    model_kind: ClassVar[str] = "creature"

    name: str = spec("Goblin", kind="text", help="the creature's name", rule=RULE)
    hp: int = spec(7, kind="int", minimum=1, help="hit points", rule=f"{RULE}: a creature has at least 1 HP")
    armor: int = spec(0, kind="int", minimum=0, help="armor", rule=f"{RULE}: armor is not negative")
    big: bool = spec(False, kind="bool", help="big", rule=RULE)
    attacks: tuple[Attack, ...] = spec((), kind="models", model=Attack, help="its attacks", rule=RULE)


class Options(Model):
    system: ClassVar[str] = "toy"
    model_kind: ClassVar[str] = "options"

    minimum: int = spec(0, kind="int", minimum=0, help="damage floor", rule=f"{RULE}: damage floor")
    crit_on_max: bool = spec(False, kind="bool", help="the top face doubles the damage", rule=RULE)


class Situation(Model):
    system: ClassVar[str] = "toy"
    model_kind: ClassVar[str] = "situation"

    cover: int = spec(0, kind="int", minimum=0, maximum=2, help="cover", rule=f"{RULE}: cover is 0, 1 or 2")
    distance: float = spec(0.0, kind="number", minimum=0, help="distance", rule=f"{RULE}: distance")
    light: Literal["bright", "dim"] | None = spec(
        None, kind="choice", choices=("bright", "dim"), optional=True, help="light", rule=RULE
    )
    note: str | None = spec(None, kind="text", optional=True, help="a note", rule=RULE)


class ToySystem(RuleSystem):
    name = "toy"
    title = "Toy dice"
    Creature, Attack, Options, Situation = Creature, Attack, Options, Situation

    def field_choices(self, model_cls: type) -> dict:
        return {"sides": (4, 6, 8)} if model_cls is Attack else {}

    def catalog(self) -> Catalog:
        club = Attack("Club", bonus=2)
        bow = Attack("Bow", bonus=1, sides=8, reach="ranged")
        return Catalog("toy", creatures={
            "Goblin": Creature("Goblin", hp=7, armor=1, attacks=(club, bow)),
            "Ogre": Creature("Ogre", hp=30, armor=3, big=True, attacks=(Attack("Fist", bonus=4),)),
        }, attacks={"Club": club, "Bow": bow, "Dagger": Attack("Dagger", bonus=3, sides=4)})

    def attacks_of(self, creature):
        return list(creature.attacks)

    def neutral_attacker(self, attack):
        """A bare attack is used by a 1-HP creature with no armor."""
        return Creature(attack.name, hp=1, attacks=(attack,))

    def legal_plans(self, attacker, target, options, situation):
        """Two actions a turn, one attack each: "X + X" for each attack X the attacker has."""
        return [(f"{a.name} + {a.name}", [a, a]) for a in self.attacks_of(attacker)]

    def plan_items(self, attacker, plan, options):
        """One turn using ``plan`` in order (names or Attacks), at most two (one action each)."""
        items = [self.attack_named(attacker, a) for a in plan]
        if not 1 <= len(items) <= 2:
            raise RulesError(f"a turn holds 1 or 2 attacks, not {len(items)}", field="attacks", rule=f"{RULE}: two actions")
        return items

    def outcome_tables(self, attacks, attackers, targets, options=None, situation=None):
        """Return the joint table of all matchups: faces 1..8 broadcast against matchups."""
        options = self.options_of(options)
        sits = self.situations_of(situation, len(attacks))
        for a, situation in zip(attacks, sits):
            if a.reach == "melee" and situation.distance > 5:
                raise RulesError(f"{a.name} is melee and cannot reach {situation.distance:g}",
                                 field="distance", rule=f"{RULE}: melee reaches 5")
        cover = np.array([s.cover for s in sits])[:, None]
        sides = np.array([a.sides for a in attacks])[:, None]
        bonus = np.array([a.bonus for a in attacks])[:, None]
        armor = np.array([t.armor for t in targets])[:, None]
        face = np.arange(1, 9)[None, :]
        dmg = np.maximum(face + bonus - armor - cover, options.minimum)
        if options.crit_on_max:
            dmg = np.where(face == sides, 2 * dmg, dmg)
        prob = np.where(face <= sides, 1.0 / sides, 0.0)
        matchup = np.broadcast_to(np.arange(len(attacks))[:, None], dmg.shape)
        keep = prob > 0
        return (pl.DataFrame({"matchup": matchup[keep], "damage": dmg[keep].astype(np.int64),
                              "probability": prob[keep]})
                .group_by("matchup", "damage").agg(pl.col("probability").sum()).sort("matchup", "damage"))


TOY = ToySystem()
SYSTEM = TOY  # what the registry looks for (tests register "toy" with monkeypatch)
