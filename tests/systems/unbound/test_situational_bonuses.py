"""Unbound situational bonuses: flanking, high ground, shooting into melee, range increments and maxima
(unbound-d20-attacking.txt; CLARIFICATIONS.md, Unbound).
"""

import pytest

from tests.systems.unbound.builders import Attack, Situation, U, foe, me, p_hit
from workbench import RulesError


def test_flanking_plus_two():
    """'When two characters flank an enemy they gain a +2 tactical bonus to hit'."""
    a = Attack("S", attack_bonus=0)
    assert p_hit(a, me(), foe(12), None, Situation(flanking=True)) == pytest.approx(11 / 20)


@pytest.mark.parametrize("kind, hg, expected", [("melee", "above", 12 / 20), ("melee", "below", 10 / 20),
                                                ("ranged", "above", 12 / 20), ("ranged", "below", 11 / 20)])
def test_high_ground(kind, hg, expected):
    """'+1 tactical bonus' attacking down; 'attacking up ... with a melee attack ... -1'."""
    extra = dict(range_increment=30) if kind == "ranged" else {}
    a = Attack("S", kind=kind, attack_bonus=0, **extra)
    assert p_hit(a, me(), foe(10), None, Situation(high_ground=hg)) == pytest.approx(expected)


def test_shooting_into_melee_and_precise_shot():
    """'the attacker takes a -4 to attack. This penalty can be negated by ... Precise Shot.'"""
    bow = Attack("Bow", kind="ranged", range_increment=100, attack_bonus=0)
    s = Situation(shooting_into_melee=True)
    assert p_hit(bow, me(), foe(6), None, s) == pytest.approx(11 / 20)
    assert p_hit(bow, me(), foe(6), None, s.replace(precise_shot=True)) == pytest.approx(15 / 20)
    assert p_hit(bow, me(precise_shot=True), foe(6), None, s) == pytest.approx(15 / 20)
    assert p_hit(Attack("S", attack_bonus=0), me(), foe(6), None, s) == pytest.approx(15 / 20)  # melee unaffected


@pytest.mark.parametrize("distance, expected_bonus", [(0, 0), (10, 0), (11, -2), (25, -4), (50, -8)])
def test_range_increments(distance, expected_bonus):
    """'every range increment past the first applies a stacking -2 penalty' (increment 10 ft)."""
    a = Attack("Axe", kind="thrown", range_increment=10, attack_bonus=0)
    assert p_hit(a, me(), foe(5), None, Situation(distance=distance)) == pytest.approx((16 + expected_bonus) / 20)


def test_range_maximum_thrown_5_others_10():
    """'thrown weapons have a maximum number of 5 range increments, while ... bows and crossbows ... 10'."""
    axe = Attack("Axe", kind="thrown", range_increment=10)
    bow = Attack("Bow", kind="ranged", range_increment=10)
    U.outcomes(axe, me(), foe(), None, Situation(distance=50))
    with pytest.raises(RulesError) as e:
        U.outcomes(axe, me(), foe(), None, Situation(distance=51))
    assert e.value.field == "distance" and "maximum is 5" in str(e.value)
    assert p_hit(bow.replace(attack_bonus=0), me(), foe(0), None, Situation(distance=100)) == pytest.approx(
        3 / 20)  # increment 10: -18 vs AC 0 needs a natural 18+
    with pytest.raises(RulesError) as e:
        U.outcomes(bow, me(), foe(), None, Situation(distance=101))
    assert e.value.field == "distance"
