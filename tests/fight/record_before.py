"""Record the fight numbers of every catalog pair of the four systems, before "One round per system"
(issue 33) rewrites each system's round: ``tests/fight/before/<system>.parquet``.

    .venv/bin/python -m tests.fight.record_before [SYSTEM ...]   # rewrite the fixture (slow: minutes)

Per (attacker, target) of a system's catalog x catalog:

- ``rounds_to_kill``: the mean rounds, P(killed by round 1, 2, 3), and whether it is exact;
- ``duel`` (a first, at most 100 rounds): P(a wins), P(b wins), P(draw), the mean rounds of a decided
  fight, exact or not;
- ``optimal``: optimal play's mean rounds (``wb.rounds_to_kill(objective="optimal")``), null with the
  refusal's field where it is refused;
- the compare best-plan row (``workbench.comparison.compare``, catalog x catalog): its plan, mean turn
  damage, P(kill in one turn) and mean rounds.

A number the engine could not give (a RulesError) is null and ``<part>_error`` says why. Simulated
numbers are recorded too but only the exact ones are compared to 1e-9 (test_before.py): a rewrite
changes the random stream.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import polars as pl

import workbench as wb
from workbench.comparison import BEST_PLAN, compare
from workbench.errors import RulesError

HERE = Path(__file__).resolve().parent / "before"
SYSTEMS = ("annulus", "unbound", "last_odyssey", "glass_empires")


def _mean(frame: pl.DataFrame) -> float:
    return float(frame["round"].to_numpy() @ frame["p_killed_at"].to_numpy())


def _by(frame: pl.DataFrame, t: int) -> float:
    rows = frame.filter(pl.col("round") <= t)
    return float(rows["p_killed_at"].sum()) if rows.height else 0.0


def record_pair(a, t) -> dict:
    """Return the rounds-to-kill, duel and optimal-play numbers of ``a`` against ``t`` (module docstring)."""
    row: dict = {}
    try:
        f = wb.rounds_to_kill(a, t, confirm=True)
        row.update(rtk_mean=_mean(f), rtk_p1=_by(f, 1), rtk_p2=_by(f, 2), rtk_p3=_by(f, 3),
                   rtk_exact=bool(f["exact"].all()))
    except RulesError as exc:
        row["rtk_error"] = f"{exc.field}: {exc}"
    try:
        d = wb.duel(a, t, confirm=True)
        decided = d.rounds["p_a_wins"] + d.rounds["p_b_wins"]
        row.update(duel_pa=d.p_a_wins, duel_pb=d.p_b_wins, duel_pdraw=d.p_draw,
                   duel_mean_rounds=float((d.rounds["round"] * decided).sum() / max(decided.sum(), 1e-300)),
                   duel_exact=bool(d.exact))
    except RulesError as exc:
        row["duel_error"] = f"{exc.field}: {exc}"
    try:
        row["optimal_mean"] = _mean(wb.rounds_to_kill(a, t, objective="optimal", confirm=True))
    except RulesError as exc:
        row["optimal_error"] = f"{exc.field}: {exc}"
    return row


def record(name: str) -> pl.DataFrame:
    """Return the fixture frame of one system (one row per catalog pair)."""
    system = wb.system(name)
    cat = system.catalog()
    names = list(cat.creatures)
    creatures = [cat.creature(n) for n in names]
    rows = []
    start = time.perf_counter()
    for i, (an, a) in enumerate(zip(names, creatures)):
        for tn, t in zip(names, creatures):
            rows.append({"system": name, "attacker": an, "target": tn, **record_pair(a, t)})
        print(f"{name}: {i + 1}/{len(names)} attackers, {time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)
    frame = pl.DataFrame(rows, infer_schema_length=None)
    return frame.join(best_plan_rows(creatures, creatures), on=["attacker", "target"], how="left")


def best_plan_rows(attackers: list, targets: list) -> pl.DataFrame:
    """Return compare's best-plan row of every (attacker, target): plan, mean turn damage, P(kill in
    one turn), mean rounds and method, as ``best_*`` columns."""
    best = compare(attackers, targets, confirm=True).filter(pl.col("attack") == BEST_PLAN)
    return best.select(
        "attacker",
        "target",
        pl.col("plan").alias("best_plan"),
        pl.col("mean_turn_damage").alias("best_mean_turn_damage"),
        pl.col("p_kill_one_turn").alias("best_p_kill_one_turn"),
        pl.col("mean_rounds").alias("best_mean_rounds"),
        pl.col("method").alias("best_method"),
    ).unique(["attacker", "target"], keep="first", maintain_order=True)
