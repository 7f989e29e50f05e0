#!/usr/bin/env python3
"""Issue 38, items 3-5, before and after in one run: the same calls timed in a git worktree of REF
(default main) and in this tree, each call in a fresh process, wall and CPU seconds.

    .venv/bin/python benchmarks/bench_speed.py [--before REF] [--parts threads,rounds,explore] [--burners 8]

* threads (item 3): compare 50 x 500 HP-only (benchmarks/bench_compare.py's grid, ``simulate=False``),
  compare of the Annulus catalog with itself (the state-aware fight, its memo cleared) and explore
  Last Odyssey budget 1 against its catalog, quiet and beside ``--burners`` CPU-burning
  processes (tests/busy.py), with the time spent in ``chains.by_round_from_steps``. A busy machine
  should cost no more than the lost CPU share: the wall time grows by about (burners + 1) / cores
  and the CPU time of the process stays the same (BLAS threads spinning for each other make both grow).
* rounds (item 4): ``wb.mean_rounds_to_kill`` of the reference turn (benchmarks/reference.py) at 10 to
  100,000 HP against a ``scipy.signal.lfilter`` renewal (best of repeats, the two interleaved), and
  the largest relative difference of the two trees' means.
* explore (item 5): Annulus budget 5 against its catalog, evaluated rows (distinct builds x targets)
  and legal-set rows (legal sets x targets) per second, wall and CPU; each system's budget search
  against its catalog (Annulus budgets 3 and 5, the others budget 1) returns the same frame in both
  trees (``DataFrame.equals``).

Prints markdown tables (benchmarks/README.md records one run).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.busy import busy  # noqa: E402

PRELUDE = r"""
import json, sys, time, warnings
warnings.simplefilter("ignore")
sys.path.insert(0, "benchmarks")
import numpy as np
import workbench as wb
import workbench.chains as chains
spent = [0.0]
real = chains.by_round_from_steps
def timed(*a, **k):
    t = time.perf_counter()
    try:
        return real(*a, **k)
    finally:
        spent[0] += time.perf_counter() - t
chains.by_round_from_steps = timed
def clock(f):
    spent[0] = 0.0
    t, c = time.perf_counter(), time.process_time()
    out = f()
    return out, {"wall": time.perf_counter() - t, "cpu": time.process_time() - c, "by_round_from_steps": spent[0]}
"""

TASKS = {
    "compare 50 x 500 HP-only": r"""
from bench_compare import creatures
from workbench.comparison import compare
from workbench.systems.annulus import annulus_builds
targets = creatures(500)
builds, _ = annulus_builds(4, targets)
rng = np.random.default_rng(2)
attacks = [builds["build"][int(i)] for i in rng.choice(builds.height, 50, replace=False)]
compare(attacks[:2], targets[:5], chain=True, progress=False, simulate=False)
_, m = clock(lambda: compare(attacks, targets, chain=True, progress=False, simulate=False))
""",
    "compare Annulus catalog x catalog (the state-aware fight)": r"""
from workbench.comparison import compare
from workbench.memo import MEMO
cat = wb.system("annulus").catalog(); cs = [cat.creature(n) for n in cat.creatures]
compare(cs[:2], cs[:2], progress=False, confirm=True)
MEMO.clear()
_, m = clock(lambda: compare(cs, cs, progress=False, confirm=True))
""",
    "explore Last Odyssey budget 1": r"""
S = wb.system("last_odyssey"); cat = S.catalog(); tg = [cat.creature(n) for n in cat.creatures]
wb.explore("last_odyssey", targets=tg[:2], budget=0, progress=False, confirm=True)
_, m = clock(lambda: wb.explore("last_odyssey", targets=tg, budget=1, progress=False, confirm=True))
""",
    "explore Annulus budget 5": r"""
S = wb.system("annulus"); cat = S.catalog(); tg = [cat.creature(n) for n in cat.creatures]
wb.explore("annulus", targets=tg[:2], budget=2, progress=False, confirm=True)
f, m = clock(lambda: wb.explore("annulus", targets=tg, budget=5, progress=False, confirm=True))
space = S.build_space(5, tg)
m["rows"] = space.size * len(tg)
m["legal_rows"] = space.counts["legal_sets"] * len(tg)
""",
}

ROUNDS = r"""
import reference as ref
from scipy.signal import lfilter
turn = ref.wb_turn()
x = np.concatenate((np.zeros(turn.offset), turn.pmf))
def renewal(hp):
    p = 1.0 - x[0]
    a = np.zeros(min(x.size, hp)); a[0] = 1.0; a[1:] = -x[1:hp] / p
    d = np.zeros(hp); d[0] = 1.0
    return lfilter([1.0], a, d).sum() / p
