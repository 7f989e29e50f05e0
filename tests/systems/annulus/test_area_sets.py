"""Annulus area sets (Arc, Burst, Line): per-target damage, recharge, and an area set alone as a turn
(annulus-attacks.txt; CLARIFICATIONS.md, Annulus).

Baseline: 4 dice succeeding on 4+ (p = 1/2): P(k successes) = 1, 4, 6, 4, 1 out of 16.
"""

from __future__ import annotations

import polars as pl
import pytest

import workbench as wb
from tests.systems.annulus.builders import ME, THEM, A, atk, mk
from workbench import RulesError


@pytest.mark.parametrize("area,reach", [("Arc", 1), ("Burst", 1), ("Line", 2)])
def test_area_per_target_and_recharge(area, reach):
    """Areas: steps 2-5 once per creature in the area, each its own roll (CLARIFICATIONS); recharge on
    5-6 on a d6 = 1/3 (annulus-attacks.txt: "If the result is a 5 or a 6, the set is recharged")."""
    a = A.Attack("A", "agility", [area, "Burn"])
    targets = [mk(ag=0), mk(ag=1, awareness="clueless"), mk(size=8)]
    t = A.area_outcome_tables(a, ME, targets, situation=A.Situation(distance=reach))
    for i, tg in enumerate(targets):
        one = A.outcomes(a, ME, tg, situation=A.Situation(distance=reach))
        part = t.filter(pl.col("matchup") == i).drop("matchup")
        assert part.equals(one)
    assert A.recharge_probability(a) == pytest.approx(1 / 3, abs=1e-15)
    assert A.recharge_probability(atk()) == 1.0
    with pytest.raises(RulesError):
        A.outcomes(a, ME, THEM, situation=A.Situation(distance=reach + 1))


def test_an_area_set_alone_is_a_full_turn():
    """annulus-attacks.txt: an area set must recharge before it is used again, so a creature whose
    only one-action set is an area set spends its turn on one use of it (before: no plan at all),
    and next to a Charged set (two actions) the area set alone is a legal turn too (before: left
    out). The turn of the area set alone is exactly one use of it."""
    me = A.Creature("me", level=1, endurance=1, agility=0, toughness=0, insight=0,
                    attack_sets=[A.Attack("Sweep", "agility", {"Arc": 1})])
    foe = A.Creature("foe", level=1, endurance=1, agility=0, toughness=0, insight=0)
    assert list(A.turn_plans(me, foe)) == ["Sweep"]
    assert wb.turn_damage(me, foe) == wb.damage(me.attack_sets[0], me, foe)
    both = me.replace(attack_sets=[me.attack_sets[0], A.Attack("Heave", "agility", {"Charged": 1})])
    assert set(A.turn_plans(both, foe)) == {"Sweep", "Heave"}
