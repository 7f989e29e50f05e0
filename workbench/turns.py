"""One full turn of attacks under a system's action economy (DESIGN.md, Combat).

Each system lists the legal ways to spend a turn attacking (``turn_plans``: label → damage Dist);
the default plan takes the one with the highest expected damage. A plan is replaceable: pass a
label, a list of attacks, or a function of the candidate plans.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from .dist import Dist
from .errors import RulesError
from .systems import system_of

__all__ = ["turn_plans", "turn_damage", "best_plan"]

Plan = str | Sequence[Any] | Callable[[dict[str, Dist]], "str | Dist"] | None


def turn_plans(attacker: Any, target: Any, options: Any = None, situation: Any = None) -> dict[str, Dist]:
    """Return every legal way for ``attacker`` to spend one turn attacking ``target``: label → damage Dist."""
    sys = system_of(attacker)
    if system_of(target).name != sys.name:
        raise RulesError(f"attacker is {sys.name} but target is {system_of(target).name}", field="target")
    plans = sys.turn_plans(attacker, target, options, situation)
    if not plans:
        raise RulesError(f"{attacker.name} has no attack it can use against {target.name}", field="attacks")
    return plans


def best_plan(plans: dict[str, Dist]) -> str:
    """Return the label of the plan with the highest expected damage (ties: the first listed)."""
    return max(plans, key=lambda k: plans[k].mean())


def turn_damage(attacker: Any, target: Any, options: Any = None, situation: Any = None, plan: Plan = None) -> Dist:
    """Return the damage Dist of one full turn of ``attacker`` against ``target``.

    ``plan``: None (highest expected damage among the legal plans), a plan label, a list of attacks
    (objects or names) used in order, or a function taking the plans dict and returning a label or
    a Dist.
    """
    sys = system_of(attacker)
    if plan is not None and not isinstance(plan, str) and not callable(plan):
        return sys.plan_damage(attacker, target, list(plan), options, situation)
    plans = turn_plans(attacker, target, options, situation)
    if plan is None:
        return plans[best_plan(plans)]
    if isinstance(plan, str):
        if plan not in plans:
            raise RulesError(f"no plan {plan!r}; legal plans: {', '.join(plans)}", field="plan")
        return plans[plan]
    chosen = plan(plans)
    if isinstance(chosen, Dist):
        return chosen
    if chosen not in plans:
        raise RulesError(f"the plan function chose {chosen!r}, which is not one of {', '.join(plans)}", field="plan")
    return plans[chosen]
