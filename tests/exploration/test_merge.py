"""explore merges builds whose dice maths is identical against a target (issue 18 item 4, issue 19
item 1): the cheapest stands for them (``same_as``), merging changes no top-1 value, and what is
merged has bit-identical tables."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

import workbench as wb
from workbench.comparison import neutral_attacker
from workbench.exploration import explore

A = wb.system("annulus")
CAT = A.catalog()
WOLF, GIANT = CAT.creature("Wolf"), CAT.creature("Hill Giant")


def test_two_builds_with_identical_maths_keep_the_cheaper():
    """Against the Wolf (not larger than the neutral attacker), Giant changes no die: "Agility:
    Giant" (2 Experience) has the maths of "Agility: Damage" (1), so only the cheaper is a
    candidate there; against the Hill Giant it strikes better and stays."""
    atk = neutral_attacker(A.Attack("x", "agility"))
    assert WOLF.size <= atk.size < GIANT.size
    plain, giant = A.Attack("p", "agility"), A.Attack("g", "agility", {"Giant": 1})
    assert wb.damage(plain, atk, WOLF).pmf.tolist() == wb.damage(giant, atk, WOLF).pmf.tolist()
    assert wb.damage(plain, atk, GIANT).mean() != wb.damage(giant, atk, GIANT).mean()
    merged = explore("annulus", targets=[WOLF, GIANT], budget=2, top_k=1000, progress=False)
    plain_rows = explore("annulus", targets=[WOLF, GIANT], budget=2, top_k=1000, progress=False, merge=False)
    wolf = merged.filter(pl.col("target") == "Wolf")
    assert "Agility: Giant" not in wolf["name"].to_list()
    assert "Agility: Giant" in merged.filter(pl.col("target") == "Hill Giant")["name"].to_list()
    assert "Agility: Giant" in plain_rows.filter(pl.col("target") == "Wolf")["name"].to_list()
    damage = wolf.filter(pl.col("name") == "Agility: Damage").row(0, named=True)
    assert damage["cost"] == 1 and damage["same_as"] >= 2
    # same_as adds up to every usable row: each unmerged row is stood for exactly once
    assert merged.filter(pl.col("target") == "Wolf")["same_as"].sum() == plain_rows.filter(pl.col("target") == "Wolf").height
    assert (plain_rows["same_as"] == 1).all()


def _targets(n: int, seed: int):
    rng = np.random.default_rng(seed)
    return [A.Creature(f"T{i}", size=int(rng.integers(3, 8)), level=int(rng.integers(1, 6)),
                       endurance=int(rng.integers(0, 40)), agility=int(rng.integers(0, 4)),
                       toughness=int(rng.integers(0, 4)), insight=int(rng.integers(0, 4)),
                       awareness=str(rng.choice(["alert", "suspicious", "clueless"]))) for i in range(n)]


@pytest.mark.parametrize("by", ["mean_turn_damage", "p_kill_one_turn", "mean_damage"])
def test_merging_changes_no_top_1_value(by):
    """The oracle is the unmerged search (every distinct build competes): per target the best value
    is the same, and the front (cost, value) points are the same."""
    targets = _targets(10, 3) + [WOLF, GIANT]
    a = explore("annulus", targets=targets, budget=3, top_k=3, by=by, progress=False)
    b = explore("annulus", targets=targets, budget=3, top_k=3, by=by, progress=False, merge=False)
    for t in targets:
        x, y = a.filter(pl.col("target") == t.name), b.filter(pl.col("target") == t.name)
        assert x[by].max() == y[by].max(), t.name
        fx = sorted(zip(x.filter("pareto")["cost"], x.filter("pareto")[by]))
        fy = sorted(zip(y.filter("pareto")["cost"], y.filter("pareto")[by]))
        assert fx == fy, t.name


def test_merged_rows_repeat_their_representative_numbers(tmp_path):
    """Every row of the written dataset whose maths key equals another's against the same target
    has the same statistics (to the rounding of dot products over chunks padded to other widths,
    as chunking gives: 1e-12), and the result's same_as counts them."""
    targets = [WOLF, GIANT, CAT.creature("Rat")]
    f = explore("annulus", targets=targets, budget=3, top_k=5, progress=False, output=tmp_path / "d")
    rows = pl.read_parquet(tmp_path / "d" / "*.parquet")
    stats = ["mean_damage", "p_any_damage", "mean_turn_damage", "p_kill_one_turn"]
    per_class = rows.group_by("target_id", "maths_hi", "maths_lo").agg(
        pl.len().alias("n"),
        pl.col("build_id").min().alias("rep"),
        *[(pl.col(c).max() - pl.col(c).min()).alias(c) for c in stats],
    )
    assert per_class.select(stats).to_numpy().max() < 1e-12
    assert (per_class["n"] > 1).any()
    got = f.join(rows.select("name", "target", "build_id", "target_id"), on=["name", "target"])
    want = got.join(per_class.select("target_id", "rep", "n"), left_on=["target_id", "build_id"],
                    right_on=["target_id", "rep"])
    assert want.height == f.height  # every returned build is its class's first (cheapest) build
    assert want["same_as"].to_list() == want["n"].to_list()


def test_annulus_maths_keys_agree_with_damage_keys():
    """The build space's keys split the matchups exactly as AnnulusSystem.damage_keys does (the
    ids the comparison engine resolves once), over a chunk mixing every kind of set."""
    targets = _targets(6, 5) + [WOLF, GIANT]
    space = A.build_space(4, targets)
    attacks = space.builds["build"].to_list()[::7]
    hi, lo = space.maths_keys(space.attacker, attacks, targets)
    ids = A.damage_keys([(space.attacker, a) for a in attacks], targets)
    ours = np.unique(np.stack([hi.ravel(), lo.ravel()], axis=1), axis=0, return_inverse=True)[1].ravel()
    theirs = np.unique(ids.ravel(), return_inverse=True)[1].ravel()
    # the same partition: each of our classes is one of theirs and back
    pairs = set(zip(ours.tolist(), theirs.tolist()))
    assert len(pairs) == len(set(ours.tolist())) == len(set(theirs.tolist()))
    assert len(pairs) < ours.size  # the chunk does hold identical matchups


@pytest.mark.parametrize("by", ["mean_turn_damage", "p_kill_one_turn"])
def test_cost_front_of_every_row_is_explores_front(by, tmp_path):
    """The oracle: every usable row (the dataset), the front found by hand (no row of the target
    costs at most as much with strictly more, nor as much for strictly less); cost_front of the
    dataset and explore's pareto rows give the same (cost, value) points."""
    from workbench.exploration import cost_front

    targets = _targets(4, 11)
    f = explore("annulus", targets=targets, budget=3, top_k=2, by=by, progress=False, output=tmp_path / "d")
    rows = pl.read_parquet(tmp_path / "d" / "*.parquet")
    for t in targets:
        r = rows.filter(pl.col("target") == t.name)
        pts = list(zip(r["cost"].to_list(), r[by].to_list()))
        want = {(c, v) for c, v in pts if not any((c2 <= c and v2 > v) or (c2 < c and v2 == v) for c2, v2 in pts)}
        got = cost_front(r, by)
        assert set(zip(got["cost"], got[by])) == want
        mine = f.filter((pl.col("target") == t.name) & pl.col("pareto"))
        assert set(zip(mine["cost"], mine[by])) == want
