"""Annulus models: Creature, Attack (an attack set), Options, Situation (annulus-attacks.txt).

Every model validates on construction and raises RulesError naming the field and the rule.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from dataclasses import KW_ONLY, dataclass, field
from typing import Any, ClassVar

from ...errors import RulesError
from ...limits import LIMITS, MAX_HP, MAX_LIST
from ..base import Model, check_bool, check_choice, check_int, check_models, check_number, check_str, show
from .upgrades import UPGRADES, canonical_name

__all__ = [
    "Creature",
    "Attack",
    "Options",
    "Situation",
    "UpgradeRanks",
    "DEFENSES",
    "AWARENESS",
    "range_band",
    "RANGE_SCALE",
]

RULES = "annulus-attacks.txt"
CLAR = "CLARIFICATIONS.md, Annulus"
DEFENSES = ("agility", "toughness", "insight")
AWARENESS = ("clueless", "suspicious", "alert")
CONCEALMENT = ("none", "partial", "full")

# Sizes the rules never need (docs/limits.md; largest in the catalog and the rules text in brackets).
MAX_SIZE = 20  #: creature size [catalog 2..8; the text's examples are sizes 3 to 5]
MAX_LEVEL = 100  #: level [catalog 1..10]
MAX_DEFENSE = 100  #: agility / toughness / insight [catalog 0..4; a pool of 4 dice]
MAX_RANK = 10  #: rank of one stackable upgrade [catalog 2; Range 10 reaches 5,000 km]
MAX_SETS = 8  #: attack sets of one creature [catalog 3]; turn plans grow as C(sets + actions - 1, actions)
MAX_POOL = 20  #: Options.base_pool ["roll four dice"]
MAX_SIDES = 100  #: Options.dice_sides [d6]
MAX_ACTIONS = 6  #: Options.actions [2]; 8 sets x 6 actions = 1,716 plans, about 1.3 s a turn
MAX_SIZE_STEPS = MAX_SIZE  #: Options.size_free_steps [1]; beyond the size range it changes nothing
MAX_EXPERIENCE = 100  #: Options.experience_per_rank [1]
MAX_ADVANTAGES = 20  #: Situation.extra_advantages / extra_disadvantages (each is one die)
MAX_DISTANCE = 1e7  #: Situation.distance, metres (Range rank 10's band ends at 5e6 m)


def range_scale(i: int) -> int:
    """Return step ``i`` of the standard range scale 1, 2, 5, 10, 20, 50, 100, ... (step 0 = 1 m)."""
    return (1, 2, 5)[i % 3] * 10 ** (i // 3)


RANGE_SCALE = tuple(range_scale(i) for i in range(12))


def range_band(rank: int) -> tuple[float, float]:
    """Return (exclusive minimum, inclusive maximum) distance in metres for ``rank`` Range ranks.

    Rank 0 (no Range): within 1 m ("any space within 1 meter"). Rank r >= 1: maximum at step 2r of
    the scale, nothing at or within step 2r - 1 (CLARIFICATIONS: 1: > 2 to 5 m; 2: > 10 to 20 m).
    """
    if rank == 0:
        return (0.0, 1.0)
    return (float(range_scale(2 * rank - 1)), float(range_scale(2 * rank)))


class UpgradeRanks(dict):
    """A read-only, hashable ``{upgrade name: rank}`` mapping (canonical names, text order)."""

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(self.items()))

    def _readonly(self, *args, **kwargs):
        raise RulesError(
            "an attack set's upgrades cannot be changed in place; use attack.replace(upgrades=...)", field="upgrades"
        )

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _readonly

    def __repr__(self) -> str:
        return repr(dict(self))


def _rule_err(message: str, rule: str) -> RulesError:
    return RulesError(message, field="upgrades", rule=f"{RULES}: {rule}")


_COUNTER = re.compile(r"^\s*counter[\s_-]+(agility|toughness|insight)\s*$", re.I)


def _normalise_upgrades(value: Any) -> tuple[UpgradeRanks, list[str]]:
    """Return canonical {name: rank} and any "Counter <Type>" names given; accepts a mapping or a
    list of names (repeats add ranks)."""
    if value is None:
        value = {}
    if isinstance(value, (Mapping, list, tuple)) and len(value) > MAX_LIST:
        raise RulesError(
            f"lists {len(value)} upgrades; a set has at most {MAX_LIST} entries", field="upgrades", rule=LIMITS
        )
    if isinstance(value, Mapping):
        items = list(value.items())
    elif isinstance(value, (list, tuple)):
        items = []
        for v in value:
            if isinstance(v, (list, tuple)) and len(v) == 2:
                items.append((v[0], v[1]))
            else:
                items.append((v, 1))
    else:
        raise RulesError(
            f"must be a table {{name: rank}} or a list of upgrade names, not {show(value)}", field="upgrades"
        )
    ranks: dict[str, int] = {}
    counters: list[str] = []
    for raw, rank in items:
        if not isinstance(raw, str) or len(raw) > 40:
            raise RulesError(
                f"an upgrade is named by its text name (e.g. 'Precise'), not {show(raw)}",
                field="upgrades",
                rule=f"{CLAR}: upgrade names",
            )
        m = _COUNTER.match(raw)
        if m:
            counters.append(f"Counter {m.group(1).capitalize()}")
        name = "Counter" if m else canonical_name(raw)
        if name is None:
            if isinstance(raw, str) and raw.strip().lower().replace(" ", "") in {
                "damage",
                "agilitydamage",
                "toughnessdamage",
                "insightdamage",
            }:
                raise RulesError(
                    f"{raw!r} is the seed; choose it with defense=, not as an upgrade",
                    field="upgrades",
                    rule=f"{RULES}: All attack sets must start by taking the Damage ability",
                )
            close = difflib.get_close_matches(raw, list(UPGRADES), n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise RulesError(f"unknown upgrade {raw!r}{hint}", field="upgrades", rule=f"{CLAR}: upgrade names")
        try:
            rank = check_int("upgrades", rank, minimum=1, limit=MAX_RANK, rule=f"{RULES}: an upgrade is taken or not")
        except RulesError as exc:
            raise RulesError(f"{name} rank {exc.message}", field="upgrades", rule=exc.rule) from None
        ranks[name] = ranks.get(name, 0) + rank
        if ranks[name] > MAX_RANK:
            raise RulesError(
                f"{name} rank must be at most {MAX_RANK} (no rule needs more), not {ranks[name]}",
                field="upgrades",
                rule=f"{RULES}: You can take this upgrade multiple times; {LIMITS}",
            )
    if ranks.get("Counter", 0) > 1:
        names = counters + ["Counter"] * (ranks["Counter"] - len(counters))
        raise RulesError(
            f"{names[0]} and {names[1]}: a set may have only one Counter upgrade",
            field="upgrades",
            rule=f"{RULES}: You cannot have more than one Counter upgrade in a set",
        )
    for name, rank in ranks.items():
        if rank > 1 and not UPGRADES[name].stackable:
            raise RulesError(
                f"{name} has rank {rank}, but {name} cannot be taken more than once "
                f"(only Reckless, Giant, Precise, Range and Assassin stack)",
                field="upgrades",
                rule=f"{RULES}: only upgrades that say so may be taken multiple times",
            )
    order = {n: i for i, n in enumerate(UPGRADES)}
    return UpgradeRanks(sorted(ranks.items(), key=lambda kv: order[kv[0]])), counters


def _check_build(ranks: Mapping[str, int], counter_type: str | None) -> None:
    """Raise RulesError naming both upgrades for an illegal combination (annulus-attacks.txt)."""
    alterations = [n for n in ranks if UPGRADES[n].category == "alteration"]
    if len(alterations) > 1:
        raise _rule_err(
            f"{alterations[0]} and {alterations[1]} are both alterations; a set may have only one",
            "Alteration upgrades are all mutually exclusive with each other",
        )
    areas = [n for n in ranks if UPGRADES[n].category == "area"]
    if len(areas) > 1:
        raise _rule_err(
            f"{areas[0]} and {areas[1]} are both area upgrades; a set may have only one",
            "Area upgrades are all mutually exclusive with each other",
        )
    if areas and "Range" in ranks:
        raise _rule_err(
            f"Range and {areas[0]} cannot share a set: Range does not function with area upgrades",
            "The Range general upgrade does not function with any of the Area upgrades",
        )
    if "Flashy" in ranks and "Stealth" in ranks:
        raise _rule_err(
            "Flashy and Stealth cannot share a set", "You cannot use this upgrade and the Stealth one at the same time"
        )
    if "Counter" in ranks and counter_type is None:
        raise RulesError(
            "Counter needs its defense type: set counter_type to agility, toughness or insight",
            field="counter_type",
            rule=f"{RULES}: Counter: Pick one kind of attack (Agility, Toughness, or Insight)",
        )
    if counter_type is not None and "Counter" not in ranks:
        raise RulesError(
            f"counter_type {counter_type!r} is set but the set has no Counter upgrade",
            field="counter_type",
            rule=f"{RULES}: Counter: Pick one kind of attack",
        )


@dataclass(frozen=True)
class Attack(Model):
    """An attack set: the Damage seed (``defense``: agility, toughness or insight) and its upgrades.

    ``upgrades`` maps upgrade names to ranks (a list of names is accepted). ``counter_type`` is the
    defense type a Counter set reacts to (annulus-attacks.txt: "Counter Agility").
    """

    system: ClassVar[str] = "annulus"
    model_kind: ClassVar[str] = "attack"

    name: str
    defense: str = "agility"
    upgrades: Any = field(default_factory=dict)
    counter_type: str | None = None

    def validate(self) -> None:
        object.__setattr__(self, "name", check_str("name", self.name))
        seed_rule = f"{RULES}: You must choose only one [seed]: Agility, Toughness or Insight Damage"
        d = self.defense
        if isinstance(d, str):
            d = d.strip().lower().replace(" damage", "")
        object.__setattr__(self, "defense", check_choice("defense", d, DEFENSES, rule=seed_rule))
        ct = self.counter_type
        if isinstance(ct, str):
            ct = ct.strip().lower()
        object.__setattr__(
            self, "counter_type", check_choice("counter_type", ct, DEFENSES, rule=f"{RULES}: Counter", optional=True)
        )
        ranks, counters = _normalise_upgrades(self.upgrades)
        if counters:
            given = counters[0].split()[1].lower()
            if self.counter_type is not None and self.counter_type != given:
                raise RulesError(
                    f"{counters[0]} disagrees with counter_type={self.counter_type!r}",
                    field="counter_type",
                    rule=f"{RULES}: Once chosen, the type cannot be changed",
                )
            object.__setattr__(self, "counter_type", given)
        _check_build(ranks, self.counter_type)
        object.__setattr__(self, "upgrades", ranks)

    def rank(self, name: str) -> int:
        """Return the rank of upgrade ``name`` in this set (0 if absent)."""
        return self.upgrades.get(canonical_name(name) or name, 0)

    def has(self, name: str) -> bool:
        """Return True if the set has upgrade ``name``."""
        return self.rank(name) > 0

    def category(self, category: str) -> list[str]:
        """Return the set's upgrades of one category (general, trigger, alteration, area)."""
        return [n for n in self.upgrades if UPGRADES[n].category == category]

    @property
    def alteration(self) -> str | None:
        """The set's alteration upgrade, or None."""
        a = self.category("alteration")
        return a[0] if a else None

    @property
    def area(self) -> str | None:
        """The set's area upgrade, or None."""
        a = self.category("area")
        return a[0] if a else None

    @property
    def triggers(self) -> list[str]:
        """The set's trigger upgrades."""
        return self.category("trigger")

    @property
    def cost(self) -> int:
        """Experience cost: 1 for the seed + 1 per upgrade rank (CLARIFICATIONS, Annulus)."""
        return 1 + sum(self.upgrades.values())

    experience = cost

    def __hash__(self) -> int:
        return hash((self.name, self.defense, self.upgrades, self.counter_type))


