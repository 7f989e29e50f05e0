"""Glass Empires models: Creature, Attack (a weapon), Options and Situation, validated on construction."""

from __future__ import annotations

from typing import Any, ClassVar

from ...checks import check_bool, check_choice, check_int, check_number, check_str
from ...errors import RulesError, show
from ...fields import NAME_RULE, spec
from ...limits import LIMITS, MAX_HP, MAX_LIST, MAX_TEXT
from ...model import Model
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


_TYPES_RULE = f"{CLAR}: resistance, weakness and immunity by damage type"
_TABLE = f"{CLAR}: damage is a flat number per weapon"
_SAVE = f"{RULES}: add factors such as the environment, Conditions"
_POWER = "characters.mdx: Power = HD + Level"


def _flag(default: bool, help: str, rule: str) -> Any:
    """Return the spec of a true/false field."""
    return spec(default, kind="bool", help=help, rule=rule)


def _category(value: Any) -> Any:
    """Return a weapon category name as a WEAPONS key ("Light Melee" -> "light_melee")."""
    return value.strip().lower().replace(" ", "_") if isinstance(value, str) else value


def _order(value: Any) -> Any:
    """Return a damage order without spaces ("band, resistance, armor" -> "band,resistance,armor")."""
    return value.replace(" ", "") if isinstance(value, str) else value


def _text(help: str, rule: str, advanced: bool = False) -> Any:
    """Return the spec of a free text of at most MAX_TEXT characters ("" allowed)."""
    return spec("", kind="text", allow_empty=True, max_length=MAX_TEXT, help=help, rule=rule, advanced=advanced)


