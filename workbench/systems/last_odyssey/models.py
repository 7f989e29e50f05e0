"""The validated models of Last Odyssey: Shell, Attack (an ability), Creature, Options, Situation.

Rules cited from last-odyssey-attacks.txt ("Attacks") and CLARIFICATIONS.md ("Last Odyssey").
"""

from __future__ import annotations

from typing import Any, ClassVar

from ...checks import check_int, check_str
from ...errors import RulesError, show
from ...fields import NAME_RULE, spec
from ...limits import LIMITS, MAX_HP, MAX_LIST, MAX_TEXT
from ...model import Model
from .elements import ELEMENTS, check_element

__all__ = [
    "Shell",
    "Attack",
    "Creature",
    "Options",
    "Situation",
    "KINDS",
    "ABILITY_TYPES",
    "ROWS",
    "ROUNDINGS",
    "SLEIGHT_ELEMENT_RULES",
    "TIMINGS",
    "MP_RULE",
]

TEXT = "last-odyssey-attacks.txt"
CLAR = "CLARIFICATIONS.md, Last Odyssey"
KINDS = ("strike", "spell", "sleight")
ABILITY_TYPES = ("melee", "ranged", "special")
ROWS = ("front", "back")
ROUNDINGS = ("nearest_half_up", "floor")
#: when an ability is used: as a turn action (action points), or outside the turn's action points:
#: each Effect Phase (Miasma), in the Paradigm Phase (Dragonslayer), after the third Effect Phase
#: (Foretell Doom). Only "action" abilities enter turn plans; a fight plays the others between rounds
#: (last_odyssey/round.py, PhasedRound.between).
TIMINGS = ("action", "effect_phase", "paradigm_phase", "after_third_effect_phase")
SLEIGHT_ELEMENT_RULES = ("none", "ladder")

# Sizes the rules never need (docs/limits.md; the largest published in brackets).
MAX_STAT = 999  #: |accuracy, attack, defense, evasion, resistance| [24]
MAX_MULTIPLIER = 100.0  #: an ability's own damage multiplier [4]
MAX_TARGETS = 100  #: characters one ability targets ['all' for Multi abilities]
MAX_AP = 10  #: action points of one ability [3; a turn has 2 or 3]
MAX_MP = 1000  #: MP cost and MP pool [40; the largest published Mana is 135]
MAX_SHELL = 1000  #: Shell points [75]
MAX_ABILITIES = 20  #: abilities of one creature [4]
#: anima of a creature and of an ability's cost: a rule bound, "a maximum of 10 anima at a time" [1]
MAX_ANIMA = 10
ANIMA_RULE = "srd/anima/spending.md: 'a maximum of 10 anima at a time'"


_ROWS_RULE = f"{TEXT}: Ability Types (Melee)"
#: the MP rule: last-odyssey-attacks.txt names no MP; the system's reference does
MP_RULE = (
    "srd/heroes/numbers.md (HP and MP): 'When a character uses an ability that has an MP cost, their MP is"
    " reduced by that amount. Characters may never use an ability that costs more than their current MP'"
)


def _element(help: str, rule: str = f"{CLAR}: element table") -> Any:
    """Return the spec of an element field (None: colorless; "colorless" is accepted)."""
    return spec(None, kind="choice", choices=ELEMENTS, optional=True, checker=check_element, help=help, rule=rule)


def _list(help: str, rule: str, choices: tuple | None = None) -> Any:
    """Return the spec of a list of names (checked by the model's validate())."""
    return spec((), kind="list", choices=choices, help=help, rule=rule)


def _stat(help: str) -> Any:
    """Return the spec of one of the nine combat statistics."""
    return spec(0, kind="int", limit=MAX_STAT, unit="points", help=help, rule=f"{TEXT}: Strikes, Spells, Sleights")


def _names(field: str, value: Any, rule: str, canon=None) -> tuple:
    if value is None:
        return ()
    if isinstance(value, str) or not isinstance(value, (list, tuple)):
        raise RulesError(f"must be a list, not {show(value)}", field=field, rule=rule)
    if len(value) > MAX_LIST:
        raise RulesError(f"may hold at most {MAX_LIST} entries, not {len(value)}", field=field, rule=LIMITS)
    out = []
    for i, v in enumerate(value):
        out.append(
            canon(f"{field}[{i}]", v) if canon else check_str(f"{field}[{i}]", v, rule=rule, max_length=MAX_TEXT)
        )
    return tuple(out)