@dataclass(frozen=True)
class Creature(Model):
    """An Annulus creature. Vitality defaults to the level (CLARIFICATIONS: Max Vitality = level);
    ``attack_sets`` holds Attack models (dicts are accepted)."""

    system: ClassVar[str] = "annulus"
    model_kind: ClassVar[str] = "creature"

    name: str
    _: KW_ONLY
    size: int = 5
    level: int
    endurance: int
    vitality: int | None = None
    agility: int
    toughness: int
    insight: int
    awareness: str = "alert"
    attack_sets: Any = ()

    def validate(self) -> None:
        object.__setattr__(self, "name", check_str("name", self.name))
        object.__setattr__(
            self,
            "size",
            check_int("size", self.size, minimum=0, limit=MAX_SIZE, rule=f"{CLAR}: size is an integer, human 5"),
        )
        object.__setattr__(
            self,
            "level",
            check_int("level", self.level, minimum=1, limit=MAX_LEVEL, rule=f"{CLAR}: Max Vitality = level"),
        )
        object.__setattr__(
            self,
            "endurance",
            check_int(
                "endurance", self.endurance, minimum=0, limit=MAX_HP, rule=f"{CLAR}: Endurance is a creature stat"
            ),
        )
        vit = self.level if self.vitality is None else self.vitality
        vitality = check_int(
            "vitality", vit, minimum=1, limit=MAX_HP, rule=f"{RULES}: If you remove the last Vitality ... dies"
        )
        object.__setattr__(self, "vitality", vitality)
        if self.endurance + vitality > MAX_HP:
            raise RulesError(
                f"Endurance + Vitality must be at most {MAX_HP} (no rule needs more), not {self.endurance + vitality}",
                field="endurance",
                rule=f"{RULES}: Endurance is removed first, then Vitality; {LIMITS}",
            )
        for d in DEFENSES:
            object.__setattr__(
                self,
                d,
                check_int(
                    d, getattr(self, d), minimum=0, limit=MAX_DEFENSE, rule=f"{RULES}: subtracts their relevant defense"
                ),
            )
        object.__setattr__(
            self, "awareness", check_choice("awareness", self.awareness, AWARENESS, rule=f"{CLAR}: Awareness states")
        )
        object.__setattr__(
            self, "attack_sets", check_models("attack_sets", self.attack_sets, Attack, max_items=MAX_SETS)
        )

    @property
    def hp(self) -> int:
        """Endurance + Vitality: the damage that kills (Endurance first, then Vitality)."""
        assert self.vitality is not None  # validate() fills in the default Vitality
        return self.endurance + self.vitality

    def defense(self, kind: str) -> int:
        """Return the defense an attack with seed ``kind`` targets."""
        return getattr(self, kind)


