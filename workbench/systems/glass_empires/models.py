"""Glass Empires models: Creature, Attack (a weapon), Options and Situation, validated on construction."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ...errors import RulesError
from ...limits import LIMITS, MAX_HP, MAX_LIST, MAX_TEXT
from ..base import Model, check_bool, check_choice, check_int, check_models, check_number, check_str, show
from .weapons import CLAR, DAMAGE_TYPES, RULES, WEAPONS

__all__ = ["Creature", "Attack", "Options", "Situation", "DAMAGE_ORDERS", "AP_FORMULAS", "MIXED_TYPE_RULES",
           "COVERS"]

DAMAGE_ORDERS = ("band,resistance,armor", "resistance,band,armor", "band,armor,resistance")
AP_FORMULAS = ("armor_x_power", "armor_x_hd")
MIXED_TYPE_RULES = ("most_damaging", "least_damaging")
COVERS = ("none", "low", "high")

# Sizes the rules never need (docs/limits.md; the largest published in brackets).
MAX_POWER = MAX_HP // 4   #: Power, so that HP = 4 x Power stays within MAX_HP [20]
MAX_ARMOR = 10            #: Armor [plate 4, +1 shield]
MAX_DAMAGE = 100          #: flat damage per Strike [16]
MAX_STRIKES = 20          #: Strikes per Attack [3]
MAX_FEET = 10_000.0       #: Size and weapon range, feet [size 15, range 180]
MAX_DISTANCE = 1_000_000.0  #: Situation.distance, feet
MAX_WEAPONS = 20          #: weapons of one creature [2]


def _types(field: str, value: Any, *, allow_mixed: bool) -> str | tuple[str, ...]:
    """Return damage type(s) checked against DAMAGE_TYPES; ``"fire/ice"`` names several types."""
    rule = f"{CLAR}: resistance, weakness and immunity by damage type"
    if allow_mixed:
        text = check_str(field, value, rule=rule, max_length=MAX_TEXT).lower()
        parts = [p.strip() for p in text.split("/")]
        for p in parts:
            check_choice(field, p, DAMAGE_TYPES, rule=rule)
        if len(set(parts)) != len(parts):
            raise RulesError(f"names a damage type twice: {text!r}", field=field, rule=rule)
        return "/".join(parts)
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, (list, tuple)):
        raise RulesError(f"must be a list of damage types, not {show(value)}", field=field, rule=rule)
    if len(value) > MAX_LIST:
        raise RulesError(f"may list at most {MAX_LIST} damage types, not {len(value)}", field=field, rule=LIMITS)
    out = tuple(check_choice(field, check_str(field, v, rule=rule).lower(), DAMAGE_TYPES, rule=rule) for v in value)
    if len(set(out)) != len(out):
        raise RulesError(f"lists a damage type twice: {list(out)}", field=field, rule=rule)
    return out


def _source(value: Any) -> str:
    """Return the ``source`` text (a file path of the SRD), at most MAX_TEXT characters, UTF-8."""
    if not isinstance(value, str):
        raise RulesError(f"must be text, not {show(value)}", field="source")
    return check_str("source", value, allow_empty=True, max_length=MAX_TEXT) if value else value


@dataclass(frozen=True, init=False)
class Attack(Model):
    """A weapon: flat ``damage`` per Strike (glass-empires-attack.txt: "choose an available weapon").

    ``category`` (a key of WEAPONS) fills ``damage``, ``range``, ``reload``, ``windgun`` and
    ``two_handed`` from the weapon table; a stated ``damage`` must then equal the table's base
    damage (the +1 of a two-handed medium weapon or of dual windgun pistols in melee is added by
    :attr:`strike_damage`). ``range`` is the listed range (ft) of a ranged attack; on a melee
    attack it is a reach that replaces the wielder's Size (e.g. a frog tongue).
    """

    system: ClassVar[str] = "glass_empires"

    name: str = "Weapon"
    damage: int | None = None
    kind: str = "melee"
    range: float | None = None
    reload: bool = False
    damage_type: str = "physical"
    category: str | None = None
    two_handed: bool = False
    windgun: bool = False
    dual_pistols: bool = False
    natural: bool = False
    source: str = ""

    # base.Model declares a ClassVar ``kind``; a dataclass keeps an inherited name's position, so
    # the generated __init__ would take ``kind`` first. This one keeps the documented order.
    def __init__(self, name: str = "Weapon", damage: int | None = None, kind: str = "melee",
                 range: float | None = None, reload: bool = False, damage_type: str = "physical",
                 category: str | None = None, two_handed: bool = False, windgun: bool = False,
                 dual_pistols: bool = False, natural: bool = False, source: str = "") -> None:
        for key, value in (("name", name), ("damage", damage), ("kind", kind), ("range", range),
                           ("reload", reload), ("damage_type", damage_type), ("category", category),
                           ("two_handed", two_handed), ("windgun", windgun), ("dual_pistols", dual_pistols),
                           ("natural", natural), ("source", source)):
            object.__setattr__(self, key, value)
        self.__post_init__()

    def validate(self) -> None:
        s = lambda k, v: object.__setattr__(self, k, v)  # noqa: E731
        s("name", check_str("name", self.name))
        s("kind", check_choice("kind", self.kind, ("melee", "ranged"),
                               rule=f"{RULES}: melee reach or the weapon's listed range"))
        s("damage_type", _types("damage_type", self.damage_type, allow_mixed=True))
        for f in ("reload", "two_handed", "windgun", "dual_pistols", "natural"):
            s(f, check_bool(f, getattr(self, f)))
        s("source", _source(self.source))
        table_rule = f"{CLAR}: damage is a flat number per weapon"
        cat = None
        if self.category is not None:
            cat_name = self.category.strip().lower().replace(" ", "_") if isinstance(self.category, str) \
                else self.category
            s("category", check_choice("category", cat_name, tuple(WEAPONS), rule=table_rule))
            cat = WEAPONS[self.category]
            if self.damage is None:
                s("damage", cat.damage)
            elif check_int("damage", self.damage, minimum=0, limit=MAX_DAMAGE, rule=table_rule) != cat.damage:
                raise RulesError(f"a {cat.title.lower()} weapon deals {cat.damage} per Strike, not {self.damage}"
                                 " (the two-handed / dual-pistol +1 is added by the rules, not stated here)",
                                 field="damage", rule=table_rule)
            if self.kind == "melee" and cat.kind == "ranged" and not cat.melee_ok:
                raise RulesError(f"a {cat.title.lower()} is a ranged weapon and cannot strike in melee",
                                 field="kind", rule=table_rule)
            if self.kind == "ranged" and cat.kind == "melee" and cat.thrown_range is None:
                raise RulesError(f"a {cat.title.lower()} weapon cannot be thrown or shot", field="kind",
                                 rule=table_rule)
            if self.kind == "ranged" and self.range is None:
                s("range", cat.range if cat.kind == "ranged" else cat.thrown_range)
            if cat.reload:
                s("reload", True)
            if cat.windgun:
                s("windgun", True)
            if cat.two_handed:
                s("two_handed", True)
        if self.damage is None:
            raise RulesError("give the flat damage per Strike or a weapon category", field="damage", rule=table_rule)
        s("damage", check_int("damage", self.damage, minimum=0, limit=MAX_DAMAGE, rule=table_rule))
        if self.range is not None:
            r = check_number("range", self.range, minimum=0, limit=MAX_FEET, rule=f"{RULES}: Ranged attacks use the weapon's listed range")
            if r <= 0:
                raise RulesError(f"must be greater than 0 feet, not {r}", field="range", rule=RULES)
            s("range", int(r) if float(r).is_integer() else r)
        elif self.kind == "ranged":
            raise RulesError("a ranged attack needs its listed range in feet", field="range",
                             rule=f"{RULES}: Ranged attacks use the weapon's listed range as its reach")
        if self.dual_pistols and self.category != "windgun_pistol":
            raise RulesError("only a pair of windgun pistols can be dual-wielded for the +1 in melee",
                             field="dual_pistols", rule=f"{CLAR}: dual windgun pistols in melee +1")

    @property
    def strike_damage(self) -> int:
        """Return the damage of one Pass: the table damage, +1 two-handed medium, +1 dual pistols in melee."""
        bonus = 0
        if self.category == "medium_melee" and self.two_handed:
            bonus += 1
        if self.dual_pistols and self.kind == "melee":
            bonus += 1
        return self.damage + bonus

    @property
    def jams(self) -> bool:
        """Return whether a Fumble jams this weapon (a windgun or a Reload weapon; Fumble row)."""
        return self.windgun or self.reload

    @property
    def types(self) -> tuple[str, ...]:
        """Return the damage types this weapon deals."""
        return tuple(self.damage_type.split("/"))


@dataclass(frozen=True)
class Creature(Model):
    """A Glass Empires creature: Power, HP (4 x Power), Armor, Size (height, ft), Strikes, weapons.

    ``resist`` / ``weak`` / ``immune`` list damage types (halve rounded down / double / zero).
    ``hd`` and ``level`` are optional; Power = HD + Level (rules/introduction/characters.mdx).
    """

    system: ClassVar[str] = "glass_empires"
    model_kind: ClassVar[str] = "creature"

    name: str = "Creature"
    power: int = 1
    hp: int | None = None
    armor: int = 0
    size: float = 5
    strikes: int = 1
    weapons: tuple = ()
    resist: tuple = ()
    weak: tuple = ()
    immune: tuple = ()
    hd: int | None = None
    level: int = 0
    source: str = ""

    def validate(self) -> None:
        s = lambda k, v: object.__setattr__(self, k, v)  # noqa: E731
        s("name", check_str("name", self.name))
        s("power", check_int("power", self.power, minimum=1, limit=MAX_POWER, rule=f"{CLAR}: HP = 4 x Power"))
        if self.hp is None:
            s("hp", 4 * self.power)
        s("hp", check_int("hp", self.hp, minimum=1, limit=MAX_HP, rule=f"{CLAR}: HP = 4 x Power"))
        s("armor", check_int("armor", self.armor, minimum=0, limit=MAX_ARMOR,
                             rule=f"{CLAR}: Armor: none 0, leather 1, chain 2, plate 4"))
        size = check_number("size", self.size, limit=MAX_FEET, rule=f"{RULES}: melee reach is equal to their Size")
        if size <= 0:
            raise RulesError(f"must be greater than 0 feet, not {size}", field="size", rule=RULES)
        s("size", int(size) if size.is_integer() else size)
        s("strikes", check_int("strikes", self.strikes, minimum=1, limit=MAX_STRIKES,
                               rule=f"{RULES}: by default, characters receive 1 Strike per Attack"))
        s("level", check_int("level", self.level, minimum=0, limit=MAX_POWER, rule="characters.mdx: Power = HD + Level"))
        if self.hd is not None:
            s("hd", check_int("hd", self.hd, minimum=0, limit=MAX_POWER, rule="characters.mdx: Power = HD + Level"))
            if self.hd + self.level != self.power:
                raise RulesError(f"HD {self.hd} + Level {self.level} must equal Power {self.power}", field="hd",
                                 rule="characters.mdx: Power = HD + Level")
        elif self.level >= self.power:
            raise RulesError(f"Level {self.level} leaves no HD within Power {self.power}", field="level",
                             rule="characters.mdx: Power = HD + Level")
        s("weapons", check_models("weapons", self.weapons, Attack, max_items=MAX_WEAPONS))
        seen: dict[str, str] = {}
        for f in ("resist", "weak", "immune"):
            s(f, _types(f, getattr(self, f), allow_mixed=False))
            for t in getattr(self, f):
                if t in seen:
                    raise RulesError(f"{t} is listed under both {seen[t]} and {f}", field=f,
                                     rule=f"{CLAR}: resistance halves, weakness doubles, immunity zeroes")
                seen[t] = f
        s("source", _source(self.source))

    @property
    def armor_points(self) -> int:
        """Return the derived armor points Armor x Power (CLARIFICATIONS.md default)."""
        return self.armor * self.power

    @property
    def reach(self) -> float:
        """Return the melee reach: Size in feet (glass-empires-attack.txt)."""
        return self.size

    def multiplier_class(self, damage_type: str) -> str:
        """Return "immune", "resist", "weak" or "normal" for one damage type."""
        if damage_type in self.immune:
            return "immune"
        if damage_type in self.resist:
            return "resist"
        if damage_type in self.weak:
            return "weak"
        return "normal"


@dataclass(frozen=True)
class Options(Model):
    """Rule options; every default is the one CLARIFICATIONS.md names for Glass Empires.

    - ``damage_order``: "band,resistance,armor" (default: Crit x2 / Seven /2 first, then
      resistance, then armor points, then HP), "resistance,band,armor" or "band,armor,resistance".
    - ``armor_points_formula``: "armor_x_power" (default) or "armor_x_hd" (armor.mdx's reading).
    - ``attack_is_save_action``: True (default reading: the Attack is resolved by Strike Saves, so
      it is the turn's one Save action: one Attack per turn); False allows two Attacks.
    - ``kill_refunds_action``: True (the text: a Strike that kills gives the Attack's action back).
    - ``jam_ends_strikes``: True: a jammed weapon makes no further Strikes this turn.
    - ``mixed_damage_type``: for a weapon of several types ("fire/ice"), the type that is
      "most_damaging" (default) or "least_damaging" to the target is used.
    """

    system: ClassVar[str] = "glass_empires"
    model_kind: ClassVar[str] = "options"

    damage_order: str = "band,resistance,armor"
    armor_points_formula: str = "armor_x_power"
    attack_is_save_action: bool = True
    kill_refunds_action: bool = True
    jam_ends_strikes: bool = True
    mixed_damage_type: str = "most_damaging"

    def validate(self) -> None:
        s = lambda k, v: object.__setattr__(self, k, v)  # noqa: E731
        order = self.damage_order.replace(" ", "") if isinstance(self.damage_order, str) else self.damage_order
        s("damage_order", check_choice("damage_order", order, DAMAGE_ORDERS,
                                       rule=f"{CLAR}: Crit x2 or Seven /2 first, then resistance, then armor"))
        s("armor_points_formula", check_choice("armor_points_formula", self.armor_points_formula, AP_FORMULAS,
                                               rule=f"{CLAR}: Armor points = Armor x Power"))
        s("mixed_damage_type", check_choice("mixed_damage_type", self.mixed_damage_type, MIXED_TYPE_RULES))
        for f in ("attack_is_save_action", "kill_refunds_action", "jam_ends_strikes"):
            s(f, check_bool(f, getattr(self, f)))


@dataclass(frozen=True)
class Situation(Model):
    """The circumstances of one Attack (glass-empires-attack.txt).

    - ``distance``: feet to the target (None: within reach / listed range, no penalty).
    - ``cover``: "none", "low" (-2 to ranged Strike Saves) or "high" (-4).
    - ``environment``, ``conditions``: net count of relevant factors, each +-1 to the Save.
    - ``fact_bonus``: must be 0 ("You may not add personal Fact bonuses to a Save").
    - ``angry_step``: use the Angry Step (extra distance = melee reach) when needed;
      ``movement_impeded``: terrain or a Condition limits free movement (no Angry Step).
    - ``target_ap``: the target's current armor points (None: full); ``target_hp``: current HP
      (None: full), used for the ``kill`` column.
    """

    system: ClassVar[str] = "glass_empires"
    model_kind: ClassVar[str] = "situation"

    distance: float | None = None
    cover: str = "none"
    environment: int = 0
    conditions: int = 0
    fact_bonus: int = 0
    angry_step: bool = True
    movement_impeded: bool = False
    target_ap: int | None = None
    target_hp: int | None = None

    def validate(self) -> None:
        s = lambda k, v: object.__setattr__(self, k, v)  # noqa: E731
        if self.distance is not None:
            s("distance", check_number("distance", self.distance, minimum=0, limit=MAX_DISTANCE, rule=RULES))
        s("cover", check_choice("cover", self.cover, COVERS, rule=f"{RULES}: Cover (low/weak, high/strong)"))
        env_rule = f"{RULES}: add factors such as the environment, Conditions"
        s("environment", check_int("environment", self.environment, minimum=-12, maximum=12, rule=env_rule))
        s("conditions", check_int("conditions", self.conditions, minimum=-12, maximum=12, rule=env_rule))
        fb = check_int("fact_bonus", self.fact_bonus, rule=RULES)
        if fb != 0:
            raise RulesError(f"must be 0, not {fb}: no personal Fact bonuses on a Strike Save", field="fact_bonus",
                             rule=f"{RULES}: You may not add personal Fact bonuses to a Save")
        s("fact_bonus", 0)
        s("angry_step", check_bool("angry_step", self.angry_step, rule=f"{RULES}: The Angry Step"))
        s("movement_impeded", check_bool("movement_impeded", self.movement_impeded, rule=f"{RULES}: The Angry Step"))
        s("target_ap", check_int("target_ap", self.target_ap, minimum=0, optional=True, limit=MAX_ARMOR * MAX_POWER,
                                 rule=f"{CLAR}: armor points absorb physical damage"))
        s("target_hp", check_int("target_hp", self.target_hp, minimum=1, optional=True, limit=MAX_HP, rule=CLAR))
