"""The generic entry points: they find the rule system from the models and dispatch to it."""

from __future__ import annotations

from typing import Any

from .dist import Dist
from .errors import RulesError
from .systems import system_of

__all__ = ["outcomes", "damage"]


def _check_same_system(attack: Any, *others: Any):
    sys = system_of(attack)
    for role, obj in zip(("attacker", "target", "options", "situation"), others):
        if obj is not None and getattr(type(obj), "system", None) != sys.name:
            raise RulesError(
                f"is a {getattr(type(obj), 'system', type(obj).__name__) or type(obj).__name__} model, "
                f"but the attack is {sys.name}",
                field=role,
            )
    return sys


def outcomes(attack: Any, attacker: Any, target: Any, options: Any = None, situation: Any = None):
    """Return the exact joint outcome table (polars) of one use of ``attack`` by ``attacker`` on ``target``.

    Columns: ``probability``, ``damage`` and the system's extras; rows sum to probability 1.
    """
    sys = _check_same_system(attack, attacker, target, options, situation)
    return sys.outcomes(attack, attacker, target, options, situation)


def damage(attack: Any, attacker: Any, target: Any, options: Any = None, situation: Any = None) -> Dist:
    """Return the damage Dist of one use of ``attack`` by ``attacker`` on ``target``."""
    sys = _check_same_system(attack, attacker, target, options, situation)
    return sys.damage(attack, attacker, target, options, situation)
