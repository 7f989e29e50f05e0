#!/usr/bin/env python3
"""Annulus encounters whose turns strike many creatures (issue 39): the allies an area set strikes
(``allies_in_area``), exact since the twelfth session, and the counted bound on a turn's outcomes
(``encounter_chain.MAX_TURN_MOVES``) that sends a turn too wide for the chain to the simulation
before it moves any mass. Wall seconds of ``wb.encounter`` as a user calls it (2,000 simulated
fights where it is simulated), one run each after a warm-up, the method and what forced it.

    .venv/bin/python benchmarks/bench_encounter_turns.py
"""

from __future__ import annotations

import time
import warnings

import workbench as wb
from workbench.memo import MEMO

CASES: tuple[tuple, ...] = (
    (("Wolf", "Wolf"), ("Berserker",), 0),
    (("Rat", "Rat"), ("Giant Centipede",), 0),
    (("Rat", "Rat"), ("Giant Centipede", "Giant Centipede"), 0),
    (("Drake", "Wolf"), ("Rat",), 0),
    (("Drake", "Wolf"), ("Rat",), 1),
    (("Drake", "Wolf", "Wolf"), ("Wolf", "Wolf", "Wolf"), 0),
    (("Drake", "Wolf", "Wolf"), ("Wolf", "Wolf", "Wolf"), 2),
    # a turn over three foes: under focus its next foes are ranked by each cell's HP left (played from
    # every cell's full state), under spread by the attacks counted (foe_order.py)
    (("Giant Centipede",), ("Rat", "Rat", "Rat"), 0),
    (("Hill Giant",), ("Rat", "Rat", "Giant Centipede"), 0),
    (("Storm Priest",), ("Rat", "Rat", "Wolf"), 0),
    (("Giant Centipede",), ("Rat", "Rat", "Rat"), 0, "spread"),
    (("Hill Giant",), ("Rat", "Rat", "Giant Centipede"), 0, "spread"),
)


def main() -> None:
    warnings.simplefilter("ignore")
    cat = wb.system("annulus").catalog()
    wb.encounter([cat.creature("Rat")], [cat.creature("Rat")])  # (imports, first tables)
    print("| side a | side b | allies_in_area | targeting | wall s | method | P(a wins) |")
    print("|---|---|---|---|---|---|---|")
    for a, b, allies, *policy in CASES:
        targeting = policy[0] if policy else "focus"
        MEMO.clear()
        start = time.perf_counter()
        got = wb.encounter(
            [cat.creature(n) for n in a],
            [cat.creature(n) for n in b],
            allies_in_area=allies,
            targeting=targeting,
            fights=2_000,
        )
        took = time.perf_counter() - start
        how = "exact" if got.exact else f"simulated ({'; '.join(got.forced_by)})"
        print(f"| {', '.join(a)} | {', '.join(b)} | {allies} | {targeting} | {took:.2f} | {how} | {got.p_a_wins:.6f} |")


if __name__ == "__main__":
    main()