@dataclass(frozen=True)
class Options(Model):
    """Rule options: every default of CLARIFICATIONS.md (Annulus) as a named field.

    - ``success_on`` (4): a die succeeds on this face or higher; 4 -> p = 1/2, 5 -> p = 1/3.
    - ``dice_sides`` (6): the pool dice are d6.
    - ``base_pool`` (4): "roll four dice"; advantages and disadvantages cancel one for one, each net
      advantage adds a die, each net disadvantage removes one, never below 0 dice.
    - ``crit_doubles_bonus`` (True): Critical doubles the whole damage, Bully and assassination
      included; False doubles only the damage after defense, the bonuses are added after.
    - ``size_free_steps`` (1): size steps that impose no disadvantage (a target 2+ sizes larger or
      smaller imposes one disadvantage per step beyond the first).
    - ``experience_per_rank`` (1): Experience per upgrade rank and for the seed.
    - ``reroll`` ("on_zero"): Reroll's default use: a strike that dealt 0 is rerolled once;
      "never" ignores the upgrade.
    - ``actions`` (2): actions per turn.
    """

    system: ClassVar[str] = "annulus"
    model_kind: ClassVar[str] = "options"

    success_on: int = 4
    dice_sides: int = 6
    base_pool: int = 4
    crit_doubles_bonus: bool = True
    size_free_steps: int = 1
    experience_per_rank: int = 1
    reroll: str = "on_zero"
    actions: int = 2

    def validate(self) -> None:
        object.__setattr__(
            self,
            "dice_sides",
            check_int("dice_sides", self.dice_sides, minimum=2, limit=MAX_SIDES, rule=f"{CLAR}: Dice are d6"),
        )
        object.__setattr__(
            self,
            "success_on",
            check_int(
                "success_on", self.success_on, minimum=1, maximum=self.dice_sides + 1, rule=f"{CLAR}: success on 4+"
            ),
        )
        object.__setattr__(
            self,
            "base_pool",
            check_int("base_pool", self.base_pool, minimum=0, limit=MAX_POOL, rule=f"{RULES}: roll four dice"),
        )
        object.__setattr__(
            self,
            "crit_doubles_bonus",
            check_bool(
                "crit_doubles_bonus", self.crit_doubles_bonus, rule=f"{CLAR}: Critical doubles the whole damage"
            ),
        )
        object.__setattr__(
            self,
            "size_free_steps",
            check_int(
                "size_free_steps",
                self.size_free_steps,
                minimum=0,
                limit=MAX_SIZE_STEPS,
                rule=f"{CLAR}: one disadvantage per step beyond the first",
            ),
        )
        object.__setattr__(
            self,
            "experience_per_rank",
            check_int(
                "experience_per_rank",
                self.experience_per_rank,
                minimum=0,
                limit=MAX_EXPERIENCE,
                rule=f"{CLAR}: each upgrade costs 1",
            ),
        )
        object.__setattr__(
            self,
            "reroll",
            check_choice(
                "reroll", self.reroll, ("on_zero", "never"), rule=f"{CLAR}: a strike that dealt 0 is rerolled once"
            ),
        )
        object.__setattr__(
            self,
            "actions",
            check_int("actions", self.actions, minimum=1, limit=MAX_ACTIONS, rule=f"{CLAR}: 2 actions per turn"),
        )

    @property
    def p_success(self) -> float:
        """Probability that one die is a success."""
        return (self.dice_sides - self.success_on + 1) / self.dice_sides


