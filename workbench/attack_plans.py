"""A plan that names one attack: that attack used as often as the turn's action economy allows.

``wb.rounds_to_kill(wolf, bear, plan="Rock")``, ``wb.duel(a, b, plan_a=heavy_melee)`` and
``wb.head_to_head(a, b, target, plan_a="Bite")`` accept, besides a plan label, a list of attacks
and a plan function, one attack (a model, or a name: first the attacker's own attacks, then the
system's catalog attacks, case-insensitive). The turn is that attack ``uses_per_turn`` times (the
system's action economy: Annulus two one-action sets, a two-action set once; Unbound two Push the
Attack; ...). An attack the creature does not carry (a catalog weapon picked for it in the app) is
added to the creature's own attacks for the fight, or takes the place of its attack of the same name
(an edited Bite), so the rules that check "one of its attacks" see it. A name that is neither an
attack nor a plan label is a RulesError naming ``plan``.

The callers pass the fight's rule system (this module imports no system: it stays out of the
engine's import cycles, tests/package/test_import_cycles.py).
"""

from __future__ import annotations

from typing import Any

from .errors import RulesError

__all__ = ["attack_plan", "resolve_plan", "holding"]


def holding(attacker: Any, attack: Any, system: Any) -> Any:
    """Return ``attacker`` if ``attack`` is one of its attacks (of rule system ``system``), else
    the attacker carrying ``attack`` (same name, same stats): in place of its attack of the same
    name (an edited Bite is the Bite, as edited), else added to its attacks."""
    own = system.attacks_of(attacker)
    if any(a is attack or a == attack for a in own):
        return attacker
    same = [i for i, a in enumerate(own) if getattr(a, "name", None) == getattr(attack, "name", None)]
    carried = [attack if i == same[0] else a for i, a in enumerate(own)] if same else [*own, attack]
    # the field holding the attacks: the list field equal to them whose replacement the system reads
    for name in type(attacker).model_fields:
        value = getattr(attacker, name)
        if not isinstance(value, (list, tuple)) or list(value) != own:
            continue
        try:
            who = attacker.replace(**{name: carried})
        except RulesError:
            continue
        if any(a is attack or a == attack for a in system.attacks_of(who)):
            return who
    raise RulesError(f"{attacker.name} cannot carry {attack.name} in this system", field="plan")


def attack_plan(attacker: Any, attack: Any, options: Any, system: Any) -> tuple[Any, list[Any]]:
    """Return ``(attacker, plan)``: the attacker carrying ``attack`` (:func:`holding`) and the turn
    that uses ``attack`` as often as the action economy allows (``uses_per_turn``, at least once)."""
    if not isinstance(attack, system.Attack):
        raise RulesError(f"expected a {system.title} attack, not {type(attack).__name__}", field="plan")
    who = holding(attacker, attack, system)
    uses = max(1, int(system.uses_per_turn(who, attack, system.options_of(options))))
    return who, [attack] * uses


def _named(system: Any, attacker: Any, name: str) -> Any:
    """Return the attack called ``name`` (the attacker's own first, then the catalog's), or None."""
    key = name.strip().lower()
    for a in system.attacks_of(attacker):
        if a.name.lower() == key:
            return a
    for a in system.catalog().attacks.values():
        if a.name.lower() == key:
            return a
    return None


def resolve_plan(attacker: Any, plan: Any, options: Any, target: Any, situation: Any, system: Any) -> tuple[Any, Any]:
    """Return ``(attacker, plan)`` with a plan naming one attack (a model or a name) turned into
    that attack's turn (:func:`attack_plan`); anything else is returned as it is. A string that
    names no attack and no plan label against ``target`` is a RulesError naming ``plan``."""
    if plan is None or callable(plan) or isinstance(plan, (list, tuple)):
        return attacker, plan
    if isinstance(plan, system.Attack):
        return attack_plan(attacker, plan, options, system)
    if not isinstance(plan, str):
        return attacker, plan
    if " + " not in plan:  # a label of several uses is never one attack's name
        attack = _named(system, attacker, plan)
        if attack is not None:
            return attack_plan(attacker, attack, options, system)
    labels = list(system.turn_plans(attacker, target, options, situation))
    if plan not in labels:
        attacks = ", ".join(a.name for a in system.attacks_of(attacker)) or "none"
        raise RulesError(
            f"{attacker.name} has no attack or plan called {plan!r}; its attacks: {attacks} "
            f"(or any catalog attack); its plans: {', '.join(labels)}",
            field="plan",
        )
    return attacker, plan
