"""Unbound advantage and disadvantage: they cancel, charging gives melee advantage, a braced firearm or
crossbow has advantage (unbound-d20-attacking.txt; CLARIFICATIONS.md, Unbound).
"""

import pytest

from tests.systems.unbound.builders import Attack, Situation, U, foe, me, p_hit
from workbench import RulesError


@pytest.mark.parametrize("sit, expected", [
    (Situation(advantage=True), 1 - (10 / 20) ** 2),
    (Situation(disadvantage=True), (10 / 20) ** 2),
    (Situation(advantage=True, disadvantage=True), 0.5),
])
def test_advantage_disadvantage_cancel(sit, expected):
    """CLARIFICATIONS: 'roll 2d20 keep the higher; disadvantage keep the lower; they do not stack and cancel'."""
    assert p_hit(Attack("S", attack_bonus=0), me(), foe(11), None, sit) == pytest.approx(expected)


def test_charge_gives_advantage_to_melee_only():
    """'When a character takes the charge action when making a melee attack they gain advantage'."""
    assert p_hit(Attack("S", attack_bonus=0), me(), foe(11), None, Situation(charge=True)) == pytest.approx(0.75)
    with pytest.raises(RulesError) as e:
        U.outcomes(Attack("B", kind="ranged", range_increment=30), me(), foe(), None, Situation(charge=True))
    assert e.value.field == "charge"


def test_braced_firearm_or_crossbow_has_advantage():
    """'While braced or firing from prone the character gains advantage on attack roles with these weapons.'"""
    xbow = Attack("Xbow", kind="ranged", range_increment=120, braceable=True, attack_bonus=0)
    bow = Attack("Bow", kind="ranged", range_increment=100, attack_bonus=0)
    assert p_hit(xbow, me(), foe(11), None, Situation(braced=True)) == pytest.approx(0.75)
    assert p_hit(bow, me(), foe(11), None, Situation(braced=True)) == pytest.approx(0.5)
