"""Firing into melee (glass-empires-attack.txt, Ranged Weapon Rules).

"When firing on a foe engaged in melee, the victim is chosen by random die roll from among all
those visible within that foe's melee reach whose Heights are greater than half the intended
target's Height." The caller passes the creatures visible within the foe's melee reach; the
victim is uniform among the eligible ones (the intended target always is: its Height is more
than half its own).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import polars as pl

from ...errors import RulesError
from .models import Attack, Creature
from .weapons import RULES

__all__ = ["into_melee_victims", "into_melee_outcomes"]

_RULE = f"{RULES}: Firing into Melee"


def into_melee_victims(intended: Creature, nearby: Sequence[Creature]) -> pl.DataFrame:
    """Return the victim distribution: ``victim`` (0 = intended, i = nearby[i-1]), ``name``, ``size``, ``probability``.

    Eligible: Height (Size) strictly greater than half the intended target's Height; uniform among them.
    """
    if not isinstance(intended, Creature):
        raise RulesError(
            f"expected a Glass Empires Creature, not {type(intended).__name__}", field="target", rule=_RULE
        )
    for c in nearby:
        if not isinstance(c, Creature):
            raise RulesError(f"expected Glass Empires Creatures, not {type(c).__name__}", field="nearby", rule=_RULE)
    everyone = [intended, *nearby]
    sizes = np.array([c.size for c in everyone], dtype=np.float64)
    eligible = sizes > intended.size / 2
    idx = np.flatnonzero(eligible)
    return pl.DataFrame(
        {
            "victim": idx.astype(np.int64),
            "name": [everyone[i].name for i in idx],
            "size": sizes[idx],
            "probability": np.full(idx.size, 1.0 / idx.size),
        }
    )


def into_melee_outcomes(
    system: Any,
    attack: Attack,
    attacker: Creature,
    intended: Creature,
    nearby: Sequence[Creature],
    options: Any = None,
    situation: Any = None,
) -> pl.DataFrame:
    """Return the joint table of victim and outcome of one ranged Attack into melee.

    Columns: ``victim``, ``name``, ``p_victim`` and the outcome columns, ``probability`` being the
    joint probability (victim x outcome); it sums to 1. One vectorised call over the victims.
    """
    if not isinstance(attack, Attack) or attack.kind != "ranged":
        raise RulesError("firing into melee needs a ranged attack", field="attack", rule=_RULE)
    victims = into_melee_victims(intended, nearby)
    everyone = [intended, *nearby]
    targets = [everyone[i] for i in victims["victim"]]
    k = len(targets)
    table = system.outcome_tables([attack] * k, [attacker] * k, targets, options, situation)
    vt = victims.with_row_index("matchup").with_columns(pl.col("matchup").cast(pl.Int64))
    out = table.join(vt.select("matchup", "victim", "name", pl.col("probability").alias("p_victim")), on="matchup")
    out = out.with_columns((pl.col("probability") * pl.col("p_victim")).alias("probability"))
    cols = ["victim", "name", "p_victim"] + [c for c in table.columns if c != "matchup"]
    return out.select(cols).sort(["victim", "damage"])
