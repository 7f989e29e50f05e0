"""wb.head_to_head (workbench/races.py; issue 18, item 3): who downs the same target first, who
out-damages whom in one turn, and stochastic dominance, from the one fight's rounds to kill."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest

import workbench as wb
from workbench import charts
from workbench.dist import Dist
from workbench.errors import RulesError
from workbench.races import dominance

STEADY = Dist.constant(1)
COIN = Dist.mixture([Dist.constant(0), Dist.constant(2)], [0.5, 0.5])


def test_a_steady_build_against_a_coin_worked_by_hand():
    """Target of 2 HP. A deals 1 every turn: T_A = 2. B deals 0 or 2 (1/2 each): T_B = t with
    probability 2^-t. B first = P(T_B = 1) = 1/2; same round = P(T_B = 2) = 1/4; A first =
    P(T_B > 2) = 1/4. One turn: A's 1 beats B's 0 (1/2) and loses to B's 2 (1/2). Neither
    dominates: B is likelier done by round 1, A surely done by round 2; B can deal more or less."""
    r = wb.head_to_head(STEADY, COIN, hp=2).row(0, named=True)
    assert (r["p_b_first"], r["p_tie"], r["p_a_first"]) == pytest.approx((0.5, 0.25, 0.25), abs=1e-15)
    assert r["p_undecided"] == 0.0 and r["mean_rounds_a"] == pytest.approx(2.0, abs=1e-12)
    assert r["mean_rounds_b"] == pytest.approx(2.0, abs=1e-12)  # geometric(1/2): mean 2
    assert (r["p_a_outdamages"], r["p_equal_turn"], r["p_b_outdamages"]) == pytest.approx((0.5, 0, 0.5), abs=1e-15)
    assert (r["turn_dominance"], r["rounds_dominance"], r["method"], r["se"]) == ("neither", "neither", "exact", None)


def test_a_build_that_is_better_everywhere_dominates():
    """2 damage a turn against 1 (target of 4 HP): T_A = 2 < T_B = 4 surely; X_A > X_B surely."""
    r = wb.head_to_head(Dist.constant(2), STEADY, hp=4).row(0, named=True)
    assert r["p_a_first"] == 1.0 and r["p_a_outdamages"] == 1.0
    assert r["turn_dominance"] == "a" and r["rounds_dominance"] == "a"
    assert wb.head_to_head(STEADY, STEADY, hp=3).row(0, named=True)["rounds_dominance"] == "equal"


def test_dominance_reads_the_curves():
    up, down = np.array([0.1, 0.5, 1.0]), np.array([0.0, 0.4, 1.0])
    assert dominance(up, down, ("x", "y")) == "x" and dominance(down, up, ("x", "y")) == "y"
    assert dominance(np.array([0.2, 0.5]), np.array([0.1, 0.6])) == "neither"
    assert dominance(up, up + 1e-14) == "equal"


def test_creatures_race_through_rounds_to_kill():
    """The race is the formula over the two rounds_to_kill curves (the one fight)."""
    s = wb.system("unbound")
    c = s.catalog()
    guard, ranger, duelist = c.creature("Town guard"), c.creature("Ranger"), c.creature("Veteran duelist")
    r = wb.head_to_head(guard, ranger, duelist, curves=True).row(0, named=True)
    fa = wb.rounds_to_kill(guard, duelist, max_rounds=100)["p_killed_by"].to_numpy()
    fb = wb.rounds_to_kill(ranger, duelist, max_rounds=100)["p_killed_by"].to_numpy()
    n = 100
    fa = np.concatenate((fa, np.full(n - fa.size, fa[-1])))[:n]
    fb = np.concatenate((fb, np.full(n - fb.size, fb[-1])))[:n]
    pa = np.diff(fa, prepend=0.0)
    assert r["p_a_first"] == pytest.approx(float(pa @ (1 - fb)), abs=1e-12)
    assert r["p_killed_by_a"][:5] == pytest.approx(fa[:5].tolist(), abs=1e-15)
    assert r["p_a_first"] + r["p_tie"] + r["p_b_first"] + r["p_undecided"] == pytest.approx(1.0, abs=1e-12)
    # the curves cross in the tail (the guard's heavier tail): neither is faster at every round
    assert r["rounds_dominance"] == "neither"
    spec = charts.race_chart(wb.head_to_head(guard, ranger, duelist, curves=True)).to_dict()
    assert "the curves cross" in spec["title"]["subtitle"]


def test_a_simulated_race_says_so_with_an_error(state_too_large):
    """Last Odyssey's Miasma acts between rounds; with its state too large for the chain
    (``state_too_large``) the Zombie Hulk's fight is simulated, and the race says so."""
    lo = wb.system("last_odyssey").catalog()
    hulk, cop, troll = lo.creature("Zombie Hulk"), lo.creature("Cop"), lo.creature("Troll")
    r = wb.head_to_head(hulk, cop, troll, fights=20_000, progress=False).row(0, named=True)
    assert r["method"] == "simulated" and 0 < r["se"] < 0.02
    assert r["rounds_dominance"] in ("Zombie Hulk", "Cop", "neither", "equal")


