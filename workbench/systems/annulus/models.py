"""Annulus models: Creature, Attack (an attack set), Options, Situation (annulus-attacks.txt).

Every model validates on construction and raises RulesError naming the field and the rule.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from typing import Any, ClassVar

from ...checks import check_int
from ...errors import RulesError, show
from ...fields import NAME_RULE, lower, spec
from ...limits import LIMITS, MAX_HP, MAX_LIST
from ...model import Model
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
#: the non-visual senses of the rules text ("such as tremorsense, scent or sonar"): a creature
#: with any of them is not hindered by a Blind sting
SENSES = ("tremorsense", "scent", "sonar")
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
#: ordered turn plans of one creature [catalog 4]: past it each multiset of sets is offered in one order only
MAX_ORDERED_PLANS = 2000
MAX_SIZE_STEPS = MAX_SIZE  #: Options.size_free_steps [1]; beyond the size range it changes nothing
MAX_EXPERIENCE = 100  #: Options.experience_per_rank [1]
MAX_ADVANTAGES = 20  #: Situation.extra_advantages / extra_disadvantages (each is one die)
MAX_DISTANCE = 1e7  #: Situation.distance, metres (Range rank 10's band ends at 5e6 m)
_DEF_RULE = f"{RULES}: subtracts their relevant defense"
_ORDER = f"{CLAR}: order of resolution"


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


def _categories(upgrades: Mapping[str, int]) -> dict[str, tuple[str, ...]]:
    """Return the upgrades of each category in ``upgrades`` (canonical names), in their order."""
    by: dict[str, list[str]] = {}
    for n in upgrades:
        by.setdefault(UPGRADES[n].category, []).append(n)
    return {k: tuple(v) for k, v in by.items()}


class UpgradeRanks(dict):
    """A read-only, hashable ``{upgrade name: rank}`` mapping (canonical names, text order)."""

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(self.items()))

    def categories(self) -> dict[str, tuple[str, ...]]:
        """Return the upgrades of each category (general, trigger, alteration, area) in text order,
        worked out once: the mapping never changes, and a budget search asks a set for its
        alteration hundreds of thousands of times."""
        got = self.__dict__.get("_categories")
        if got is None:
            got = self.__dict__["_categories"] = _categories(self)
        return got

    def _readonly(self, *args, **kwargs):
        raise RulesError(
            "an attack set's upgrades cannot be changed in place; use attack.replace(upgrades=...)", field="upgrades"
        )

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _readonly

    def __repr__(self) -> str:
        return repr(dict(self))

    def __reduce__(self) -> tuple[Any, tuple[dict[str, int]]]:
        """Pickle as ``UpgradeRanks(dict)``: the default for a dict subclass fills the new object item by
        item, which the read-only mapping refuses (so an Annulus model could not cross to a Dask
        worker or a multiprocessing pool)."""
        return (UpgradeRanks, (dict(self),))


def _seed(value: Any) -> Any:
    """Return a seed name as a defense ("Toughness Damage" -> "toughness"); other values unchanged."""
    return value.strip().lower().replace(" damage", "") if isinstance(value, str) else value


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


class Attack(Model):
    """An attack set: the Damage seed (``defense``: agility, toughness or insight) and its upgrades.

    ``upgrades`` maps upgrade names to ranks (a list of names is accepted). ``counter_type`` is the
    defense type a Counter set reacts to (annulus-attacks.txt: "Counter Agility").
    """

    system: ClassVar[str] = "annulus"
    model_kind: ClassVar[str] = "attack"

    name: str = spec(kind="text", help="the attack set's name", rule=NAME_RULE)
    defense: str = spec(
        "agility",
        kind="choice",
        choices=DEFENSES,
        parse=_seed,
        help="the Damage seed: the defense the set targets ('Toughness Damage' is accepted)",
        rule=f"{RULES}: You must choose only one [seed]: Agility, Toughness or Insight Damage",
    )
    upgrades: Any = spec(
        kind="table",
        factory=dict,
        unit="ranks",
        help="{upgrade name: rank} (a list of names is accepted; repeats add ranks)",
        rule=f"{RULES}: upgrades; {CLAR}: upgrade names",
        schema={"type": "object", "additionalProperties": {"type": "integer", "minimum": 1, "maximum": MAX_RANK}},
    )
    counter_type: str | None = spec(
        None,
        kind="choice",
        choices=DEFENSES,
        optional=True,
        parse=lower,
        help="the defense type a Counter set reacts to (None without Counter)",
        rule=f"{RULES}: Counter",
    )

    def check_rules(self) -> None:
        """Check the upgrades (names, ranks, exclusions) and that Counter and ``counter_type`` agree."""
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

    def _categories(self) -> dict[str, tuple[str, ...]]:
        ups = self.upgrades
        return ups.categories() if isinstance(ups, UpgradeRanks) else _categories(ups)

    def category(self, category: str) -> list[str]:
        """Return the set's upgrades of one category (general, trigger, alteration, area)."""
        return list(self._categories().get(category, ()))

    @property
    def alteration(self) -> str | None:
        """The set's alteration upgrade, or None."""
        a = self._categories().get("alteration")
        return a[0] if a else None

    @property
    def area(self) -> str | None:
        """The set's area upgrade, or None."""
        a = self._categories().get("area")
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


