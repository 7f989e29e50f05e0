"""Time Annulus duels with conditions, exact and simulated, side by side in one run.

    .venv/bin/python benchmarks/bench_combat.py

Per duel: ``wb.duel(a, b)`` as a user calls it (exact: the chain over both sides' state,
derived from ``annulus/round.py`` by ``workbench/fight/duel.py``) and ``wb.duel(a, b, simulate=True, fights=100_000)`` (the seeded
simulation; target < 5 s on 2 cores), each with the simulation's memo of tables cleared first so
that both build their outcome tables and plan choices from scratch; best and median of 3, after a
warm-up duel that loads the modules. Prints the seconds and P(a wins) of both (the simulated one
with its standard error).
"""

from __future__ import annotations

import statistics
import time

import workbench as wb
from workbench.simulate.engine import MEMO

SCENARIOS = [
    ("Ogre", "Berserker"),  # Daze, Knockdown (Prone), Charged vs Burn, Reckless, Terrorize, Berserk, Swansong
    (
        "Storm Priest",
        "Basilisk",
    ),  # Telegraphed Blind + Weaken, Pacify + Setup, Sap + Fatigue, recharge vs Petrify Gaze, Choke
    ("Drake", "Hill Giant"),  # Burn, area recharge, Reroll + Critical vs Daze, Knockdown, Devour, Drain, First Blood
]
FIGHTS = 100_000


def _timed(call):
    times, result = [], None
    for seed in range(3):
        MEMO.clear()
        t0 = time.perf_counter()
        result = call(seed)
        times.append(time.perf_counter() - t0)
    return min(times), statistics.median(times), result


def main() -> None:
    cat = wb.system("annulus").catalog().creatures
    wb.duel(cat["Wolf"], cat["Rat"], fights=1000, progress=False)  # warm-up: imports
    print("Annulus duels, fresh tables each call (best / median of 3):")
    print("| duel | exact | simulated (100,000 fights) | P(a wins): exact / simulated ± s.e. |")
    print("|---|---|---|---|")
    for a, b in SCENARIOS:
        x, y = cat[a], cat[b]
        ex = _timed(lambda seed, x=x, y=y: wb.duel(x, y, progress=False))
        sim = _timed(lambda seed, x=x, y=y: wb.duel(x, y, simulate=True, fights=FIGHTS, seed=seed, progress=False))
        assert ex[2].exact and not sim[2].exact
        print(
            f"| {a} vs {b} | {ex[0]:.2f} s / {ex[1]:.2f} s | {sim[0]:.2f} s / {sim[1]:.2f} s | "
            f"{ex[2].p_a_wins:.5f} / {sim[2].p_a_wins:.5f} ± {sim[2].standard_error:.5f} |"
        )


if __name__ == "__main__":
    main()
