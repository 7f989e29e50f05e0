"""The levers a designer of this system changes in a budget search about the build on screen
(``RuleSystem.build_levers``; the search is :func:`workbench.build_levers.search_builds`)."""

from __future__ import annotations

from typing import Any

from ...build_levers import Lever, attack_change, stat_levers

__all__ = ["levers"]


def levers(system: Any, attacker: Any, attack: Any) -> list[Lever]:
    out: list[Lever] = []
    ladder = sorted({a.multiplier for a in system.catalog().attacks.values()} | {attack.multiplier})
    higher = [x for x in ladder if x > attack.multiplier][:2]
    if higher:
        out.append(
            Lever(
                "multiplier",
                tuple((f"multiplier {x:g}", n, attack_change(system, multiplier=x)) for n, x in enumerate(higher, 1)),
            )
        )
    elements = system.build_choices().get("element", ())
    out.append(
        Lever(
            "element",
            tuple((f"element {e}", 1, attack_change(system, element=e)) for e in elements if e != attack.element),
        )
    )
    magical = attack.kind == "spell"
    kind = "magical" if magical else "physical"
    out += stat_levers(attacker, {f"{kind}_attack": f"{kind} attack", f"{kind}_accuracy": f"{kind} accuracy"})
    return out
