"""Unbound two-weapon fighting: penalties by lightness, the off hand as an attack option, one-handed
wielded weapons only (unbound-d20-attacking.txt; CLARIFICATIONS.md, Unbound).
"""

import pytest

from tests.systems.unbound.weapons import (
    BOW,
    CLAWS,
    SWORD,
    Action,
    Attack,
    Options,
    U,
    mods,
    who,
)
from workbench import RulesError

SHORT = Attack("Short", "1d6", light=True)

DAGGER = Attack("Dagger", "1d4", light=True)

AXE = Attack("Axe", "1d8")

GREAT = Attack("Great", "2d6", two_handed=True)


@pytest.mark.parametrize("main, off, pen", [(SWORD, AXE, 4), (SWORD, DAGGER, 3), (SHORT, DAGGER, 2), (SHORT, AXE, 4)])
def test_two_weapon_penalties_by_lightness(main, off, pen):
    """'both attacks take the multiple attack penalty from the off hand'; light off hand lowers it by 1,
    both light by 2 (CLARIFICATIONS: -4 / -3 / -2, stacking with the iterative penalty)."""
    c = who("professional", [main, off])
    got = mods([Action("all_out", main.name, off.name)], c)
    assert got == [(main.name, -pen), (main.name, -4 - pen), (off.name, -pen)]


def test_offhand_counts_as_attack_option():
    c = who("professional", [SHORT, DAGGER])
    got = mods([Action("all_out", "Short", "Dagger")], c, Options(offhand_counts_as_attack=True))
    assert got == [("Short", -2), ("Short", -6), ("Dagger", -10)]


def test_two_weapon_needs_one_handed_wielded_weapons():
    for main, off, field in [(GREAT, DAGGER, "weapon"), (SWORD, CLAWS, "off_hand"), (SWORD, BOW, "off_hand")]:
        with pytest.raises(RulesError) as e:
            U.slots([Action("all_out", main, off)], who("professional", [main, off]))
        assert e.value.field == field
