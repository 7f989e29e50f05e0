"""The registry of rule systems; each is imported on first use."""

from __future__ import annotations

from importlib import import_module

from ..errors import RulesError
from .base import RuleSystem

__all__ = ["systems", "system", "system_of"]

# name → module holding a module-level ``SYSTEM`` instance. Order is the public listing order.
_MODULES = {
    "annulus": "workbench.systems.annulus",
    "unbound": "workbench.systems.unbound",
    "last_odyssey": "workbench.systems.last_odyssey",
    "glass_empires": "workbench.systems.glass_empires",
}
_LOADED: dict[str, RuleSystem] = {}


def systems() -> list[str]:
    """Return the names of the supported rule systems."""
    return list(_MODULES)


def system(name: str) -> RuleSystem:
    """Return the rule system called ``name`` (``"annulus"``, ``"unbound"``, ...)."""
    if isinstance(name, RuleSystem):
        return name
    key = str(name).strip().lower().replace("-", "_").replace(" ", "_")
    if key not in _MODULES:
        raise RulesError(f"unknown rule system {name!r}; choose one of {', '.join(_MODULES)}", field="system")
    if key not in _LOADED:
        _LOADED[key] = import_module(_MODULES[key]).SYSTEM
    return _LOADED[key]


def system_of(obj) -> RuleSystem:
    """Return the rule system a model (creature, attack, options, situation) belongs to."""
    name = getattr(type(obj), "system", None)
    if not name:
        raise RulesError(f"{type(obj).__name__} is not a workbench model of any rule system", field="attack")
    return system(name)
