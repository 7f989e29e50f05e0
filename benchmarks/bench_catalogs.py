"""``wb.compare(cr, cr)`` over each bundled catalog (every creature against every creature, attack
rows and best-plan rows), and the turn tables of every pair alone.

Per system, in one run: the state-free chain on every row (``simulate=False``: what compare ran
before it ran rounds_to_kill's fight; best of 3 after a warm-up), the one fight (the default: rows
whose pair carries state simulated, 2,000 fights each; once, ``confirm=True``), and the share of
rows solved exactly (the table of docs/combat.md and benchmarks/README.md, printed as Markdown).
Then, per system, the cost of choosing the best plan by ``objective="rounds"`` over state (each
best-plan row with state fights every legal plan whole, workbench.combat.fight_plan) on the first
8 x 8 creatures, beside the same grid by ``"damage"``, and how many best-plan rows changed plan.
Run: .venv/bin/python benchmarks/bench_catalogs.py
"""

from __future__ import annotations

import time
import warnings

import polars as pl

import workbench as wb
from workbench.memo import MEMO


def best_of(f, n: int = 3) -> float:
    out = []
    for _ in range(n):
        MEMO.clear()  # cold: each run builds its tables and chains, none read back from the last
        t = time.perf_counter()
        f()
        out.append(time.perf_counter() - t)
    return min(out)


def main() -> None:
    warnings.simplefilter("ignore")  # "left out, not usable here" notes of compare
    table = []
    for name in wb.systems():
        s = wb.system(name)
        cr = list(s.catalog().creatures.values())
        pairs = [(a, t) for a in cr for t in cr]
        wb.compare(cr[:2], cr[:2], progress=False, simulate=False)
        free = best_of(lambda: wb.compare(cr, cr, progress=False, simulate=False))
        turns = best_of(lambda: s.turn_tables(pairs))
        t = time.perf_counter()
        grid = wb.compare(cr, cr, progress=False, confirm=True)
        fight = time.perf_counter() - t
        exact = int((grid["method"] == "exact").sum())
        print(
            f"{name} {len(cr)}x{len(cr)}: compare, state-free chain {free:.3f} s; the one fight {fight:.1f} s "
            f"({grid.height - exact:,} of {grid.height:,} rows simulated); "
            f"turn tables of the {len(pairs)} pairs {turns:.3f} s"
        )
        sim = grid.filter(pl.col("method") == "simulated")
        effects = sorted({e for v in sim["forced_by"].to_list() for e in v.split("; ") if e})
        table.append((s.title, grid.height, exact, fight, ", ".join(effects) or "–"))
    print("\n| system | catalog rows | solved exactly | share exact | one-fight compare | state that forces simulation |")
    print("|---|---|---|---|---|---|")
    for title, rows, exact, fight, effects in table:
        print(f"| {title} | {rows:,} | {exact:,} | {exact / rows:.1%} | {fight:.1f} s | {effects} |")
    print("\n| system | 8 x 8 compare, objective damage | objective rounds | best-plan rows | plan changed | mean rounds saved (largest) |")
    print("|---|---|---|---|---|---|")
    for name in wb.systems():
        cr = list(wb.system(name).catalog().creatures.values())[:8]
        t = time.perf_counter()
        dmg = wb.compare(cr, cr, progress=False, confirm=True)
        t_dmg = time.perf_counter() - t
        t = time.perf_counter()
        rnd = wb.compare(cr, cr, progress=False, confirm=True, objective="rounds")
        t_rnd = time.perf_counter() - t
        a, b = (f.filter(pl.col("attack") == "best plan") for f in (dmg, rnd))
        changed = int((a["plan"] != b["plan"]).sum())
        saved = (a["mean_rounds"] - b["mean_rounds"]).max()
        print(
            f"| {wb.system(name).title} | {t_dmg:.2f} s | {t_rnd:.2f} s | {a.height} | {changed} | "
            f"{saved if saved is not None else float('nan'):.3f} |"
        )


if __name__ == "__main__":
    main()
