"""Annulus triggers, hand-worked: one Trigger Die for all triggers, its thresholds, Critical, Vital and
Drain (annulus-attacks.txt; CLARIFICATIONS.md, Annulus).

Baseline: 4 dice succeeding on 4+ (p = 1/2): P(k successes) = 1, 4, 6, 4, 1 out of 16.
"""

from __future__ import annotations

from fractions import Fraction as F

import polars as pl
import pytest

import workbench as wb
from tests.systems.annulus.builders import ME, THEM, A, atk, close, mean, mk

THRESHOLDS = {"Berserk": 12, "Blind": 12, "Burn": 11, "Choke": 9, "Critical": 12, "Daze": 11, "Vital": 12,
              "Devour": 10, "Disarm": 11, "Dispel": 10, "Fatigue": 10, "Grab": 10, "Hobble": 10,
              "Immobilize": 12, "Knockdown": 11, "Pacify": 12, "Petrify": 12, "Push": 11, "Sap": 11,
              "Setup": 10, "Silence": 9, "Terrorize": 11, "Drain": 12, "Weaken": 12}


@pytest.mark.parametrize("name,threshold", list(THRESHOLDS.items()))
def test_trigger_probability(name, threshold):
    """annulus-attacks.txt "When the Trigger Die has a result of N+" and "a triggered effect is only
    applied when you manage to deal at least one point of damage": P(effect) = P(dmg >= 1) *
    (13 - N)/12; vs defense 1, P(dmg >= 1) = 11/16."""
    col = "crit" if name == "Critical" else name.lower()
    t = A.outcomes(atk(name), ME, mk(ag=1))
    assert close(t.filter(pl.col(col))["probability"].sum(), F(11, 16) * F(13 - threshold, 12))
    assert t.filter(pl.col(col) & (pl.col("damage") == 0)).height == 0
    cat = A.upgrades().filter(pl.col("name") == name)
    assert cat["threshold"][0] == threshold


def test_one_trigger_die_for_all_triggers():
    """annulus-attacks.txt: "you still only need to roll a single trigger die ... all effects are
    triggered (or not) based on the result of the single die": Choke (9+) always accompanies Burn (11+)."""
    t = A.outcomes(atk("Burn", "Choke"), ME, THEM)
    assert t.filter(pl.col("burn") & ~pl.col("choke")).height == 0
    assert close(t.filter(pl.col("burn") & pl.col("choke"))["probability"].sum(), F(15, 16) * F(2, 12))


def test_critical_doubles_damage_after_defense():
    """Critical: "defense of 2 and get 3 successes, you actually deal 2 damage ... (1 success over their
    defense, doubled to 2)"; CLARIFICATIONS default: Bully and assassination are doubled too."""
    t = A.outcomes(atk("Critical"), ME, mk(ag=2))
    crit3 = t.filter(pl.col("crit"))
    assert sorted(set(crit3["damage"])) == [2, 4]  # 3 successes -> 2, 4 successes -> 4
    assert close(crit3.filter(pl.col("damage") == 2)["probability"].sum(), F(4, 16) / 12)
    sus = A.outcomes(atk("Critical"), ME, mk(ag=2, awareness="suspicious"))
    assert set(sus.filter(pl.col("crit"))["damage"]) == {6, 8}  # (1 + 2) * 2, (2 + 2) * 2
    only = A.outcomes(atk("Critical"), ME, mk(ag=2, awareness="suspicious"),
                      options=A.Options(crit_doubles_bonus=False))
    assert set(only.filter(pl.col("crit"))["damage"]) == {4, 6}  # 1 * 2 + 2, 2 * 2 + 2
    # mean: E[d] * (1 + 1/12) vs defense 0
    assert close(mean(atk("Critical")), 2 * F(13, 12))


def test_vital_goes_to_vitality():
    """Vital: "ignores Endurance and strikes directly at Vitality": vitality_damage = damage on a 12."""
    t = A.outcomes(atk("Vital"), ME, THEM)
    v = t.filter(pl.col("vital"))
    assert (v["vitality_damage"] == v["damage"]).all()
    assert (t.filter(~pl.col("vital"))["vitality_damage"] == 0).all()
    assert close((t["vitality_damage"] * t["probability"]).sum(), F(2, 12))


def test_drain_restores_endurance():
    """Drain: "When the Trigger Die has a result of 12, you may instantly restore 1 lost Endurance"."""
    t = A.outcomes(atk("Drain"), ME, THEM)
    assert close((t["self_heal"] * t["probability"]).sum(), F(15, 16) / 12)


def test_critical_doubles_the_bully_bonus_hand_worked():
    """CLARIFICATIONS, Annulus: Critical on a Trigger Die 12 (1/12) doubles the damage, the Bully
    bonus included by default (crit_doubles_bonus); 4 dice against defense 3 hit only on 4
    successes (1/16) for 1, Bully adds 7 - 6 = 1: 2, or 4 on a 12 (3 when only the 1 is doubled)."""
    atk = A.Attack("C", "agility", {"Critical": 1, "Bully": 1})
    me = A.Creature("me", size=7, level=1, endurance=1, agility=0, toughness=0, insight=0)
    tgt = A.Creature("t", size=6, level=1, endurance=1, agility=3, toughness=0, insight=0, awareness="alert")
    d = wb.damage(atk, me, tgt)
    hit = 1 / 16  # 4 successes - defense 3 = 1; Bully: + (7 - 6) = 1 -> 2, doubled on a 12 -> 4
    assert abs(d.probability(2) - hit * 11 / 12) < 1e-12
    assert abs(d.probability(4) - hit / 12) < 1e-12
    assert abs(d.probability(0) - (1 - hit)) < 1e-12
    d2 = wb.damage(atk, me, tgt, A.Options(crit_doubles_bonus=False))
    assert abs(d2.probability(3) - hit / 12) < 1e-12  # 2 * 1 + 1
