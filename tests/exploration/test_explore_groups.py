"""explore against a group ("3 x Wolf"): every build plays compare's passive group fight
(workbench/group_builds.py; CLARIFICATIONS.md, Encounters) and builds rank by how fast the group
falls."""

from __future__ import annotations

import polars as pl
import pytest

import workbench as wb
from workbench.encounters import Group
from workbench.exploration import explore, explore_work, fighter

U = wb.system("unbound")
DAGGER = U.Attack("Dagger", "1d4")
FIGHTER = U.Creature("Fighter", hp=20, ac=15, touch_ac=11, str_mod=0)
RAT = U.Creature("Rat", hp=1, ac=11, touch_ac=11)


def test_vary_against_two_rats_by_hand() -> None:
    """Two 1-HP rats (AC 11), a Fighter with a Dagger (1d4) and Strength modifier 0 or 5.

    unbound-d20-attacking.txt: a hit is d20 + bonus >= AC; two basic actions per turn, each a Push the
    Attack (CLARIFICATIONS.md, Unbound), the second at the stacking -4. Any hit fells a 1-HP rat.
    - str 0: the first attack hits on 11..20, h1 = 10/20 = 0.5; the second on 15..20, h2 = 6/20 = 0.3.
    - str 5: h1 = 15/20 = 0.75 and h2 = 11/20 = 0.55.
    Each roll strikes the turn's rat while it stands, else the other (CLARIFICATIONS.md, Encounters:
    "the remaining attacks of the action under way go to the next living foe"). From two rats a turn
    fells both with h1 h2 (0.15; 0.4125), one with h1 (1 - h2) + (1 - h1) h2 (0.5; 0.475), none with
    (1 - h1)(1 - h2) (0.35; 0.1125); a turn fells a lone rat with p = 1 - (1 - h1)(1 - h2) (0.65;
    0.8875). P(both in round 1) = h1 h2; P(both by round 2) = h1 h2 + P(one) p + P(none) h1 h2
    (0.5275; 0.88046875); the mean rounds m = (1 + P(one) / p) / (1 - P(none)) (460/169 = 2.7219;
    8720/5041 = 1.7298). Strength 5 ranks first."""
    f = explore(
        "unbound", targets=[Group(RAT, 2)], base=FIGHTER, attack=DAGGER, vary={"str_mod": [0, 5]}, by="p_kill_within_2"
    )
    assert f["str_mod"].to_list() == [5, 0] and f["rank"].to_list() == [1, 2]
    assert (f["target"] == "2 x Rat").all() and (f["target_hp"] == 2).all()
    assert (f["method"] == "exact").all() and f["se"].null_count() == 2
    for (one, two, mean), row in zip(((0.4125, 0.88046875, 8720 / 5041), (0.15, 0.5275, 460 / 169)), f.iter_rows(named=True)):
        assert row["p_kill_one_turn"] == pytest.approx(one, abs=1e-12)
        assert row["p_kill_within_2"] == pytest.approx(two, abs=1e-12)
        assert row["mean_rounds"] == pytest.approx(mean, abs=1e-9)
    # the default ranks by the fewest mean rounds: the same order, no p_kill_within column
    g = explore("unbound", targets=[Group(RAT, 2)], base=FIGHTER, attack=DAGGER, vary={"str_mod": [0, 5]})
    assert g["str_mod"].to_list() == [5, 0] and "p_kill_within_2" not in g.columns


def test_a_budget_search_ranks_by_mean_rounds_and_agrees_with_compare() -> None:
    """An Annulus budget search against "3 x Wolf": each returned row is compare's row of the same
    (build, group) pair (the same fight, seeded alike), ranks follow the fewest mean rounds, and the
    cost front keeps exactly the rows no cheaper or equal-cost build beats."""
    A = wb.system("annulus")
    f = explore("annulus", targets=["3 x Wolf"], budget=2, fights=200, seed=3, top_k=4)
    assert (f["target"] == "3 x Wolf").all() and (f["target_hp"] == 3 * A.catalog().creature("Wolf").hp).all()
    ranked = f.sort("rank")
    means = ranked["mean_rounds"].to_list()
    assert means == sorted(means) and ranked["rank"][0] == 1
    assert (f["method"] == "simulated").all() and (f["se"] > 0).all()
    space = A.build_space(2, [A.catalog().creature("Wolf")], None, A.Options(), A.Situation())
    from workbench.build_levers import annulus_attack

    for row in f.head(3).iter_rows(named=True):
        attack = annulus_attack(A, row["name"])
        pair = (fighter(A, space.attacker, attack), attack)
        ref = wb.compare([pair], ["3 x Wolf"], system="annulus", fights=200, seed=3, best_plan=False).row(0, named=True)
        assert row["mean_rounds"] == pytest.approx(ref["mean_rounds"], abs=1e-12), row["name"]
        assert row["se"] == pytest.approx(ref["se"], abs=1e-12)
    front = f.filter(pl.col("pareto")).sort("cost")
    assert front.height >= 1
    # along the front, each dearer build is strictly faster than every cheaper one on it
    assert front["mean_rounds"].to_list() == sorted(front["mean_rounds"].to_list(), reverse=True)
    assert front["cost"].n_unique() == front.height


