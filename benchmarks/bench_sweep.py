"""Time wb.sweep: 50 builds over 30 values of one target parameter with full rounds to kill.

    .venv/bin/python benchmarks/bench_sweep.py [--repeats 3]

Issue 18's target: <= 1 s. The builds are 50 (creature, attack) pairs of the Unbound catalog
(each row's fight is exact: the chain), the target the Veteran duelist, the parameter its AC over
10..39, and the columns every compare column (damage per use and turn, P(kill in one turn), mean
rounds and the 10/50/90 % quantiles). Beside it, the same numbers by a loop of ``wb.compare``
(one compare per build and value: what a user would write without sweep), as the ratio. Writes
benchmarks/results/sweep.md.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import workbench as wb  # noqa: E402


def builds(n: int = 50) -> list:
    s = wb.system("unbound")
    pairs = [(c, a) for c in s.catalog().creatures.values() for a in s.attacks_of(c)]
    return (pairs * (n // len(pairs) + 1))[:n]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    s = wb.system("unbound")
    target = s.catalog().creature("Veteran duelist")
    b = builds()
    values = list(range(10, 40))
    wb.sweep(b[:2], target, "ac", values[:2], progress=False)  # warm-up: imports
    times = []
    for _ in range(args.repeats):
        MEMO.clear()  # cold: each run builds its tables and chains, none read back from the last
        t = time.perf_counter()
        frame = wb.sweep(b, target, "ac", values, progress=False)
        times.append(time.perf_counter() - t)
    # the loop a user would write: one compare row per (build, value), 3 values timed (then scaled)
    MEMO.clear()
    t = time.perf_counter()
    sample = values[:3]
    for v in sample:
        tv = target.replace(ac=v)
        for pair in b:
            wb.compare([pair], [tv], progress=False)
    loop = (time.perf_counter() - t) * len(values) / len(sample)
    best, med = min(times), statistics.median(times)
    text = "\n".join(
        [
            f"wb.sweep, 50 Unbound builds x 30 AC values ({frame.height} rows), "
            f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores:",
            "",
            "| way | seconds | ratio |",
            "|---|---|---|",
            f"| wb.sweep (best of {args.repeats}; median {med:.2f} s) | {best:.2f} | 1 |",
            f"| loop of wb.compare, one row per (build, value) (3 values timed, x10) | {loop:.2f} | {loop / best:.1f}x |",
            "",
            f"target: <= 1 s ({'met' if best <= 1 else 'not met'})",
        ]
    )
    print(text)
    (HERE / "results").mkdir(exist_ok=True)
    (HERE / "results" / "sweep.md").write_text(text + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
