"""The levers a designer of this system changes in a budget search about the build on screen
(``RuleSystem.build_levers``; the search is :func:`workbench.build_levers.search_builds`)."""

from __future__ import annotations

import re
from typing import Any

from ...build_levers import Lever, attack_change, stat_levers, swap

__all__ = ["levers", "DIE_LADDER"]

#: the die sizes, smallest first (a weapon's damage steps along it: unbound-d20-attacking.txt's
#: weapon table runs 1d4 to 2d10)
DIE_LADDER = ("1d2", "1d3", "1d4", "1d6", "1d8", "1d10", "1d12", "2d6", "2d8", "2d10", "2d12")


def levers(system: Any, attacker: Any, attack: Any) -> list[Lever]:
    out: list[Lever] = []
    if attack.damage in DIE_LADDER:
        i = DIE_LADDER.index(attack.damage)
        alts = [
            (f"damage {DIE_LADDER[i + n]}", n, attack_change(system, damage=DIE_LADDER[i + n]))
            for n in (1, 2)
            if i + n < len(DIE_LADDER)
        ]
        out.append(Lever("damage dice", tuple(alts)))
    m = re.fullmatch(r"(?:(\d+)-)?20x(\d+)", str(attack.crit))
    if m:
        low, mult = int(m.group(1) or 20), int(m.group(2))

        def crit(lo: int, mu: int) -> str:
            return f"{lo}-20x{mu}" if lo < 20 else f"20x{mu}"

        alts = []
        for widen, more in ((1, 0), (2, 0), (0, 1), (1, 1)):
            if low - widen >= 15:
                text = crit(low - widen, mult + more)
                alts.append((f"crit {text}", widen + more, attack_change(system, crit=text)))
        out.append(Lever("critical range", tuple(alts)))
    stat = "dex_mod" if attack.kind in ("ranged",) else ("magic_mod" if attack.kind == "spell" else "str_mod")
    names = {"str_mod": "Strength", "dex_mod": "Dexterity", "magic_mod": "magic"}
    out += stat_levers(attacker, {stat: names[stat]})
    # another weapon of the same kind, natural or not as the one on screen; not a shield, nor a stat
    # block's weapon with its own fixed attack bonus (the catalog's "Reference greatsword", +7 always)
    swaps = [
        a
        for a in system.catalog().attacks.values()
        if a.kind == attack.kind
        and a.natural == attack.natural  # a sword for a sword, a bite for a bite
        and not a.shield
        and a.attack_bonus is None
        and a.name != attack.name
    ]
    if swaps:
        out.append(Lever("weapon", tuple((f"weapon {a.name}", 1, swap(system, a)) for a in swaps)))
    return out
