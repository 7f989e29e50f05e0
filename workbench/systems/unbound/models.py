"""Unbound (d20) models: Creature, Attack, Options, Situation and Action, validated on construction.

Rules: unbound-d20-attacking.txt and CLARIFICATIONS.md, section Unbound.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ...checks import check_choice, check_str
from ...errors import RulesError, show
from ...fields import NAME_RULE, lower, spec
from ...limits import MAX_HP
from ...model import Model
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


CLAR = "CLARIFICATIONS.md, Unbound"
#: the workbench's own switches (no rule text): documented with the Options of docs/systems/unbound.md
OWN = "docs/systems/unbound.md: Options (the workbench's own switch)"
_BONUS = f"{RULES}: Attack Bonuses"
_RANGE = f"{RULES}: Range Increments"
_SHIELD = (
    f"{RULES}: Shield Bash ('If a character chooses to attack with a shield they lose all bonuses from that "
    "shield until the start of their next turn')"
)


def _flag(default: bool, help: str, rule: str) -> Any:
    """Return the spec of a true/false field."""
    return spec(default, kind="bool", help=help, rule=rule)


def _mod(default: Any, help: str, optional: bool = False) -> Any:
    """Return the spec of an attribute modifier (-20..50)."""
    return spec(
        default, kind="int", minimum=-20, maximum=50, optional=optional, unit="modifier", help=help, rule=_BONUS
    )


class Attack(Model):
    """A weapon, natural weapon, spell attack or shield bash.

    ``damage`` dice notation, ``crit`` threat range and multiplier ("19-20x2"); ``kind`` picks the
    attribute (melee Strength, ranged/thrown Dexterity, spell max(Thaumaturgy, Magic); text,
    "Attack Bonuses") unless ``attack_bonus`` gives the whole bonus. ``touch`` targets touch AC.
    ``paired`` marks a pair of natural weapons (two rolls counted as one attack); ``braceable`` a
    firearm or crossbow; ``shield`` a shield bash, ``shield_ac`` / ``shield_touch_ac`` the AC and
    touch AC the shield adds to its bearer's (part of the bearer's ``ac`` / ``touch_ac``; a bash loses
    them until the bearer's next turn: Shield Bash); ``two_handed`` bars two-weapon fighting;
    ``adds_strength`` overrides "melee damage adds Strength" (CLARIFICATIONS); ``max_increments``
    overrides the 5 (thrown) / 10 range increments. ``group`` is the weapon group whose skill rank
    sets its iterative attacks (a shield bash defaults to "close": "Shields typically count as close
    weapons"). ``braced``: this braceable weapon was braced this turn by a Brace action (set by
    the turn expansion; ``Situation.braced`` is a brace made before this turn).
    """

    system: ClassVar[str] = "unbound"
    model_kind: ClassVar[str] = "attack"

    name: str = spec(kind="text", help="the weapon's or attack's name", rule=NAME_RULE)
    damage: str = spec(
        "1d8",
        kind="notation",
        unit="dice",
        help="damage in dice notation (2d6+3)",
        rule=f"{RULES}: Making an Attack",
        schema={"type": "string"},
    )
    kind: str = spec(
        "melee",
        kind="choice",
        choices=KINDS,
        help="melee (Strength), ranged or thrown (Dexterity), spell (max Thaumaturgy, Magic)",
        rule=f"{RULES}: types of attack",
    )
    crit: str = spec(
        "20x2",
        kind="notation",
        help="threat range and multiplier (19-20x2)",
        rule=f"{CLAR}: '20x2' is threat range and multiplier",
        schema={"type": "string"},
    )
    light: bool = _flag(False, "a light weapon (smaller two-weapon penalties)", f"{RULES}: Two Weapon Fighting")
    natural: bool = _flag(False, "a natural weapon", f"{RULES}: Natural Attacks")
    touch: bool = _flag(False, "targets touch AC", f"{RULES}: Making an Attack")
    range_increment: int | None = spec(
        None,
        kind="int",
        minimum=1,
        limit=MAX_RANGE_INCREMENT,
        optional=True,
        unit="ft",
        help="range increment (ranged and thrown attacks need one)",
        rule=_RANGE,
    )
    attack_bonus: int | None = spec(
        None,
        kind="int",
        minimum=-20,
        maximum=60,
        optional=True,
        unit="modifier",
        help="the whole attack bonus (None: from the attribute)",
        rule=_BONUS,
    )
    paired: bool = _flag(
        False,
        "a pair of natural weapons (two rolls, one attack)",
        f"{RULES}: Multiple Attacks and Paired Natural Weapons",
    )
    braceable: bool = _flag(False, "a firearm or crossbow that can be braced", f"{RULES}: Implaced Weapons")
    shield: bool = _flag(False, "a shield bash", f"{RULES}: Shield Bash")
    two_handed: bool = _flag(False, "wielded two-handed (no two-weapon fighting)", f"{RULES}: Two Weapon Fighting")
    adds_strength: bool | None = spec(
        None,
        kind="bool",
        optional=True,
        help="damage adds Strength (None: melee does, others do not)",
        rule=f"{CLAR}: Melee damage adds the Strength modifier",
    )
    max_increments: int | None = spec(
        None,
        kind="int",
        minimum=1,
        limit=MAX_INCREMENTS,
        optional=True,
        unit="increments",
        help="most range increments (None: 5 thrown, 10 otherwise)",
        rule=_RANGE,
    )
    group: str | None = spec(
        None,
        kind="text",
        optional=True,
        parse=lower,
        help="weapon group whose skill rank applies (None: the creature's rank)",
        rule=f"{RULES}: weapon group",
    )
    braced: bool = _flag(False, "braced this turn by a Brace action", f"{RULES}: Implaced Weapons")
    shield_ac: int = spec(
        0,
        kind="int",
        minimum=0,
        maximum=20,
        unit="AC",
        help="AC this shield adds to its bearer's AC (lost after a bash until the bearer's next turn)",
        rule=_SHIELD,
    )
    shield_touch_ac: int = spec(
        0,
        kind="int",
        minimum=0,
        maximum=20,
        unit="AC",
        help="touch AC this shield adds to its bearer's touch AC (0: none; lost after a bash likewise)",
        rule=_SHIELD,
    )

    def check_rules(self) -> None:
        """Parse the notation (a bad string fails at construction) and check the rules joining fields."""
        for f in ("shield_ac", "shield_touch_ac"):
            if getattr(self, f) and not self.shield:
                raise RulesError("only a shield gives a shield's AC bonus", field=f, rule=_SHIELD)
        if self.braced and not self.braceable:
            raise RulesError(
                "only a braceable firearm or crossbow can be braced", field="braced", rule=f"{RULES}: Implaced Weapons"
            )
        object.__setattr__(self, "damage", parse_damage(self.damage, "damage").text())
        object.__setattr__(self, "crit", parse_crit(self.crit, "crit").text())
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

    name: str = spec(kind="text", help="the creature's name", rule=NAME_RULE)
    hp: int = spec(kind="int", minimum=1, limit=MAX_HP, unit="HP", help="hit points", rule=RULES)
    ac: int = spec(kind="int", minimum=0, maximum=100, unit="AC", help="armor class", rule=f"{RULES}: Making an Attack")
    touch_ac: int = spec(
        kind="int",
        minimum=0,
        maximum=100,
        unit="AC",
        help="touch armor class (against touch attacks)",
        rule=f"{RULES}: Making an Attack",
    )
    str_mod: int = _mod(0, "Strength modifier (melee attacks and damage)")
    dex_mod: int = _mod(0, "Dexterity modifier (ranged and thrown attacks)")
    magic_mod: int = _mod(0, "Magic modifier (spell attacks)")
    rank: str = spec(
        "untrained",
        kind="choice",
        choices=RANKS,
        help="weapon skill rank: the iterative attacks of All Out Attack",
        rule=f"{RULES}: Multiple Attacks",
    )
    weapons: tuple[Attack, ...] = spec(
        (), kind="models", model=Attack, limit=MAX_WEAPONS, help="its weapons and attacks", rule=f"{RULES}: Attacking"
    )
    thaumaturgy_mod: int | None = _mod(None, "Thaumaturgy modifier (spell attacks; None: none)", optional=True)
    precise_shot: bool = _flag(
        False, "has Precise Shot (no shooting-into-melee penalty)", f"{RULES}: Shooting into Melee"
    )
    group_ranks: Any = spec(
        None,
        kind="table",
        help="{weapon group: rank} (a group it does not name uses rank)",
        rule=f"{RULES}: Multiple Attacks (per weapon group)",
        schema={"type": "object", "additionalProperties": {"enum": list(RANKS)}},
    )

    def check_rules(self) -> None:
        """Check ``group_ranks`` (a table of weapon group -> rank) and make it read-only."""
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

    confirm_crits: bool = _flag(
        True, "a threat that hits is confirmed by a second roll", f"{CLAR}: A threat that hits is confirmed"
    )
    minimum_damage: int = spec(
        0, kind="int", minimum=0, maximum=1, unit="HP", help="least total damage of a hit (0 or 1)", rule=OWN
    )
    multiple_attack_penalty: int = spec(
        4,
        kind="int",
        minimum=0,
        maximum=20,
        unit="penalty",
        help="stacking penalty per earlier attack this turn",
        rule=f"{RULES}: Multiple Attacks",
    )
    secondary_natural_penalty: int = spec(
        3,
        kind="int",
        minimum=0,
        maximum=20,
        unit="penalty",
        help="extra penalty of secondary natural attacks in a Multi Action",
        rule=f"{RULES}: Secondary Natural Attacks",
    )
    offhand_counts_as_attack: bool = _flag(False, "the off-hand attack also takes the next stacking penalty", OWN)
    wild_plans: bool = _flag(False, "turn_plans also lists all-Wild versions of each plan", OWN)
    casts_per_turn: int = spec(
        1,
        kind="int",
        minimum=0,
        maximum=2,
        unit="actions",
        help="spell attack actions allowed per turn",
        rule=f"{RULES}: Spell Attacks",
    )


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

    flanking: bool = _flag(False, "+2 to melee attacks", f"{RULES}: Situational Bonuses")
    high_ground: str = spec(
        "none",
        kind="choice",
        choices=HIGH_GROUND,
        help="above: +1; below: -1 for melee attacks",
        rule=f"{RULES}: High Ground",
    )
    charge: bool = _flag(False, "advantage (melee only)", f"{RULES}: Situational Bonuses")
    braced: bool = _flag(False, "braced or prone: advantage with a braceable weapon", f"{RULES}: Implaced Weapons")
    shooting_into_melee: bool = _flag(
        False, "-4 for ranged attacks unless Precise Shot", f"{RULES}: Shooting into Melee"
    )
    precise_shot: bool = _flag(False, "the attacker has Precise Shot", f"{RULES}: Shooting into Melee")
    distance: int | None = spec(
        None,
        kind="int",
        minimum=0,
        limit=MAX_DISTANCE,
        optional=True,
        unit="ft",
        help="distance to the target: -2 per range increment past the first",
        rule=_RANGE,
    )
    target_unaware: bool = _flag(False, "the target is unaware (Snipe)", f"{RULES}: Snipe")
    advantage: bool = _flag(False, "advantage from other sources", f"{CLAR}: Advantage")
    disadvantage: bool = _flag(False, "disadvantage from other sources", f"{CLAR}: Advantage")
    bonus: int = spec(
        0,
        kind="int",
        minimum=-50,
        maximum=50,
        unit="modifier",
        help="any other flat modifier to hit",
        rule=f"{RULES}: Situational Bonuses",
    )


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

    action: str = spec(
        kind="choice",
        choices=tuple(ACTION_KINDS),
        help="the action (push, all_out, multi, snipe, cast, brace)",
        rule=f"{RULES}: Attack Actions",
    )
    weapon: Attack | str | None = spec(
        None,
        kind="custom",
        optional=True,
        help="an Attack or the name of an attacker's weapon (a Multi Action may leave it None)",
        rule=f"{RULES}: Attack Actions",
        schema={"anyOf": [{"type": "string"}, {"type": "object"}]},
    )
    off_hand: Attack | str | None = spec(
        None,
        kind="custom",
        optional=True,
        help="All Out Attack: the off-hand weapon (two-weapon fighting)",
        rule=f"{RULES}: Two Weapon Fighting",
        schema={"anyOf": [{"type": "string"}, {"type": "object"}]},
    )
    wild: bool = _flag(False, "adds the Wild Attack modifier", f"{RULES}: Wild Attack")
    secondary: Attack | str | None = spec(
        None,
        kind="custom",
        optional=True,
        help="Multi Action with a wielded weapon: the secondary natural weapon (None: the first)",
        rule=f"{RULES}: Secondary Natural Attacks",
        schema={"anyOf": [{"type": "string"}, {"type": "object"}]},
    )

    def check_rules(self) -> None:
        """Check the weapons the action may use."""
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