class Shell(Model):
    """A Shell: a pool of ``points`` that takes damage before HP, with a fixed ``element``.

    CLARIFICATIONS.md, Last Odyssey: "a Shell is a pool of points that takes damage before HP";
    "A target with a Shell counts as the Shell's element". 0 points is a broken (inactive) Shell.
    """

    system: ClassVar[str] = "last_odyssey"
    model_kind: ClassVar[str] = "shell"

    points: int = spec(
        0,
        kind="int",
        minimum=0,
        limit=MAX_SHELL,
        unit="Shell points",
        help="points that take damage before HP (0: broken)",
        rule=f"{CLAR}: Shell is a pool of points",
    )
    element: str | None = _element("the Shell's element (None: colorless)", f"{CLAR}: the Shell's element")

    @property
    def active(self) -> bool:
        """Return whether the Shell has points left (a broken Shell is not active)."""
        return self.points > 0


class Attack(Model):
    """One attack ability: a strike, spell or sleight (last-odyssey-attacks.txt, "Attacks").

    ``targets`` is how many characters it may target (an int, or ``"all"`` for Multi abilities
    such as Cleave); ``multiplier`` is the ability's own damage multiplier ("multiplied by N");
    ``ability_type`` is melee / ranged / special (the Ability Types table); ``status`` is the
    status a sleight inflicts (required) or a strike/spell inflicts on a hit.

    ``mp_cost`` is spent from the user's MP (srd/heroes/numbers.md: "When a character uses an
    ability that has an MP cost, their MP is reduced by that amount. Characters may never use an
    ability that costs more than their current MP"); ``anima_cost`` records the published anima
    cost (Dragonslayer). ``timing`` (TIMINGS) says when the ability is used. ``multiplier_not_full_hp`` replaces
    ``multiplier`` against a target below full HP (Dragonslayer: x4 "against targets with full HP",
    "If the target is not at full HP, the attack deals 2x damage instead"; the target's current HP is
    ``Situation.target_hp``). ``spares_creature_types``: creature types it has no effect on (Miasma:
    "every non-Undead character").
    """

    system: ClassVar[str] = "last_odyssey"
    # ``kind`` is the public field strike/spell/sleight (docs/systems/last_odyssey.md); the class tag is ``model_kind``.

    name: str = spec(kind="text", help="the ability's name", rule=NAME_RULE)
    kind: str = spec(
        "strike", kind="choice", choices=KINDS, help="strike, spell or sleight", rule=f"{TEXT}: three types of attacks"
    )
    element: str | None = _element("the ability's element (None: colorless)")
    targets: int | str = spec(
        1,
        kind="custom",
        unit="targets",
        help="how many characters it may target: a whole number >= 1, or 'all' (Multi)",
        rule=f"{TEXT}: Multi Attacks",
        schema={"anyOf": [{"type": "integer", "minimum": 1, "maximum": MAX_TARGETS}, {"const": "all"}]},
    )
    status: str | None = spec(
        None,
        kind="text",
        optional=True,
        max_length=MAX_TEXT,
        help="the status it inflicts (a sleight must name one)",
        rule=f"{TEXT}: Sleights",
    )
    nonlethal: bool = spec(False, kind="bool", help="a nonlethal attack", rule=f"{TEXT}: Nonlethal Attacks")
    multiplier: float = spec(
        1.0,
        kind="number",
        minimum=0.0,
        limit=MAX_MULTIPLIER,
        unit="×",
        help="the ability's own damage multiplier",
        rule=f"{TEXT}: base damage multiplied by any relevant modifiers",
    )
    ability_type: str = spec(
        "melee", kind="choice", choices=ABILITY_TYPES, help="melee, ranged or special", rule=f"{TEXT}: Ability Types"
    )
    ap_cost: int = spec(
        1, kind="int", minimum=0, limit=MAX_AP, unit="AP", help="action points it costs", rule=f"{CLAR}: action points"
    )
    mp_cost: int = spec(
        0,
        kind="int",
        minimum=0,
        limit=MAX_MP,
        unit="MP",
        help="MP it costs: spent from the user's MP; no plan may cost more than the MP left",
        rule=MP_RULE,
    )
    tags: tuple = _list("published tags", TEXT)
    anima_cost: int = spec(
        0,
        kind="int",
        minimum=0,
        maximum=MAX_ANIMA,
        unit="anima",
        help="anima it costs: spent from the user's anima (a paradigm action: Dragonslayer 1); at most 10, "
        "the most anima a creature holds",
        rule=f"shared/data/last_odyssey_creatures.toml: anima_cost; {ANIMA_RULE}",
    )
    timing: str = spec(
        "action",
        kind="choice",
        choices=TIMINGS,
        help="when it is used: as a turn action, or in a phase outside the action points",
        rule="shared/data/last_odyssey_creatures.toml: ability type (passive, special, paradigm action)",
    )
    multiplier_not_full_hp: float | None = spec(
        None,
        kind="number",
        minimum=0.0,
        limit=MAX_MULTIPLIER,
        optional=True,
        unit="×",
        help="the multiplier against a target below full HP (None: multiplier); at most 100, as multiplier",
        rule="shared/data/last_odyssey_creatures.toml, Dragonslayer: 'If the target is not at full HP'",
    )
    spares_creature_types: tuple = _list(
        "creature types it has no effect on",
        "shared/data/last_odyssey_creatures.toml, Miasma: 'every non-Undead character'",
    )

    def check_rules(self) -> None:
        """Check ``targets``, the lists of names, and the rules joining kind, status and nonlethal."""
        set_ = lambda k, v: object.__setattr__(self, k, v)  # noqa: E731
        if isinstance(self.targets, str):
            if self.targets.strip().lower() != "all":
                raise RulesError(
                    f"must be a whole number >= 1 or 'all', not {show(self.targets)}",
                    field="targets",
                    rule=f"{TEXT}: Multi Attacks",
                )
            set_("targets", "all")
        else:
            set_(
                "targets",
                check_int("targets", self.targets, minimum=1, limit=MAX_TARGETS, rule=f"{TEXT}: Multi Attacks"),
            )
        if self.kind == "sleight" and self.status is None:
            raise RulesError(
                "a sleight must name the status it inflicts",
                field="status",
                rule=f"{TEXT}: Sleights (they gain the status the ability inflicts)",
            )
        if self.nonlethal and self.kind == "sleight":
            raise RulesError(
                "a sleight deals no damage, so it cannot be a nonlethal attack",
                field="nonlethal",
                rule=f"{TEXT}: Nonlethal Attacks (the damage of the attack)",
            )
        set_("tags", _names("tags", self.tags, TEXT))
        set_(
            "spares_creature_types",
            _names(
                "spares_creature_types",
                self.spares_creature_types,
                "shared/data/last_odyssey_creatures.toml, Miasma: 'every non-Undead character'",
            ),
        )

    @property
    def deals_damage(self) -> bool:
        """Return whether the ability deals damage (strikes and spells; sleights do not)."""
        return self.kind != "sleight"


