"""explore(): the count of legal Annulus sets (by hand and by brute force over Attack validation),
deduplication keeps every distinct result, top-k and Pareto on a constructed case, vary mode."""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import polars as pl
import pytest

import workbench as wb
from workbench.comparison import compare, neutral_attacker
from workbench.exploration import explore
from workbench.systems.annulus import annulus_builds
from workbench.systems.annulus.upgrades import UPGRADES

A = wb.system("annulus")
CAT = A.catalog()
TARGETS = [CAT.creature("Rat"), CAT.creature("Wolf"), CAT.creature("Hill Giant")]


def test_budget_2_count_by_hand():
    """annulus-attacks.txt + CLARIFICATIONS: seed (3 choices, 1 Experience) plus at most one upgrade
    (1 each): 1 bare set + 53 upgrades + Counter with 3 types = 57 per seed, 171 in all."""
    _, counts = annulus_builds(2, TARGETS)
    assert counts["legal_sets"] == 3 * (1 + 53 + 3) == 171


def _brute_force_sets(ranks: int) -> list:
    """Every set the Attack model accepts with at most ``ranks`` upgrade ranks (written apart from
    explore: try every multiset of names, let validation decide)."""
    names = [n for n in UPGRADES if n != "Counter"] + ["Counter Agility", "Counter Toughness", "Counter Insight"]
    out = []
    for size in range(ranks + 1):
        for combo in itertools.combinations_with_replacement(names, size):
            ups: dict[str, int] = {}
            for n in combo:
                ups[n] = ups.get(n, 0) + 1
            for seed in ("agility", "toughness", "insight"):
                try:
                    out.append(A.Attack("x", seed, ups))
                except wb.RulesError:
                    pass
    return out


def test_budget_3_count_equals_brute_force():
    sets = _brute_force_sets(2)
    _, counts = annulus_builds(3, TARGETS)
    assert counts["legal_sets"] == len(sets) == 4701


