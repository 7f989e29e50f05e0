"""Unbound natural weapons: paired naturals as one attack, no iteratives for a primary natural, Multi-
Action secondaries (unbound-d20-attacking.txt; CLARIFICATIONS.md, Unbound).
"""

import pytest

import workbench as wb
from tests.systems.unbound.weapons import (
    BITE,
    CLAWS,
    SWORD,
    Action,
    Attack,
    Creature,
    Options,
    U,
    mods,
    who,
)
from workbench import RulesError

TAIL = Attack("Tail", "1d6", natural=True)


def test_paired_natural_weapons_count_as_one_attack():
    """'the second claw does not take the penalty from attacking multiple times'."""
    c = who(weapons=[CLAWS, BITE])
    assert mods([Action("push", "Claws"), Action("push", "Bite")], c) == [("Claws", 0), ("Claws", 0), ("Bite", -4)]


def test_primary_natural_gains_no_iteratives():
    """Primary natural weapon: 'it does not gain iterative attacks'."""
    assert mods([Action("all_out", "Bite")], who("grandmaster", [BITE])) == [("Bite", 0)]


def test_multi_action_secondary_natural_minus_three_more():
    """'Any secondary attacks used as part of a Multi Action ... take a -3 penalty ... in addition to
    normal multiple attacks penalties'; the claws pair is one attack."""
    c = who(weapons=[BITE, CLAWS, TAIL])
    assert mods([Action("multi")], c) == [("Bite", 0), ("Claws", -7), ("Claws", -7), ("Tail", -11)]
    c = who(weapons=[SWORD, BITE])
    assert mods([Action("multi", "Sword")], c) == [("Sword", 0), ("Bite", -7)]
    with pytest.raises(RulesError) as e:
        U.slots([Action("multi", "Sword")], who())
    assert e.value.field == "weapons"


def test_multi_action_after_a_wielded_weapon_takes_one_secondary_natural():
    """Secondary Natural Attacks: "a character may perform a Multi Action ... to attack with all primary and secondary
    natural weapons available or with an available secondary natural weapon after attacking with a wielded weapon".
    Sword + Bite + Tail: the Multi Action with the Sword makes the Sword and ONE secondary (default the first natural
    weapon, or the one named), at -4 - 3 = -7.
    Hand-worked vs AC 10, Strength 2, confirm_crits off: Sword d20 + 2 >= 10 (13/20), threat 19-20 (2/20):
    6.5 x 11/20 + 13 x 2/20 = 4.875; Bite d20 - 5 >= 10 (6/20), threat 20: 6.5 x 5/20 + 13 x 1/20 = 2.275;
    Tail 5.5 x 5/20 + 11 x 1/20 = 1.925. The old reading added the Tail at -11 too (d20 >= 19: 5.5/20 + 11/20 =
    0.825)."""
    c = who(weapons=[SWORD, BITE, TAIL])
    assert mods([Action("multi", "Sword")], c) == [("Sword", 0), ("Bite", -7)]
    assert mods([Action("multi", "Sword", secondary="Tail")], c) == [("Sword", 0), ("Tail", -7)]
    target = Creature("T", 30, 10, 10)
    opts = Options(confirm_crits=False)
    bite = wb.turn_damage(c, target, opts, plan=[Action("multi", "Sword")])
    tail = wb.turn_damage(c, target, opts, plan=[Action("multi", "Sword", secondary="Tail")])
    assert bite.mean() == pytest.approx(4.875 + 2.275, abs=1e-12)
    assert tail.mean() == pytest.approx(4.875 + 1.925, abs=1e-12)
    # every natural weapon without a wielded one is unchanged: Bite, then Tail at -7
    assert mods([Action("multi")], c) == [("Bite", 0), ("Tail", -7)]
    for bad, field in ((Action("multi", "Sword", secondary="Sword"), "secondary"),
                       (Action("multi", "Sword", secondary="Wings"), "secondary")):
        with pytest.raises(RulesError) as e:
            U.slots([bad], c)
        assert e.value.field == field
    with pytest.raises(RulesError) as e:
        Action("push", "Sword", secondary="Bite")
    assert e.value.field == "secondary"


def test_plans_offer_the_multi_action_with_each_secondary_natural_weapon():
    """"with an available secondary natural weapon after attacking with a wielded weapon": any one of them, so the
    plans list the Sword with the Bite and with the Tail (hand-worked above, AC 10, Strength 2, confirm_crits
    off: 4.875 + 2.275 = 7.15 and 4.875 + 1.925 = 6.8), never the Sword with both (4.875 + 2.275 + 0.825 = 7.975,
    the old reading)."""
    c = who(weapons=[SWORD, BITE, TAIL])
    plans = U.turn_plans(c, Creature("T", 30, 10, 10), Options(confirm_crits=False))
    assert plans["Multi Action (Sword + Bite)"].mean() == pytest.approx(7.15, abs=1e-12)
    assert plans["Multi Action (Sword + Tail)"].mean() == pytest.approx(6.8, abs=1e-12)
    assert "Multi Action (Sword + Bite + Tail)" not in plans
    assert plans["Multi Action (Bite + Tail)"].mean() < plans["Multi Action (Sword + Bite)"].mean()


def test_issue_16_sword_bite_tail_averages_5_12_not_5_41():
    """Issue 16's case: a 1d8 20x2 sword, Bite 1d8, Tail 1d6, Strength 2, against AC 12 with the default options
    (crits confirmed). Secondary Natural Attacks allow "an available secondary natural weapon after attacking with a
    wielded weapon": the Sword, then the Bite at -4 - 3 = -7.
    Sword: d20 + 2 >= 12 needs 10+ (11/20); a natural 20 threatens and confirms with 11/20:
    6.5 x 11/20 + 6.5 x 11/400 = 3.75375. Bite: d20 - 5 >= 12 needs 17+ (4/20), crit 1/20 x 4/20:
    6.5 x 4/20 + 6.5 x 4/400 = 1.365. In all 5.11875 (5.12). The old reading also swung the Tail at -11, where only a
    natural 20 hits (and confirms): 5.5/20 + 5.5/400 = 0.28875, 5.4075 (5.41) in all."""
    sword = Attack("Sword", "1d8")
    c = who(weapons=[sword, BITE, TAIL])
    target = Creature("T", 30, 12, 10)
    got = wb.turn_damage(c, target, plan=[Action("multi", "Sword")])
    assert got.mean() == pytest.approx(5.11875, abs=1e-12)
    assert mods([Action("multi", "Sword")], c) == [("Sword", 0), ("Bite", -7)]
    old = got.mean() + U.damage(TAIL, c, target, None, U.Situation(bonus=-11)).mean()
    assert old == pytest.approx(5.4075, abs=1e-12)
