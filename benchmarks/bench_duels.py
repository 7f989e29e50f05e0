"""Exact vs simulated ``wb.duel`` over each bundled catalog: every ordered pair (a, b), default options.

Per system, in one run: how many duels were exact before duels read the chains over the state (both
directions without state effects: ``state_effects(a, b) | state_effects(b, a)`` empty) and how many
are exact now (also those whose ``RuleSystem.duel_couplings`` is empty and whose stateful directions
have a ``RuleSystem.state_chain``: ``workbench.combat._state_directions``, the choice ``wb.duel``
makes, and coupled ones that the duel over both sides' state derived from the system's round solves: ``workbench.fight.duel.duel_of``), the effects that still force a simulation, and the time of every exact duel (``wb.duel(a, b)``
as a user calls it, first="a", 100 rounds; after one warm-up duel, with the simulation's memo of
tables cleared before each): their total and the slowest.
The simulated duels are not run (100,000 fights each). ``--sample N`` times only N exact pairs per
system, drawn with a seeded generator (the shares are always over all pairs).
Run: .venv/bin/python benchmarks/bench_duels.py [--sample N] [--systems annulus,unbound]
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np

import workbench as wb
from workbench.combat import _state_directions
from workbench.fight.duel import duel_of
from workbench.simulate import state_effects
from workbench.simulate.engine import MEMO


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sample", type=int, default=None, help="time at most this many exact pairs per system")
    parser.add_argument("--systems", default=",".join(wb.systems()), help="comma-separated systems (default: all)")
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    rows = []
    for name in args.systems.split(","):
        s = wb.system(name)
        cr = list(s.catalog().creatures.values())
        pairs = [(a, b) for a in cr for b in cr]
        before = after = 0
        joint = True  # every system's duel over both sides' state is derived from its round (workbench.fight.duel)
        exact_pairs, forcing = [], set()
        for a, b in pairs:
            stateful = state_effects(a, b) | state_effects(b, a)
            if not stateful:
                before += 1
                after += 1
                exact_pairs.append((a, b))
                continue
            _, forced = _state_directions(a, b, None, None, None, None, "damage", 100)
            if forced and joint and duel_of(s, a, b) is not None:  # coupled, but the joint chain fits
                forced = set()
            if forced:
                forcing |= forced
            else:
                after += 1
                exact_pairs.append((a, b))
        timed = exact_pairs
        if args.sample is not None and len(timed) > args.sample:
            pick = np.random.default_rng(0).choice(len(timed), args.sample, replace=False)
            timed = [timed[i] for i in sorted(pick)]
        if timed:
            wb.duel(*timed[0])  # warm-up: tables, imports
        times = []
        for a, b in timed:
            MEMO.clear()  # cold: no table kept from the classification above or the duel before
            t = time.perf_counter()
            r = wb.duel(a, b)
            times.append((time.perf_counter() - t, a.name, b.name))
            assert r.exact and abs(r.p_a_wins + r.p_b_wins + r.p_draw - 1) < 1e-12
        slow = max(times) if times else (0.0, "-", "-")
        total = sum(t for t, _, _ in times)
        print(
            f"{name}: {len(pairs):,} duels; exact before {before:,} ({before / len(pairs):.1%}), "
            f"now {after:,} ({after / len(pairs):.1%}); {len(times):,} exact duels timed in {total:.1f} s, "
            f"slowest {slow[0]:.3f} s ({slow[1]} vs {slow[2]})"
        )
        rows.append((s.title, len(pairs), before, after, slow, ", ".join(sorted(forcing)) or "–"))
    print("\n| system | catalog duels | exact before | exact now | slowest exact duel | state that forces simulation |")
    print("|---|---|---|---|---|---|")
    for title, n, before, after, slow, forcing in rows:
        print(
            f"| {title} | {n:,} | {before:,} ({before / n:.1%}) | {after:,} ({after / n:.1%}) | "
            f"{slow[0]:.3f} s ({slow[1]} vs {slow[2]}) | {forcing} |"
        )


if __name__ == "__main__":
    main()
