"""The levers a designer of this system changes in a budget search about the build on screen
(``RuleSystem.build_levers``; the search is :func:`workbench.build_levers.search_builds`)."""

from __future__ import annotations

from typing import Any

from ...build_levers import Lever, attack_change, stat_levers, swap

__all__ = ["levers"]


def levers(system: Any, attacker: Any, attack: Any) -> list[Lever]:
    out: list[Lever] = [
        Lever(
            "weapon damage",
            tuple((f"damage {attack.damage + n}", n, attack_change(system, damage=attack.damage + n)) for n in (1, 2)),
        )
    ]
    # Power = HD + Level (characters.mdx): a point of Power is a Level
    out += stat_levers(attacker, {"power": "Power"}, extra={"power": {"level": 1}})
    out += stat_levers(attacker, {"strikes": "Strikes"}, most=1)
    types = system.build_choices().get("damage_type", ())
    out.append(
        Lever(
            "damage type",
            tuple(
                (f"damage type {t}", 1, attack_change(system, damage_type=t)) for t in types if t != attack.damage_type
            ),
        )
    )
    swaps = [a for a in system.catalog().attacks.values() if a.kind == attack.kind and a.name != attack.name]
    if swaps:
        out.append(Lever("weapon", tuple((f"weapon {a.name}", 1, swap(system, a)) for a in swaps)))
    return out
