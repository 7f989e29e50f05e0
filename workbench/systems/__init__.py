"""The registry of rule systems: the four bundled ones, imported on first use, and any registered.

A rule system is one :class:`~workbench.systems.base.RuleSystem` instance. ``register_system``
adds one (an instance, or the name of a module holding a module-level ``SYSTEM``); installed
packages may also declare one under the entry-point group ``rules_workbench.systems`` (value:
``"package.module"`` holding ``SYSTEM``), found on the first call to :func:`systems`. See
docs/adding-a-system.md.
"""

from __future__ import annotations

import re
from importlib import import_module
from typing import Any

from ..errors import RulesError
from ..model import Model
from .base import RuleSystem

__all__ = [
    "systems",
    "system",
    "system_of",
    "fight_system",
    "models_of",
    "ONE_SYSTEM",
    "register_system",
    "ENTRY_POINT_GROUP",
]

#: the entry-point group an installed package declares its rule system under
ENTRY_POINT_GROUP = "rules_workbench.systems"

# name → module holding a module-level ``SYSTEM`` instance. Order is the public listing order.
_MODULES = {
    "annulus": "workbench.systems.annulus",
    "unbound": "workbench.systems.unbound",
    "last_odyssey": "workbench.systems.last_odyssey",
    "glass_empires": "workbench.systems.glass_empires",
}
_LOADED: dict[str, RuleSystem] = {}
_ENTRY_POINTS_READ = False
_NAME = re.compile(r"[a-z][a-z0-9_]*")
_RULE = "docs/adding-a-system.md"


def _read_entry_points() -> None:
    """Add the systems that installed packages declare (once); a broken one is skipped, not fatal."""
    global _ENTRY_POINTS_READ
    if _ENTRY_POINTS_READ:
        return
    _ENTRY_POINTS_READ = True
    from importlib.metadata import entry_points

    for ep in entry_points(group=ENTRY_POINT_GROUP):
        key = _key(ep.name)
        if key not in _MODULES and _NAME.fullmatch(key):
            _MODULES[key] = ep.value.split(":")[0]


def _key(name: object) -> str:
    return str(name).strip().lower().replace("-", "_").replace(" ", "_")


def systems() -> list[str]:
    """Return the names of the available rule systems (bundled, registered, installed)."""
    _read_entry_points()
    return list(_MODULES)


def _check(sys: RuleSystem) -> RuleSystem:
    """Return ``sys`` if it can serve every public call, else raise RulesError naming what is missing."""
    if not isinstance(sys, RuleSystem):
        raise RulesError(f"expected a RuleSystem instance, not {type(sys).__name__}", field="system", rule=_RULE)
    if not isinstance(sys.name, str) or not _NAME.fullmatch(sys.name):
        raise RulesError(
            f"a system's name is lower-case letters, digits and _, not {sys.name!r}", field="name", rule=_RULE
        )
    for kind in ("Creature", "Attack", "Options", "Situation"):
        cls = getattr(sys, kind, None)
        if not (isinstance(cls, type) and issubclass(cls, Model)) or cls is Model:
            raise RulesError(f"{sys.name}.{kind} must be a Model subclass of its own", field=kind, rule=_RULE)
        if cls.system != sys.name:
            raise RulesError(
                f"{sys.name}.{kind}.system is {cls.system!r}; it must be {sys.name!r} (models name their system)",
                field=kind,
                rule=_RULE,
            )
    return sys


def register_system(system: RuleSystem | str, *, replace: bool = False) -> RuleSystem:
    """Register a rule system and return it: a :class:`RuleSystem` instance, or the name of a module
    holding a module-level ``SYSTEM``. ``wb.system(name)`` then finds it, and every public call
    (outcomes, damage, turn plans, rounds_to_kill, duel, compare, explore, the panels, the CLI)
    works on its models. A name already taken raises RulesError unless ``replace=True``."""
    if isinstance(system, str):
        try:
            module = import_module(system)
        except ImportError as exc:
            raise RulesError(f"cannot import {system!r}: {exc}", field="system", rule=_RULE) from None
        found = getattr(module, "SYSTEM", None)
        if found is None:
            raise RulesError(f"module {module.__name__} has no SYSTEM", field="system", rule=_RULE)
        system = found
        path = module.__name__
    else:
        path = type(system).__module__
    sys = _check(system)  # type: ignore[arg-type]
    if sys.name in systems() and not replace and _LOADED.get(sys.name) is not sys:
        raise RulesError(
            f"a rule system called {sys.name!r} is already registered (replace=True replaces it)",
            field="name",
            rule=_RULE,
        )
    _MODULES[sys.name] = path
    _LOADED[sys.name] = sys
    return sys