@dataclass(frozen=True)
class Situation(Model):
    """The circumstances of one use of an attack set (CLARIFICATIONS, Annulus, order of resolution).

    ``distance`` in metres; ``concealment`` none/partial/full; ``target_undamaged`` (First Blood)
    defaults to True (catalog creatures start whole); ``attacker_vitality`` is the attacker's
    current Vitality (None: its ``vitality`` field, which is the current Vitality; the total is its
    level, so Swansong needs at most level // 2); ``target_awareness`` None uses the target's own
    awareness; ``target_petrified``: the target is immune to sets without Demolitions (damage 0,
    nothing triggers), and a set with Demolitions that gets through is an assassination.
    """

    system: ClassVar[str] = "annulus"
    model_kind: ClassVar[str] = "situation"

    distance: float = 1.0
    airless: bool = False
    concealment: str = "none"
    tired: bool = False
    armor: bool = False
    inside_devourer: bool = False
    attacker_weakened: bool = False
    target_prone: bool = False
    target_setup: bool = False
    target_blind: bool = False
    target_undamaged: bool = True
    target_petrified: bool = False
    target_awareness: str | None = None
    after_kill: bool = False
    mutual_sight: bool = True
    attacker_vitality: int | None = None
    blood_price: bool = False
    reroll_available: bool = True
    extra_advantages: int = 0
    extra_disadvantages: int = 0

    def validate(self) -> None:
        object.__setattr__(
            self,
            "distance",
            check_number(
                "distance", self.distance, minimum=0.0, limit=MAX_DISTANCE, rule=f"{RULES}: any space within 1 meter"
            ),
        )
        for name in (
            "airless",
            "tired",
            "armor",
            "inside_devourer",
            "attacker_weakened",
            "target_prone",
            "target_setup",
            "target_blind",
            "target_undamaged",
            "target_petrified",
            "after_kill",
            "mutual_sight",
            "blood_price",
            "reroll_available",
        ):
            object.__setattr__(self, name, check_bool(name, getattr(self, name), rule=f"{CLAR}: order of resolution"))
        object.__setattr__(
            self,
            "concealment",
            check_choice("concealment", self.concealment, CONCEALMENT, rule=f"{CLAR}: partial concealment 1, full 2"),
        )
        object.__setattr__(
            self,
            "target_awareness",
            check_choice(
                "target_awareness", self.target_awareness, AWARENESS, rule=f"{CLAR}: Awareness states", optional=True
            ),
        )
        object.__setattr__(
            self,
            "attacker_vitality",
            check_int(
                "attacker_vitality",
                self.attacker_vitality,
                minimum=0,
                optional=True,
                limit=MAX_HP,
                rule=f"{RULES}: Swansong",
            ),
        )
        for name in ("extra_advantages", "extra_disadvantages"):
            object.__setattr__(
                self,
                name,
                check_int(
                    name,
                    getattr(self, name),
                    minimum=0,
                    limit=MAX_ADVANTAGES,
                    rule=f"{CLAR}: advantages and disadvantages cancel",
                ),
            )
