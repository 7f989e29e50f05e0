"""Annulus general upgrades, hand-worked, one test per upgrade that changes the maths (annulus-
attacks.txt; CLARIFICATIONS.md, Annulus).

Baseline: 4 dice succeeding on 4+ (p = 1/2): P(k successes) = 1, 4, 6, 4, 1 out of 16.
"""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import polars as pl
import pytest

import workbench as wb
from tests.systems.annulus.builders import ME, THEM, A, atk, close, mean, mk
from workbench import RulesError
from workbench.systems.annulus.models import range_band


def test_keen_partial_concealment():
    """Keen: "You take no disadvantage ... partial concealment"; CLARIFICATIONS: partial 1, full 2."""
    assert close(mean(atk(), concealment="partial"), 1.5)
    assert close(mean(atk("Keen"), concealment="partial"), 2)
    assert close(mean(atk("Keen"), concealment="full"), 1)
    assert close(mean(atk(), concealment="full"), 1)


def test_blood_price_pays_vitality():
    """Blood Price: "damage your own Vitality instead of spending an action ... two actions ... two
    Vitality": self_vitality_damage 1 (2 for Charged), 0 when not used."""
    t = A.outcomes(atk("Blood Price"), ME, THEM, situation=A.Situation(blood_price=True))
    assert set(t["self_vitality_damage"]) == {1}
    t2 = A.outcomes(A.Attack("x", "agility", ["Blood Price", "Charged"]), ME, THEM,
                    situation=A.Situation(blood_price=True))
    assert set(t2["self_vitality_damage"]) == {2}
    assert set(A.outcomes(atk("Blood Price"), ME, THEM)["self_vitality_damage"]) == {0}


@pytest.mark.parametrize("ranks", [1, 2, 3])
def test_reckless(ranks):
    """Reckless: "+1 additional automatic success ... take 1 damage that cannot be avoided ... each time
    increases both damage output and blowback by +1": vs defense 1, damage = k + ranks - 1."""
    a = A.Attack("R", "agility", {"Reckless": ranks})
    t = A.outcomes(a, ME, mk(ag=1))
    assert close((t["damage"] * t["probability"]).sum(), 2 + ranks - 1)
    assert set(t["self_damage"]) == {ranks}


def test_bully():
    """Bully: "size 5 ... on a Size 4 creature, you deal +1 damage ... size 3 creature, +2"; size 3 is 2
    steps smaller, so one disadvantage (CLARIFICATIONS: per step beyond the first): 3 dice."""
    assert close(mean(atk("Bully"), target=mk(size=4)), 2 + F(15, 16))
    assert close(mean(atk("Bully"), target=mk(size=3)), F(3, 2) + F(7, 8) * 2)
    assert close(mean(atk("Bully"), target=mk(size=6)), 2)  # larger target: no bonus


def test_visceral():
    """Visceral: "You don't take any disadvantages when attacking a creature from the inside"."""
    assert close(mean(atk(), inside_devourer=True), 1.5)
    assert close(mean(atk("Visceral"), inside_devourer=True), 2)


def test_reroll_exact():
    """Reroll: "reroll your check and take the new result ... You take a disadvantage on the reroll";
    CLARIFICATIONS: a strike that dealt 0 is rerolled once. Defense 2: P(0) = 11/16 * 7/8 = 77/128,
    P(1) = 4/16 + 11/16 * 3/8 ... only 3 successes of 3 dice give 1: 1/4 + 11/128, P(2) = 1/16."""
    d = A.damage(atk("Reroll"), ME, mk(ag=2))
    assert close(d.probability(0), F(77, 128))
    assert close(d.probability(1), F(1, 4) + F(11, 128))
    assert close(d.probability(2), F(1, 16))
    t = A.outcomes(atk("Reroll"), ME, mk(ag=2))
    assert close(t.filter(pl.col("rerolled"))["probability"].sum(), F(11, 16))
    off = A.damage(atk("Reroll"), ME, mk(ag=2), situation=A.Situation(reroll_available=False))
    assert close(off.probability(0), F(11, 16))
    never = A.damage(atk("Reroll"), ME, mk(ag=2), options=A.Options(reroll="never"))
    assert close(never.probability(0), F(11, 16))


def test_tireless():
    """Tireless: "does not take a disadvantage if you use it while you are tired"."""
    assert close(mean(atk(), tired=True), 1.5)
    assert close(mean(atk("Tireless"), tired=True), 2)


def test_flashy():
    """Flashy: "you always have an advantage on checks to use the attack": 5 dice."""
    assert close(mean(atk("Flashy")), 2.5)


@pytest.mark.parametrize("giant,dice", [(0, 2), (1, 3), (2, 4), (3, 4)])
def test_giant(giant, dice):
    """Giant: "one fewer disadvantage when attacking subjects ... significantly larger ... never
    gives you advantages": size 5 vs 8 is 2 disadvantages (steps beyond the first)."""
    a = A.Attack("G", "agility", {"Giant": giant}) if giant else atk()
    assert close(mean(a, target=mk(size=8)), dice / 2)


