"""Explore throughput and peak memory (issue 19): one process, a 2-worker Dask LocalCluster, and a
resumed run, each in a fresh process so that its peak resident set (ru_maxrss) is its own.

    cd benchmarks && ../.venv/bin/python bench_explore.py                     # all modes, budget 6, the catalog
    cd benchmarks && ../.venv/bin/python bench_explore.py one 6               # one mode: one | dask | resume | wide
    cd benchmarks && ../.venv/bin/python bench_explore.py one 6 Wolf Ogre     # a subset of the catalog

Rows are counted two ways: evaluated rows (distinct builds x targets, what explore computes) and
legal-set rows (every legal set x targets, what the build space stands for: issue 19 counts
these, "budget 6 is over 400 M build-creature rows" against 40 creatures).
"""

from __future__ import annotations

import json
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import polars as pl

import workbench as wb
import workbench.exploration as ex

A = wb.system("annulus")


def _targets(names: list[str]):
    cat = A.catalog()
    return [cat.creature(n) for n in names] if names else list(cat.creatures.values())


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _line(mode: str, budget: int, targets: list, f: pl.DataFrame, seconds: float, extra: dict) -> dict:
    n = len(targets)
    space = A.build_space(budget, targets)
    rows = space.size * n
    legal = space.counts["legal_sets"] * n
    out = {
        "mode": mode,
        "budget": budget,
        "targets": n,
        "distinct_builds": space.size,
        "legal_sets": space.counts["legal_sets"],
        "rows": rows,
        "legal_rows": legal,
        "seconds": round(seconds, 2),
        "rows_per_s": round(rows / seconds),
        "legal_rows_per_s": round(legal / seconds),
        "peak_rss_mb": round(_peak_mb()),
        "returned": f.height,
        **extra,
    }
    print(json.dumps(out), flush=True)
    return out


def one(budget: int, names: list[str]) -> dict:
    targets = _targets(names)
    t = time.perf_counter()
    f = ex.explore("annulus", targets=targets, budget=budget, progress=False, confirm=True)
    return _line("one process", budget, targets, f, time.perf_counter() - t, {})


def dask(budget: int, names: list[str]) -> dict:
    from dask.distributed import Client, LocalCluster

    targets = _targets(names)
    t = time.perf_counter()
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0")
    client = Client(cluster)
    start = time.perf_counter() - t
    t1 = time.perf_counter()
    f = ex.explore("annulus", targets=targets, budget=budget, progress=False, confirm=True, executor=client)
    run = time.perf_counter() - t1
    workers = client.run(lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    client.close()
    cluster.close()
    t2 = time.perf_counter()
    g = ex.explore("annulus", targets=targets, budget=budget, progress=False, confirm=True)
    single = time.perf_counter() - t2
    return _line(
        "2-worker LocalCluster",
        budget,
        targets,
        f,
        run,
        {
            "cluster_start_s": round(start, 2),
            "same_process_s": round(single, 2),
            "overhead_s": round(run - single, 2),
            "worker_peak_rss_mb": [round(v) for v in workers.values()],
            "equal_row_for_row": f.equals(g),
        },
    )


def resume(budget: int, names: list[str]) -> dict:
    targets = _targets(names)
    args = dict(targets=targets, budget=budget, progress=False, confirm=True)
    root = Path(tempfile.mkdtemp(prefix="bench-explore-"))
    try:
        t = time.perf_counter()
        whole = ex.explore("annulus", **args, output=root / "whole")
        t_whole = time.perf_counter() - t
        n = len(list((root / "whole").glob("part-*.parquet")))
        real, calls = ex._run_unit, []

        def stopped(*a, **k):  # Ctrl-C half way
            if len(calls) == n // 2:
                raise KeyboardInterrupt
            calls.append(1)
            return real(*a, **k)

        ex._run_unit = stopped
        t = time.perf_counter()
        try:
            ex.explore("annulus", **args, output=root / "cut")
        except KeyboardInterrupt:
            pass
        t_cut = time.perf_counter() - t
        ex._run_unit = real
        t = time.perf_counter()
        resumed = ex.explore("annulus", **args, output=root / "cut", resume=True)
        t_resume = time.perf_counter() - t
        names_w = sorted(p.name for p in (root / "whole").glob("part-*.parquet"))
        same = names_w == sorted(p.name for p in (root / "cut").glob("part-*.parquet"))
        differ = []  # (part, column, rows) where the two datasets differ
        for p in names_w:
            x, y = pl.read_parquet(root / "whole" / p), pl.read_parquet(root / "cut" / p)
            if not x.equals(y):
                same = False
                for c in x.columns:
                    if not x[c].equals(y[c]):
                        m = x[c] != y[c]
                        differ.append((p, c, int(m.sum()), x.filter(m)[c].to_list()[:2], y.filter(m)[c].to_list()[:2]))
        rows_written = pl.scan_parquet(root / "whole" / "*.parquet").select(pl.len()).collect().item()
        size = sum(p.stat().st_size for p in (root / "whole").glob("part-*.parquet"))
        return _line(
            "resume",
            budget,
            targets,
            resumed,
            t_whole,
            {
                "chunks": n,
                "stopped_after_chunks": n // 2,
                "interrupted_s": round(t_cut, 2),
                "resumed_s": round(t_resume, 2),
                "rows_written": rows_written,
                "dataset_mb": round(size / 1e6, 1),
                "same_dataset": same,
                "differences": differ[:10],
                "same_result": resumed.equals(whole),
            },
        )
    finally:
        shutil.rmtree(root, ignore_errors=True)


def wide(budget: int, names: list[str]) -> dict:
    """The earlier benchmark: budget 5 x 4,200 random creatures (bench_compare.creatures)."""
    from bench_compare import creatures

    targets = creatures(4200)
    t = time.perf_counter()
    f = ex.explore("annulus", targets=targets, budget=budget, progress=False, confirm=True)
    return _line("wide (4,200 random creatures)", budget, targets, f, time.perf_counter() - t, {})


MODES = {"one": one, "dask": dask, "resume": resume, "wide": wide}


def main() -> None:
    argv = sys.argv[1:]
    if argv and argv[0] in MODES:
        mode, budget, names = argv[0], int(argv[1]) if len(argv) > 1 else 6, argv[2:]
        MODES[mode](budget, names)
        return
    budget = int(argv[0]) if argv else 6
    for mode in ("one", "dask", "resume"):  # each in its own process: its own peak memory
        subprocess.run([sys.executable, __file__, mode, str(budget), *argv[1:]], check=True)


if __name__ == "__main__":
    main()
