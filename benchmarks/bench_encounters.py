#!/usr/bin/env python3
"""Encounters of 2 v 2, 4 v 4 and 10 v 10 catalog creatures in every system (``wb.encounter``, issue
39): the default call (exact where the joint state fits, else 100,000 simulated fights), and the same
encounter simulated with 100,000 fights. CPU seconds of the process (``time.process_time``), each
call once, cold (the memo cleared first).

No peer computes a group fight (D&D encounter calculators add XP budgets; AnyDice, icepool and dyce
model one attacker against one target), so there is no side-by-side ratio here: the figures are the
engine's own, for the README's targets and for before/after comparisons.

    .venv/bin/python benchmarks/bench_encounters.py [--systems NAME ...] [--sizes 2 4 10]
"""

from __future__ import annotations

import argparse
import time

import workbench as wb
from workbench.memo import MEMO

#: the two creatures of each side, cycled to the side's size (catalog creatures of middling HP)
SIDES = {
    "glass_empires": (("Wolf", "Boar"), ("Spider Lily", "Moon Rabbit")),
    "unbound": (("Town guard", "Ranger"), ("Veteran duelist", "Crossbow sniper")),
    "last_odyssey": (("Cop", "Ghost"), ("Imp", "Skirmisher")),
    "annulus": (("Wolf", "Town Guard"), ("Cutpurse", "Rat")),
}


def side(system: str, names: tuple[str, str], n: int) -> list:
    cat = wb.system(system).catalog()
    return [cat.creature(names[i % 2]) for i in range(n)]


def timed(call):
    MEMO.clear()
    t = time.process_time()
    got = call()
    return got, time.process_time() - t


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--systems", nargs="+", default=list(SIDES))
    parser.add_argument("--sizes", nargs="+", type=int, default=[2, 4, 10])
    parser.add_argument("--fights", type=int, default=100_000)
    args = parser.parse_args()
    print(f"{'encounter':<48} {'default':>10} {'method':<34} {'simulated':>10}  P(a wins)")
    for system in args.systems:
        a_names, b_names = SIDES[system]
        for n in args.sizes:
            a, b = side(system, a_names, n), side(system, b_names, n)
            default, t_default = timed(lambda: wb.encounter(a, b, fights=args.fights, confirm=True))
            sim, t_sim = timed(lambda: wb.encounter(a, b, simulate=True, fights=args.fights, confirm=True))
            how = f"exact ({default.states:,} keys)" if default.exact else "simulated"
            label = f"{system}: {n} v {n}"
            print(
                f"{label:<48} {t_default:9.2f}s {how:<34} {t_sim:9.2f}s  {default.p_a_wins:.4f} / {sim.p_a_wins:.4f}"
                f" (s.e. {sim.standard_error:.4f})",
                flush=True,
            )


if __name__ == "__main__":
    main()
