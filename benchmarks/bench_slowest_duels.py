#!/usr/bin/env python3
"""The slowest catalog duels (issue 38, item 2: each under 0.5 s on a quiet machine): Last Odyssey's
Ser Tarbh against the Imp and Annulus's Hill Giant mirror. ``wb.duel(a, b)`` as a user calls it, after
one warm-up duel of other creatures (imports and first tables), each time with the memo cleared; CPU
seconds of the process (``time.process_time``), and P(a wins) (the same in every tree).

    .venv/bin/python benchmarks/bench_slowest_duels.py [--repeats 3]

Before/after: run it in a worktree of the commit before (``PYTHONPATH=<worktree>``) and here, one
after the other, alternating.
"""

from __future__ import annotations

import argparse
import time
import warnings

import workbench as wb
from workbench.memo import MEMO

PAIRS = (
    ("last_odyssey", "Ser Tarbh of Greenhill, Form 1: War Leader", "Imp"),
    ("annulus", "Hill Giant", "Hill Giant"),
)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    for system, a_, b_ in PAIRS:
        cat = wb.system(system).catalog()
        names = list(cat.creatures)
        wb.duel(cat.creature(names[0]), cat.creature(names[1]), progress=False)  # (imports, first tables)
        a, b = cat.creature(a_), cat.creature(b_)
        times = []
        for _ in range(args.repeats):
            MEMO.clear()
            start = time.process_time()
            got = wb.duel(a, b, progress=False)
            times.append(time.process_time() - start)
        print(f"{system}: {a_} v {b_}: {', '.join(f'{t:.3f}' for t in times)} s; P(a wins) {got.p_a_wins!r}")


if __name__ == "__main__":
    main()