def unregister_system(name: str) -> None:
    """Remove a registered (not a bundled) rule system; RulesError for a bundled or unknown one."""
    key = _key(name)
    if key in ("annulus", "unbound", "last_odyssey", "glass_empires"):
        raise RulesError(f"{key!r} is bundled and cannot be removed", field="system")
    if key not in _MODULES:
        raise RulesError(f"no rule system called {name!r}", field="system")
    del _MODULES[key]
    _LOADED.pop(key, None)


def system(name: str | RuleSystem) -> RuleSystem:
    """Return the rule system called ``name`` (``"annulus"``, ``"unbound"``, ...)."""
    if isinstance(name, RuleSystem):
        return name
    key = _key(name)
    if key not in _MODULES:
        _read_entry_points()
    if key not in _MODULES:
        raise RulesError(f"unknown rule system {name!r}; choose one of {', '.join(systems())}", field="system")
    if key not in _LOADED:
        try:
            _LOADED[key] = _check(import_module(_MODULES[key]).SYSTEM)
        except (ImportError, AttributeError) as exc:
            raise RulesError(f"the rule system {key!r} cannot be loaded: {exc}", field="system") from None
    return _LOADED[key]


def system_of(obj) -> RuleSystem:
    """Return the rule system a model (creature, attack, options, situation) belongs to."""
    name = getattr(type(obj), "system", None)
    if not name:
        raise RulesError(f"{type(obj).__name__} is not a workbench model of any rule system", field="attack")
    return system(name)


#: the rule a fight call's models are checked by (:func:`fight_system`)
ONE_SYSTEM = "docs/combat.md: one fight, one rule system (its creatures, attacks, options and situation)"

_NOT_ATTACKS = ("creature", "options", "situation")


def _a(words: str) -> str:
    """Return ``words`` after its article: "an Annulus Creature", "a Last Odyssey Creature"."""
    return f"{'an' if words[:1].lower() in 'aeiou' else 'a'} {words}"


def _title(obj: object) -> str:
    """Return how a value is named in a refusal: "a Last Odyssey Creature", "a bool", "None"."""
    if obj is None:
        return "None"
    name = getattr(type(obj), "system", None)
    if isinstance(obj, Model) and name:
        try:
            title = system(name).title
        except RulesError:
            title = name
        return _a(f"{title} {type(obj).__name__}")
    return _a(type(obj).__name__)


def fight_system(
    creatures: dict[str, object], attack: object = ..., options: object = None, situation: object = None
) -> RuleSystem:
    """Return the one rule system of a fight call's models, checked at its entry: every creature
    (``{role: model}``, e.g. ``{"attacker": a, "target": t}``) a Creature, ``attack`` (unless left
    out: ``...``) an attack, ``options`` and ``situation`` None or that system's Options and Situation, all of
    one system (the first creature's, or the attack's). Otherwise RulesError naming the role and
    citing :data:`ONE_SYSTEM`: "one fight, one rule system"."""
    has_attack = attack is not ...
    first = attack if has_attack else next(iter(creatures.values()), None)
    role0 = "attack" if has_attack else next(iter(creatures), "attacker")
    if not isinstance(first, Model) or not getattr(type(first), "system", ""):
        what = "an attack" if has_attack else "a creature"
        raise RulesError(
            f"must be {what} of a rule system (wb.system(...).catalog()), not {_title(first)}",
            field=role0,
            rule=ONE_SYSTEM,
        )
    sys = system_of(first)
    if has_attack and getattr(type(attack), "model_kind", "") in _NOT_ATTACKS:
        raise RulesError(f"must be {_a(sys.title)} attack, not {_title(attack)}", field="attack", rule=ONE_SYSTEM)
    expected = [(role, obj, sys.Creature) for role, obj in creatures.items()]
    expected += [("options", options, sys.Options), ("situation", situation, sys.Situation)]
    for role, obj, cls in expected:
        if obj is None and role in ("options", "situation"):
            continue
        if not isinstance(obj, cls):
            other = f"{role0} is {sys.title}" if getattr(type(obj), "system", "") not in ("", sys.name) else ""
            raise RulesError(
                f"must be {_a(sys.title + ' ' + cls.__name__)}, not {_title(obj)}" + (f" ({other})" if other else ""),
                field=role,
                rule=ONE_SYSTEM,
            )
    return sys


_named = system  # models_of's parameter is named after the function


def models_of(system: Any) -> dict[str, type]:
    """Return ``{class name: model class}`` of every model a rule system defines (its Creature,
    Attack, Options, Situation and the nested models of the same module, in definition order);
    ``system`` is a system object or a registered name."""
    import inspect

    sys = _named(system) if isinstance(system, str) else system
    module = import_module(sys.Creature.__module__)
    found = [
        c
        for _, c in inspect.getmembers(module, inspect.isclass)
        if issubclass(c, Model) and c is not Model and c.__module__ == module.__name__
    ]
    found.sort(key=lambda c: inspect.getsourcelines(c)[1])
    return {c.__name__: c for c in found}
