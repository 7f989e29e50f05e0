"""Time 100,000 simulated Annulus duels with conditions (target: < 5 s on 2 cores).

    .venv/bin/python benchmarks/bench_combat.py

Each timed call is a fresh ``wb.duel(..., fights=100_000)``: it builds the outcome tables of the
state classes the fights reach, then plays all fights at once. Prints the seconds per duel (best
and median of 3, after a warm-up duel that loads the modules) and the result.
"""

from __future__ import annotations

import statistics
import time

import workbench as wb

SCENARIOS = [
    ("Ogre", "Berserker"),         # Daze, Knockdown (Prone), Charged vs Burn, Reckless, Terrorize, Berserk, Swansong
    ("Storm Priest", "Basilisk"),  # Telegraphed Blind + Weaken, Pacify + Setup, Sap + Fatigue, recharge vs Petrify Gaze, Choke
    ("Drake", "Hill Giant"),       # Burn, area recharge, Reroll + Critical vs Daze, Knockdown, Devour, Drain, First Blood
]
FIGHTS = 100_000


def main() -> None:
    cat = wb.system("annulus").catalog().creatures
    wb.duel(cat["Wolf"], cat["Rat"], fights=1000, progress=False)  # warm-up: imports
    print(f"{FIGHTS:,} simulated Annulus duels, fresh tables each call (best / median of 3):")
    for a, b in SCENARIOS:
        times = []
        for seed in range(3):
            t0 = time.perf_counter()
            r = wb.duel(cat[a], cat[b], fights=FIGHTS, seed=seed, progress=False)
            times.append(time.perf_counter() - t0)
        print(f"  {a} vs {b}: {min(times):.2f} s / {statistics.median(times):.2f} s -- {r.summary()}")


if __name__ == "__main__":
    main()
