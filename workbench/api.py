"""The generic entry points: they find the rule system from the models and dispatch to it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .dist import Dist
from .systems import fight_system

if TYPE_CHECKING:  # polars loads on first use
    import polars as pl

__all__ = ["outcomes", "damage"]


def _check_same_system(attack: Any, attacker: Any, target: Any, options: Any, situation: Any):
    """Return the one rule system of the call's models (:func:`workbench.systems.fight_system`)."""
    return fight_system({"attacker": attacker, "target": target}, attack, options, situation)


def outcomes(attack: Any, attacker: Any, target: Any, options: Any = None, situation: Any = None) -> pl.DataFrame:
    """Return the exact joint outcome table (polars) of one use of ``attack`` by ``attacker`` on ``target``.

    Columns: ``probability``, ``damage`` and the system's extras; rows sum to probability 1.
    The models must be of one system and of the right kinds (else RulesError naming the role,
    citing "one fight, one rule system").
    """
    sys = _check_same_system(attack, attacker, target, options, situation)
    return sys.outcomes(attack, attacker, target, options, situation)


def damage(attack: Any, attacker: Any, target: Any, options: Any = None, situation: Any = None) -> Dist:
    """Return the damage Dist of one use of ``attack`` by ``attacker`` on ``target`` (models of one
    system and of the right kinds, else RulesError naming the role: "one fight, one rule system")."""
    sys = _check_same_system(attack, attacker, target, options, situation)
    return sys.damage(attack, attacker, target, options, situation)