class Creature(Model):
    """An Annulus creature. Vitality defaults to the level (CLARIFICATIONS: Max Vitality = level);
    ``attack_sets`` holds Attack models (dicts are accepted)."""

    system: ClassVar[str] = "annulus"
    model_kind: ClassVar[str] = "creature"

    name: str = spec(kind="text", help="the creature's name", rule=NAME_RULE)
    size: int = spec(
        5,
        kind="int",
        minimum=0,
        limit=MAX_SIZE,
        unit="size",
        help="size (human 5)",
        rule=f"{CLAR}: size is an integer, human 5",
    )
    level: int = spec(
        kind="int",
        minimum=1,
        limit=MAX_LEVEL,
        unit="level",
        help="level, also the total Vitality",
        rule=f"{CLAR}: Max Vitality = level",
    )
    endurance: int = spec(
        kind="int",
        minimum=0,
        limit=MAX_HP,
        unit="HP",
        help="Endurance: damage is removed from it first",
        rule=f"{CLAR}: Endurance is a creature stat",
    )
    vitality: int | None = spec(
        None,
        kind="int",
        minimum=1,
        limit=MAX_HP,
        optional=True,
        unit="HP",
        help="current Vitality, removed after Endurance (None: the level)",
        rule=f"{RULES}: If you remove the last Vitality ... dies",
    )
    agility: int = spec(
        kind="int",
        minimum=0,
        limit=MAX_DEFENSE,
        unit="successes",
        help="defense against Agility Damage sets",
        rule=_DEF_RULE,
    )
    toughness: int = spec(
        kind="int",
        minimum=0,
        limit=MAX_DEFENSE,
        unit="successes",
        help="defense against Toughness Damage sets",
        rule=_DEF_RULE,
    )
    insight: int = spec(
        kind="int",
        minimum=0,
        limit=MAX_DEFENSE,
        unit="successes",
        help="defense against Insight Damage sets",
        rule=_DEF_RULE,
    )
    awareness: str = spec(
        "alert",
        kind="choice",
        choices=AWARENESS,
        help="how aware of attacks it is (assassination)",
        rule=f"{CLAR}: Awareness states",
    )
    senses: tuple = spec(
        (),
        kind="list",
        choices=SENSES,
        help="non-visual senses it perceives by: a Blind sting does not stop it perceiving",
        rule=f"{RULES}: Blindness does not affect non-visual-based modes of sensory input such as tremorsense, scent or sonar",
    )
    attack_sets: tuple[Attack, ...] = spec(
        (),
        kind="models",
        model=Attack,
        limit=MAX_SETS,
        help="its attack sets (Attack models or tables)",
        rule=f"{RULES}: attack sets",
    )

    def check_rules(self) -> None:
        """Fill in the Vitality (the level), check the senses and that Endurance + Vitality stays
        within MAX_HP."""
        senses = self.senses
        if isinstance(senses, str) or not isinstance(senses, (list, tuple)):
            raise RulesError(f"must be a list of senses, not {senses!r}", field="senses")
        bad = [x for x in senses if not isinstance(x, str) or x.lower() not in SENSES]
        if bad:
            raise RulesError(
                f"{bad[0]!r} is not a non-visual sense; choose from {', '.join(SENSES)}",
                field="senses",
                rule=f"{RULES}: tremorsense, scent or sonar",
            )
        object.__setattr__(self, "senses", tuple(dict.fromkeys(x.lower() for x in senses)))
        if self.vitality is None:
            object.__setattr__(self, "vitality", self.level)
        vitality = self.vitality
        assert vitality is not None
        if self.endurance + vitality > MAX_HP:
            raise RulesError(
                f"Endurance + Vitality must be at most {MAX_HP} (no rule needs more), not {self.endurance + vitality}",
                field="endurance",
                rule=f"{RULES}: Endurance is removed first, then Vitality; {LIMITS}",
            )

    @property
    def hp(self) -> int:
        """Endurance + Vitality: the damage that kills (Endurance first, then Vitality)."""
        assert self.vitality is not None  # validate() fills in the default Vitality
        return self.endurance + self.vitality

    def defense(self, kind: str) -> int:
        """Return the defense an attack with seed ``kind`` targets."""
        return getattr(self, kind)


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

    success_on: int = spec(
        4,
        kind="int",
        minimum=1,
        limit=MAX_SIDES + 1,
        unit="face",
        help="a die succeeds on this face or higher (at most dice_sides + 1: never)",
        rule=f"{CLAR}: success on 4+",
    )
    dice_sides: int = spec(
        6,
        kind="int",
        minimum=2,
        limit=MAX_SIDES,
        unit="sides",
        help="sides of the pool dice",
        rule=f"{CLAR}: Dice are d6",
    )
    base_pool: int = spec(
        4,
        kind="int",
        minimum=0,
        limit=MAX_POOL,
        unit="dice",
        help="dice rolled before advantages",
        rule=f"{RULES}: roll four dice",
    )
    crit_doubles_bonus: bool = spec(
        True,
        kind="bool",
        help="Critical doubles the whole damage (False: only the damage after defense)",
        rule=f"{CLAR}: Critical doubles the whole damage",
    )
    size_free_steps: int = spec(
        1,
        kind="int",
        minimum=0,
        limit=MAX_SIZE_STEPS,
        unit="size steps",
        help="size steps that impose no disadvantage",
        rule=f"{CLAR}: one disadvantage per step beyond the first",
    )
    experience_per_rank: int = spec(
        1,
        kind="int",
        minimum=0,
        limit=MAX_EXPERIENCE,
        unit="Experience",
        help="Experience per upgrade rank and for the seed",
        rule=f"{CLAR}: each upgrade costs 1",
    )
    reroll: str = spec(
        "on_zero",
        kind="choice",
        choices=("on_zero", "never"),
        help="Reroll's use: reroll a strike that dealt 0, or never",
        rule=f"{CLAR}: a strike that dealt 0 is rerolled once",
    )
    actions: int = spec(
        2,
        kind="int",
        minimum=1,
        limit=MAX_ACTIONS,
        unit="actions",
        help="actions per turn",
        rule=f"{CLAR}: 2 actions per turn",
    )

    def check_rules(self) -> None:
        """Check that ``success_on`` is a face of the dice, or one past the highest (never succeeds)."""
        if self.success_on > self.dice_sides + 1:
            raise RulesError(
                f"must be at most {self.dice_sides + 1}, not {self.success_on}",
                field="success_on",
                rule=f"{CLAR}: success on 4+",
            )

    @property
    def p_success(self) -> float:
        """Probability that one die is a success."""
        return (self.dice_sides - self.success_on + 1) / self.dice_sides


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

    distance: float = spec(
        1.0,
        kind="number",
        minimum=0.0,
        limit=MAX_DISTANCE,
        unit="m",
        help="distance to the target (Range bands)",
        rule=f"{RULES}: any space within 1 meter",
    )
    airless: bool = spec(False, kind="bool", help="there is no air (Airtight needed)", rule=f"{RULES}: Airtight")
    concealment: str = spec(
        "none",
        kind="choice",
        choices=CONCEALMENT,
        help="the target's concealment: partial 1 disadvantage, full 2",
        rule=f"{CLAR}: partial concealment 1, full 2",
    )
    tired: bool = spec(False, kind="bool", help="the attacker is tired (a disadvantage unless Tireless)", rule=_ORDER)
    armor: bool = spec(
        False, kind="bool", help="the attacker suffers the Armor effect (a disadvantage unless Armored)", rule=_ORDER
    )
    inside_devourer: bool = spec(
        False, kind="bool", help="the attacker is inside a devourer (a disadvantage unless Visceral)", rule=_ORDER
    )
    attacker_weakened: bool = spec(False, kind="bool", help="the attacker is Weakened (a disadvantage)", rule=_ORDER)
    target_prone: bool = spec(
        False, kind="bool", help="the target is Prone (advantage within 5 m, disadvantage beyond 20 m)", rule=_ORDER
    )
    target_setup: bool = spec(False, kind="bool", help="the target was Setup (an advantage)", rule=_ORDER)
    target_blind: bool = spec(
        False, kind="bool", help="the target is Blind (it cannot see the attacker: an advantage)", rule=_ORDER
    )
    target_undamaged: bool = spec(True, kind="bool", help="the target is undamaged (First Blood)", rule=_ORDER)
    target_petrified: bool = spec(
        False, kind="bool", help="the target is Petrified (immune to sets without Demolitions)", rule=_ORDER
    )
    target_awareness: str | None = spec(
        None,
        kind="choice",
        choices=AWARENESS,
        optional=True,
        help="the target's awareness (None: its own)",
        rule=f"{CLAR}: Awareness states",
    )
    after_kill: bool = spec(False, kind="bool", help="the attacker killed this round (Killing Spree)", rule=_ORDER)
    mutual_sight: bool = spec(True, kind="bool", help="attacker and target see each other (Gaze)", rule=_ORDER)
    attacker_vitality: int | None = spec(
        None,
        kind="int",
        minimum=0,
        limit=MAX_HP,
        optional=True,
        unit="HP",
        help="the attacker's current Vitality (None: its vitality field)",
        rule=f"{RULES}: Swansong",
    )
    blood_price: bool = spec(
        False, kind="bool", help="the attacker pays the Blood Price (action cost in Vitality)", rule=_ORDER
    )
    reroll_available: bool = spec(True, kind="bool", help="the set's Reroll is unused this round", rule=_ORDER)
    extra_advantages: int = spec(
        0,
        kind="int",
        minimum=0,
        limit=MAX_ADVANTAGES,
        unit="dice",
        help="advantages from other sources",
        rule=f"{CLAR}: advantages and disadvantages cancel",
    )
    extra_disadvantages: int = spec(
        0,
        kind="int",
        minimum=0,
        limit=MAX_ADVANTAGES,
        unit="dice",
        help="disadvantages from other sources",
        rule=f"{CLAR}: advantages and disadvantages cancel",
    )
