"""Optimal play over each catalog's fights with state (``wb.optimal_play``: a plan for every state
(key, HP left), workbench.state_chain.solve_keyed_policy), per system, in one run.

For every ordered catalog pair whose fight carries state and whose fixed-plan chain is exact
(``RuleSystem.state_chain`` is not None): whether optimal play over the state is solved, or refused and
why (the system offers no plans over this state, or it is past the solver's bounds), the time of each
call (slowest and total), how many pairs play faster than the damage play (the fixed chain's own plan
choice) and, for those, than the best fixed plan of the same fight (``objective="rounds"``), with the
largest saving. Printed as the Markdown table of docs/combat.md and benchmarks/README.md.
Run: .venv/bin/python benchmarks/bench_optimal.py
"""

from __future__ import annotations

import math
import time
import warnings

import workbench as wb
from workbench.combat import frame_mean
from workbench.fight.chain import state_chain
from workbench.simulate import state_effects


def main() -> None:
    warnings.simplefilter("ignore")
    print(
        "| system | pairs with state, chain exact | solved | refused: no plans over the state | refused: too large "
        "| slowest | total | faster than the damage play | faster than the best fixed plan (largest saving) |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for name in wb.systems():
        s = wb.system(name)
        cr = list(s.catalog().creatures.values())
        n = solved = no_plans = large = gain = gain_fixed = 0
        slowest, total, best = 0.0, 0.0, (0.0, "")
        for a in cr:
            for t in cr:
                if not state_effects(a, t):
                    continue
                got = state_chain(s, a, t)
                if got is None:
                    continue
                n += 1
                start = time.perf_counter()
                try:
                    policy, _ = wb.optimal_play(a, t)
                except wb.RulesError as err:
                    large += err.field == "target"
                    no_plans += err.field == "objective"
                    continue
                took = time.perf_counter() - start
                slowest, total, solved = max(slowest, took), total + took, solved + 1
                damage_play = got.mean
                if math.isfinite(policy.mean) and policy.mean < damage_play * (1 - 1e-9):
                    gain += 1
                    fixed = frame_mean(wb.rounds_to_kill(a, t, objective="rounds"))
                    if policy.mean < fixed * (1 - 1e-9):
                        gain_fixed += 1
                        if fixed - policy.mean > best[0]:
                            best = (fixed - policy.mean, f"{a.name} vs {t.name} {fixed:.3f} → {policy.mean:.3f}")
        largest = f" ({best[1]})" if best[1] else ""
        print(
            f"| {s.title} | {n:,} | {solved:,} | {no_plans:,} | {large:,} | {slowest:.2f} s | {total:.1f} s "
            f"| {gain:,} | {gain_fixed:,}{largest} |"
        )


if __name__ == "__main__":
    main()