def best(f, budget=0.3):
    f(); ts = []; t0 = time.perf_counter()
    while time.perf_counter() - t0 < budget or len(ts) < 5:
        t = time.perf_counter(); f(); ts.append(time.perf_counter() - t)
    return min(ts)
m = {}
for hp in HPS:
    wbt = lft = float("inf")
    for _ in range(3):  # interleaved
        wbt = min(wbt, best(lambda: wb.mean_rounds_to_kill(turn, hp)))
        lft = min(lft, best(lambda: renewal(hp)))
    m[str(hp)] = {"wb": wbt, "lfilter": lft, "mean": wb.mean_rounds_to_kill(turn, hp)}
"""

HPS = [10, 30, 100, 150, 300, 511, 512, 1000, 3000, 10_000, 30_000, 100_000]

#: mean_rounds_to_kill of 60 turns (dice, a mixture, sparse and wide random pmfs) at 77 HP from 1 to 100,000
MEANS = r"""
from workbench import Dist
m = []
for seed in (1, 2, 3):
    rng = np.random.default_rng(seed)
    hps = sorted(set([1, 2, 3, 10, 100, 150, 255, 256, 257, 511, 512, 513, 1000, 1001, 4096, 10_000, 33_333, 100_000]
                     + rng.integers(1, 5000, 60).tolist()))[:77]
    turns = [Dist.dice(2, 6) + 3, 4 @ Dist.mixture([Dist.constant(0), Dist.dice(2, 6) + 3, Dist.dice(4, 6) + 6], [0.3, 0.6, 0.1]),
             Dist.from_mapping({0: 0.999999, 10**6: 1e-6}), Dist.from_mapping({0: 0.5, 300: 0.5}), Dist.die(2), Dist.dice(10, 10)]
    for _ in range(14):
        w = rng.random(int(rng.integers(2, 200)))
        w[rng.random(w.size) < 0.4] = 0; w[0] += rng.random() * 3; w[-1] += 0.1
        turns.append(Dist.from_mapping({i: float(v) for i, v in enumerate(w / w.sum()) if v > 0}))
    m += [wb.mean_rounds_to_kill(t, hps).tolist() for t in turns]
"""

SAME = r"""
import polars as pl
out = {}
for name, budget in (("annulus", 3), ("annulus", 5), ("unbound", 1), ("glass_empires", 1), ("last_odyssey", 1)):
    S = wb.system(name); cat = S.catalog(); tg = [cat.creature(n) for n in cat.creatures]
    f = wb.explore(name, targets=tg, budget=budget, progress=False, confirm=True)
    path = f"{OUT}/{name}_{budget}.parquet"
    f.write_parquet(path)
    out[f"{name} budget {budget}"] = path