def test_a_budget_search_against_a_group_lists_killing_spree() -> None:
    """Killing Spree ("+2 automatic successes on the next use after a kill", CLARIFICATIONS.md, Annulus)
    changes nothing against one creature (the kill ends the fight) unless the situation starts with a
    kill, so the build space for one Wolf merges it into the plain set; against "3 x Wolf" a kill
    leaves two standing (CLARIFICATIONS.md, Encounters: "Killing Spree triggers when the attack kills
    any of them"), so it is a build of its own and, seeded alike, fells the pack faster than the
    plain Damage set of the same seed (by more than 4 standard errors)."""
    A = wb.system("annulus")
    wolf = A.catalog().creature("Wolf")
    one = A.build_space(2, [wolf], None, A.Options(), A.Situation())
    pack = A.build_space(2, [Group(wolf, 3)], None, A.Options(), A.Situation())
    names = lambda space: set(pl.concat(list(space.chunks(10_000)))["name"].to_list())  # noqa: E731
    assert not any("Killing Spree" in n for n in names(one))
    assert {"Agility: Killing Spree", "Insight: Killing Spree", "Toughness: Killing Spree"} <= names(pack)
    assert pack.size == one.size + 3
    f = explore("annulus", targets=["3 x Wolf"], budget=2, fights=400, seed=3, top_k=60)
    row = {r["name"]: r for r in f.iter_rows(named=True)}
    for seed in ("Agility", "Insight", "Toughness"):
        spree, plain = row[f"{seed}: Killing Spree"], row[f"{seed}: Damage"]
        assert plain["mean_rounds"] - spree["mean_rounds"] > 4 * (spree["se"] ** 2 + plain["se"] ** 2) ** 0.5


@pytest.mark.parametrize(
    "kwargs, field",
    [
        ({"targets": [Group(RAT, 2), RAT]}, "targets"),  # groups and creatures: two calls
        ({"targets": [Group(RAT, 2)], "by": "mean_damage"}, "by"),  # one copy's figure
        ({"targets": [RAT], "fights": 100}, "fights"),  # no fight against a creature
        ({"targets": [Group(RAT, 2)], "output": "somewhere"}, "output"),
        ({"targets": [Group(RAT, 2)], "fights": 0}, "fights"),
        ({"targets": [Group(RAT, 0)]}, "targets"),
    ],
)
def test_bad_group_searches_are_refused(kwargs: dict, field: str) -> None:
    with pytest.raises(wb.RulesError) as err:
        explore("unbound", base=FIGHTER, attack=DAGGER, vary={"str_mod": [0, 5]}, **kwargs)
    assert err.value.field == field


def test_group_work_is_counted_before_it_runs() -> None:
    """Each build against a group is counted as builds x copies x fights group row-fights: 2 builds x
    50 rats x 2,001 fights = 200,100, past MAX_GROUP_ROW_FIGHTS (200,000): refused, with the count,
    unless confirmed; explore_work gives the same count."""
    kw = dict(targets=[Group(RAT, 50)], base=FIGHTER, attack=DAGGER, vary={"str_mod": [0, 5]}, fights=2_001)
    with pytest.raises(wb.RulesError, match="200,100 group row-fights") as err:
        explore("unbound", **kw)
    assert err.value.field == "budget"
    works = explore_work("unbound", **kw)
    assert [w.count for w in works if w.unit == "group row-fights"] == [200_100]
    assert wb.work.estimate(explore, "unbound", **kw).decision == "refused"


@pytest.mark.parametrize("bound, answers", [(399, False), (400, True)])
def test_the_group_bound_is_exact(monkeypatch: pytest.MonkeyPatch, bound: int, answers: bool) -> None:
    """2 builds x 2 rats x 100 fights = 400 group row-fights: refused under a bound of 399, answered
    at 400 (the count is compared, never a time)."""
    monkeypatch.setattr("workbench.limits.MAX_GROUP_ROW_FIGHTS", bound)
    kw = dict(targets=[Group(RAT, 2)], base=FIGHTER, attack=DAGGER, vary={"str_mod": [0, 5]}, fights=100)
    if answers:
        assert explore("unbound", **kw).height == 2
    else:
        with pytest.raises(wb.RulesError, match="400 group row-fights, over the 399"):
            explore("unbound", **kw)


def test_builds_the_rules_refuse_are_left_out_and_said_once() -> None:
    """The Town Guard's Harpoon (Range 2) reaches only beyond 10 m and within 20 m
    (CLARIFICATIONS.md, Annulus: Range ranks): at 1 m the build is left out with one warning naming
    the rule; when no build is usable, the RulesError says why."""
    A = wb.system("annulus")
    guard = A.catalog().creature("Town Guard")
    harpoon = next(s for s in guard.attack_sets if s.name == "Harpoon")
    kw = dict(targets=["2 x Rat"], base=guard, attack=harpoon, fights=100)
    with pytest.warns(UserWarning, match=r"left out 1 build\(s\).*beyond 10 m and within 20 m") as caught:
        f = explore("annulus", vary={"situation.distance": [1.0, 15.0]}, **kw)
    assert len([w for w in caught if "left out" in str(w.message)]) == 1
    assert f["situation.distance"].to_list() == [15.0]
    with pytest.raises(wb.RulesError, match="no build is usable.*not at 1 m") as err:
        explore("annulus", vary={"situation.distance": [1.0]}, **kw)
    assert err.value.field == "targets"
