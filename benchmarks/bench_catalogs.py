"""``wb.compare(cr, cr)`` over each bundled catalog (every creature against every creature, attack
rows and best-plan rows, the one fight), and the turn tables of every pair alone. Best of 3 after
a warm-up. Run: .venv/bin/python benchmarks/bench_catalogs.py
"""

from __future__ import annotations

import time
import warnings

import workbench as wb


def best_of(f, n: int = 3) -> float:
    out = []
    for _ in range(n):
        t = time.perf_counter()
        f()
        out.append(time.perf_counter() - t)
    return min(out)


def main() -> None:
    warnings.simplefilter("ignore")  # "left out, not usable here" notes of compare
    for name in wb.systems():
        s = wb.system(name)
        cr = list(s.catalog().creatures.values())
        pairs = [(a, t) for a in cr for t in cr]
        wb.compare(cr[:2], cr[:2], progress=False)
        grid = best_of(lambda: wb.compare(cr, cr, progress=False))
        turns = best_of(lambda: s.turn_tables(pairs))
        print(f"{name} {len(cr)}x{len(cr)}: compare {grid:.3f} s; turn tables of the {len(pairs)} pairs {turns:.3f} s")


if __name__ == "__main__":
    main()
