"""Issue 15, item 5: "No public call on any catalog pair of any system takes over 2 s."

Times ``wb.rounds_to_kill(a, b)`` and ``wb.duel(a, b)`` as a user calls them (defaults: the one
fight, exact where the state fits a chain, else the seeded simulation of 100,000 fights) on every
ordered pair of each bundled catalog, or on ``--sample N`` pairs per system drawn with a seeded
generator; each call cold (the simulation's memo of tables cleared first) after one warm-up call
per system. Prints, per system and call, the pairs timed, how many were exact, the total, the
slowest pair and how many took over 2 s, as a Markdown table.
Run: .venv/bin/python benchmarks/bench_every_call.py [--sample N] [--systems annulus,unbound]
"""

from __future__ import annotations

import argparse
import os
import time
import warnings

import numpy as np

import workbench as wb
from workbench.simulate.engine import MEMO

LIMIT = 2.0


def _calls():
    return {
        "rounds_to_kill": lambda a, b: bool(wb.rounds_to_kill(a, b, progress=False)["exact"][0]),
        "duel": lambda a, b: bool(wb.duel(a, b, progress=False).exact),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sample", type=int, default=0, help="pairs per system (0: all)")
    parser.add_argument("--systems", default="annulus,unbound,last_odyssey,glass_empires")
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    rows = []
    for name in args.systems.split(","):
        s = wb.system(name)
        cs = list(s.catalog().creatures.values())
        pairs = [(a, b) for a in cs for b in cs]
        if args.sample and args.sample < len(pairs):
            pick = np.random.default_rng(15).choice(len(pairs), args.sample, replace=False)
            pairs = [pairs[i] for i in sorted(pick)]
        for call, f in _calls().items():
            try:
                f(*pairs[0])  # warm-up: imports and first-use costs
            except wb.RulesError:
                pass
            times, exact, refused, slow = [], 0, 0, []
            for a, b in pairs:
                MEMO.clear()
                t = time.perf_counter()
                try:
                    exact += f(a, b)
                except wb.RulesError:
                    refused += 1  # e.g. a pair that can never hurt each other: answered at once
                dt = time.perf_counter() - t
                times.append(dt)
                if dt > LIMIT:
                    slow.append(f"{a.name} vs {b.name} {dt:.2f} s")
            i = int(np.argmax(times))
            rows.append(
                f"| {s.title} | {call} | {len(pairs):,} | {exact:,} | {refused:,} | {sum(times):.1f} s | "
                f"{times[i]:.2f} s ({pairs[i][0].name} vs {pairs[i][1].name}) | {len(slow)} |"
            )
            for line in slow[:5]:
                print(f"  over {LIMIT:g} s: {s.title} {call}: {line}")
    load = os.getloadavg()[0]
    print(f"\nEvery call on catalog pairs, load average {load:.1f} on {os.cpu_count()} cores:\n")
    print("| system | call | pairs | exact | refused | total | slowest | over 2 s |")
    print("|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
