"""Unbound, Making an Attack: the roll against AC or touch AC, natural 1 and 20, the attack bonus by
kind (unbound-d20-attacking.txt; CLARIFICATIONS.md, Unbound).
"""

import pytest

from tests.systems.unbound.builders import Attack, foe, me, p_hit


def test_equal_or_higher_than_ac_hits():
    """'If the result of their attack is equal to or higher than the targets AC ... the attack hits':
    +5 vs AC 15 needs a natural 10+, 11 faces of 20."""
    assert p_hit(Attack("S", attack_bonus=5), me(), foe(15)) == pytest.approx(11 / 20, abs=1e-15)


def test_touch_attacks_aim_at_touch_ac():
    """'whichever they are targeting': touch attack +0 vs touch AC 12 needs 12+ (9/20), not AC 25."""
    assert p_hit(Attack("T", touch=True, attack_bonus=0), me(), foe(25, 12)) == pytest.approx(9 / 20)


def test_natural_one_misses_and_natural_twenty_hits():
    """'a natural 1 on the d20 roll is an automatic miss and a natural 20 is an automatic hit'."""
    assert p_hit(Attack("S", attack_bonus=40), me(), foe(5)) == pytest.approx(19 / 20)
    assert p_hit(Attack("S", attack_bonus=-10), me(), foe(60)) == pytest.approx(1 / 20)


@pytest.mark.parametrize("kind, extra, mods, expected", [
    ("melee", {}, dict(str_mod=3, dex_mod=-5), 14 / 20),      # 'Melee attacks use the characters strength modifier'
    ("ranged", dict(range_increment=50), dict(str_mod=-5, dex_mod=2), 13 / 20),  # 'Ranged ... dexterity'
    ("thrown", dict(range_increment=10), dict(str_mod=-5, dex_mod=1), 12 / 20),
    ("spell", {}, dict(magic_mod=4, thaumaturgy_mod=1), 15 / 20),  # 'thaumaturgy or magic ..., whichever is higher'
    ("spell", {}, dict(magic_mod=1, thaumaturgy_mod=5), 16 / 20),
])
def test_attack_bonus_attribute_by_kind(kind, extra, mods, expected):
    """unbound-d20-attacking.txt, Attack Bonuses; vs AC 10: hit on natural >= 10 - bonus."""
    assert p_hit(Attack("W", kind=kind, **extra), me(**mods), foe(10)) == pytest.approx(expected)


def test_explicit_attack_bonus_replaces_the_attribute():
    assert p_hit(Attack("W", attack_bonus=2), me(str_mod=9), foe(10)) == pytest.approx(13 / 20)
