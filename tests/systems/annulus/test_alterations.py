"""Annulus alterations, hand-worked: Charged, Telegraphed, Flurry, Gaze, Swansong and Counter (annulus-
attacks.txt; CLARIFICATIONS.md, Annulus).

Baseline: 4 dice succeeding on 4+ (p = 1/2): P(k successes) = 1, 4, 6, 4, 1 out of 16.
"""

from __future__ import annotations

from fractions import Fraction as F

import polars as pl
import pytest

import workbench as wb
from tests.systems.annulus.builders import ME, THEM, A, atk, close, mean, mk
from workbench import RulesError


def test_charged():
    """Charged: "two actions ... +2 advantages ... roll the trigger die twice and apply the higher":
    6 dice (mean 3), P(12) = 23/144, P(11+) = 44/144 (CLARIFICATIONS: 1 - ((k-1)/12)^2)."""
    a = A.Attack("C", "agility", ["Charged", "Critical", "Burn"])
    t = A.outcomes(a, ME, mk(ag=5))  # defense 5: only 6 successes deal damage (1/64)
    assert close(t.filter(pl.col("damage") > 0)["probability"].sum(), F(1, 64))
    t0 = A.outcomes(A.Attack("C", "agility", ["Charged", "Burn"]), ME, THEM)
    assert close(t0.filter(pl.col("burn"))["probability"].sum(), F(63, 64) * F(44, 144))
    assert close(A.damage(A.Attack("C", "agility", ["Charged"]), ME, THEM).mean(), 3)
    tc = A.outcomes(A.Attack("C", "agility", ["Charged", "Critical"]), ME, THEM)
    assert close(tc.filter(pl.col("crit"))["probability"].sum(), F(63, 64) * F(23, 144))
    assert A.attack_cost(a) == 2


def test_telegraphed():
    """Telegraphed: "+2 advantages ... roll the trigger die twice and apply the higher"; 1 action to
    announce."""
    a = A.Attack("T", "agility", ["Telegraphed", "Silence"])
    t = A.outcomes(a, ME, THEM)
    assert close(A.damage(a, ME, THEM).mean(), 3)
    assert close(t.filter(pl.col("silence"))["probability"].sum(), F(63, 64) * (1 - F(8, 12) ** 2))
    assert A.attack_cost(a) == 1


def test_flurry():
    """Flurry: "two actions ... roll three times with a disadvantage each time and apply all results
    ... roll the trigger die ... for each of the three": 3 strikes of 3 dice vs defense 0: mean 4.5;
    P(total 0) = (1/8)^3; P(no Sap) = (1 - 7/8 * 2/12)^3."""
    a = A.Attack("F", "agility", ["Flurry", "Sap"])
    d = A.damage(a, ME, THEM)
    assert close(d.mean(), 4.5) and close(d.probability(0), F(1, 8) ** 3) and d.max() == 9
    t = A.outcomes(a, ME, THEM)
    assert close(t.filter(~pl.col("sap"))["probability"].sum(), (1 - F(7, 8) * F(2, 12)) ** 3)
    assert A.attack_cost(a) == 2


def test_flurry_assassination_each_strike():
    """CLARIFICATIONS: Flurry strikes are against "the target as it was when the attack began
    (awareness included)": each damaging strike adds +4 vs Clueless: mean 4.5 + 3 * 7/8 * 4."""
    d = A.damage(A.Attack("F", "agility", ["Flurry"]), ME, mk(awareness="clueless"))
    assert close(d.mean(), F(9, 2) + 3 * F(7, 8) * 4)


def test_gaze():
    """Gaze: "you and the subject must be able to both fully see each other. If either of you is in an
    area of full or partial concealment, suffering from a Blind sting ... cannot be used"; free."""
    g = A.Attack("G", "insight", ["Gaze"])
    assert close(mean(g), 2)
    for sit in (dict(mutual_sight=False), dict(concealment="partial"), dict(target_blind=True)):
        with pytest.raises(RulesError, match="Gaze"):
            mean(g, **sit)
    assert A.attack_cost(g) == 0


def test_swansong():
    """Swansong: "if you are level 7, then you can only use Swansong attacks when you have 3 or fewer
    Vitality remaining"."""
    s = A.Attack("S", "insight", ["Swansong"])
    me7 = mk(level=7)
    assert me7.vitality == 7
    assert close(mean(s, attacker=me7, attacker_vitality=3), 2)
    with pytest.raises(RulesError, match="Swansong") as e:
        mean(s, attacker=me7, attacker_vitality=4)
    assert e.value.field == "attacker_vitality"
    with pytest.raises(RulesError):
        mean(s, attacker=me7)  # full Vitality by default
    assert A.attack_cost(s) == 0


def test_swansong_is_judged_against_max_vitality_the_level():
    """Swansong: "half or less of your total amount of Vitality remaining (rounded down) ... if you are level 7,
    then you can only use Swansong attacks when you have 3 or fewer Vitality remaining"; CLARIFICATIONS: "Max
    Vitality = level". The ``vitality`` field is the current Vitality: a level 7 creature at Vitality 3 may use it
    (7 // 2 = 3), at 4 it may not; the damage is the plain 4-dice mean, 2."""
    s = A.Attack("S", "insight", ["Swansong"])
    wounded = mk(level=7, vitality=3)
    assert close(mean(s, attacker=wounded), 2)
    with pytest.raises(RulesError, match="Swansong") as e:
        mean(s, attacker=mk(level=7, vitality=4))
    assert e.value.field == "attacker_vitality"
    # per turn: Swansong is free, once per round, so the wounded creature's best turn with it and a Punch
    # (2 one-action uses) is 2 + 2 + 2 = 6
    punch = A.Attack("Punch", "agility", [])
    who = wounded.replace(attack_sets=[s, punch])
    assert close(wb.turn_damage(who, THEM).mean(), 6)


def test_counter_is_a_normal_set_too():
    """Counter: "You may still use the attack set ... as a normal attack set": same table as Punch."""
    c = A.Attack("C", "agility", ["Counter"], counter_type="toughness")
    assert A.damage(c, ME, THEM).isclose(A.damage(atk(), ME, THEM))
    assert A.attack_cost(c) == 1
    assert A.Attack("C", "agility", ["Counter Insight"]).counter_type == "insight"


def test_swansong_in_the_fight_is_judged_against_the_level():
    """Swansong: "if you are level 7, then you can only use Swansong attacks when you have 3 or fewer
    Vitality remaining". A level 7 creature that starts the fight at Vitality 4 (the field is the current
    Vitality) may use its Swansong set once it is down to 3, not at 4 (before: half of the starting 4)."""
    import numpy as np

    from workbench.systems.annulus.round import _CLASS, AnnulusRound

    song = A.Attack("Song", "insight", ["Swansong"])
    me = mk("Me", level=7, vitality=4, attack_sets=[song])
    rnd = AnnulusRound(A, me, mk("Them"))  # the one round (annulus/round.py)
    mine, theirs = rnd.start()
    # two fights: all its Endurance lost, then that and 1 Vitality more (Vitality 4 and 3 left)
    mine = rnd._hurt(0, mine.tile(2), np.array([me.endurance, me.endurance + 1]))
    cls = rnd._classes(0, mine, theirs.tile(2))
    assert cls[:, _CLASS.index("swansong")].tolist() == [0, 1]
    assert rnd.a._sit(tuple(int(v) for v in cls[1])).attacker_vitality == 3