class Attack(Model):
    """A weapon: flat ``damage`` per Strike (glass-empires-attack.txt: "choose an available weapon").

    ``category`` (a key of WEAPONS) fills ``damage``, ``range``, ``reload``, ``windgun`` and
    ``two_handed`` from the weapon table; a stated ``damage`` must then equal the table's base
    damage (the +1 of a two-handed medium weapon or of dual windgun pistols in melee is added by
    :attr:`strike_damage`). ``range`` is the listed range (ft) of a ranged attack; on a melee
    attack it is a reach that replaces the wielder's Size (e.g. a frog tongue).
    """

    system: ClassVar[str] = "glass_empires"

    name: str = spec("Weapon", kind="text", help="the weapon's name", rule=NAME_RULE)
    damage: int | None = spec(
        None,
        kind="int",
        minimum=0,
        limit=MAX_DAMAGE,
        optional=True,
        unit="HP",
        help="flat damage per Strike (None: the category's)",
        rule=_TABLE,
    )
    kind: str = spec(
        "melee",
        kind="choice",
        choices=("melee", "ranged"),
        help="melee (reach = Size) or ranged (the listed range)",
        rule=f"{RULES}: melee reach or the weapon's listed range",
    )
    range: float | None = spec(
        None,
        kind="number",
        minimum=0,
        exclusive_minimum=True,
        limit=MAX_FEET,
        optional=True,
        unit="ft",
        help="listed range of a ranged attack; on a melee attack a reach replacing Size",
        rule=f"{RULES}: Ranged attacks use the weapon's listed range",
    )
    reload: bool = _flag(False, "a Reload weapon (a Fumble jams it)", f"{CLAR}: a windgun or Reload weapon jams")
    damage_type: str = spec(
        "physical",
        kind="notation",
        choices=DAMAGE_TYPES,
        help="its damage type, or several as fire/ice",
        rule=_TYPES_RULE,
        schema={"type": "string"},
    )
    category: str | None = spec(
        None,
        kind="choice",
        choices=tuple(WEAPONS),
        optional=True,
        parse=_category,
        help="weapon category: fills damage, range and flags from the table",
        rule=_TABLE,
    )
    two_handed: bool = _flag(
        False, "wielded two-handed (+1 with a medium melee weapon)", f"{CLAR}: medium melee 5 (+1 two-handed)"
    )
    windgun: bool = spec(
        False,
        kind="bool",
        advanced=True,
        help="a windgun (a Fumble jams it; filled in from the category)",
        rule=f"{CLAR}: a windgun or Reload weapon jams",
    )
    dual_pistols: bool = _flag(
        False, "a pair of windgun pistols (+1 in melee)", f"{CLAR}: dual windgun pistols in melee +1"
    )
    natural: bool = _flag(False, "a natural weapon", f"{_DATA}: creature weapons")
    source: str = _text("where the weapon is published", f"{_DATA}: source", advanced=True)

    def check_rules(self) -> None:
        """Check the damage type(s), fill damage, range and flags from the category, and check range."""
        s = lambda k, v: object.__setattr__(self, k, v)  # noqa: E731
        s("damage_type", _types("damage_type", self.damage_type, allow_mixed=True))
        table_rule = _TABLE
        if self.category is not None:
            cat = WEAPONS[self.category]
            if self.damage is None:
                s("damage", cat.damage)
            elif self.damage != cat.damage:
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
        if self.range is not None:
            r = float(self.range)
            s("range", int(r) if r.is_integer() else r)
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

    name: str = spec("Creature", kind="text", help="the creature's name", rule=NAME_RULE)
    power: int = spec(
        1,
        kind="int",
        minimum=1,
        limit=MAX_POWER,
        unit="Power",
        help="Power (HD + Level)",
        rule=f"{CLAR}: HP = 4 x Power",
    )
    hp: int | None = spec(
        None,
        kind="int",
        minimum=1,
        limit=MAX_HP,
        optional=True,
        unit="HP",
        help="HP (None: 4 x Power)",
        rule=f"{CLAR}: HP = 4 x Power",
    )
    armor: int = spec(
        0,
        kind="int",
        minimum=0,
        limit=MAX_ARMOR,
        unit="Armor",
        help="Armor (none 0, leather 1, chain 2, plate 4); armor points = Armor x Power",
        rule=f"{CLAR}: Armor: none 0, leather 1, chain 2, plate 4",
    )
    size: float = spec(
        5,
        kind="number",
        minimum=0,
        exclusive_minimum=True,
        limit=MAX_FEET,
        unit="ft",
        help="height, also the melee reach",
        rule=f"{RULES}: melee reach is equal to their Size",
    )
    strikes: int = spec(
        1,
        kind="int",
        minimum=1,
        limit=MAX_STRIKES,
        unit="Strikes",
        help="Strikes per Attack",
        rule=f"{RULES}: by default, characters receive 1 Strike per Attack",
    )
    weapons: tuple[Attack, ...] = spec(
        (),
        kind="models",
        model=Attack,
        limit=MAX_WEAPONS,
        help="its weapons",
        rule=f"{RULES}: choose an available weapon",
    )
    resist: tuple = spec(
        (), kind="list", choices=DAMAGE_TYPES, help="damage types it resists (halved, rounded down)", rule=_TYPES_RULE
    )
    weak: tuple = spec(
        (), kind="list", choices=DAMAGE_TYPES, help="damage types it is weak to (doubled)", rule=_TYPES_RULE
    )
    immune: tuple = spec(
        (), kind="list", choices=DAMAGE_TYPES, help="damage types it is immune to (zero)", rule=_TYPES_RULE
    )
    hd: int | None = spec(
        None,
        kind="int",
        minimum=0,
        limit=MAX_POWER,
        optional=True,
        unit="HD",
        help="Hit Dice (None: not published)",
        rule=_POWER,
    )
    level: int = spec(0, kind="int", minimum=0, limit=MAX_POWER, unit="level", help="level", rule=_POWER)
    source: str = _text("where the stat line is published", f"{_DATA}: source", advanced=True)
    traits: Any = spec(
        None,
        kind="table",
        help="published traits {trait: value}; keys from TRAITS",
        rule=f"{_DATA}: creature traits",
        schema={"type": "object", "propertyNames": {"enum": list(TRAITS)}},
    )
    note: str = _text("what default the catalog used where the published data is silent", f"{_DATA}: creature traits")

    def check_rules(self) -> None:
        """Check the traits, fill HP (4 x Power), and check Size, Power = HD + Level and the damage types."""
        s = lambda k, v: object.__setattr__(self, k, v)  # noqa: E731
        self._validate_traits()
        if self.hp is None:
            s("hp", 4 * self.power)
        s("size", int(self.size) if float(self.size).is_integer() else self.size)
        if self.hd is not None:
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

    damage_order: str = spec(
        "band,resistance,armor",
        kind="choice",
        choices=DAMAGE_ORDERS,
        parse=_order,
        help="the order of band (Crit x2, Seven /2), resistance and armor points",
        rule=f"{CLAR}: Crit x2 or Seven /2 first, then resistance, then armor",
    )
    armor_points_formula: str = spec(
        "armor_x_power",
        kind="choice",
        choices=AP_FORMULAS,
        help="armor points = Armor x Power (default) or Armor x HD",
        rule=f"{CLAR}: Armor points = Armor x Power",
    )
    attack_is_save_action: bool = _flag(
        True,
        "the Attack is the turn's one Save action (one Attack per turn)",
        f"{CLAR}: at most one of them a Save action",
    )
    kill_refunds_action: bool = _flag(
        True,
        "a Strike that kills gives the Attack's action back",
        f"{CLAR}: a Strike that kills refunds the Attack's action",
    )
    jam_ends_strikes: bool = _flag(
        True, "a jammed weapon makes no further Strikes this turn", f"{CLAR}: a windgun or Reload weapon jams"
    )
    mixed_damage_type: str = spec(
        "most_damaging",
        kind="choice",
        choices=MIXED_TYPE_RULES,
        help="of a weapon's several types, the one most or least damaging to the target",
        rule=_TYPES_RULE,
    )
    multiplier_rounding: str = spec(
        "down",
        kind="choice",
        choices=ROUNDINGS,
        help="rounding of a fractional damage-taken multiplier",
        rule=f"{RULES}: Seven: halving Damage taken; round down",
    )


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

    distance: float | None = spec(
        None,
        kind="number",
        minimum=0,
        limit=MAX_DISTANCE,
        optional=True,
        unit="ft",
        help="distance to the target (None: within reach or listed range)",
        rule=RULES,
    )
    cover: str = spec(
        "none",
        kind="choice",
        choices=COVERS,
        help="low: -2, high: -4 to ranged Strike Saves",
        rule=f"{RULES}: Cover (low/weak, high/strong)",
    )
    environment: int = spec(
        0,
        kind="int",
        minimum=-12,
        maximum=12,
        unit="modifier",
        help="net relevant environment factors, each +-1",
        rule=_SAVE,
    )
    conditions: int = spec(
        0, kind="int", minimum=-12, maximum=12, unit="modifier", help="net relevant Conditions, each +-1", rule=_SAVE
    )
    fact_bonus: int = spec(
        0,
        kind="int",
        minimum=0,
        maximum=0,
        unit="modifier",
        help="must be 0: no personal Fact bonuses",
        rule=f"{RULES}: You may not add personal Fact bonuses to a Save",
    )
    angry_step: bool = _flag(True, "use the Angry Step when needed", f"{RULES}: The Angry Step")
    movement_impeded: bool = _flag(
        False, "terrain or a Condition limits free movement (no Angry Step)", f"{RULES}: The Angry Step"
    )
    target_ap: int | None = spec(
        None,
        kind="int",
        minimum=0,
        limit=MAX_ARMOR * MAX_POWER,
        optional=True,
        unit="armor points",
        help="the target's current armor points (None: full)",
        rule=f"{CLAR}: armor points absorb physical damage",
    )
    target_hp: int | None = spec(
        None,
        kind="int",
        minimum=1,
        limit=MAX_HP,
        optional=True,
        unit="HP",
        help="the target's current HP (None: full)",
        rule=CLAR,
    )
    circumstances: tuple = spec(
        (),
        kind="list",
        choices=CIRCUMSTANCES,
        help="conditional traits that hold in this Attack",
        rule=f"{_DATA}: conditional traits (strike_save_bonus, resist_conditional)",
    )
    target_shield_up: bool = _flag(True, "the target's Ray Shield, if any, is up", _DATA)
    target_damage_reduction_active: bool = _flag(True, "the target's damage reduction (Bloodthirst) holds", _DATA)

    def check_rules(self) -> None:
        """Check the circumstances and that no Fact bonus is added."""
        object.__setattr__(self, "circumstances", _circumstances("circumstances", self.circumstances))
        if self.fact_bonus != 0:
            raise RulesError(
                f"must be 0, not {self.fact_bonus}: no personal Fact bonuses on a Strike Save",
                field="fact_bonus",
                rule=f"{RULES}: You may not add personal Fact bonuses to a Save",
            )
