"""Glass Empires models: Creature, Attack (a weapon), Options and Situation, validated on construction."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ...errors import RulesError
from ...limits import LIMITS, MAX_HP, MAX_LIST, MAX_TEXT
from ..base import Model, check_bool, check_choice, check_int, check_models, check_number, check_str, show
from .weapons import CLAR, DAMAGE_TYPES, RULES, WEAPONS

__all__ = [
    "Creature",
    "Attack",
    "Options",
    "Situation",
    "DAMAGE_ORDERS",
    "AP_FORMULAS",
    "MIXED_TYPE_RULES",
    "COVERS",
    "CIRCUMSTANCES",
    "ROUNDINGS",
    "RESIST_LEVELS",
    "FrozenMap",
    "TRAITS",
]

DAMAGE_ORDERS = ("band,resistance,armor", "resistance,band,armor", "band,armor,resistance")
AP_FORMULAS = ("armor_x_power", "armor_x_hd")
MIXED_TYPE_RULES = ("most_damaging", "least_damaging")
COVERS = ("none", "low", "high")
#: rounding of a fractional damage-taken multiplier (the Living Tree's fire x1.5)
ROUNDINGS = ("down", "nearest", "up")
#: circumstances of one Attack that published traits depend on (shared/data/glass_empires_creatures.toml):
#: the Wolf's Pack Hunter bonus ``vs_target_engaged_with_ally`` and the Angry Bush's Thicket resistance
#: ``within_10ft_of_another_angry_bush``.
CIRCUMSTANCES = ("target_engaged_with_ally", "within_10ft_of_another_angry_bush")
RESIST_LEVELS = {"weak": "weak", "resistant": "resist", "resist": "resist", "immune": "immune"}
_DATA = "shared/data/glass_empires_creatures.toml"


class FrozenMap(dict):
    """A read-only, hashable ``{name: value}`` mapping (creature traits keyed by damage type or circumstance)."""

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(sorted(self.items())))

    def _readonly(self, *args, **kwargs):
        raise RulesError("a creature's traits cannot be changed in place; use creature.replace(...)")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _readonly

    def __repr__(self) -> str:
        return repr(dict(self))


def _mapping(field: str, value: Any, keys: tuple[str, ...], number, rule: str) -> FrozenMap:
    """Return ``value`` ({key: number}) as a FrozenMap; keys from ``keys``, values checked by ``number``."""
    if value is None:
        return FrozenMap()
    if not isinstance(value, dict):
        raise RulesError(f"must be a table {{name: value}}, not {value!r}", field=field, rule=rule)
    out = {}
    for k, v in value.items():
        key = check_choice(field, str(k).strip().lower(), keys, rule=rule)
        if isinstance(v, str):  # a form's "fire=1.5" arrives as text
            try:
                v = float(v)
            except ValueError:
                raise RulesError(f"{k}: must be a number, not {v!r}", field=field, rule=rule) from None
        out[key] = number(f"{field}.{key}", v)
    return FrozenMap(out)


def _circumstances(field: str, value: Any) -> tuple[str, ...]:
    """Return a tuple of known circumstance names (CIRCUMSTANCES)."""
    if value is None:
        return ()
    if isinstance(value, str):
        value = [v for v in (p.strip() for p in value.split(",")) if v]
    if not isinstance(value, (list, tuple)):
        raise RulesError(f"must be a list of circumstances, not {value!r}", field=field)
    rule = f"{_DATA}: conditional traits (strike_save_bonus, resist_conditional)"
    out = tuple(check_choice(field, str(v).strip().lower(), CIRCUMSTANCES, rule=rule) for v in value)
    return tuple(dict.fromkeys(out))


def _rc(field: str, entries: Any) -> tuple:
    """Return resist_conditional entries as ((damage type, weak/resist/immune, circumstance), ...)."""
    rule = f"{_DATA}: resist_conditional"
    if isinstance(entries, dict):
        entries = [entries]
    if not isinstance(entries, (list, tuple)):
        raise RulesError(f"must be a list of (type, level, circumstance), not {entries!r}", field=field, rule=rule)
    out = []
    for i, e in enumerate(entries):
        f = f"{field}[{i}]"
        if isinstance(e, dict):
            e = (e.get("type"), e.get("level"), e.get("condition", e.get("circumstance")))
        if not isinstance(e, (list, tuple)) or len(e) != 3:
            raise RulesError(f"must be (damage type, level, circumstance), not {e!r}", field=f, rule=rule)
        t = check_choice(f, str(e[0]).strip().lower(), DAMAGE_TYPES, rule=rule)
        level = RESIST_LEVELS[check_choice(f, str(e[1]).strip().lower(), tuple(RESIST_LEVELS), rule=rule)]
        out.append((t, level, _circumstances(f, [e[2]])[0]))
    return tuple(out)


def _names_of(field: str, v: Any) -> tuple:
    if isinstance(v, str) or not isinstance(v, (list, tuple)):
        raise RulesError(f"must be a list of names, not {v!r}", field=field, rule=f"{_DATA}: creature traits")
    return tuple(check_str(field, x) for x in v)


_T = f"{_DATA}: creature traits"
#: the published traits a Creature may carry in ``traits``: key -> validator (field, value) -> value
TRAITS: dict[str, Any] = {
    # the Living Tree: fire x1.5 (README: "damage_taken_multiplier (the Living Tree takes fire x1.5)")
    "damage_taken_multiplier": lambda f, v: _mapping(
        f, v, DAMAGE_TYPES, lambda g, x: check_number(g, x, minimum=0, rule=_T), _T
    ),
    # damage types its armor points do not absorb (the Living Tree: fire)
    "armor_bypassed_by": lambda f, v: _types(f, v, allow_mixed=False),
    # the Angry Bush: physical "resistant" within 10 ft of another angry bush
    "resist_conditional": _rc,
    # the Skittering Horde (Swarm): "Single-target damage against it is capped at 1" (README ambiguity 5)
    "single_target_damage_max": lambda f, v: check_int(f, v, minimum=0, rule=_T),
    # the Skittering Horde: "Area damage against it is multiplied by its HD" (no area Attack is resolved)
    "area_damage_multiplier": lambda f, v: check_int(f, v, minimum=0, rule=_T),
    # the Coraler's Bloodthirst: damage reduction 1 vs direct attacks
    "damage_reduction": lambda f, v: check_int(f, v, minimum=0, rule=_T),
    # the Moon Rabbit Operator's Ray Shield: breaks on an effect dealing at least 6
    "ray_shield_breaks_at": lambda f, v: check_int(f, v, minimum=1, rule=_T),
    # the Wolf's Pack Hunter: +2 "vs_target_engaged_with_ally"
    "strike_save_bonus": lambda f, v: _mapping(
        f, v, CIRCUMSTANCES, lambda g, x: check_int(g, x, minimum=-12, maximum=12, rule=_T), _T
    ),
    # the Giant Ant Queen: immobile (no Angry Step)
    "immobile": lambda f, v: check_bool(f, v, rule=f"{RULES}: The Angry Step"),
    # the Warhorse: immune to panicked (kept as data: Conditions enter a Save only as a net count)
    "immune_conditions": _names_of,
    # the names of the creature's other features (kept as data)
    "features": _names_of,
}
_TRAIT_DEFAULTS = {
    "damage_taken_multiplier": FrozenMap(),
    "armor_bypassed_by": (),
    "resist_conditional": (),
    "single_target_damage_max": None,
    "area_damage_multiplier": 1,
    "damage_reduction": 0,
    "ray_shield_breaks_at": None,
    "strike_save_bonus": FrozenMap(),
    "immobile": False,
    "immune_conditions": (),
    "features": (),
}

# Sizes the rules never need (docs/limits.md; the largest published in brackets).
MAX_POWER = MAX_HP // 4  #: Power, so that HP = 4 x Power stays within MAX_HP [20]
MAX_ARMOR = 10  #: Armor [plate 4, +1 shield]
MAX_DAMAGE = 100  #: flat damage per Strike [16]
MAX_STRIKES = 20  #: Strikes per Attack [3]
MAX_FEET = 10_000.0  #: Size and weapon range, feet [size 15, range 180]
MAX_DISTANCE = 1_000_000.0  #: Situation.distance, feet
MAX_WEAPONS = 20  #: weapons of one creature [2]


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


@dataclass(frozen=True)
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

    def validate(self) -> None:
        s = lambda k, v: object.__setattr__(self, k, v)  # noqa: E731
        s("name", check_str("name", self.name))
        s(
            "kind",
            check_choice(
                "kind", self.kind, ("melee", "ranged"), rule=f"{RULES}: melee reach or the weapon's listed range"
            ),
        )
        s("damage_type", _types("damage_type", self.damage_type, allow_mixed=True))
        for f in ("reload", "two_handed", "windgun", "dual_pistols", "natural"):
            s(f, check_bool(f, getattr(self, f)))
        s("source", _source(self.source))
        table_rule = f"{CLAR}: damage is a flat number per weapon"
        cat = None
        if self.category is not None:
            cat_name = (
                self.category.strip().lower().replace(" ", "_") if isinstance(self.category, str) else self.category
            )
            s("category", check_choice("category", cat_name, tuple(WEAPONS), rule=table_rule))
            cat = WEAPONS[self.category]
            if self.damage is None:
                s("damage", cat.damage)
            elif check_int("damage", self.damage, minimum=0, limit=MAX_DAMAGE, rule=table_rule) != cat.damage:
                raise RulesError(
                    f"a {cat.title.lower()} weapon deals {cat.damage} per Strike, not {self.damage}"
                    " (the two-handed / dual-pistol +1 is added by the rules, not stated here)",
                    field="damage",
                    rule=table_rule,
                )
            if self.kind == "melee" and cat.kind == "ranged" and not cat.melee_ok:
                raise RulesError(
                    f"a {cat.title.lower()} is a ranged weapon and cannot strike in melee",
                    field="kind",
                    rule=table_rule,
                )
            if self.kind == "ranged" and cat.kind == "melee" and cat.thrown_range is None:
                raise RulesError(
                    f"a {cat.title.lower()} weapon cannot be thrown or shot", field="kind", rule=table_rule
                )
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
            r = check_number(
                "range",
                self.range,
                minimum=0,
                limit=MAX_FEET,
                rule=f"{RULES}: Ranged attacks use the weapon's listed range",
            )
            if r <= 0:
                raise RulesError(f"must be greater than 0 feet, not {r}", field="range", rule=RULES)
            s("range", int(r) if float(r).is_integer() else r)
        elif self.kind == "ranged":
            raise RulesError(
                "a ranged attack needs its listed range in feet",
                field="range",
                rule=f"{RULES}: Ranged attacks use the weapon's listed range as its reach",
            )
        if self.dual_pistols and self.category != "windgun_pistol":
            raise RulesError(
                "only a pair of windgun pistols can be dual-wielded for the +1 in melee",
                field="dual_pistols",
                rule=f"{CLAR}: dual windgun pistols in melee +1",
            )

    @property
    def strike_damage(self) -> int:
        """Return the damage of one Pass: the table damage, +1 two-handed medium, +1 dual pistols in melee."""
        bonus = 0
        if self.category == "medium_melee" and self.two_handed:
            bonus += 1
        if self.dual_pistols and self.kind == "melee":
            bonus += 1
        assert self.damage is not None  # validate() fills it from the category or refuses the weapon
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

    ``traits`` holds the published traits (shared/data/glass_empires_creatures.toml, README
    "Resistances"), a table with the declared keys of :data:`TRAITS` (each also readable as an
    attribute, e.g. ``creature.single_target_damage_max``); they apply to each Strike:

    - ``damage_taken_multiplier``: {damage type: factor} on the damage this creature takes (the
      Living Tree takes fire x1.5; rounded by ``Options.multiplier_rounding``).
    - ``armor_bypassed_by``: damage types its armor points do not absorb (only physical damage is
      absorbed anyway, so this matters for a physical entry).
    - ``resist_conditional``: ((damage type, weak/resist/immune, circumstance), ...): a resistance
      that holds only while the circumstance is in ``Situation.circumstances`` (the Angry Bush near
      another bush resists physical).
    - ``single_target_damage_max``: the most one single-target Strike deals to it (the Skittering
      Horde: 1). ``area_damage_multiplier``: its factor on area damage (no area Attack is resolved
      by this engine; kept as data).
    - ``damage_reduction``: damage removed from each Strike that hits it (the Coraler's Bloodthirst,
      1, while ``Situation.target_damage_reduction_active``).
    - ``ray_shield_breaks_at``: a Ray Shield: while up (``Situation.target_shield_up``) it takes no
      damage, and a Strike of at least this much breaks it and is absorbed (Moon Rabbit Operator, 6).
    - ``strike_save_bonus``: {circumstance: bonus} to its own Strike Saves (the Wolf: +2 against a
      target engaged with its ally) when the circumstance is in ``Situation.circumstances``.
    - ``immobile``: it cannot move, so it has no Angry Step (the Giant Ant Queen).
    - ``immune_conditions``, ``features``: kept as data (Conditions enter a Save only as the net
      ``Situation.conditions`` count). ``note``: where the published data is silent, what default
      the catalog used.
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
    traits: Any = None
    note: str = ""

    def validate(self) -> None:
        s = lambda k, v: object.__setattr__(self, k, v)  # noqa: E731
        s("name", check_str("name", self.name))
        s("power", check_int("power", self.power, minimum=1, limit=MAX_POWER, rule=f"{CLAR}: HP = 4 x Power"))
        self._validate_traits()
        if self.hp is None:
            s("hp", 4 * self.power)
        s("hp", check_int("hp", self.hp, minimum=1, limit=MAX_HP, rule=f"{CLAR}: HP = 4 x Power"))
        s(
            "armor",
            check_int(
                "armor",
                self.armor,
                minimum=0,
                limit=MAX_ARMOR,
                rule=f"{CLAR}: Armor: none 0, leather 1, chain 2, plate 4",
            ),
        )
        size = check_number("size", self.size, limit=MAX_FEET, rule=f"{RULES}: melee reach is equal to their Size")
        if size <= 0:
            raise RulesError(f"must be greater than 0 feet, not {size}", field="size", rule=RULES)
        s("size", int(size) if size.is_integer() else size)
        s(
            "strikes",
            check_int(
                "strikes",
                self.strikes,
                minimum=1,
                limit=MAX_STRIKES,
                rule=f"{RULES}: by default, characters receive 1 Strike per Attack",
            ),
        )
        s(
            "level",
            check_int("level", self.level, minimum=0, limit=MAX_POWER, rule="characters.mdx: Power = HD + Level"),
        )
        if self.hd is not None:
            s("hd", check_int("hd", self.hd, minimum=0, limit=MAX_POWER, rule="characters.mdx: Power = HD + Level"))
            if self.hd + self.level != self.power:
                raise RulesError(
                    f"HD {self.hd} + Level {self.level} must equal Power {self.power}",
                    field="hd",
                    rule="characters.mdx: Power = HD + Level",
                )
        elif self.level >= self.power:
            raise RulesError(
                f"Level {self.level} leaves no HD within Power {self.power}",
                field="level",
                rule="characters.mdx: Power = HD + Level",
            )
        s("weapons", check_models("weapons", self.weapons, Attack, max_items=MAX_WEAPONS))
        seen: dict[str, str] = {}
        for f in ("resist", "weak", "immune"):
            s(f, _types(f, getattr(self, f), allow_mixed=False))
            for t in getattr(self, f):
                if t in seen:
                    raise RulesError(
                        f"{t} is listed under both {seen[t]} and {f}",
                        field=f,
                        rule=f"{CLAR}: resistance halves, weakness doubles, immunity zeroes",
                    )
                seen[t] = f
        s("source", _source(self.source))

    def _validate_traits(self) -> None:
        """Check ``traits`` against :data:`TRAITS` (unknown keys and bad values raise RulesError naming
        ``traits.<key>``); the value is normalised to a read-only, hashable table."""
        value = self.traits
        if value is None:
            value = {}
        if not isinstance(value, dict):
            raise RulesError(
                f"must be a table {{trait: value}}, not {value!r}", field="traits", rule=f"{_DATA}: creature traits"
            )
        out = {}
        for key, v in value.items():
            k = str(key).strip().lower()
            if k not in TRAITS:
                raise RulesError(
                    f"unknown trait {key!r}; known: {', '.join(TRAITS)}",
                    field="traits",
                    rule=f"{_DATA}: creature traits",
                )
            out[k] = TRAITS[k](f"traits.{k}", v)
        object.__setattr__(self, "traits", FrozenMap(out))
        if not isinstance(self.note, str):
            raise RulesError(f"must be text, not {self.note!r}", field="note")

    def __getattr__(self, name: str) -> Any:
        # a published trait read as an attribute: its value, or the default when the creature has none
        if name in TRAITS:
            traits = self.__dict__.get("traits") or {}
            return traits.get(name, _TRAIT_DEFAULTS[name])
        raise AttributeError(name)

    @property
    def armor_points(self) -> int:
        """Return the derived armor points Armor x Power (CLARIFICATIONS.md default)."""
        return self.armor * self.power

    @property
    def reach(self) -> float:
        """Return the melee reach: Size in feet (glass-empires-attack.txt)."""
        return self.size

    def multiplier_class(self, damage_type: str, circumstances: tuple = ()) -> str:
        """Return "immune", "resist", "weak" or "normal" for one damage type; a ``resist_conditional``
        entry whose circumstance is in ``circumstances`` applies when no unconditional one does."""
        for t, level, when in self.resist_conditional:
            if (
                t == damage_type
                and when in circumstances
                and not (damage_type in self.immune or damage_type in self.resist or damage_type in self.weak)
            ):
                return level
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
    - ``multiplier_rounding``: a fractional damage-taken multiplier (the Living Tree's fire x1.5)
      rounds "down" (default: the text's only rounding rule is the Seven's "halving Damage taken;
      round down", and resistance halves rounded down), "nearest" (half up) or "up".
    """

    system: ClassVar[str] = "glass_empires"
    model_kind: ClassVar[str] = "options"

    damage_order: str = "band,resistance,armor"
    armor_points_formula: str = "armor_x_power"
    attack_is_save_action: bool = True
    kill_refunds_action: bool = True
    jam_ends_strikes: bool = True
    mixed_damage_type: str = "most_damaging"
    multiplier_rounding: str = "down"

    def validate(self) -> None:
        s = lambda k, v: object.__setattr__(self, k, v)  # noqa: E731
        order = self.damage_order.replace(" ", "") if isinstance(self.damage_order, str) else self.damage_order
        s(
            "damage_order",
            check_choice(
                "damage_order",
                order,
                DAMAGE_ORDERS,
                rule=f"{CLAR}: Crit x2 or Seven /2 first, then resistance, then armor",
            ),
        )
        s(
            "armor_points_formula",
            check_choice(
                "armor_points_formula",
                self.armor_points_formula,
                AP_FORMULAS,
                rule=f"{CLAR}: Armor points = Armor x Power",
            ),
        )
        s("mixed_damage_type", check_choice("mixed_damage_type", self.mixed_damage_type, MIXED_TYPE_RULES))
        s(
            "multiplier_rounding",
            check_choice(
                "multiplier_rounding",
                self.multiplier_rounding,
                ROUNDINGS,
                rule=f"{RULES}: Seven: halving Damage taken; round down",
            ),
        )
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
    - ``circumstances``: conditional traits that hold in this Attack (CIRCUMSTANCES):
      "target_engaged_with_ally" (the Wolf's +2) and "within_10ft_of_another_angry_bush" (the Angry
      Bush resists physical damage).
    - ``target_shield_up``: the target's Ray Shield, if it has one, is up (True at the start of a fight).
    - ``target_damage_reduction_active``: the target's damage reduction (Bloodthirst) still holds.
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
    circumstances: tuple = ()
    target_shield_up: bool = True
    target_damage_reduction_active: bool = True

    def validate(self) -> None:
        s = lambda k, v: object.__setattr__(self, k, v)  # noqa: E731
        s("circumstances", _circumstances("circumstances", self.circumstances))
        s("target_shield_up", check_bool("target_shield_up", self.target_shield_up, rule=_DATA))
        s(
            "target_damage_reduction_active",
            check_bool("target_damage_reduction_active", self.target_damage_reduction_active, rule=_DATA),
        )
        if self.distance is not None:
            s("distance", check_number("distance", self.distance, minimum=0, limit=MAX_DISTANCE, rule=RULES))
        s("cover", check_choice("cover", self.cover, COVERS, rule=f"{RULES}: Cover (low/weak, high/strong)"))
        env_rule = f"{RULES}: add factors such as the environment, Conditions"
        s("environment", check_int("environment", self.environment, minimum=-12, maximum=12, rule=env_rule))
        s("conditions", check_int("conditions", self.conditions, minimum=-12, maximum=12, rule=env_rule))
        fb = check_int("fact_bonus", self.fact_bonus, rule=RULES)
        if fb != 0:
            raise RulesError(
                f"must be 0, not {fb}: no personal Fact bonuses on a Strike Save",
                field="fact_bonus",
                rule=f"{RULES}: You may not add personal Fact bonuses to a Save",
            )
        s("fact_bonus", 0)
        s("angry_step", check_bool("angry_step", self.angry_step, rule=f"{RULES}: The Angry Step"))
        s("movement_impeded", check_bool("movement_impeded", self.movement_impeded, rule=f"{RULES}: The Angry Step"))
        s(
            "target_ap",
            check_int(
                "target_ap",
                self.target_ap,
                minimum=0,
                optional=True,
                limit=MAX_ARMOR * MAX_POWER,
                rule=f"{CLAR}: armor points absorb physical damage",
            ),
        )
        s("target_hp", check_int("target_hp", self.target_hp, minimum=1, optional=True, limit=MAX_HP, rule=CLAR))
