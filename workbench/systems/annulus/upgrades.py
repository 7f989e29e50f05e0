"""The 54 Annulus attack-set upgrades (annulus-attacks.txt; names from CLARIFICATIONS.md, Annulus).

Each :class:`Upgrade` records its category (general, trigger, alteration, area), whether it may
be taken more than once (the text says "can be taken multiple times" / "may be selected multiple
times"), its Experience cost per rank (CLARIFICATIONS: each upgrade costs 1, a stackable one 1 per
rank), the Trigger Die threshold of trigger upgrades, and a one-line description from the text.
"""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

__all__ = ["Upgrade", "UPGRADES", "CATEGORIES", "TRIGGER_COLUMNS", "upgrade_frame", "canonical_name"]

RULES = "annulus-attacks.txt"
CATEGORIES = ("general", "trigger", "alteration", "area")


@dataclass(frozen=True)
class Upgrade:
    """One upgrade: name, category, stackable, cost per rank, trigger threshold, description."""

    name: str
    category: str
    description: str
    stackable: bool = False
    threshold: int | None = None
    effect: str | None = None  # the outcome-table column a trigger sets
    kind: str | None = None  # condition / sting / damage / other (triggers)
    cost: int = 1

    @property
    def max_rank(self) -> int | None:
        """Return 1 for a non-stackable upgrade, None (no limit) for a stackable one."""
        return None if self.stackable else 1


def _g(name, description, stackable=False):
    return Upgrade(name, "general", description, stackable=stackable)


def _t(name, threshold, kind, description, effect=None):
    return Upgrade(
        name, "trigger", description, threshold=threshold, kind=kind, effect=effect or name.lower().replace(" ", "_")
    )