m = out
"""


def run(tree: Path, code: str) -> dict:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run(
        [sys.executable, "-c", PRELUDE + code + "\nprint(json.dumps(m))"],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        raise SystemExit(f"{tree}: {done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def load() -> str:
    return " ".join(f"{v:.1f}" for v in os.getloadavg())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--before", default="main")
    ap.add_argument("--parts", default="threads,rounds,explore")
    ap.add_argument("--burners", type=int, default=8)
    ap.add_argument("--work", default="compare 50,compare Annulus,explore", help="the threads part's calls (substrings)")
    args = ap.parse_args()
    parts = set(args.parts.split(","))
    with tempfile.TemporaryDirectory(prefix="wb-before-") as tmp:
        before = Path(tmp) / "tree"
        subprocess.run(["git", "worktree", "add", "-q", "--detach", str(before), args.before], cwd=ROOT, check=True)
        trees = {"before": before, "after": ROOT}
        try:
            print(f"before = {args.before} ({_rev(before)}), after = {_rev(ROOT)}; {os.cpu_count()} CPUs; load {load()}\n")
            if "threads" in parts:
                _threads(trees, args.burners, args.work.split(","))
            if "rounds" in parts:
                _rounds(trees)
            if "explore" in parts:
                _explore(trees, Path(tmp))
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(before)], cwd=ROOT, check=False)


def _rev(tree: Path) -> str:
    return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=tree, capture_output=True, text=True).stdout.strip()


THREADS = (
    "compare 50 x 500 HP-only",
    "compare Annulus catalog x catalog (the state-aware fight)",
    "explore Last Odyssey budget 1",
)


def _threads(trees: dict, burners: int, work: list[str]) -> None:
    share = (burners + 1) / (os.cpu_count() or 1)
    print(f"Item 3: quiet, then beside {burners} burners (the lost CPU share: wall x{share:.1f} at most)\n")
    print("| work | tree | quiet: wall / CPU / in by_round_from_steps | busy: wall / CPU / in by_round_from_steps | busy / quiet wall | busy / quiet CPU |")
    print("|---|---|---|---|---|---|")
    for name in [n for n in THREADS if any(w in n for w in work)]:
        for label, tree in trees.items():
            q = run(tree, TASKS[name])
            lq = load()
            with busy(burners, 900):
                b = run(tree, TASKS[name])
                lb = load()
            print(
                f"| {name} | {label} | {q['wall']:.2f} s / {q['cpu']:.2f} s / {q['by_round_from_steps']:.3f} s (load {lq}) | "
                f"{b['wall']:.2f} s / {b['cpu']:.2f} s / {b['by_round_from_steps']:.3f} s (load {lb}) | "
                f"{b['wall'] / q['wall']:.1f} | {b['cpu'] / q['cpu']:.2f} |",
                flush=True,
            )
    print()


def _rounds(trees: dict) -> None:
    got = {label: run(tree, f"HPS = {HPS!r}\n" + ROUNDS) for label, tree in trees.items()}
    print(f"Item 4: wb.mean_rounds_to_kill of the reference turn vs a scipy.signal.lfilter renewal (best of repeats; load {load()})\n")
    print("| HP | before | after | lfilter | after / lfilter | before / lfilter | after vs before (relative) |")
    print("|---|---|---|---|---|---|---|")
    for hp in HPS:
        b, a = got["before"][str(hp)], got["after"][str(hp)]
        lf = min(b["lfilter"], a["lfilter"])
        rel = abs(a["mean"] - b["mean"]) / b["mean"]
        print(
            f"| {hp:,} | {b['wb'] * 1e6:,.1f} us | {a['wb'] * 1e6:,.1f} us | {lf * 1e6:,.1f} us | "
            f"{a['wb'] / lf:.2f} | {b['wb'] / lf:.2f} | {rel:.1e} |"
        )
    import numpy as np

    b, a = (np.array(run(tree, MEANS)) for tree in trees.values())
    print(f"\nmean_rounds_to_kill of 60 turns at 77 HP each (1 to 100,000), after vs before: {a.size:,} means, "
          f"largest relative difference {float((abs(a - b) / b).max()):.1e}\n")


def _explore(trees: dict, tmp: Path) -> None:
    import polars as pl

    print(f"Item 5: explore Annulus budget 5 against its catalog (load {load()})\n")
    print("| tree | wall | CPU | evaluated rows | rows / s (wall) | rows / s (CPU) | legal-set rows | legal rows / s (wall) |")
    print("|---|---|---|---|---|---|---|---|")
    for label, tree in trees.items():
        m = run(tree, TASKS["explore Annulus budget 5"])
        print(
            f"| {label} | {m['wall']:.2f} s | {m['cpu']:.2f} s | {m['rows']:,} | {m['rows'] / m['wall']:,.0f} | "
            f"{m['rows'] / m['cpu']:,.0f} | {m['legal_rows']:,} | {m['legal_rows'] / m['wall']:,.0f} |",
            flush=True,
        )
    frames = {}
    for label, tree in trees.items():
        out = tmp / label
        out.mkdir()
        frames[label] = run(tree, f"OUT = {str(out)!r}\n" + SAME)
    print("\nSame frames (each system's budget search against its catalog):")
    for key, path in frames["before"].items():
        a, b = pl.read_parquet(path), pl.read_parquet(frames["after"][key])
        print(f"- {key}: {a.height} rows, equal: {a.equals(b)}")
    print()


if __name__ == "__main__":
    main()
