"""The validated models of Last Odyssey: Shell, Attack (an ability), Creature, Options, Situation.

Rules cited from last-odyssey-attacks.txt ("Attacks") and CLARIFICATIONS.md ("Last Odyssey").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ...errors import RulesError
from ...limits import LIMITS, MAX_HP, MAX_LIST, MAX_TEXT
from ..base import Model, check_bool, check_choice, check_int, check_models, check_number, check_str, show
from .elements import check_element

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
]

TEXT = "last-odyssey-attacks.txt"
CLAR = "CLARIFICATIONS.md, Last Odyssey"
KINDS = ("strike", "spell", "sleight")
ABILITY_TYPES = ("melee", "ranged", "special")
ROWS = ("front", "back")
ROUNDINGS = ("nearest_half_up", "floor")
#: when an ability is used: as a turn action (action points), or outside the turn's action points:
#: each Effect Phase (Miasma), in the Paradigm Phase (Dragonslayer), after the third Effect Phase
#: (Foretell Doom). Only "action" abilities enter turn plans; the others need fight state.
TIMINGS = ("action", "effect_phase", "paradigm_phase", "after_third_effect_phase")
SLEIGHT_ELEMENT_RULES = ("none", "ladder")

# Sizes the rules never need (docs/limits.md; the largest published in brackets).
MAX_STAT = 999  #: |accuracy, attack, defense, evasion, resistance| [24]
MAX_MULTIPLIER = 100.0  #: an ability's own damage multiplier [4]
MAX_TARGETS = 100  #: characters one ability targets ['all' for Multi abilities]
MAX_AP = 10  #: action points of one ability [3; a turn has 2 or 3]
MAX_MP = 1000  #: MP cost [40]
MAX_SHELL = 1000  #: Shell points [75]
MAX_ABILITIES = 20  #: abilities of one creature [4]


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


@dataclass(frozen=True)
class Shell(Model):
    """A Shell: a pool of ``points`` that takes damage before HP, with a fixed ``element``.

    CLARIFICATIONS.md, Last Odyssey: "a Shell is a pool of points that takes damage before HP";
    "A target with a Shell counts as the Shell's element". 0 points is a broken (inactive) Shell.
    """

    system: ClassVar[str] = "last_odyssey"
    model_kind: ClassVar[str] = "shell"

    points: int = 0
    element: str | None = None

    def validate(self) -> None:
        rule = f"{CLAR}: Shell is a pool of points"
        object.__setattr__(
            self, "points", check_int("shell.points", self.points, minimum=0, limit=MAX_SHELL, rule=rule)
        )
        object.__setattr__(self, "element", check_element("shell.element", self.element))

    @property
    def active(self) -> bool:
        """Return whether the Shell has points left (a broken Shell is not active)."""
        return self.points > 0


@dataclass(frozen=True)
class Attack(Model):
    """One attack ability: a strike, spell or sleight (last-odyssey-attacks.txt, "Attacks").

    ``targets`` is how many characters it may target (an int, or ``"all"`` for Multi abilities
    such as Cleave); ``multiplier`` is the ability's own damage multiplier ("multiplied by N");
    ``ability_type`` is melee / ranged / special (the Ability Types table); ``status`` is the
    status a sleight inflicts (required) or a strike/spell inflicts on a hit.

    ``mp_cost`` and ``anima_cost`` record the published costs (turn planning does not spend them
    yet). ``timing`` (TIMINGS) says when the ability is used. ``multiplier_not_full_hp`` replaces
    ``multiplier`` against a target below full HP (Dragonslayer: x4 "against targets with full HP",
    "If the target is not at full HP, the attack deals 2x damage instead"; the target's current HP is
    ``Situation.target_hp``). ``spares_creature_types``: creature types it has no effect on (Miasma:
    "every non-Undead character").
    """

    system: ClassVar[str] = "last_odyssey"
    # ``kind`` is the public field strike/spell/sleight (DESIGN.md); the class tag is ``model_kind``.

    name: str
    kind: str = "strike"
    element: str | None = None
    targets: int | str = 1
    status: str | None = None
    nonlethal: bool = False
    multiplier: float = 1.0
    ability_type: str = "melee"
    ap_cost: int = 1
    mp_cost: int = 0
    tags: tuple = ()
    anima_cost: int = 0
    timing: str = "action"
    multiplier_not_full_hp: float | None = None
    spares_creature_types: tuple = ()

    def validate(self) -> None:
        set_ = lambda k, v: object.__setattr__(self, k, v)  # noqa: E731
        set_("name", check_str("name", self.name))
        set_("kind", check_choice("kind", self.kind, KINDS, rule=f"{TEXT}: three types of attacks"))
        set_("element", check_element("element", self.element))
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
        if self.status is not None:
            set_("status", check_str("status", self.status, rule=f"{TEXT}: Sleights", max_length=MAX_TEXT))
        if self.kind == "sleight" and self.status is None:
            raise RulesError(
                "a sleight must name the status it inflicts",
                field="status",
                rule=f"{TEXT}: Sleights (they gain the status the ability inflicts)",
            )
        set_("nonlethal", check_bool("nonlethal", self.nonlethal, rule=f"{TEXT}: Nonlethal Attacks"))
        if self.nonlethal and self.kind == "sleight":
            raise RulesError(
                "a sleight deals no damage, so it cannot be a nonlethal attack",
                field="nonlethal",
                rule=f"{TEXT}: Nonlethal Attacks (the damage of the attack)",
            )
        set_(
            "multiplier",
            check_number(
                "multiplier",
                self.multiplier,
                minimum=0.0,
                limit=MAX_MULTIPLIER,
                rule=f"{TEXT}: base damage multiplied by any relevant modifiers",
            ),
        )
        set_(
            "ability_type",
            check_choice("ability_type", self.ability_type, ABILITY_TYPES, rule=f"{TEXT}: Ability Types"),
        )
        set_("ap_cost", check_int("ap_cost", self.ap_cost, minimum=0, limit=MAX_AP, rule=f"{CLAR}: action points"))
        set_("mp_cost", check_int("mp_cost", self.mp_cost, minimum=0, limit=MAX_MP, rule=f"{CLAR}: action points"))
        set_("tags", _names("tags", self.tags, TEXT))
        data = "shared/data/last_odyssey_creatures.toml"
        set_("anima_cost", check_int("anima_cost", self.anima_cost, minimum=0, rule=f"{data}: anima_cost"))
        set_(
            "timing",
            check_choice(
                "timing", self.timing, TIMINGS, rule=f"{data}: ability type (passive, special, paradigm action)"
            ),
        )
        set_(
            "multiplier_not_full_hp",
            check_number(
                "multiplier_not_full_hp",
                self.multiplier_not_full_hp,
                minimum=0.0,
                optional=True,
                rule="Dragonslayer: 'If the target is not at full HP'",
            ),
        )
        set_(
            "spares_creature_types",
            _names("spares_creature_types", self.spares_creature_types, "Miasma: 'every non-Undead character'"),
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


@dataclass(frozen=True)
class Creature(Model):
    """A hero or warrior: HP, tier (1-10), the nine combat statistics, element, Shell and abilities.

    ``element`` None is colorless. ``shell`` is None or a :class:`Shell` (a dict or a number of
    points is accepted; a bare number takes the creature's element). ``immune_elements`` are
    elements whose damage it ignores (×0), ``immune_statuses`` statuses it never gains.
    ``creature_type`` is the published type (Human, Undead, Beast, ...). ``phase_abilities`` are
    attack abilities used outside the turn's action points (``timing`` other than "action":
    Miasma, Dragonslayer, Foretell Doom): resolved per use like any ability, but never planned
    into a turn (when they happen needs fight state).
    """

    system: ClassVar[str] = "last_odyssey"
    model_kind: ClassVar[str] = "creature"

    name: str
    hp: int
    tier: int = 1
    physical_accuracy: int = 0
    magical_accuracy: int = 0
    status_accuracy: int = 0
    physical_attack: int = 0
    magical_attack: int = 0
    physical_defense: int = 0
    magical_defense: int = 0
    evasion: int = 0
    resistance: int = 0
    element: str | None = None
    shell: Shell | None = None
    abilities: tuple = ()
    immune_elements: tuple = ()
    immune_statuses: tuple = ()
    shell_max: int | None = None
    record_type: str | None = None
    source: str | None = None
    creature_type: str | None = None
    phase_abilities: tuple = ()

    def validate(self) -> None:
        set_ = lambda k, v: object.__setattr__(self, k, v)  # noqa: E731
        set_("name", check_str("name", self.name))
        set_(
            "hp",
            check_int("hp", self.hp, minimum=1, limit=MAX_HP, rule=f"{TEXT}: damage reduces the target's total HP"),
        )
        if self.creature_type is not None:
            set_("creature_type", check_str("creature_type", self.creature_type))
        set_("phase_abilities", check_models("phase_abilities", self.phase_abilities, Attack))
        for i, a in enumerate(self.phase_abilities):
            if a.timing == "action":
                raise RulesError(
                    f"{a.name} is a turn action: list it under abilities",
                    field=f"phase_abilities[{i}]",
                    rule=f"{CLAR}: action points per turn",
                )
        set_("tier", check_int("tier", self.tier, minimum=1, maximum=10, rule=f"{CLAR}: tiers 1-10"))
        for f in _STATS:
            set_(f, check_int(f, getattr(self, f), limit=MAX_STAT, rule=f"{TEXT}: Strikes, Spells, Sleights"))
        set_("element", check_element("element", self.element))
        shell = self.shell
        if shell is not None and not isinstance(shell, Shell):
            if isinstance(shell, dict):
                try:
                    shell = Shell.from_dict(shell)
                except RulesError as exc:
                    raise RulesError(
                        exc.message,
                        field=exc.field if (exc.field or "").startswith("shell") else f"shell.{exc.field}",
                        rule=exc.rule,
                    ) from None
            elif isinstance(shell, (int, float)) and not isinstance(shell, bool):
                shell = Shell(points=shell, element=self.element)
            else:
                raise RulesError(
                    f"must be None, a Shell, a table {{points, element}} or a number of points, not {show(shell)}",
                    field="shell",
                    rule=f"{CLAR}: Shell",
                )
        set_("shell", shell)
        set_("abilities", check_models("abilities", self.abilities, Attack, max_items=MAX_ABILITIES))
        set_("immune_elements", _names("immune_elements", self.immune_elements, CLAR, check_element))
        if None in self.immune_elements:
            raise RulesError("colorless is not an element one can be immune to", field="immune_elements")
        set_("immune_statuses", _names("immune_statuses", self.immune_statuses, TEXT))
        set_("shell_max", check_int("shell_max", self.shell_max, minimum=0, optional=True, limit=MAX_SHELL))
        if self.record_type is not None:
            set_("record_type", check_str("record_type", self.record_type, max_length=MAX_TEXT))
        if self.source is not None:
            set_("source", check_str("source", self.source, max_length=MAX_TEXT))

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


@dataclass(frozen=True)
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

    rounding: str = "nearest_half_up"
    sleight_elements: str = "none"

    def validate(self) -> None:
        object.__setattr__(
            self, "rounding", check_choice("rounding", self.rounding, ROUNDINGS, rule=f"{CLAR}: rule option rounding")
        )
        object.__setattr__(
            self,
            "sleight_elements",
            check_choice("sleight_elements", self.sleight_elements, SLEIGHT_ELEMENT_RULES, rule=f"{TEXT}: Sleights"),
        )


@dataclass(frozen=True)
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

    attacker_row: str = "front"
    target_row: str = "front"
    target_front_row_standing: bool = True
    lean_in: bool = False
    target_shell_points: int | None = None
    target_hp: int | None = None

    def validate(self) -> None:
        rule = f"{TEXT}: Ability Types (Melee)"
        object.__setattr__(self, "attacker_row", check_choice("attacker_row", self.attacker_row, ROWS, rule=rule))
        object.__setattr__(self, "target_row", check_choice("target_row", self.target_row, ROWS, rule=rule))
        object.__setattr__(
            self,
            "target_front_row_standing",
            check_bool("target_front_row_standing", self.target_front_row_standing, rule=rule),
        )
        object.__setattr__(self, "lean_in", check_bool("lean_in", self.lean_in, rule=f"{TEXT}: Leaning In"))
        object.__setattr__(
            self,
            "target_shell_points",
            check_int(
                "target_shell_points",
                self.target_shell_points,
                minimum=0,
                optional=True,
                limit=MAX_SHELL,
                rule=f"{CLAR}: Shell",
            ),
        )
        object.__setattr__(
            self,
            "target_hp",
            check_int(
                "target_hp",
                self.target_hp,
                minimum=1,
                optional=True,
                limit=MAX_HP,
                rule=f"{TEXT}: damage reduces the target's total HP",
            ),
        )
