"""explore's candidate filter (top k, build id ties, best per cost), chunking that never changes the
result, and top k against a brute-force ranking.
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

import workbench as wb
from workbench.comparison import compare
from workbench.exploration import _reduce, explore

A = wb.system("annulus")

TOL = 1e-12


def _rows(value, cost=None, maths=None):
    """A chunk's rows: 4 builds x 2 targets, pair-major, as _unit_rows gives them."""
    n = len(value)
    f = pl.DataFrame({"build_id": np.arange(n) // 2, "target_id": np.arange(n) % 2,
                      **{c: np.asarray(value, dtype=float) for c in
                         ("mean_damage", "p_any_damage", "mean_turn_damage", "p_kill_one_turn")}})
    if cost is not None:
        f = f.with_columns(pl.Series("cost", np.repeat(cost, 2), dtype=pl.Int64))
    m = np.arange(n, dtype=np.uint64) if maths is None else np.asarray(maths, dtype=np.uint64)
    return f.with_columns(pl.Series("maths_hi", m, dtype=pl.UInt64), pl.Series("maths_lo", m * 0, dtype=pl.UInt64))


def test_reduce_keeps_top_k_with_build_id_ties_and_best_per_cost():
    value = [1.0, 0.0, 3.0, 0.0, 3.0, 0.0, 2.0, 5.0]  # 4 builds x 2 targets
    rows = _rows(value).filter(~((pl.col("build_id") == 3) & (pl.col("target_id") == 1)))  # unusable
    got, _ = _reduce(rows, "mean_turn_damage", 2, merge=False)
    # target 0: 3, 3 (builds 1, 2); target 1: the zeros of builds 0, 1 (ties: lower build ids)
    assert set(zip(got["build_id"], got["target_id"])) == {(1, 0), (2, 0), (0, 1), (1, 1)}
    got, _ = _reduce(_rows(value, cost=[1, 1, 2, 2]), "mean_turn_damage", 1, merge=False)
    # top 1: build 1 (t0), build 3 (t1); best per (target, cost): cost 1 -> build 1 / build 0, cost 2 -> 2 / 3
    assert set(zip(got["build_id"], got["target_id"])) == {(1, 0), (3, 1), (0, 1), (2, 0)}


def test_reduce_merges_identical_maths_into_the_lowest_build():
    """Builds 1 and 2 have the same maths against target 0 (and different maths against target 1):
    against target 0 only build 1 competes, and it stands for two."""
    value = [1.0, 0.0, 3.0, 0.0, 3.0, 1.0, 2.0, 5.0]
    maths = [0, 1, 2, 3, 2, 5, 6, 7]
    got, classes = _reduce(_rows(value, cost=[1, 2, 3, 3], maths=maths), "mean_turn_damage", 3, merge=True)
    assert set(got.filter(pl.col("target_id") == 0)["build_id"]) == {0, 1, 3}
    assert set(got.filter(pl.col("target_id") == 1)["build_id"]) == {0, 1, 2, 3}  # 0: the best at cost 1
    twin = classes.filter((pl.col("target_id") == 0) & (pl.col("maths_hi") == 2))
    assert twin["same_as"].to_list() == [2] and twin["rep"].to_list() == [1]
    assert classes["same_as"].sum() == 8


@pytest.mark.parametrize("by", ["mean_turn_damage", "p_kill_one_turn"])
def test_explore_chunking_does_not_change_the_result(by):
    targets = _targets(12, 7)
    a = explore("annulus", targets=targets, budget=3, top_k=4, chunk_size=1, by=by, progress=False)
    b = explore("annulus", targets=targets, budget=3, top_k=4, chunk_size=10_000, by=by, progress=False)
    assert a.height == b.height > 0
    for c in a.columns:  # the same rows, ranks and front; values to rounding (dot products of other widths)
        if a[c].dtype == pl.Float64:  # null (se, p_unresolved: no fight) in the same rows
            x, y = a[c].to_numpy(), b[c].to_numpy()
            assert (np.isnan(x) == np.isnan(y)).all(), c
            assert np.abs(x - y)[~np.isnan(x)].max(initial=0.0) < TOL, c
        else:
            assert a[c].to_list() == b[c].to_list(), c


def _targets(n: int, seed: int):
    rng = np.random.default_rng(seed)
    return [A.Creature(f"T{i}", size=int(rng.integers(3, 8)), level=int(rng.integers(1, 6)),
                       endurance=int(rng.integers(0, 40)), agility=int(rng.integers(0, 4)),
                       toughness=int(rng.integers(0, 4)), insight=int(rng.integers(0, 4)),
                       awareness=str(rng.choice(["alert", "suspicious", "clueless"]))) for i in range(n)]


def test_explore_top_k_equals_brute_force_ranking():
    """Every row of every build, computed by compare (the general path), ranked by hand (no merging)."""
    targets = _targets(8, 9)
    got = explore("annulus", targets=targets, budget=3, top_k=3, progress=False, merge=False)
    from workbench.systems.annulus import annulus_builds

    frame, _ = annulus_builds(3, targets)
    full = compare(frame["build"].to_list(), targets, best_plan=False, progress=False, simulate=False)
    for t in targets:
        rows = full.filter(pl.col("target") == t.name)
        vals = np.sort(rows["mean_turn_damage"].to_numpy())[::-1]
        top = got.filter((pl.col("target") == t.name) & (pl.col("rank") <= 3))["mean_turn_damage"].to_numpy()
        assert top.size >= 3
        # the kept values are the 3 best values (ties may keep more rows, never other values)
        assert np.abs(np.sort(top)[::-1][:3] - vals[:3]).max() < 1e-9
