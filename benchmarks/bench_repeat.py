"""A repeated identical compare costs at most a tenth of the first (issue 38, item 1): each system's
catalog (or its first creatures) against itself, called twice in one process, CPU seconds of each
call (``time.process_time``), the frames compared for equality.

Run: .venv/bin/python benchmarks/bench_repeat.py
     .venv/bin/python benchmarks/bench_repeat.py --first   (the first call alone, three times, the
     memo cleared before each: what a change to the first call costs or saves)
     .venv/bin/python benchmarks/bench_repeat.py --ratio   (each whole catalog x catalog, cold: the
     state-aware compare against the same grid with the state ignored, ``simulate=False``; issue 38
     item 1's "within 3x")
"""

from __future__ import annotations

import sys
import time
import warnings

import workbench as wb

#: (system, how many of its catalog creatures)
GRIDS = (("last_odyssey", 12), ("glass_empires", 20), ("annulus", 11), ("unbound", 14))


def first_calls() -> None:
    from workbench.memo import MEMO

    print("| system | rows | first call, memo cleared (three, CPU s) |")
    print("|---|---|---|")
    for name, k in GRIDS:
        creatures = list(wb.system(name).catalog().creatures.values())[:k]
        wb.compare(creatures[:1], creatures[:1], confirm=True)  # imports and first tables
        out = []
        for _ in range(3):
            MEMO.clear()
            start = time.process_time()
            frame = wb.compare(creatures, creatures, confirm=True)
            out.append(time.process_time() - start)
        print(f"| {name} ({k} x {k}) | {frame.height:,} | {', '.join(f'{x:.2f}' for x in out)} |")


def ratios() -> None:
    # the state's solver imports scipy.sparse on first use (0.2-0.4 s): imported here, so that neither
    # timed call pays an import (the warm-up compare of one creature solves no chain)
    import scipy.sparse.csgraph  # noqa: F401
    import scipy.sparse.linalg  # noqa: F401

    from workbench.memo import MEMO

    print("| system | rows | state ignored (cold, CPU s) | with the state (cold, CPU s) | ratio |")
    print("|---|---|---|---|---|")
    for name in ("unbound", "glass_empires", "annulus", "last_odyssey"):
        creatures = list(wb.system(name).catalog().creatures.values())
        wb.compare(creatures[:1], creatures[:1], confirm=True)  # imports and first tables
        MEMO.clear()
        start = time.process_time()
        free = wb.compare(creatures, creatures, confirm=True, simulate=False)
        plain = time.process_time() - start
        MEMO.clear()
        start = time.process_time()
        wb.compare(creatures, creatures, confirm=True)
        fight = time.process_time() - start
        print(f"| {name} ({len(creatures)} x {len(creatures)}) | {free.height:,} | {plain:.2f} | {fight:.2f} | {fight / plain:.1f}x |")


def main() -> None:
    warnings.simplefilter("ignore")
    if "--ratio" in sys.argv[1:]:
        ratios()
        return
    if "--first" in sys.argv[1:]:
        first_calls()
        return
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
