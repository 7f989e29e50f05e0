"""Best-plan rows of ``wb.compare(cr, cr)`` over each bundled catalog: before (the per-pair
``turn_plans`` loop, RuleSystem's default ``turn_plans_many``) and after (the system's batched
``turn_plans_many``). Best of 3 after a warm-up. Run: .venv/bin/python benchmarks/bench_turn_plans_many.py
"""

from __future__ import annotations

import time
import types
import warnings

import workbench as wb
from workbench import comparison
from workbench.systems.base import RuleSystem


def best_of(f, n: int = 3) -> float:
    out = []
    for _ in range(n):
        t = time.perf_counter()
        f()
        out.append(time.perf_counter() - t)
    return min(out)


def main() -> None:
    warnings.simplefilter("ignore")  # "left out, not usable here" notes of compare
    for name in ("annulus", "unbound", "last_odyssey", "glass_empires"):
        s = wb.system(name)
        cr = list(s.catalog().creatures.values())
        att = comparison._attackers(cr, None, None)
        res = {}
        for mode in ("before", "after"):
            if mode == "before":
                s.turn_plans_many = types.MethodType(RuleSystem.turn_plans_many, s)
            else:
                s.__dict__.pop("turn_plans_many", None)
            wb.compare(cr[:2], cr[:2], progress=False)
            res[mode] = (best_of(lambda: wb.compare(cr, cr, progress=False)),
                         best_of(lambda: comparison._best_rows(s, att, cr, None, None)))
        (cb, bb), (ca, ba) = res["before"], res["after"]
        print(f"{name} {len(cr)}x{len(cr)}: compare {cb:.3f} -> {ca:.3f} s ({cb / ca:.1f}x); "
              f"best-plan rows {bb:.3f} -> {ba:.3f} s ({bb / ba:.1f}x)")


if __name__ == "__main__":
    main()
