"""Annulus (annulus-attacks.txt): pools of d6 successes minus a defense, 54 attack-set upgrades,
a d12 Trigger Die. ``SYSTEM`` is the rule system the registry returns for ``wb.system("annulus")``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import polars as pl

from .models import Attack, Creature, Options, Situation
from .system import SYSTEM, AnnulusSystem
from .tactics import Tactics
from .upgrades import UPGRADES, Upgrade

__all__ = [
    "SYSTEM",
    "AnnulusSystem",
    "Attack",
    "Creature",
    "Options",
    "Situation",
    "UPGRADES",
    "Upgrade",
    "Tactics",
    "annulus_builds",
]


def annulus_builds(
    budget: int, targets: Sequence[Any], attacker: Any = None, options: Any = None, situation: Any = None
) -> tuple[pl.DataFrame, dict[str, int]]:
    """Return the distinct Annulus builds within ``budget`` Experience and the counts, in one frame
    (by build id; ``SYSTEM.build_space`` yields the same builds chunk by chunk: annulus/builds.py).

    One row per damage signature (seed and the upgrades that change the damage against these
    targets here): ``build_id`` (cheapest first), ``build`` (the cheapest set with it, as an
    Attack), ``name``, ``seed``, ``cost``, ``sets`` (legal sets sharing it). Counts:
    ``legal_sets`` (every legal set within the budget), ``unusable_sets`` (legal but not usable in
    this situation), ``distinct`` (rows).
    """
    space = SYSTEM.build_space(budget, targets, attacker, options, situation)
    return space.builds, space.counts