_STATS = (
    "physical_accuracy",
    "magical_accuracy",
    "status_accuracy",
    "physical_attack",
    "magical_attack",
    "physical_defense",
    "magical_defense",
    "evasion",
    "resistance",
)


class Creature(Model):
    """A hero or warrior: HP, MP, tier (1-10), the nine combat statistics, element, Shell and abilities.

    ``mp`` is its MP at the start of the fight: a plan whose abilities cost more MP than it has is
    not legal (srd/heroes/numbers.md: "Characters may never use an ability that costs more than
    their current MP").

    ``element`` None is colorless. ``shell`` is None or a :class:`Shell` (a dict or a number of
    points is accepted; a bare number takes the creature's element). ``immune_elements`` are
    elements whose damage it ignores (×0), ``immune_statuses`` statuses it never gains.
    ``creature_type`` is the published type (Human, Undead, Beast, ...). ``phase_abilities`` are
    attack abilities used outside the turn's action points (``timing`` other than "action":
    Miasma, Dragonslayer, Foretell Doom): resolved per use like any ability, never planned into a
    turn, and played by the fight between rounds (last_odyssey/round.py). ``anima`` pays for
    paradigm actions (Dragonslayer, 1 anima each).
    """

    system: ClassVar[str] = "last_odyssey"
    model_kind: ClassVar[str] = "creature"

    name: str = spec(kind="text", help="the hero's or warrior's name", rule=NAME_RULE)
    hp: int = spec(
        kind="int",
        minimum=1,
        limit=MAX_HP,
        unit="HP",
        help="total HP",
        rule=f"{TEXT}: damage reduces the target's total HP",
    )
    tier: int = spec(
        1,
        kind="int",
        minimum=1,
        maximum=10,
        unit="tier",
        help="tier: 2 action points at 1-5, 3 at 6-10",
        rule=f"{CLAR}: tiers 1-10",
    )
    physical_accuracy: int = _stat("accuracy of strikes")
    magical_accuracy: int = _stat("accuracy of spells")
    status_accuracy: int = _stat("accuracy of sleights")
    physical_attack: int = _stat("attack of strikes")
    magical_attack: int = _stat("attack of spells")
    physical_defense: int = _stat("defense against strikes")
    magical_defense: int = _stat("defense against spells")
    evasion: int = _stat("evasion against strikes and spells")
    resistance: int = _stat("resistance against sleights")
    element: str | None = _element("its element (None: colorless)")
    shell: Shell | None = spec(
        None,
        kind="model",
        model=Shell,
        optional=True,
        help="its Shell (a table {points, element} or a number of points is accepted)",
        rule=f"{CLAR}: Shell",
    )
    abilities: tuple[Attack, ...] = spec(
        (),
        kind="models",
        model=Attack,
        limit=MAX_ABILITIES,
        help="its attack abilities used as turn actions",
        rule=f"{TEXT}: Attacks",
    )
    immune_elements: tuple = _list("elements whose damage it ignores", f"{CLAR}: element table", ELEMENTS)
    immune_statuses: tuple = _list("statuses it never gains", TEXT)
    shell_max: int | None = spec(
        None,
        kind="int",
        minimum=0,
        limit=MAX_SHELL,
        optional=True,
        unit="Shell points",
        help="its published full Shell (None: none)",
        rule=f"{CLAR}: Shell",
    )
    record_type: str | None = spec(
        None,
        kind="text",
        optional=True,
        advanced=True,
        max_length=MAX_TEXT,
        help="the published record type",
        rule="shared/data/last_odyssey_creatures.toml",
    )
    source: str | None = spec(
        None,
        kind="text",
        optional=True,
        advanced=True,
        max_length=MAX_TEXT,
        help="where the stat line is published",
        rule="shared/data/last_odyssey_creatures.toml",
    )
    creature_type: str | None = spec(
        None,
        kind="text",
        optional=True,
        help="the published type (Human, Undead, Beast, ...)",
        rule="shared/data/last_odyssey_creatures.toml, Miasma: 'every non-Undead character'",
    )
    phase_abilities: tuple[Attack, ...] = spec(
        (),
        kind="models",
        model=Attack,
        help="abilities used outside the turn's action points (timing other than action)",
        rule=f"{CLAR}: action points per turn",
    )
    mp: int = spec(
        0,
        kind="int",
        minimum=0,
        limit=MAX_MP,
        unit="MP",
        help="its MP at the start of the fight (the published Mana): abilities' MP costs are paid from it",
        rule=MP_RULE,
    )
    anima: int = spec(
        0,
        kind="int",
        minimum=0,
        maximum=MAX_ANIMA,
        unit="anima",
        help="its anima at the start of the fight: pays for paradigm actions (Dragonslayer: 1)",
        rule="srd/anima/spending.md: 'a maximum of 10 anima at a time'; paradigm.md: paradigm actions cost anima",
    )

    def check_rules(self) -> None:
        """Check that phase abilities are not turn actions, build the Shell, and check the immunities."""
        set_ = lambda k, v: object.__setattr__(self, k, v)  # noqa: E731
        for i, a in enumerate(self.phase_abilities):
            if a.timing == "action":
                raise RulesError(
                    f"{a.name} is a turn action: list it under abilities",
                    field=f"phase_abilities[{i}]",
                    rule=f"{CLAR}: action points per turn",
                )
        shell = self.shell
        if shell is not None and not isinstance(shell, Shell):
            try:
                if isinstance(shell, dict):
                    shell = Shell.from_dict(shell)
                elif isinstance(shell, (int, float)) and not isinstance(shell, bool):
                    shell = Shell(points=shell, element=self.element)
                else:
                    raise RulesError(
                        f"must be None, a Shell, a table {{points, element}} or a number of points, not {show(shell)}",
                        field="shell",
                        rule=f"{CLAR}: Shell",
                    )
            except RulesError as exc:
                raise RulesError(
                    exc.message,
                    field=exc.field if (exc.field or "").startswith("shell") else f"shell.{exc.field}",
                    rule=exc.rule,
                ) from None
        set_("shell", shell)
        set_("immune_elements", _names("immune_elements", self.immune_elements, CLAR, check_element))
        if None in self.immune_elements:
            raise RulesError("colorless is not an element one can be immune to", field="immune_elements")
        set_("immune_statuses", _names("immune_statuses", self.immune_statuses, TEXT))

    @property
    def shell_points(self) -> int:
        """Return the creature's current Shell points (0 without a Shell)."""
        return 0 if self.shell is None else self.shell.points

    @property
    def action_points(self) -> int:
        """Return the action points per turn: 2 at tiers 1-5, 3 at tiers 6-10 (CLARIFICATIONS.md)."""
        return 2 if self.tier <= 5 else 3

    def ability(self, name: str) -> Attack:
        """Return this creature's ability called ``name`` (case-insensitive; phase abilities too)."""
        for a in (*self.abilities, *self.phase_abilities):
            if a.name.lower() == str(name).strip().lower():
                return a
        raise RulesError(f"{self.name} has no ability called {name!r}", field="abilities")


