"""The registry of attack builders: a system with a richer attack builder than the generic
:class:`~workbench.widgets.attack.AttackSetBuilder` (Annulus's upgrade pickers) registers it here, by system
name; :func:`workbench.widgets.attack.attack_builder` looks it up."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["BUILDERS"]

#: system name → panel class (or factory) taking ``(system, value=None, attacker=None)``
BUILDERS: dict[str, Callable[..., Any]] = {}
