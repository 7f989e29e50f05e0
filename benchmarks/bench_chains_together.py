#!/usr/bin/env python3
"""Issue 38, item 1: the exact chains over the state of a catalog x catalog grid, solved one fight at a
time and all together (``state_chain.solve_keyed_chains``, 128 fights a batch as compare does), CPU
seconds, with the largest difference between the two. The fights' keys are walked first (not timed):
what is timed is the solver alone.

    .venv/bin/python benchmarks/bench_chains_together.py [--systems glass_empires,annulus] [--size 40]

Run it in a worktree of an older commit as well (``PYTHONPATH=<worktree>``) for that commit's
solver one fight at a time (a tree without ``solve_keyed_chains`` times only that).
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np

import workbench as wb
import workbench.state_chain as sc
from workbench.fight.chain import OPENING, _start, keyed_turns
from workbench.fight.round import between_of, round_steps
from workbench.simulate import can_damage

#: a walk past these keys x HP is left out (the fight's MAX_STATES)
MAX_STATES = 200_000


def walk(rnd) -> tuple | None:
    """Return (start key, hp, the turn of every key reached) of rounds-to-kill's fight of ``rnd``, as
    ``fight.chain`` walks it (here so that an older tree's solver gets the same fights)."""
    start, types, hp = _start(rnd)
    turns: dict = {}
    frontier = [start]
    first = start
    if between_of(rnd) is not None:
        first = (OPENING, *start)
        turns[first] = keyed_turns(rnd, [start], types, steps=("opening", *round_steps(rnd, passive=True)))[0]
        frontier = sorted(set(turns[first].keys))
    while frontier:
        if (len(turns) + len(frontier)) * hp > MAX_STATES:
            return None
        for k, t in zip(frontier, keyed_turns(rnd, frontier, types)):
            turns[k] = t
        frontier = sorted({n for k in frontier for n in turns[k].keys} - turns.keys())
    return first, hp, turns


def walked(system: str, size: int) -> list[tuple]:
    """Return (start, hp, turns) of every catalog pair's chain over the state within the bounds."""
    sys = wb.system(system)
    cat = sys.catalog()
    cs = [cat.creature(n) for n in list(cat.creatures)[:size]]
    out = []
    for a in cs:
        if not sys.attacks_of(a):
            continue
        for t in cs:
            try:
                if not can_damage(a, t):
                    continue
                rnd = sys.fight_round(a, t)
            except wb.RulesError:
                continue
            if rnd is None:
                continue
            got = walk(rnd)
            if got is not None:
                out.append(got)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--systems", default="glass_empires,last_odyssey,annulus")
    ap.add_argument("--size", type=int, default=40)
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    print("| system | fights | one at a time (CPU s) | together (CPU s) | largest difference (by, mean relative) |")
    print("|---|---|---|---|---|")
    for system in args.systems.split(","):
        fights = walked(system, args.size)
        t = time.process_time()
        alone = [sc.solve_keyed_chain(s, hp, d.__getitem__, 100) for s, hp, d in fights]
        t_alone = time.process_time() - t
        together_s, diff = "-", "-"
        if hasattr(sc, "solve_keyed_chains"):
            t = time.process_time()
            together = []
            for i in range(0, len(fights), 128):
                together += sc.solve_keyed_chains(
                    [sc.KeyedChain(s, hp, d.__getitem__, 100) for s, hp, d in fights[i : i + 128]]
                )
            together_s = f"{time.process_time() - t:.2f}"
            by = max(float(np.abs(x.by - y.by).max()) for x, y in zip(alone, together) if x is not None)
            mean = max(
                abs(x.mean - y.mean) / x.mean for x, y in zip(alone, together) if x is not None and np.isfinite(x.mean)
            )
            diff = f"{by:.1e}, {mean:.1e}"
        print(f"| {system} ({args.size} x {args.size}) | {len(fights):,} | {t_alone:.2f} | {together_s} | {diff} |")


if __name__ == "__main__":
    main()
