"""Calibration of the counted work bounds (issue 34; docs/limits.md, Bounded work): seconds per unit
of each count the calls check, measured on this machine, and the bound that ~10 s buys here.

    .venv/bin/python benchmarks/bench_work.py          # every job, best of 3 each

Each job runs a call whose count ``workbench.work.estimate`` gives without running it; the rate is
the best of three runs over that count (the load and the core count are printed: a loaded machine
is slower, and the bounds are set from a quiet one). No test reads these numbers: the bounds in
workbench/limits.py are fixed, and the same on every machine.
"""

from __future__ import annotations

import os
import time
import warnings
from collections.abc import Callable

import workbench as wb
from workbench.memo import MEMO
from workbench.work import estimate

REFERENCE_SECONDS = 10.0


def best(f: Callable[[], object], n: int = 3) -> float:
    times = []
    for _ in range(n):
        MEMO.clear()  # cold: a call's tables are built, not found in the memo of the runs before
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)


def count(call: str, unit: str, *args, **kwargs) -> int:
    return next(w.count for w in estimate(call, *args, **kwargs).works if w.unit == unit)


def report(job: str, units: int, unit: str, seconds: float, bound_name: str) -> None:
    rate = seconds / units
    print(
        f"{job:<58} {units:>12,} {unit:<22} {seconds:7.3f} s  {rate:9.2e} s/unit  "
        f"10 s = {REFERENCE_SECONDS / rate:>14,.0f}  ({bound_name})"
    )


def main() -> None:
    warnings.simplefilter("ignore")  # "left out, not usable here" of catalog attacks out of reach
    print(f"cores {os.cpu_count()}, load {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}")
    # compare: distinct matchups of every system's catalog, the state ignored (matchup units)
    for name in ("annulus", "unbound", "last_odyssey", "glass_empires"):
        cr = list(wb.system(name).catalog().creatures.values())[:14]
        units = count("compare", "matchup units", cr, cr, simulate=False)
        s = best(lambda cr=cr: wb.compare(cr, cr, simulate=False, progress=False))
        report(f"compare {name} {len(cr)} x {len(cr)}, state ignored", units, "matchup units", s, "MAX_MATCHUPS")
    # compare: rows whose fight carries state (row-fights: rows x 2,000 fights), chained or simulated
    for name in ("annulus", "last_odyssey", "glass_empires"):
        cr = list(wb.system(name).catalog().creatures.values())[:8]
        units = count("compare", "row-fights", cr, cr)
        base = best(lambda cr=cr: wb.compare(cr, cr, simulate=False, progress=False), 1)
        s = best(lambda cr=cr: wb.compare(cr, cr, progress=False), 1) - base  # cold, both
        report(f"compare {name} {len(cr)} x {len(cr)}, the rows with state", units, "row-fights", s, "MAX_STATE_ROW_FIGHTS")
    # a simulated duel: simulated fights, and the fight-rounds they play
    A = wb.system("annulus")
    ogre, drake = A.catalog().creature("Ogre"), A.catalog().creature("Drake")
    s = best(lambda: wb.duel(ogre, drake, simulate=True, fights=100_000, progress=False))
    report("duel Ogre vs Drake simulated, 100,000 fights", 100_000, "simulated fights", s, "MAX_SIM_FIGHTS")
    L = wb.system("last_odyssey").catalog().creatures
    imp, ser = L["Imp"], L["Ser Tarbh of Greenhill, Form 1: War Leader"]
    s = best(lambda: wb.duel(imp, ser, simulate=True, fights=100_000, progress=False))
    report("duel Imp vs Ser Tarbh simulated, 100,000 fights", 100_000, "simulated fights", s, "MAX_SIM_FIGHTS")
    U = wb.system("unbound")
    g, d = U.catalog().creature("Town guard"), U.catalog().creature("Veteran duelist")
    frame = wb.rounds_to_kill(g, d, simulate=True, fights=20_000, progress=False)
    at = frame["p_killed_at"].to_numpy()
    played = int(round(20_000 * float((at * frame["round"].to_numpy()).sum())))  # fights x mean rounds
    s = best(lambda: wb.rounds_to_kill(g, d, simulate=True, fights=20_000, progress=False))
    report("rounds_to_kill Town guard on Veteran duelist, simulated", played, "fight-rounds", s, "MAX_FIGHT_ROUNDS")
    # explore: the walk (combinations) and the rows (builds x targets)
    wolf = [A.catalog().creature("Wolf")]
    units = count("explore", "upgrade combinations", "annulus", targets=wolf, budget=6)
    s = best(lambda: A.build_space(6, wolf, None, None, None), 1)
    report("explore annulus budget 6: the walk", units, "upgrade combinations", s, "MAX_COMBINATIONS")
    targets = list(A.catalog().creatures.values())[:3]
    rows = count("explore", "rows", "annulus", targets=targets, budget=5)
    walk = best(lambda: A.build_space(5, targets, None, None, None), 1)
    s = best(lambda: wb.explore("annulus", targets=targets, budget=5, progress=False, say=False), 1) - walk
    report("explore annulus budget 5 x 3 targets: the rows", rows, "rows", s, "MAX_EXPLORE_ROWS")
    groups(A)


def groups(A) -> None:
    """Against a group: compare's rows and explore's builds, group row-fights (rows x copies x fights)."""
    ogre = A.catalog().creature("Ogre")
    units = count("compare", "group row-fights", [ogre], ["3 x Wolf"], system="annulus")
    s = best(lambda: wb.compare([ogre], ["3 x Wolf"], system="annulus", progress=False), 1)
    report("compare annulus Ogre vs 3 x Wolf", units, "group row-fights", s, "MAX_STATE_ROW_FIGHTS")
    units = count("explore", "group row-fights", "annulus", targets=["3 x Wolf"], budget=2, fights=500)
    s = best(lambda: wb.explore("annulus", targets=["3 x Wolf"], budget=2, fights=500, progress=False), 1)
    report("explore annulus budget 2 vs 3 x Wolf, 500 fights", units, "group row-fights", s, "MAX_STATE_ROW_FIGHTS")


if __name__ == "__main__":
    main()
