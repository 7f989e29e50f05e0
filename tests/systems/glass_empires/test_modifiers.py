"""Glass Empires Strike modifiers: range, cover, environment and conditions, no personal-fact bonus,
and firing into melee (glass-empires-attack.txt; CLARIFICATIONS.md, Glass Empires).
"""

from __future__ import annotations

import polars as pl
import pytest

from tests.systems.glass_empires.builders import CAT, GE, p_damage, sword_pair
from workbench import RulesError


def test_out_of_range_minus_one_and_beyond_twice_is_an_error():
    """Out of Range: 'up to twice a weapon's listed range, but when doing so, each Strike Save suffers a -1'."""
    bow = CAT.attack("Bow")
    archer = GE.Creature("Archer", power=2, weapons=[bow])
    assert GE.strike_modifier(bow, archer, GE.Situation(distance=150)) == 0
    assert GE.strike_modifier(bow, archer, GE.Situation(distance=151)) == -1
    assert GE.strike_modifier(bow, archer, GE.Situation(distance=300)) == -1
    t = GE.outcomes(bow, archer, GE.Creature("T", power=2), situation=GE.Situation(distance=200))
    assert p_damage(t, 5) == pytest.approx(9 / 36, abs=1e-15)   # Pass at -1: naturals 9, 10, 11
    with pytest.raises(RulesError, match="distance"):
        GE.outcomes(bow, archer, GE.Creature("T", power=2), situation=GE.Situation(distance=301))


def test_cover_penalties_apply_to_ranged_only():
    """Cover: low/weak cover -2, high/strong cover -4 to 'ranged attacks' Strike Saves'."""
    bow, sword = CAT.attack("Bow"), CAT.attack("Medium melee")
    c = GE.Creature("C", power=2, weapons=[bow, sword])
    assert GE.strike_modifier(bow, c, GE.Situation(cover="low")) == -2
    assert GE.strike_modifier(bow, c, GE.Situation(cover="high")) == -4
    assert GE.strike_modifier(sword, c, GE.Situation(cover="high")) == 0
    t = GE.outcomes(bow, c, GE.Creature("T", power=2), situation=GE.Situation(cover="high"))
    assert p_damage(t, 0) == pytest.approx((18 + 15) / 36, abs=1e-15)


def test_environment_and_conditions_each_plus_minus_one():
    """'add factors such as the environment, Conditions' (CLARIFICATIONS.md: each relevant one +-1)."""
    sword, attacker, target = sword_pair()
    s = GE.Situation(environment=2, conditions=-1)
    assert GE.strike_modifier(sword, attacker, s) == 1
    t = GE.outcomes(sword, attacker, target, situation=s)
    assert p_damage(t, 10) == pytest.approx(3 / 36, abs=1e-15)


def test_no_personal_fact_bonus():
    """'You may not add personal Fact bonuses to a Save'."""
    with pytest.raises(RulesError, match="fact_bonus"):
        GE.Situation(fact_bonus=1)


def test_firing_into_melee_victims_by_height():
    """Firing into Melee: random among those within the foe's reach 'whose Heights are greater than half the
    intended target's Height'. Intended 6 ft; nearby 2, 3, 4, 10 ft -> eligible: 6, 4, 10, each 1/3."""
    intended = GE.Creature("Foe", power=2, size=6)
    nearby = [GE.Creature(f"N{s}", power=2, size=s, armor=1) for s in (2, 3, 4, 10)]
    v = GE.into_melee_victims(intended, nearby)
    assert v["victim"].to_list() == [0, 3, 4]
    assert v["probability"].to_list() == pytest.approx([1 / 3] * 3)
    bow = CAT.attack("Bow")
    archer = GE.Creature("Archer", power=2, weapons=[bow])
    t = GE.into_melee_outcomes(bow, archer, intended, nearby)
    assert t["probability"].sum() == pytest.approx(1, abs=1e-12)
    # the unarmored intended foe takes a Pass of 5 with P = 1/3 * 14/36; armored victims take it on AP (2 AP: 4 + 1)
    assert t.filter((pl.col("victim") == 0) & (pl.col("damage") == 5))["probability"].sum() == pytest.approx(14 / 108)
    assert t.filter((pl.col("victim") == 3) & (pl.col("damage") == 1))["probability"].sum() == pytest.approx(14 / 108)
    with pytest.raises(RulesError, match="attack"):
        GE.into_melee_outcomes(CAT.attack("Medium melee"), archer, intended, nearby)
