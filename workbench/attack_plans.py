"""A plan that names one attack: that attack used as often as the turn's action economy allows.

``wb.rounds_to_kill(wolf, bear, plan="Rock")``, ``wb.duel(a, b, plan_a=heavy_melee)`` and
``wb.head_to_head(a, b, target, plan_a="Bite")`` accept, besides a plan label, a list of attacks
and a plan function, one attack (a model, or a name: first the attacker's own attacks, then the
system's catalog attacks, case-insensitive). The turn is that attack ``uses_per_turn`` times (the
system's action economy: Annulus two one-action sets, a two-action set once; Unbound two Push the
Attack; ...). An attack the creature does not carry (a catalog weapon picked for it in the app) is
added to the creature's own attacks for the fight, or takes the place of its attack of the same name
(an edited Bite), so the rules that check "one of its attacks" see it. A name that is neither an attack nor a plan label is a RulesError naming ``plan``.
"""

from __future__ import annotations

from typing import Any

from .errors import RulesError

__all__ = ["attack_plan", "resolve_plan", "holding"]


def _attack_field(sys: Any, creature: Any) -> str | None:
    """Return the name of the creature's field holding its attacks (a list of the system's Attack)."""
    from .fields import specs

    own = sys.attacks_of(creature)
    for name, fs in specs(type(creature)).items():
        if fs.kind == "models" and fs.model is sys.Attack and list(getattr(creature, name) or []) == own:
            return name
    return None


def holding(attacker: Any, attack: Any, system: Any = None) -> Any:
    """Return ``attacker`` if ``attack`` is one of its attacks, else the attacker carrying
    ``attack`` (same name, same stats): in place of its attack of the same name (an edited Bite is
    the Bite, as edited), else added to its attacks."""
    from .systems import system_of

    sys = system or system_of(attacker)
    own = sys.attacks_of(attacker)
    if any(a is attack or a == attack for a in own):
        return attacker
    field = _attack_field(sys, attacker)
    if field is None:
        raise RulesError(f"{attacker.name} cannot carry {attack.name} in this system", field="plan")
    same = [i for i, a in enumerate(own) if getattr(a, "name", None) == getattr(attack, "name", None)]
    carried = [attack if i == same[0] else a for i, a in enumerate(own)] if same else [*own, attack]
    return attacker.replace(**{field: carried})


def attack_plan(attacker: Any, attack: Any, options: Any = None, system: Any = None) -> tuple[Any, list[Any]]:
    """Return ``(attacker, plan)``: the attacker carrying ``attack`` (:func:`holding`) and the turn
    that uses ``attack`` as often as the action economy allows (``uses_per_turn``, at least once)."""
    from .systems import system_of

    sys = system or system_of(attacker)
    if not isinstance(attack, sys.Attack):
        raise RulesError(f"expected a {sys.title} attack, not {type(attack).__name__}", field="plan")
    who = holding(attacker, attack, sys)
    uses = max(1, int(sys.uses_per_turn(who, attack, sys.options_of(options))))
    return who, [attack] * uses


def _named(sys: Any, attacker: Any, name: str) -> Any:
    """Return the attack called ``name`` (the attacker's own first, then the catalog's), or None."""
    key = name.strip().lower()
    for a in sys.attacks_of(attacker):
        if a.name.lower() == key:
            return a
    for a in sys.catalog().attacks.values():
        if a.name.lower() == key:
            return a
    return None


def resolve_plan(
    attacker: Any, plan: Any, options: Any = None, target: Any = None, situation: Any = None
) -> tuple[Any, Any]:
    """Return ``(attacker, plan)`` with a plan naming one attack (a model or a name) turned into
    that attack's turn (:func:`attack_plan`); anything else is returned as it is. A string that
    names no attack and (when ``target`` is given) no plan label is a RulesError naming ``plan``."""
    from .systems import system_of

    if plan is None or callable(plan) or isinstance(plan, (list, tuple)):
        return attacker, plan
    try:
        sys = system_of(attacker)
    except RulesError:
        return attacker, plan
    if isinstance(plan, sys.Attack):
        return attack_plan(attacker, plan, options, sys)
    if not isinstance(plan, str):
        return attacker, plan
    if " + " not in plan:  # a label of several uses is never one attack's name
        attack = _named(sys, attacker, plan)
        if attack is not None:
            return attack_plan(attacker, attack, options, sys)
    if target is not None:
        labels = list(sys.turn_plans(attacker, target, options, situation))
        if plan not in labels:
            attacks = ", ".join(a.name for a in sys.attacks_of(attacker)) or "none"
            raise RulesError(
                f"{attacker.name} has no attack or plan called {plan!r}; its attacks: {attacks} "
                f"(or any catalog attack); its plans: {', '.join(labels)}",
                field="plan",
            )
    return attacker, plan
