"""A repeated identical compare costs at most a tenth of the first (issue 38, item 1): each system's
catalog (or its first creatures) against itself, called twice in one process, CPU seconds of each
call (``time.process_time``), the frames compared for equality.

Run: .venv/bin/python benchmarks/bench_repeat.py
"""

from __future__ import annotations

import time
import warnings

import workbench as wb

#: (system, how many of its catalog creatures)
GRIDS = (("last_odyssey", 12), ("glass_empires", 20), ("annulus", 11), ("unbound", 14))


def main() -> None:
    warnings.simplefilter("ignore")
    print("| system | rows | first call | second call | second / first | same frame |")
    print("|---|---|---|---|---|---|")
    for name, k in GRIDS:
        creatures = list(wb.system(name).catalog().creatures.values())[:k]
        start = time.process_time()
        first = wb.compare(creatures, creatures, confirm=True)
        one = time.process_time() - start
        start = time.process_time()
        second = wb.compare(creatures, creatures, confirm=True)
        two = time.process_time() - start
        print(
            f"| {name} ({k} x {k}) | {first.height:,} | {one:.2f} s | {two:.2f} s | {two / one:.3f} | {first.equals(second)} |"
        )


if __name__ == "__main__":
    main()