@pytest.mark.parametrize("precise,dice", [(0, 2), (1, 3), (2, 4), (3, 4)])
def test_precise(precise, dice):
    """Precise: "one fewer disadvantage when attacking subjects ... significantly smaller": 5 vs 2."""
    a = A.Attack("P", "agility", {"Precise": precise}) if precise else atk()
    assert close(mean(a, target=mk(size=2)), dice / 2)


def test_size_one_step_is_free():
    """CLARIFICATIONS: "A target 2 or more sizes larger (or smaller) imposes one disadvantage per step
    beyond the first": size 6 or 4 costs nothing; option size_free_steps=0 makes it cost 1."""
    assert close(mean(atk(), target=mk(size=6)), 2)
    d = A.damage(atk(), ME, mk(size=6), options=A.Options(size_free_steps=0))
    assert close(d.mean(), 1.5)


def test_armored():
    """Armored: "does not take a disadvantage from being used while under the effects of an Armor"."""
    assert close(mean(atk(), armor=True), 1.5)
    assert close(mean(atk("Armored"), armor=True), 2)


def test_killing_spree():
    """Killing Spree: "+2 additional automatic successes the single next time you use the attack"
    after a kill: vs defense 2, damage = k exactly (mean 2); without a kill mean is 0.6875."""
    assert close(mean(atk("Killing Spree"), target=mk(ag=2), after_kill=True), 2)
    assert close(mean(atk("Killing Spree"), target=mk(ag=2)), F(4 + 2, 16))
    assert close(mean(atk(), target=mk(ag=2), after_kill=True), F(6, 16))


def test_first_blood():
    """First Blood: "an advantage ... when targeting a creature that is completely undamaged"."""
    assert close(mean(atk("First Blood")), 2.5)
    assert close(mean(atk("First Blood"), target_undamaged=False), 2)


def test_range_bands():
    """Range: "maximum range of 5 meters, but cannot be used at ranges of 2 meter or less ... each time
    increases maximum range by two steps"; CLARIFICATIONS bands 0: <= 1 m; 1: > 2-5; 2: > 10-20; 3: > 50-100."""
    assert range_band(0) == (0, 1) and range_band(1) == (2, 5) and range_band(2) == (10, 20)
    assert range_band(3) == (50, 100) and range_band(4) == (200, 500)
    r1 = A.Attack("Bow", "agility", {"Range": 1})
    assert close(mean(r1, distance=5), 2)
    for bad in (2, 1, 5.5):
        with pytest.raises(RulesError, match="distance"):
            mean(r1, distance=bad)
    with pytest.raises(RulesError, match="1 m"):
        mean(atk(), distance=1.5)
    r2 = A.Attack("Rifle", "agility", {"Range": 2})
    assert close(mean(r2, distance=20), 2)
    with pytest.raises(RulesError):
        mean(r2, distance=10)


def test_airtight():
    """annulus-attacks.txt: "attacks don't work and cannot be used in airless environments"; Airtight:
    "functions normally in airless environments"."""
    with pytest.raises(RulesError, match="Airtight") as e:
        mean(atk(), airless=True)
    assert e.value.field == "airless"
    assert close(mean(atk("Airtight"), airless=True), 2)


def test_maths_free_general_upgrades():
    """Demolitions, Obliterate, Inherent, Knockout and Stealth change no dice: same table as Punch."""
    base = A.damage(atk(), ME, mk(awareness="clueless"))
    for u in ("Demolitions", "Obliterate", "Inherent", "Knockout", "Stealth"):
        assert A.damage(atk(u), ME, mk(awareness="clueless")).isclose(base)


def test_reroll_hand_worked_use_and_turn():
    """annulus-attacks.txt Reroll, CLARIFICATIONS steps 3: 4 dice at 1/2 against defense 2:
    P(0) = 11/16, P(1) = 4/16, P(2) = 1/16; the 0 is rerolled with 3 dice (P(0) = 7/8, P(1) = 1/8)."""
    atk = A.Attack("R", "agility", {"Reroll": 1})
    me = A.Creature("me", level=1, endurance=1, agility=0, toughness=0, insight=0)
    tgt = A.Creature("t", level=1, endurance=1, agility=2, toughness=0, insight=0, awareness="alert")
    use = wb.damage(atk, me, tgt)
    want = [11 / 16 * 7 / 8, 4 / 16 + 11 / 16 / 8, 1 / 16]
    assert np.abs(use.pmf[:3] - want).max() < 1e-12 and use.offset == 0 and use.pmf[3:].sum() < 1e-12
    # two uses: the second may reroll only if the first did not (one reroll per round)
    me2 = me.replace(attack_sets=[atk])
    turn = A.plan_damage(me2, tgt, [atk, atk])
    # a turn deals 0 only if the first strike is 0 after its reroll and the second, without one, is 0
    assert abs(turn.probability(0) - (11 / 16 * 7 / 8) * (11 / 16)) < 1e-12
