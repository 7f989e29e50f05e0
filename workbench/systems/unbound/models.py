"""Unbound (d20) models: Creature, Attack, Options, Situation and Action, validated on construction.

Rules: unbound-d20-attacking.txt and CLARIFICATIONS.md, section Unbound.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ...errors import RulesError
from ...limits import MAX_HP
from ..base import Model, check_bool, check_choice, check_int, check_models, check_str, show
from .notation import parse_crit, parse_damage

__all__ = [
    "Creature",
    "Attack",
    "Options",
    "Situation",
    "Action",
    "RANKS",
    "ITERATIVES",
    "KINDS",
    "ACTION_KINDS",
    "RULES",
]

RULES = "unbound-d20-attacking.txt"
KINDS = ("melee", "ranged", "thrown", "spell")
RANKS = ("untrained", "professional", "grandmaster")
#: CLARIFICATIONS.md, Unbound: "1 attack below professional, 2 at professional, 3 at grandmaster or above"
ITERATIVES = {"untrained": 1, "professional": 2, "grandmaster": 3}
HIGH_GROUND = ("none", "above", "below")

# Sizes the rules never need (docs/limits.md; the largest published in brackets).
MAX_WEAPONS = 20  #: weapons of one creature [catalog 4]
MAX_RANGE_INCREMENT = 10_000  #: feet [catalog 120]
MAX_INCREMENTS = 100  #: Attack.max_increments [the text's 10]
MAX_DISTANCE = MAX_RANGE_INCREMENT * MAX_INCREMENTS  #: Situation.distance, feet
#: action kind -> (label, basic actions it costs)
ACTION_KINDS = {
    "push": ("Push the Attack", 1),
    "all_out": ("All Out Attack", 1),
    "multi": ("Multi Action", 2),
    "snipe": ("Snipe", 2),
    "cast": ("Spell Attack", 1),
    # Implaced Weapons: "A character can brace one of these weapons ... as a basic action"
    "brace": ("Brace", 1),
}
#: "Shields typically count as close weapons for which skill is used when making a shield bash"
SHIELD_GROUP = "close"


class RankMap(dict):
    """A read-only, hashable ``{weapon group: rank}`` mapping."""

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(sorted(self.items())))

    def _readonly(self, *args, **kwargs):
        raise RulesError(
            "a creature's group ranks cannot be changed in place; use creature.replace(group_ranks=...)",
            field="group_ranks",
        )

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _readonly

    def __repr__(self) -> str:
        return repr(dict(self))


def _mod(name: str, value: Any, rule: str = RULES) -> int:
    return check_int(name, value, minimum=-20, maximum=50, rule=rule)


@dataclass(frozen=True)
class Attack(Model):
    """A weapon, natural weapon, spell attack or shield bash.

    ``damage`` dice notation, ``crit`` threat range and multiplier ("19-20x2"); ``kind`` picks the
    attribute (melee Strength, ranged/thrown Dexterity, spell max(Thaumaturgy, Magic); text,
    "Attack Bonuses") unless ``attack_bonus`` gives the whole bonus. ``touch`` targets touch AC.
    ``paired`` marks a pair of natural weapons (two rolls counted as one attack); ``braceable`` a
    firearm or crossbow; ``shield`` a shield bash; ``two_handed`` bars two-weapon fighting;
    ``adds_strength`` overrides "melee damage adds Strength" (CLARIFICATIONS); ``max_increments``
    overrides the 5 (thrown) / 10 range increments. ``group`` is the weapon group whose skill rank
    sets its iterative attacks (a shield bash defaults to "close": "Shields typically count as close
    weapons"). ``braced``: this braceable weapon was braced this turn by a Brace action (set by
    the turn expansion; ``Situation.braced`` is a brace made before this turn).
    """

    system: ClassVar[str] = "unbound"
    model_kind: ClassVar[str] = "attack"

    name: str
    damage: str = "1d8"
    kind: str = "melee"
    crit: str = "20x2"
    light: bool = False
    natural: bool = False
    touch: bool = False
    range_increment: int | None = None
    attack_bonus: int | None = None
    paired: bool = False
    braceable: bool = False
    shield: bool = False
    two_handed: bool = False
    adds_strength: bool | None = None
    max_increments: int | None = None
    group: str | None = None
    braced: bool = False

    def validate(self) -> None:
        """Check every field; the notation is parsed here so a bad string fails at construction."""
        if self.group is not None:
            object.__setattr__(self, "group", check_str("group", self.group, rule=f"{RULES}: weapon group").lower())
        object.__setattr__(self, "braced", check_bool("braced", self.braced))
        if self.braced and not self.braceable:
            raise RulesError(
                "only a braceable firearm or crossbow can be braced", field="braced", rule=f"{RULES}: Implaced Weapons"
            )
        object.__setattr__(self, "name", check_str("name", self.name))
        object.__setattr__(self, "kind", check_choice("kind", self.kind, KINDS, rule=f"{RULES}: types of attack"))
        object.__setattr__(self, "damage", parse_damage(self.damage, "damage").text())
        object.__setattr__(self, "crit", parse_crit(self.crit, "crit").text())
        for f in ("light", "natural", "touch", "paired", "braceable", "shield", "two_handed"):
            object.__setattr__(self, f, check_bool(f, getattr(self, f)))
        if self.adds_strength is not None:
            object.__setattr__(self, "adds_strength", check_bool("adds_strength", self.adds_strength))
        object.__setattr__(
            self,
            "range_increment",
            check_int(
                "range_increment",
                self.range_increment,
                minimum=1,
                optional=True,
                limit=MAX_RANGE_INCREMENT,
                rule=f"{RULES}: Range Increments",
            ),
        )
        object.__setattr__(
            self,
            "max_increments",
            check_int(
                "max_increments",
                self.max_increments,
                minimum=1,
                optional=True,
                limit=MAX_INCREMENTS,
                rule=f"{RULES}: Range Increments",
            ),
        )
        object.__setattr__(
            self,
            "attack_bonus",
            check_int(
                "attack_bonus",
                self.attack_bonus,
                minimum=-20,
                maximum=60,
                optional=True,
                rule=f"{RULES}: Attack Bonuses",
            ),
        )
        if self.kind in ("ranged", "thrown") and self.range_increment is None:
            raise RulesError(
                f"a {self.kind} attack needs a range increment (feet)",
                field="range_increment",
                rule=f"{RULES}: 'All ranged attacks have a base range increment'",
            )
        if self.kind == "melee" and self.range_increment is not None:
            raise RulesError(
                "a melee attack has no range increment", field="range_increment", rule=f"{RULES}: Range Increments"
            )
        if self.paired and not self.natural:
            raise RulesError(
                "only natural weapons come in pairs",
                field="paired",
                rule=f"{RULES}: Multiple Attacks and Paired Natural Weapons",
            )
        if self.natural and self.kind == "spell":
            raise RulesError("a natural weapon is not a spell", field="natural", rule=f"{RULES}: Natural Attacks")
        if self.shield and (self.kind != "melee" or self.natural):
            raise RulesError("a shield bash is a melee weapon attack", field="shield", rule=f"{RULES}: Shield Bash")
        if self.braceable and self.kind != "ranged":
            raise RulesError(
                "only ranged firearms and crossbows can be braced", field="braceable", rule=f"{RULES}: Implaced Weapons"
            )

    @property
    def weapon_group(self) -> str | None:
        """Return the weapon group whose rank applies: ``group``, "close" for a shield bash, else None."""
        if self.group is not None:
            return self.group
        return SHIELD_GROUP if self.shield else None

    @property
    def threat_low(self) -> int:
        """Lowest natural roll that threatens a critical."""
        return parse_crit(self.crit).threat_low

    @property
    def multiplier(self) -> int:
        """Critical multiplier."""
        return parse_crit(self.crit).multiplier

    @property
    def is_ranged(self) -> bool:
        """True for ranged and thrown attacks, and for spells with a range increment."""
        return self.kind in ("ranged", "thrown") or (self.kind == "spell" and self.range_increment is not None)


@dataclass(frozen=True)
class Creature(Model):
    """An Unbound creature: HP, AC and touch AC, attribute modifiers, weapon skill rank, weapons.

    ``rank`` (untrained, professional, grandmaster) sets the iterative attacks of All Out Attack
    (text: "an iterative attack at professional rank and grandmaster+ rank"). Spell attacks use
    max(``thaumaturgy_mod``, ``magic_mod``). ``precise_shot`` is the talent that negates the
    shooting-into-melee penalty. ``group_ranks`` ({weapon group: rank}) gives the rank of a weapon
    group ("they gain an iterative attack at professional rank and grandmaster+ rank with weapons in
    that weapon group"); a group it does not name, and a weapon with no group, use ``rank``.
    """

    system: ClassVar[str] = "unbound"
    model_kind: ClassVar[str] = "creature"

    name: str
    hp: int
    ac: int
    touch_ac: int
    str_mod: int = 0
    dex_mod: int = 0
    magic_mod: int = 0
    rank: str = "untrained"
    weapons: tuple[Attack, ...] = ()
    thaumaturgy_mod: int | None = None
    precise_shot: bool = False
    group_ranks: Any = None

    def validate(self) -> None:
        """Check the fields (HP >= 1, AC and touch AC >= 0, modifiers -20..50, a known rank)."""
        object.__setattr__(self, "name", check_str("name", self.name))
        object.__setattr__(self, "hp", check_int("hp", self.hp, minimum=1, limit=MAX_HP, rule=RULES))
        object.__setattr__(
            self, "ac", check_int("ac", self.ac, minimum=0, maximum=100, rule=f"{RULES}: Making an Attack")
        )
        object.__setattr__(
            self,
            "touch_ac",
            check_int("touch_ac", self.touch_ac, minimum=0, maximum=100, rule=f"{RULES}: Making an Attack"),
        )
        for f in ("str_mod", "dex_mod", "magic_mod"):
            object.__setattr__(self, f, _mod(f, getattr(self, f), f"{RULES}: Attack Bonuses"))
        if self.thaumaturgy_mod is not None:
            object.__setattr__(self, "thaumaturgy_mod", _mod("thaumaturgy_mod", self.thaumaturgy_mod))
        object.__setattr__(self, "rank", check_choice("rank", self.rank, RANKS, rule=f"{RULES}: Multiple Attacks"))
        object.__setattr__(self, "weapons", check_models("weapons", self.weapons, Attack, max_items=MAX_WEAPONS))
        object.__setattr__(self, "precise_shot", check_bool("precise_shot", self.precise_shot))
        ranks = self.group_ranks if self.group_ranks is not None else {}
        if not isinstance(ranks, dict):
            raise RulesError(
                f"must be a table {{weapon group: rank}}, not {ranks!r}",
                field="group_ranks",
                rule=f"{RULES}: Multiple Attacks (per weapon group)",
            )
        object.__setattr__(
            self,
            "group_ranks",
            RankMap(
                {
                    check_str("group_ranks", g).lower(): check_choice(
                        f"group_ranks.{g}", r, RANKS, rule=f"{RULES}: Multiple Attacks (per weapon group)"
                    )
                    for g, r in ranks.items()
                }
            ),
        )

    def rank_with(self, weapon: Attack) -> str:
        """Return the skill rank with ``weapon``: its group's rank in ``group_ranks``, else ``rank``."""
        return self.group_ranks.get(weapon.weapon_group, self.rank) if weapon.weapon_group else self.rank

    def iteratives_with(self, weapon: Attack) -> int:
        """Return the attacks of an All Out Attack with ``weapon`` (its group's rank; CLARIFICATIONS.md: 1
        below professional, 2 at professional, 3 at grandmaster or above)."""
        return ITERATIVES[self.rank_with(weapon)]

    @property
    def iteratives(self) -> int:
        """Return the most attacks an All Out Attack gives with any weapon group (``rank`` and every
        ``group_ranks`` entry): whether All Out Attack can add iteratives at all."""
        return max(ITERATIVES[r] for r in (self.rank, *self.group_ranks.values()))

    def weapon(self, name: str) -> Attack:
        """Return the weapon called ``name`` (case-insensitive)."""
        for w in self.weapons:
            if w.name.lower() == str(name).strip().lower():
                return w
        raise RulesError(f"{self.name} has no weapon called {name!r}", field="weapons")


@dataclass(frozen=True)
class Options(Model):
    """Rule options (CLARIFICATIONS.md, Unbound, defaults), plus the workbench's own switches.

    ``confirm_crits`` (on): a threat that hits is confirmed by a second roll with the same
    modifiers (and the same advantage) against the same AC. ``minimum_damage`` (0): the text
    states no minimum, so a hit's total may be 0 but never below. ``multiple_attack_penalty`` (4)
    and ``secondary_natural_penalty`` (3) are the text's numbers; ``offhand_counts_as_attack`` (off)
    makes the off-hand attack also take the stacking penalty as one more attack. ``wild_plans``
    (off) adds Wild Attack variants to turn_plans; ``casts_per_turn`` (1) limits spell attack actions.
    """

    system: ClassVar[str] = "unbound"
    model_kind: ClassVar[str] = "options"

    confirm_crits: bool = True
    minimum_damage: int = 0
    multiple_attack_penalty: int = 4
    secondary_natural_penalty: int = 3
    offhand_counts_as_attack: bool = False
    wild_plans: bool = False
    casts_per_turn: int = 1

    def validate(self) -> None:
        """Check the option values."""
        object.__setattr__(self, "confirm_crits", check_bool("confirm_crits", self.confirm_crits))
        object.__setattr__(
            self, "minimum_damage", check_int("minimum_damage", self.minimum_damage, minimum=0, maximum=1)
        )
        object.__setattr__(
            self,
            "multiple_attack_penalty",
            check_int(
                "multiple_attack_penalty",
                self.multiple_attack_penalty,
                minimum=0,
                maximum=20,
                rule=f"{RULES}: Multiple Attacks",
            ),
        )
        object.__setattr__(
            self,
            "secondary_natural_penalty",
            check_int(
                "secondary_natural_penalty",
                self.secondary_natural_penalty,
                minimum=0,
                maximum=20,
                rule=f"{RULES}: Secondary Natural Attacks",
            ),
        )
        object.__setattr__(
            self, "offhand_counts_as_attack", check_bool("offhand_counts_as_attack", self.offhand_counts_as_attack)
        )
        object.__setattr__(self, "wild_plans", check_bool("wild_plans", self.wild_plans))
        object.__setattr__(
            self, "casts_per_turn", check_int("casts_per_turn", self.casts_per_turn, minimum=0, maximum=2)
        )


@dataclass(frozen=True)
class Situation(Model):
    """Situational modifiers of one attack (text, "Situational Bonuses" and "Ranged Attacks").

    ``flanking`` +2 (melee); ``high_ground`` "above" +1, "below" -1 for melee; ``charge`` advantage
    (melee); ``braced`` (or prone) advantage with a braceable weapon; ``shooting_into_melee`` -4 for
    ranged attacks unless Precise Shot; ``distance`` in feet sets the range increment (-2 per
    increment past the first); ``target_unaware`` permits Snipe; ``advantage`` / ``disadvantage``
    from other sources; ``bonus`` any other flat modifier to hit.
    """

    system: ClassVar[str] = "unbound"
    model_kind: ClassVar[str] = "situation"

    flanking: bool = False
    high_ground: str = "none"
    charge: bool = False
    braced: bool = False
    shooting_into_melee: bool = False
    precise_shot: bool = False
    distance: int | None = None
    target_unaware: bool = False
    advantage: bool = False
    disadvantage: bool = False
    bonus: int = 0

    def validate(self) -> None:
        """Check the fields."""
        for f in (
            "flanking",
            "charge",
            "braced",
            "shooting_into_melee",
            "precise_shot",
            "target_unaware",
            "advantage",
            "disadvantage",
        ):
            object.__setattr__(self, f, check_bool(f, getattr(self, f)))
        object.__setattr__(
            self,
            "high_ground",
            check_choice("high_ground", self.high_ground, HIGH_GROUND, rule=f"{RULES}: High Ground"),
        )
        object.__setattr__(
            self,
            "distance",
            check_int(
                "distance",
                self.distance,
                minimum=0,
                optional=True,
                limit=MAX_DISTANCE,
                rule=f"{RULES}: Range Increments",
            ),
        )
        object.__setattr__(self, "bonus", check_int("bonus", self.bonus, minimum=-50, maximum=50))


@dataclass(frozen=True)
class Action(Model):
    """One attack action: ``kind`` push, all_out, multi, snipe or cast, with its weapon(s).

    ``weapon`` is an Attack or a weapon name of the attacker; ``off_hand`` (All Out Attack only)
    adds the two-weapon attack; ``multi`` without a weapon attacks with every natural weapon, with a
    wielded weapon it attacks once with it and then with ``secondary``, one available secondary
    natural weapon (None: the first natural weapon listed). ``wild`` adds the Wild Attack modifier
    (text, "Attack Actions"). ``brace`` (one basic action, no attack roll) braces the braceable
    ``weapon``: its later attacks this turn have advantage (Implaced Weapons).
    """

    system: ClassVar[str] = "unbound"
    model_kind: ClassVar[str] = "action"

    action: str
    weapon: Attack | str | None = None
    off_hand: Attack | str | None = None
    wild: bool = False
    secondary: Attack | str | None = None

    def validate(self) -> None:
        """Check the action kind and the weapons it may use."""
        object.__setattr__(
            self, "action", check_choice("action", self.action, list(ACTION_KINDS), rule=f"{RULES}: Attack Actions")
        )
        object.__setattr__(self, "wild", check_bool("wild", self.wild))
        for f in ("weapon", "off_hand", "secondary"):
            v = getattr(self, f)
            if isinstance(v, dict):
                object.__setattr__(self, f, Attack.from_dict(v))
            elif v is not None and not isinstance(v, (Attack, str)):
                raise RulesError(f"must be an unbound Attack or a weapon name, not {show(v)}", field=f)
            if isinstance(v, str):
                object.__setattr__(self, f, check_str(f, v))
        if self.action != "multi" and self.weapon is None:
            raise RulesError(f"{self.label_kind} needs a weapon", field="weapon", rule=f"{RULES}: Attack Actions")
        if self.secondary is not None and (self.action != "multi" or self.weapon is None):
            raise RulesError(
                "only a Multi Action with a wielded weapon names a secondary natural weapon",
                field="secondary",
                rule=f"{RULES}: Secondary Natural Attacks ('with an available "
                "secondary natural weapon after attacking with a wielded weapon')",
            )
        if self.off_hand is not None and self.action != "all_out":
            raise RulesError(
                "only All Out Attack adds the off-hand attack",
                field="off_hand",
                rule=f"{RULES}: Two Weapon Fighting (All Out Attack: 'such as ... two weapon fighting')",
            )

    @property
    def label_kind(self) -> str:
        """The action's name in the rules text."""
        return ACTION_KINDS[self.action][0]

    @property
    def cost(self) -> int:
        """Basic actions the action takes."""
        return ACTION_KINDS[self.action][1]
