#!/usr/bin/env python3
"""Every Annulus catalog duel (121) derived from the round (workbench/fight/duel.py): cold, and again
warm (its tables in the memo). CPU seconds of the process (``time.process_time``), the slowest pairs
first, then the sums. (The hand-written chain it replaced, annulus/duel_chain.py, was timed beside it
by this script until 2026-12-05: benchmarks/README.md, "The duel batched over key pairs"; for a
before/after of one commit against another use ``bench_rounds.py --before REF --systems annulus``.)

    .venv/bin/python benchmarks/bench_duel_pairs.py
"""

from __future__ import annotations

import time

import workbench as wb
from workbench.fight.duel import duel_chain


def main() -> None:
    A = wb.system("annulus")
    cat = A.catalog()
    names = list(cat.creatures)
    out = []
    for a_ in names:
        for b_ in names:
            a, b = cat.creature(a_), cat.creature(b_)
            t = time.process_time()
            duel_chain(A.fight_round(a, b), A.fight_round(b, a), "a", 100)
            cold = time.process_time() - t
            t = time.process_time()
            duel_chain(A.fight_round(a, b), A.fight_round(b, a), "a", 100)
            warm = time.process_time() - t
            out.append((cold, warm, a_, b_))
    out.sort(reverse=True)
    print("derived (cold)  derived (warm)  pair")
    for cold, warm, a_, b_ in out[:12]:
        print(f"{cold:14.2f}  {warm:14.2f}  {a_} vs {b_}")
    print(f"{sum(r[0] for r in out):14.2f}  {sum(r[1] for r in out):14.2f}  all {len(out)}")


if __name__ == "__main__":
    main()
