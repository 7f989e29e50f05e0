"""Explore throughput (build-vs-creature rows per second for mean damage and kill chances) and
peak memory of a >= 10-million-row run (2,403 distinct budget-5 builds x 4,200 creatures).
Run: cd benchmarks && ../.venv/bin/python bench_explore.py"""

from __future__ import annotations

import resource
import time

from bench_compare import creatures

from workbench.exploration import explore
from workbench.systems.annulus.builds import annulus_builds


def main() -> None:
    targets = creatures(4200)
    builds, counts = annulus_builds(5, targets)
    rows = builds.height * len(targets)
    t = time.perf_counter()
    f = explore("annulus", targets=targets, budget=5, top_k=10, chunk_size=500, progress=False, confirm=True)
    dt = time.perf_counter() - t
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{counts['legal_sets']:,} legal sets -> {builds.height:,} distinct builds x {len(targets):,} creatures "
          f"= {rows:,} rows in {dt:.1f} s: {rows / dt:,.0f} rows/s (target >= 1,000,000); "
          f"peak RSS {peak:,.0f} MB (target < 2,048 MB); {f.height} rows returned")


if __name__ == "__main__":
    main()