class Options(Model):
    """The rule options of Last Odyssey (CLARIFICATIONS.md defaults).

    ``rounding``: final damage rounded to the nearest integer, half up (default, the rules
    text), or ``floor`` (the published element page's round-down). ``sleight_elements``:
    ``none`` (default, the pinned ≤ 5 for every sleight) or ``ladder`` (an elemental sleight's
    threshold follows its element multiplier: ×0.25 immune, ×0.5 ≤ 3, ×1 ≤ 5, ×2 ≤ 7,
    ×4 cannot be evaded).
    """

    system: ClassVar[str] = "last_odyssey"
    model_kind: ClassVar[str] = "options"

    rounding: str = spec(
        "nearest_half_up",
        kind="choice",
        choices=ROUNDINGS,
        help="final damage rounded half up (the rules text) or down (the element page)",
        rule=f"{CLAR}: rule option rounding",
    )
    sleight_elements: str = spec(
        "none",
        kind="choice",
        choices=SLEIGHT_ELEMENT_RULES,
        help="none: every sleight lands on <= 5; ladder: an elemental sleight's threshold follows its element",
        rule=f"{TEXT}: Sleights",
    )


class Situation(Model):
    """The battlefield around one use of an ability.

    Rows (last-odyssey-attacks.txt, Ability Types: Melee "may only be used when the user is in
    the front row, and may only target characters that are in the front row"): a back-row
    target counts as front row once its side's front row has fallen
    (``target_front_row_standing=False``). ``lean_in``: the target chooses to be hit (Leaning
    In). ``target_shell_points``: the target's current Shell points (None: its stat line's).
    ``target_hp``: the target's current HP (None: full HP), read by abilities that depend on it
    (Dragonslayer).
    """

    system: ClassVar[str] = "last_odyssey"
    model_kind: ClassVar[str] = "situation"

    attacker_row: str = spec(
        "front", kind="choice", choices=ROWS, help="the attacker's row (melee needs the front row)", rule=_ROWS_RULE
    )
    target_row: str = spec("front", kind="choice", choices=ROWS, help="the target's row", rule=_ROWS_RULE)
    target_front_row_standing: bool = spec(
        True,
        kind="bool",
        help="the target's front row stands (False: a back-row target counts as front row)",
        rule=_ROWS_RULE,
    )
    lean_in: bool = spec(False, kind="bool", help="the target chooses to be hit", rule=f"{TEXT}: Leaning In")
    target_shell_points: int | None = spec(
        None,
        kind="int",
        minimum=0,
        limit=MAX_SHELL,
        optional=True,
        unit="Shell points",
        help="the target's current Shell points (None: its stat line's)",
        rule=f"{CLAR}: Shell",
    )
    target_hp: int | None = spec(
        None,
        kind="int",
        minimum=1,
        limit=MAX_HP,
        optional=True,
        unit="HP",
        help="the target's current HP (None: full)",
        rule=f"{TEXT}: damage reduces the target's total HP",
    )
