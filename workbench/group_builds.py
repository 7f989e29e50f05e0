"""Builds ranked against a group: ``explore(targets=["3 x Wolf"], budget=...)`` (docs/explore.md,
Against a group).

Each build of the search (a budget's build space or a vary's combinations) plays the group fight of
compare's rows against that group (:func:`workbench.compare`, ``workbench.encounters.group_rounds``:
the attack as often as a turn allows, every copy a passive target, an area set striking every copy
in its area, CLARIFICATIONS.md "Encounters"), so an area set is ranked by what it does to a crowd and
not by its damage to one creature. The builds are ranked by how fast the group falls.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import polars as pl

from .comparison import _progress, compare
from .errors import RulesError
from .fight_rows import COMPARE_FIGHTS
from .work import Work

__all__ = ["GROUP_FIGURES", "check_group_by", "group_builds_work", "group_method_line", "rank_against_groups"]

#: what builds are ranked by against a group (besides ``p_kill_within_K``): the mean rounds until
#: every copy has fallen (fewest first), and P(every copy fallen in the first round)
GROUP_FIGURES = ("mean_rounds", "p_kill_one_turn")


def check_group_by(by: Any, objective: Any, k: int | None) -> str:
    """Return the figure builds are ranked by against a group: ``by`` when it is one of
    :data:`GROUP_FIGURES` or ``p_kill_within_K`` (``k`` its K, read by the caller); the objective
    "rounds" (and ``by`` None, the default) rank by ``mean_rounds``, "kill_within_K" by
    ``p_kill_within_K``. The figures of one copy (mean_damage, mean_turn_damage, p_any_damage) are
    a RulesError naming ``by``: against a group they would rank an area set by one creature."""
    if objective is not None:
        from .turns import check_objective

        kk = check_objective(objective)
        if objective == "rounds":
            return "mean_rounds"
        if kk is not None:
            return f"p_kill_within_{kk}"
        by = by or "mean_rounds"
    if by is None:
        return "mean_rounds"
    if by in GROUP_FIGURES or k is not None:
        return str(by)
    raise RulesError(
        f"against a group builds rank by how fast it falls: mean_rounds (the default), p_kill_one_turn or "
        f"p_kill_within_K, not {by!r} (a figure of one copy)",
        field="by",
        rule="CLARIFICATIONS.md: Encounters",
    )


def group_builds_work(builds: int, crowd: list[Any], fights: int, driver: str) -> Work:
    """Return the work of ranking ``builds`` against the groups of ``crowd``, counted before any runs:
    each build against each group is one group fight of ``fights`` fights of every copy (compare's
    group rows, :func:`workbench.comparison.group_work`): builds x copies x fights, against
    MAX_GROUP_ROW_FIGHTS."""
    from .limits import MAX_GROUP_ROW_FIGHTS  # read at the call (tests lower it)

    copies = sum(int(g.copies) for g in crowd)
    return Work(
        "explore",
        builds * copies * fights,
        MAX_GROUP_ROW_FIGHTS,
        "group row-fights",
        f"{builds:,} builds x {copies:,} creatures in {len(crowd)} group{'' if len(crowd) == 1 else 's'} x {fights:,} fights",
        (driver, "targets", "fights"),
        f"give a {'smaller budget' if driver == 'budget' else 'shorter vary'}, smaller groups or fewer "
        "fights=, or confirm=True (workbench explore --yes) to run it",
    )


def rank_against_groups(
    units: Any,
    crowd: list[Any],
    builds: int,
    *,
    by: str,
    k: int | None,
    top_k: int,
    fights: int = COMPARE_FIGHTS,
    seed: int = 0,
    progress: Any = None,
) -> pl.DataFrame:
    """Return the best ``top_k`` builds of ``units`` (explore's chunks: ids, creatures, attacks,
    options, situation, info) against each group of ``crowd``, and, where the builds have a cost,
    every build on the front of ``by`` vs cost (``pareto``). Each row is compare's row of the pair
    (creature, attack) against the group (the same fight, seeded alike: ``fights`` and ``seed``), so
    ``explore`` and ``compare`` agree row for row. Columns: build_id, target_id, target, target_hp
    (the group's), p_kill_one_turn (every copy in the first round), ``p_kill_within_K`` when ``by``
    is one (``k``), mean_rounds (null while fights still stand at the round limit; inf where the
    build never fells a copy), rounds_q50, rank (1 = best per group: the fewest mean rounds, else the
    highest ``by``), pareto, method, se, p_unresolved, forced_by, state_ignored (False: a group
    fight always carries the state), the unit's info columns."""
    bar = _progress(progress, builds * len(crowd), "explore")
    rows: list[dict[str, Any]] = []
    infos = []
    refused: list[RulesError] = []  # the builds the rules refuse here, said once at the end
    try:
        for unit in units:
            infos.append(unit["info"])
            for b, creature, attack in zip(unit["ids"].tolist(), unit["creatures"], unit["attacks"]):
                try:
                    with warnings.catch_warnings(record=True) as caught:
                        warnings.simplefilter("always")
                        got = compare(
                            [(creature, attack)],
                            crowd,
                            options=unit["options"],
                            situation=unit["situation"],
                            best_plan=False,
                            chain=k is not None,
                            fights=fights,
                            seed=seed,
                            confirm=True,  # counted above, by group_builds_work
                            progress=False,
                        )
                except RulesError as err:
                    refused.append(err)  # the rules refuse this build here (as explore leaves it out)
                    continue
                if got.height == 0:  # compare left it out, not usable here (its warning says why)
                    refused.extend(RulesError(str(w.message), field="targets") for w in caught[:1])
                    continue
                for t, row in enumerate(got.iter_rows(named=True)):
                    rows.append(
                        {
                            "build_id": int(b),
                            "target_id": t,
                            "target": row["target"],
                            "target_hp": row["target_hp"],
                            "p_kill_one_turn": row["p_kill_one_turn"],
                            **({f"p_kill_within_{k}": row["p_killed_by"][k - 1]} if k is not None else {}),
                            "mean_rounds": row["mean_rounds"],
                            "rounds_q50": row["rounds_q50"],
                            "method": row["method"],
                            "se": row["se"],
                            "p_unresolved": row["p_unresolved"],
                            "forced_by": row["forced_by"],
                            "state_ignored": False,
                        }
                    )
                if bar is not None:
                    bar.update(len(crowd))
    finally:
        if bar is not None:
            bar.close()
    if not rows:
        why = f": {refused[0].message}" if refused else ""
        raise RulesError(f"no build is usable against these groups in this situation{why}", field="targets")
    if refused:
        warnings.warn(
            f"left out {len(refused):,} build(s) the rules refuse against these groups, e.g. {refused[0].message}",
            stacklevel=3,
        )
    info = pl.concat(infos)
    frame = pl.DataFrame(rows, infer_schema_length=None).join(info, on="build_id")
    # higher is better: the fewest mean rounds first (a fight left standing at the limit, null, and
    # one never won, inf, last)
    if by == "mean_rounds":
        score = pl.when(pl.col("mean_rounds").is_null()).then(-np.inf).otherwise(-pl.col("mean_rounds"))
    else:
        score = pl.col(by)
    frame = frame.with_columns(score.alias("_score"))
    order = (
        ["target_id", "_score", "cost", "build_id"] if "cost" in frame.columns else ["target_id", "_score", "build_id"]
    )
    desc = [False, True] + [False] * (len(order) - 2)
    frame = frame.sort(order, descending=desc)
    best = frame.with_columns(pl.int_range(pl.len()).over("target_id").alias("_at")).filter(pl.col("_at") < top_k)
    if "cost" in frame.columns:
        # the front: scanning costs upward, a build is on it when no cheaper (or equal-cost, earlier)
        # build scores at least as well
        s = frame.sort(["target_id", "cost", "_score", "build_id"], descending=[False, False, True, False])
        prev = pl.col("_score").cum_max().shift(1).over("target_id")
        front = s.filter(prev.is_null() | (pl.col("_score") > prev)).select("build_id", "target_id")
        keep = pl.concat([best.select("build_id", "target_id"), front]).unique()
        out = frame.join(keep, on=["build_id", "target_id"]).join(
            front.with_columns(pl.lit(True).alias("pareto")), on=["build_id", "target_id"], how="left"
        )
        out = out.with_columns(pl.col("pareto").fill_null(False))
    else:
        out = best.drop("_at").with_columns(pl.lit(None, dtype=pl.Boolean).alias("pareto"))
    out = out.with_columns(pl.col("_score").rank("min", descending=True).over("target_id").cast(pl.Int64).alias("rank"))
    return out.sort(["target_id", "rank", "build_id"]).drop("_score")


def group_method_line(frame: pl.DataFrame) -> str:
    """Return how the rows of a group search were computed: how many group fights were exact chains
    and how many simulated (with the effects that forced it)."""
    exact = int((frame["method"] == "exact").sum())
    sim = frame.filter(pl.col("method") == "simulated")
    parts = [f"each build's group fight; {exact:,} exact"] if exact else ["each build's group fight"]
    if sim.height:
        forced = sorted({e for v in sim["forced_by"].to_list() if v for e in v.split("; ")})
        parts.append(
            f"{sim.height:,} simulated (se: the standard error of mean_rounds)"
            + (f", forced by {', '.join(forced)}" if forced else "")
        )
    return ", ".join(parts)