def test_dedup_never_drops_a_distinct_result():
    """Every legal usable set's per-target (mean damage, turn Dist summary) appears among the
    distinct builds, and their set counts add up to the usable sets."""
    builds, counts = annulus_builds(3, TARGETS)
    assert builds["sets"].sum() == counts["legal_sets"] - counts["unusable_sets"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        every = compare(_brute_force_sets(2), TARGETS, best_plan=False, simulate=False)
        distinct = compare(builds["build"].to_list(), TARGETS, best_plan=False, simulate=False)

    def signatures(f):
        f = f.with_columns(pl.col("attacker").alias("key"))
        cols = ["mean_damage", "sd_damage", "mean_turn_damage", "sd_turn_damage", "p_kill_one_turn"]
        out = set()
        for _, g in f.sort("target").group_by("key", maintain_order=True):
            out.add(tuple(np.round(g.select(cols).to_numpy().ravel(), 10)))
        return out

    # compare names bare attacks after the attack, so rename the brute-force sets apart first
    every = every.with_columns(pl.Series("attacker", [str(i // len(TARGETS)) for i in range(every.height)]))
    assert every.height == (counts["legal_sets"] - counts["unusable_sets"]) * len(TARGETS)
    assert signatures(every) <= signatures(distinct)


def test_explore_rows_equal_one_at_a_time():
    f = explore("annulus", targets=TARGETS, budget=3, top_k=4)
    builds, _ = annulus_builds(3, TARGETS)
    by_name = dict(zip(builds["name"], builds["build"]))
    tg = {t.name: t for t in TARGETS}
    for row in f.iter_rows(named=True):
        atk, t = by_name[row["name"]], tg[row["target"]]
        c = neutral_attacker(atk)
        use = wb.damage(atk, c, t)
        assert abs(row["mean_damage"] - use.mean()) < 1e-12
        assert abs(row["p_any_damage"] - use.sf(1)) < 1e-12
        k = compare([atk], [t])["uses_per_turn"][0]
        turn = wb.turn_damage(c, t, plan=[atk] * k)
        assert abs(row["mean_turn_damage"] - turn.mean()) < 1e-12
        assert abs(row["p_kill_one_turn"] - turn.sf(A.hit_points(t))) < 1e-12


def test_top_k_and_pareto_on_a_constructed_case():
    """One target, budget 3, without merging: the top-k are the k highest mean turn damages of all distinct builds,
    and a build is on the front iff no build costs at most as much with strictly more damage (or
    the same damage for strictly less)."""
    target = [CAT.creature("Wolf")]
    builds, _ = annulus_builds(3, target)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        full = compare(builds["build"].to_list(), target, best_plan=False, simulate=False)
    dmg = dict(zip(full["attack"], full["mean_turn_damage"]))
    cost = dict(zip(builds["name"], builds["cost"]))
    f = explore("annulus", targets=target, budget=3, top_k=5, chunk_size=7, merge=False)
    top = f.filter(pl.col("rank") <= 5)
    best5 = sorted(dmg.values(), reverse=True)[:5]
    assert sorted(top["mean_turn_damage"].to_list(), reverse=True)[:5] == pytest.approx(best5, abs=1e-12)
    front_values = {(cost[n], round(dmg[n], 12)) for n in dmg
                    if not any((cost[m] <= cost[n] and dmg[m] > dmg[n] + 1e-12) or
                               (cost[m] < cost[n] and abs(dmg[m] - dmg[n]) <= 1e-12) for m in dmg)}
    got = {(r["cost"], round(r["mean_turn_damage"], 12)) for r in f.filter(pl.col("pareto")).iter_rows(named=True)}
    assert got == front_values
    assert len(front_values) >= 2


def test_vary_mode_unbound_every_combination():
    U = wb.system("unbound")
    base = U.Creature("Fighter", hp=20, ac=15, touch_ac=11, str_mod=2)
    sword, axe = U.Attack("Sword", "1d8"), U.Attack("Axe", "1d12", crit="20x3")
    targets = list(U.catalog().creatures.values())[:3]
    f = explore("unbound", targets=targets, base=base, vary={"attack": [sword, axe], "str_mod": range(0, 3),
                                                             "situation.flanking": [True, False]}, top_k=100)
    assert f.height == 2 * 3 * 2 * 3
    row = f.filter((pl.col("attack") == "Axe") & (pl.col("str_mod") == 1) & pl.col("situation.flanking")).row(0, named=True)
    t = next(x for x in targets if x.name == row["target"])
    c = base.replace(str_mod=1, weapons=[axe])
    use = wb.damage(axe, c, t, situation=U.Situation(flanking=True))
    assert abs(row["mean_damage"] - use.mean()) < 1e-12


@pytest.mark.parametrize("kwargs, field", [
    ({"budget": 0}, "budget"),
    ({"budget": 3, "top_k": 0}, "top_k"),
    ({"budget": 3, "by": "mean_rounds"}, "by"),
    ({}, "budget"),
    ({"vary": {"wings": [1]}, "base": CAT.creature("Wolf")}, "vary"),
])
def test_bad_explore_inputs(kwargs, field):
    with pytest.raises(wb.RulesError) as e:
        explore("annulus", targets=TARGETS, **kwargs)
    assert e.value.field == field


def test_a_budget_of_thousands_of_digits_is_a_rules_error():
    """Found by the long property profile: a budget past 4,300 digits could not be printed in the
    refusal (Python's integer-string limit raised ValueError); the message now gives its size."""
    with pytest.raises(wb.RulesError) as e:
        explore("annulus", targets=["annulus:Rat"], budget=10**5000 + 7, confirm=True, progress=False)
    assert e.value.field == "budget" and "5001-digit number" in str(e.value)


@pytest.mark.parametrize(("name", "budget"), [("annulus", 3), ("unbound", 1), ("glass_empires", 1), ("last_odyssey", 1)])
def test_chunks_sized_by_rows_change_nothing(name, budget, monkeypatch):
    """issue 38, item 5: the default chunks (sized by rows, CHUNK_ROWS) give the frame of the old
    default (32 builds a chunk) and of small chunks, and keeping the chunks' builds for the returned
    rows (KEEP_BUILDS) gives the frame of walking the space again."""
    import workbench.exploration as ex

    sys_ = wb.system(name)
    cat = sys_.catalog()
    targets = [cat.creature(n) for n in list(cat.creatures)[:3]]
    args = dict(targets=targets, budget=budget, top_k=3, progress=False, confirm=True)
    got = explore(name, **args)
    assert got.equals(explore(name, **args, chunk_size=32))
    assert got.equals(explore(name, **args, chunk_size=5))
    monkeypatch.setattr(ex, "KEEP_BUILDS", 0)  # walked again for the returned rows
    assert got.equals(explore(name, **args))
    monkeypatch.setattr(ex, "CHUNK_ROWS", 1)  # at least CHUNK_BUILDS builds a chunk
    assert got.equals(explore(name, **args))
