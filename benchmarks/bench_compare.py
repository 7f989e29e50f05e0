"""Scale run: 50 Annulus builds x 500 creatures with full rounds-to-kill distributions (README, Performance;
target <= 0.5 s on 2 cores). Run: .venv/bin/python benchmarks/bench_compare.py"""

from __future__ import annotations

import time

import numpy as np

import workbench as wb
from workbench.comparison import compare
from workbench.memo import MEMO
from workbench.systems.annulus import annulus_builds


def creatures(n: int, seed: int = 1):
    A = wb.system("annulus")
    rng = np.random.default_rng(seed)
    return [
        A.Creature(
            f"C{i}",
            size=int(rng.integers(3, 8)),
            level=int(rng.integers(1, 10)),
            endurance=int(rng.integers(2, 30)),
            agility=int(rng.integers(0, 4)),
            toughness=int(rng.integers(0, 4)),
            insight=int(rng.integers(0, 4)),
            awareness=str(rng.choice(["alert", "alert", "suspicious", "clueless"])),
        )
        for i in range(n)
    ]


def main() -> None:
    targets = creatures(500)
    builds, _ = annulus_builds(4, targets)
    rng = np.random.default_rng(2)
    attacks = [builds["build"][int(i)] for i in rng.choice(builds.height, 50, replace=False)]
    compare(attacks[:2], targets[:5], chain=True, progress=False, simulate=False)  # warm-up
    times = []
    for _ in range(3):
        MEMO.clear()  # cold: each run builds its turn tables and chains, none read back from the last
        t = time.perf_counter()
        f = compare(attacks, targets, chain=True, progress=False, simulate=False)
        times.append(time.perf_counter() - t)
    print(
        f"HP-only chain (simulate=False): rows {f.height}, chain columns {len(f['p_killed_by'][0])}, best of 3: "
        f"{min(times):.3f} s (target <= 0.5 s), all: {', '.join(f'{x:.3f}' for x in times)}"
    )
    # the one fight: rows whose pair carries state are chained over it (or simulated where it does not
    # fit); without confirm=True compare counts them x fights before any runs and asks past the bound
    t = time.perf_counter()
    try:
        compare(attacks, targets, chain=True, progress=False)
        print(f"the one fight: {time.perf_counter() - t:.1f} s")
    except wb.RulesError as exc:
        print(f"the one fight: asks after {time.perf_counter() - t:.1f} s: {exc.message}")
    t = time.perf_counter()
    g = compare(attacks, targets, chain=True, progress=False, confirm=True)
    counts = dict(g["method"].value_counts().iter_rows())
    print(f"the one fight, confirm=True: {time.perf_counter() - t:.1f} s, rows by method {counts}")

if __name__ == "__main__":
    main()
