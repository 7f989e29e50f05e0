"""Choosing a turn's plan in a state of a fight, the same way ``turn_damage`` does (workbench/turns.py),
and turning Dists and outcome frames into turn tables (dicts of columns with a ``probability``) that
a round description draws from. Rule systems' round descriptions use it; it is no fight machinery."""

from __future__ import annotations

from typing import Any

from .dist import Dist
from .errors import RulesError
from .turns import best_plan

__all__ = ["choose_label", "is_sequence_plan", "dist_table"]


def is_sequence_plan(plan: Any) -> bool:
    """Return True for a plan given as a list of attacks (not a label, not a function)."""
    return plan is not None and not isinstance(plan, str) and not callable(plan)


def choose_label(plans: dict[str, Dist], plan: Any) -> str | Dist | None:
    """Return the label ``plan`` picks among ``plans`` (None: highest expected damage), a Dist when a
    plan function returns one, or None when there is no legal plan."""
    if not plans:
        return None
    if plan is None:
        return best_plan(plans)
    if isinstance(plan, str):
        if plan not in plans:
            raise RulesError(f"no plan {plan!r}; legal plans: {', '.join(plans)}", field="plan")
        return plan
    from .arguments import call_plan

    return call_plan(plan, plans)


def dist_table(d: Dist, **extra: Any) -> dict[str, Any]:
    """Return a Dist as an outcome table (damage, probability) with constant extra columns."""
    import numpy as np

    keep = d.pmf > 0
    dmg = (np.arange(d.pmf.size) + d.offset)[keep]
    out = {"damage": dmg.astype(np.int64), "probability": d.pmf[keep]}
    for k, v in extra.items():
        out[k] = np.full(dmg.size, v)
    return out