def test_races_with_state_are_exact():
    """Races whose fights carry state are exact when it fits the chain: an Annulus race with
    conditions (the chain derived from annulus/round.py) and a Last Odyssey race with Miasma (the chain derived from
    last_odyssey/round.py)."""
    lo = wb.system("last_odyssey").catalog()
    r = wb.head_to_head(lo.creature("Zombie Hulk"), lo.creature("Cop"), lo.creature("Troll")).row(0, named=True)
    assert r["method"] == "exact" and r["se"] is None
    a = wb.system("annulus").catalog()
    r = wb.head_to_head(a.creature("Ogre"), a.creature("Drake"), a.creature("Wolf"), fights=20_000).row(0, named=True)
    assert r["method"] == "exact" and r["se"] is None
    assert r["rounds_dominance"] in ("Ogre", "Drake", "neither", "equal")


def test_a_build_that_never_kills_loses_every_race():
    """Annulus: a defense of 100 stops every Bite (no pool reaches it): that build never kills."""
    a = wb.system("annulus")
    cat = list(a.catalog().creatures.values())
    rat, target = cat[0], cat[1].replace(toughness=100, agility=100, insight=100)
    r = wb.head_to_head(rat, cat[2], target).row(0, named=True)
    assert r["p_a_first"] == 0.0 and math.isinf(r["mean_rounds_a"])


@pytest.mark.parametrize(
    "args, kwargs, field",
    [
        ((STEADY, COIN), {}, "hp"),
        ((STEADY, "x"), {"hp": 3}, "b"),
        ((STEADY, COIN), {"hp": 3, "max_rounds": 0}, "max_rounds"),
    ],
)
def test_bad_races_are_rules_errors(args, kwargs, field):
    with pytest.raises(RulesError) as e:
        wb.head_to_head(*args, **kwargs)
    assert e.value.field == field


def test_the_frame_columns():
    f = wb.head_to_head(STEADY, COIN, hp=2)
    assert isinstance(f, pl.DataFrame) and f.height == 1
    assert f.columns[:4] == ["a", "b", "target", "p_a_first"] and "p_killed_by_a" not in f.columns


def test_the_cheaper_build_and_how_often_it_does_better():
    """Annulus prices builds in Experience (CLARIFICATIONS.md, Annulus: "Each upgrade, and the Damage
    seed itself, costs 1 Experience"). The Rat's one set, Bite (seed + Precise + Choke), costs 3;
    the Giant Centipede has the same Bite and Grave Pulse (seed + Tireless, Dispel, Fatigue, Sap,
    Burst: 6), 9 in all. So the Rat is the cheaper build, and the chance that it does better is its
    own column: p_cheaper_first = p_a_first, p_cheaper_outdamages = p_a_outdamages. Swapped, the
    cheaper one is b. Dists carry no price: all five columns are null."""
    cat = wb.system("annulus").catalog()
    rat, centipede, wolf = cat.creature("Rat"), cat.creature("Giant Centipede"), cat.creature("Wolf")
    r = wb.head_to_head(rat, centipede, wolf, progress=False, fights=20_000).row(0, named=True)
    assert (r["cost_a"], r["cost_b"], r["cheaper"]) == (3, 9, "Rat")
    assert r["p_cheaper_first"] == r["p_a_first"] and r["p_cheaper_outdamages"] == r["p_a_outdamages"]
    s = wb.head_to_head(centipede, rat, wolf, progress=False, fights=20_000).row(0, named=True)
    assert s["cheaper"] == "Rat" and s["p_cheaper_first"] == s["p_b_first"]
    assert s["p_cheaper_outdamages"] == s["p_b_outdamages"]
    same = wb.head_to_head(rat, rat, wolf, progress=False, fights=20_000).row(0, named=True)
    assert same["cost_a"] == same["cost_b"] == 3 and same["cheaper"] is None and same["p_cheaper_first"] is None
    d = wb.head_to_head(STEADY, COIN, hp=2).row(0, named=True)
    assert [d[k] for k in ("cost_a", "cost_b", "cheaper", "p_cheaper_first", "p_cheaper_outdamages")] == [None] * 5


def test_systems_without_a_build_economy_name_no_cheaper_build():
    u = wb.system("unbound").catalog()
    r = wb.head_to_head(u.creature("Town guard"), u.creature("Veteran duelist"), u.creature("Town guard"))
    assert r.row(0, named=True)["cheaper"] is None and r["cost_a"][0] is None


def test_every_chance_of_a_race_stays_within_0_and_1():
    # issue 35: sums of chances may cross 0 or 1 by float noise; every p_ column is clipped, the
    # curves too. Near-certain races (a 1e-9 chance a turn) are where 1 - sums goes negative.
    rare, sure = Dist.mixture([Dist.constant(0), Dist.constant(5)], [1 - 1e-9, 1e-9]), Dist.constant(5)
    for a, b in ((rare, sure), (sure, rare), (Dist.die(6), Dist.die(6) + 1)):
        row = wb.head_to_head(a, b, hp=5, curves=True)
        for name in [c for c in row.columns if c.startswith("p_")]:
            col = row[name].explode() if row.schema[name] == pl.List(pl.Float64) else row[name]
            col = col.drop_nulls()
            assert col.is_empty() or (col.min() >= 0.0 and col.max() <= 1.0), name