_LIST = [
    # ---------------------------------------------------------------- general (21), in the text's order
    _g("Keen", "You take no disadvantage with the attack when targeting a subject in partial concealment."),
    _g(
        "Blood Price",
        "You can choose to damage your own Vitality instead of spending an action to use the "
        "attack (two Vitality for a two-action attack).",
    ),
    _g(
        "Reckless",
        "Every time the attack is used, you have +1 additional automatic success on the check but "
        "take 1 damage that cannot be avoided or reduced in any way.",
        stackable=True,
    ),
    _g(
        "Bully",
        "When you successfully use the attack on a creature that is smaller than yourself, you deal an "
        "additional 1 damage per difference in size.",
    ),
    _g(
        "Visceral",
        "You don't take any disadvantages when attacking a creature from the inside (such as when "
        "struck by a Devour trigger upgrade).",
    ),
    _g(
        "Reroll",
        "After making an attack, you may optionally immediately reroll your check and take the new "
        "result, with a disadvantage on the reroll; no more than one reroll per round.",
    ),
    _g(
        "Demolitions",
        "The attack is capable of damaging inanimate objects of Tier II toughness (wood, plastic, "
        "glass, sandstone, soft metals).",
    ),
    _g("Tireless", "The attack does not take a disadvantage if you use it while you are tired."),
    _g("Obliterate", "When the attack kills a subject, you can choose to completely obliterate that subject's body."),
    _g(
        "Flashy",
        "Everybody in the area becomes Alert and knows your location, but you always have an advantage "
        "on checks to use the attack; not with Stealth.",
    ),
    _g(
        "Giant",
        "You take one fewer disadvantage when attacking subjects whose size is significantly larger than your own.",
        stackable=True,
    ),
    _g("Inherent", "You cannot lose access to the attack via the Disarm condition."),
    _g(
        "Armored",
        "The attack does not take a disadvantage from being used while under the effects of an Armor support effect.",
    ),
    _g("Knockout", "When you kill a creature with an assassination strike you may knock them unconscious instead."),
    _g(
        "Killing Spree",
        "If you kill a target with this ability, you gain +2 additional automatic successes the "
        "single next time you use the attack during the same challenge.",
    ),
    _g(
        "First Blood",
        "You gain an advantage on the attack check when targeting a creature that is completely undamaged.",
    ),
    _g(
        "Precise",
        "You take one fewer disadvantage when attacking subjects whose size is significantly smaller than your own.",
        stackable=True,
    ),
    _g(
        "Range",
        "The attack has a maximum range of 5 meters but cannot be used at 2 meters or less; each rank "
        "adds two steps on the 1, 2, 5, 10, 20, ... scale.",
        stackable=True,
    ),
    _g("Airtight", "The attack functions normally in airless environments such as underwater or in vacuum."),
    _g(
        "Assassin",
        "You deal an additional +2 bonus damage when assassinating Clueless subjects (+1 vs Suspicious).",
        stackable=True,
    ),
    _g("Stealth", "You can make a stealth check to hide the fact that you are using the ability; not with Flashy."),
    # ---------------------------------------------------------------- trigger (24)
    _t(
        "Berserk",
        12,
        "sting",
        "The target gains the Berserk sting: its next turn is spent attacking the nearest creature.",
    ),
    _t("Blind", 12, "sting", "The target gains the Blind sting: it treats all spaces as having full concealment."),
    _t(
        "Burn",
        11,
        "condition",
        "The target gains the Burn condition: successes on two dice, ignoring defense, "
        "at the end of each of its turns.",
    ),
    _t(
        "Choke",
        9,
        "condition",
        "The target gains the Choke condition: successes on one die, ignoring defense, "
        "at the end of each of its turns.",
    ),
    _t(
        "Critical",
        12,
        "damage",
        "The attack deals double normal damage (the damage after defense is doubled).",
        effect="crit",
    ),
    _t("Daze", 11, "sting", "The target gains the Dazed sting: on its next turn it may take only 1 action."),
    _t("Vital", 12, "damage", "The attack ignores Endurance and strikes directly at Vitality instead."),
    _t("Devour", 10, "condition", "The subject is devoured whole: successes on two dice each round, ignoring defense."),
    _t("Disarm", 11, "condition", "The target gains the Disarm (Set) condition: it cannot use one attack set."),
    _t(
        "Dispel",
        10,
        "other",
        "Creatures summoned by Summon or animated by Necromancy struck by the attack are destroyed.",
    ),
    _t("Fatigue", 10, "condition", "The target gains the Fatigue condition: it cannot restore lost Endurance."),
    _t("Grab", 10, "condition", "The target gains the Grabbed By (Grabber's Name) condition."),
    _t("Hobble", 10, "condition", "The target gains the Hobbled condition: an impairment on all movement actions."),
    _t("Immobilize", 12, "condition", "The target gains the Immobilized condition: no movement actions at all."),
    _t(
        "Knockdown",
        11,
        "condition",
        "The target gains the Prone condition (advantage within 5 m, disadvantage beyond 20 m).",
    ),
    _t("Pacify", 12, "sting", "The target gains the Pacified sting: it cannot use any attacks on its next turn."),
    _t(
        "Petrify",
        12,
        "sting",
        "The target gains the Petrified sting: turned to stone, no actions; attacks on it are assassinations.",
    ),
    _t("Push", 11, "other", "The subject is moved 1 meter directly away from you."),
    _t(
        "Sap",
        11,
        "condition",
        "The target gains the Sap condition: 1 damage ignoring defense at the end of each of its turns.",
    ),
    _t("Setup", 10, "sting", "The target gains the Setup sting: the next attack against it gains an advantage."),
    _t("Silence", 9, "sting", "The target gains the Silenced sting: it cannot use its voice."),
    _t("Terrorize", 11, "sting", "The target gains the Terrorized sting: it must spend both actions fleeing."),
    _t("Drain", 12, "other", "You may instantly restore 1 lost Endurance to yourself."),
    _t("Weaken", 12, "condition", "The target gains the Weakness condition: a disadvantage on all attack rolls."),
    # ---------------------------------------------------------------- alteration (6)
    Upgrade(
        "Charged",
        "alteration",
        "The attack requires two actions but gains +2 advantages; the trigger die "
        "is rolled twice and the higher result applies.",
    ),
    Upgrade(
        "Counter",
        "alteration",
        "Pick a kind of attack (Agility, Toughness or Insight): once per round, when "
        "damaged by such an attack, use this set for free as a reaction.",
    ),
    Upgrade(
        "Flurry",
        "alteration",
        "The attack requires two actions; you roll three times with a disadvantage "
        "each time and apply all results (a trigger die for each strike).",
    ),
    Upgrade(
        "Gaze",
        "alteration",
        "Used only once per round for free at the beginning of your turn, when you and "
        "the subject can both fully see each other.",
    ),
    Upgrade(
        "Swansong",
        "alteration",
        "Used only once per round for free at the beginning of your turn, with half "
        "or less of your Vitality remaining (rounded down).",
    ),
    Upgrade(
        "Telegraphed",
        "alteration",
        "Spend an action to announce it; it is used at the beginning of your "
        "next turn with +2 advantages and the trigger die rolled twice, keep the higher.",
    ),
    # ---------------------------------------------------------------- area (3)
    Upgrade("Arc", "area", "Strikes all creatures within a 3-meter vision arc out to 1 meter."),
    Upgrade("Burst", "area", "Strikes all creatures within 1 meter of its user."),
    Upgrade("Line", "area", "Strikes all creatures on a straight line 2 meters long and 1 meter wide."),
]

UPGRADES: dict[str, Upgrade] = {u.name: u for u in _LIST}
TRIGGER_COLUMNS: dict[str, str] = {u.name: u.effect for u in _LIST if u.category == "trigger"}
_BY_KEY = {u.name.lower().replace(" ", "").replace("_", "").replace("-", ""): u.name for u in _LIST}


def canonical_name(name: str) -> str | None:
    """Return the upgrade's canonical name for ``name`` (case, spaces, '_' and '-' ignored), or None."""
    if not isinstance(name, str):
        return None
    return _BY_KEY.get(name.strip().lower().replace(" ", "").replace("_", "").replace("-", ""))


def upgrade_frame() -> pl.DataFrame:
    """Return the upgrade catalog: one row per upgrade (name, category, stackable, max_rank, cost,
    threshold, trigger_probability, effect, kind, description)."""
    return pl.DataFrame(
        {
            "name": [u.name for u in _LIST],
            "category": [u.category for u in _LIST],
            "stackable": [u.stackable for u in _LIST],
            "max_rank": [u.max_rank for u in _LIST],
            "cost": [u.cost for u in _LIST],
            "threshold": [u.threshold for u in _LIST],
            "trigger_probability": [None if u.threshold is None else (13 - u.threshold) / 12 for u in _LIST],
            "effect": [u.effect for u in _LIST],
            "kind": [u.kind for u in _LIST],
            "description": [u.description for u in _LIST],
        },
        schema_overrides={"max_rank": pl.Int64, "threshold": pl.Int64, "trigger_probability": pl.Float64},
    )
