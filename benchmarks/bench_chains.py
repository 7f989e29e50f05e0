"""Rounds to kill at every HP: workbench.chains.kill_chains timed, beside a compiled (numba) kernel.

    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE .venv/bin/python benchmarks/bench_chains.py   # writes benchmarks/results/chains.md

1. The reference turn (4 attacks with advantage, +7 vs AC 16, 19-20 crit 4d6+6, hit
   2d6+3) against 150, 1,000, 10,000 and 100,000 HP: best time and peak traced memory.
2. The compare grid: 50 Annulus builds x 500 creatures (25,000 rows; the turns and HP
   benchmarks/bench_compare.py builds, HP 3-38), and the same turns against HP drawn from 2-1,000;
   at max_rounds=100 (what compare runs) and 10,000 (catalog HP: every row to its 1e-16 tail) or
   1,000 (HP to 1,000: a turn that rarely damages would run all 10,000 rounds, and the (rows, rounds)
   output would be 2 GB).
3. A tight compiled kernel for the same grid (numba, one windowed chain per turn, the renewal
   recurrence for the mean), checked to give the same numbers to 1e-12, timed in the same run.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from workbench.chains import CHAIN_TAIL, kill_chains  # noqa: E402


def best(func, repeats: int = 3) -> float:
    func()
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        func()
        times.append(time.perf_counter() - t)
    return min(times)


def best_pair(f, g, repeats: int) -> tuple[float, float]:
    """Best times of f and g, their repeats alternated (so both see the same load)."""
    f(), g()
    tf, tg = [], []
    for _ in range(repeats):
        for func, times in ((f, tf), (g, tg)):
            t = time.perf_counter()
            func()
            times.append(time.perf_counter() - t)
    return min(tf), min(tg)


def peak_mb(func) -> float:
    tracemalloc.start()
    func()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 2**20


def reference_turn() -> np.ndarray:
    import reference as ref

    t = ref.wb_turn()
    return np.concatenate((np.zeros(t.offset), t.pmf))


def compare_grid():
    """Return (turns, turn_index, hp) of the 50 x 500 compare run, captured from compare itself: the
    turns' total damage against each target's total HP (an HP-only grid of targets)."""
    import bench_compare as bc

    import workbench.chains as chains
    from workbench.systems.annulus import annulus_builds

    saved: dict = {}
    original = chains.kill_stats

    def capture(pmf, turn_index, pools, **kwargs):
        if "turns" not in saved:  # the per-attack rows (the first call)
            saved.update(turns=chains.totals(np.asarray(pmf)), ti=np.asarray(turn_index),
                         hp=np.asarray(pools).reshape(len(turn_index), -1).sum(axis=1))
        return original(pmf, turn_index, pools, **kwargs)

    chains.kill_stats = capture
    try:
        targets = bc.creatures(500)
        builds, _ = annulus_builds(4, targets)
        rng = np.random.default_rng(2)
        attacks = [builds["build"][int(i)] for i in rng.choice(builds.height, 50, replace=False)]
        import workbench.comparison as cmp

        cmp.compare(attacks, targets, chain=True, progress=False, simulate=False)  # the HP-only chains
    finally:
        chains.kill_stats = original
    keep = saved["ti"] >= 0
    return saved["turns"], saved["ti"][keep], saved["hp"][keep]


# ------------------------------------------------------------------ the compiled kernel
def numba_kernel():
    from numba import njit

    @njit(cache=False)
    def chains(X, widths, starts, ph, max_rounds, tail):
        P = ph.size
        cap = 64 if max_rounds > 64 else max_rounds
        killed = np.zeros((P, cap))
        rounds = np.zeros(P, dtype=np.int64)
        alive = np.ones(P)
        mean = np.full(P, np.inf)
        R = 0
        for k in range(starts.size - 1):
            p0, p1 = starts[k], starts[k + 1]
            H = ph[p1 - 1]  # pairs sorted by hp within a turn
            w = min(widths[k], H)
            x = X[k, :w]
            pos = 0.0  # P(damage > 0), damage past H included
            for d in range(1, widths[k]):
                pos += X[k, d]
            if pos <= 0.0:
                for p in range(p0, p1):
                    rounds[p] = 0
                continue
            # renewal mean: U(s) = sum_j y_j U(s - j), y = x / P(damage > 0) without 0
            u = np.zeros(H)
            u[0] = 1.0
            for s in range(1, H):
                acc = 0.0
                for d in range(1, min(s, w - 1) + 1):
                    acc += x[d] * u[s - d]
                u[s] = acc / pos
            c = 0.0
            q = p0
            for s in range(H):
                c += u[s]
                while q < p1 and ph[q] - 1 == s:
                    mean[q] = c / pos
                    q += 1
            # the chain on the window [lo, hi)
            a = np.zeros(H)
            a[0] = 1.0
            lo, hi = 0, 1
            prev = np.ones(p1 - p0)
            first = p0
            for t in range(1, max_rounds + 1):
                nh = min(hi + w - 1, H)
                for s in range(nh - 1, lo - 1, -1):  # in place, from the top
                    acc = 0.0
                    dmin = max(0, s - hi + 1)
                    dmax = min(w - 1, s - lo)
                    for d in range(dmin, dmax + 1):
                        acc += x[d] * a[s - d]
                    a[s] = acc
                hi = nh
                while lo < hi - 1 and a[lo] == 0.0:
                    lo += 1
                if t > cap:
                    grown = np.zeros((P, min(max_rounds, 2 * t)))
                    grown[:, :cap] = killed
                    killed = grown
                    cap = grown.shape[1]
                if t > R:
                    R = t
                c = 0.0
                s = lo
                for q in range(first, p1):
                    while s < min(ph[q], hi):
                        c += a[s]
                        s += 1
                    v = prev[q - p0] - c
                    killed[q, t - 1] = v if v > 0.0 else 0.0
                    prev[q - p0] = c
                while first < p1 and prev[first - p0] < tail:
                    rounds[first] = t
                    alive[first] = prev[first - p0]
                    first += 1
                if first == p1:
                    break
            for q in range(first, p1):
                rounds[q] = max_rounds
                alive[q] = prev[q - p0]
        return killed[:, :R], alive, rounds, mean

    def run(turns, hp, ti, max_rounds):
        key = ti.astype(np.int64) * (int(hp.max()) + 1) + hp
        _, first, inv = np.unique(key, return_index=True, return_inverse=True)
        pt, ph = ti[first], hp[first].astype(np.int64)
        used, starts = np.unique(pt, return_index=True)
        X = np.ascontiguousarray(turns[used])
        widths = np.array([np.flatnonzero(r).max() + 1 if r.any() else 1 for r in X], dtype=np.int64)
        killed, alive, rounds, mean = chains(X, widths, np.append(starts, pt.size).astype(np.int64), ph,
                                             max_rounds, CHAIN_TAIL)
        return killed[inv], alive[inv], rounds[inv], mean[inv]

    return run


def agree(c, k, what: str) -> None:
    """Assert kill_chains and the kernel agree to 1e-12. A row whose alive mass lands within
    rounding of CHAIN_TAIL may stop one round apart in the two (its last kill chance < 1e-15)."""
    killed, alive, rounds, mean = k
    off = np.flatnonzero(c.rounds != rounds)
    assert np.all(np.abs(c.rounds[off] - rounds[off]) == 1), what
    early = np.where(c.rounds[off] < rounds[off], c.alive[off], alive[off])  # the one that stopped first
    assert np.all(np.abs(early - CHAIN_TAIL) < 1e-18), what
    R = max(c.killed.shape[1], killed.shape[1])
    a = np.zeros((killed.shape[0], R))
    b = np.zeros((killed.shape[0], R))
    a[:, : c.killed.shape[1]] = c.killed
    b[:, : killed.shape[1]] = killed
    assert np.max(np.abs(a - b), initial=0.0) <= 1e-12, what
    same = c.rounds == rounds
    assert np.max(np.abs(c.alive[same] - alive[same]), initial=0.0) <= 1e-12, what
    fin = np.isfinite(mean)
    assert np.array_equal(fin, np.isfinite(c.mean)), what
    assert np.max(np.abs(c.mean[fin] - mean[fin]) / np.maximum(1.0, mean[fin]), initial=0.0) <= 1e-12, what


def load() -> str:
    return " ".join(f"{v:.2f}" for v in os.getloadavg())


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=HERE / "results" / "chains.md", help="the tables' file")
    args = parser.parse_args(argv)
    lines = [f"Machine: {platform.machine()}, {platform.processor() or '?'}, Python {platform.python_version()}, "
             f"numpy {np.__version__}; load average (1, 5, 15 min) {load()} at the start", ""]
    x = reference_turn()
    lines += ["| reference turn vs HP | rounds run | mean rounds | time (best) | peak traced memory | load |",
              "|---|---|---|---|---|---|"]
    for hp in (150, 1_000, 10_000, 100_000):
        h = np.array([hp])
        c = kill_chains(x, h)
        t = best(lambda: kill_chains(x, h), 200 if hp < 1_000 else 20 if hp < 100_000 else 3)
        mb = peak_mb(lambda: kill_chains(x, h))
        lines.append(f"| {hp:,} HP | {int(c.rounds[0]):,} | {c.mean[0]:.10g} | {t * 1e3:.3f} ms | {mb:.1f} MB | "
                     f"{os.getloadavg()[0]:.2f} |")
    print("\n".join(lines), flush=True)

    turns, ti, hp = compare_grid()
    hp_big = np.random.default_rng(7).integers(2, 1_001, size=hp.size)
    t0 = time.perf_counter()
    run = numba_kernel()
    run(turns[:3], hp[:3], np.zeros(3, dtype=np.int64), 5)  # compiles
    compile_s = time.perf_counter() - t0
    rows = ["", f"Grid: {hp.size:,} rows, {np.unique(ti).size} distinct turns (numba compile: {compile_s:.2f} s, "
            "not in the times)", "",
            "| grid | max_rounds | rounds run | kill_chains | numba kernel | ratio | load |", "|---|---|---|---|---|---|---|"]
    for label, h in (("catalog HP 3-38", hp), ("HP 2-1,000", hp_big)):
        for mr in ((100, 10_000) if label.startswith("catalog") else (100, 1_000)):
            c = kill_chains(turns, h, ti, max_rounds=mr)
            agree(c, run(turns, h, ti, mr), f"{label}, max_rounds {mr}")
            t = time.perf_counter()
            kill_chains(turns, h, ti, max_rounds=mr)
            repeats = 9 if time.perf_counter() - t < 0.5 else 3
            tw, tn = best_pair(lambda: kill_chains(turns, h, ti, max_rounds=mr), lambda: run(turns, h, ti, mr), repeats)
            rows.append(f"| {label} | {mr:,} | {c.killed.shape[1]:,} | {tw:.3f} s | {tn:.3f} s | {tw / tn:.2f}x | "
                        f"{os.getloadavg()[0]:.2f} |")
            print(rows[-1], flush=True)
    rows.append("")
    rows.append("Agreement: kill_chains and the numba kernel agree to 1e-12 (killed, alive, rounds, mean).")
    rows.append(f"Load average (1, 5, 15 min) at the end: {load()}.")
    print("\n".join(rows))
    args.out.parent.mkdir(exist_ok=True)
    args.out.write_text("\n".join(lines + rows) + "\n")


if __name__ == "__main__":
    main()
