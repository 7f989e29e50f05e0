"""A side entry ``(creature, attack)`` plays the picked attack as often as a turn allows (the plan of
compare's attack rows), a bare creature its best plan: one against one, the first equals
``wb.duel(plan_a=[attack] * uses_per_turn)`` to 1e-12 for every attack of sample catalog pairs."""

from __future__ import annotations

import pytest

import workbench as wb

PAIRS = [
    ("unbound", "Town guard", "Blademaster"),
    ("unbound", "Blademaster", "Veteran duelist"),
    ("glass_empires", "Moon Rabbit", "Porcelain Doll"),
    ("last_odyssey", "Cop", "Skirmisher"),
    ("last_odyssey", "Skirmisher", "Cop"),
]


@pytest.mark.parametrize("system, a, b", PAIRS)
def test_a_picked_attack_is_the_duel_of_that_plan(system: str, a: str, b: str) -> None:
    sys_ = wb.system(system)
    cat = sys_.catalog()
    A, B = cat.creature(a), cat.creature(b)
    for attack in sys_.attacks_of(A):
        duel = wb.duel(A, B, plan_a=[attack] * sys_.uses_per_turn(A, attack))
        assert duel.exact
        got = wb.encounter([(A, attack.name)], [B])
        assert got.exact and got.a == (a,)
        assert abs(got.p_a_wins - duel.p_a_wins) < 1e-12
        assert abs(got.p_b_wins - duel.p_b_wins) < 1e-12
        same = wb.encounter([(A, attack)], [B])  # the attack as a model
        assert same.p_a_wins == got.p_a_wins


def test_the_pick_changes_the_fight() -> None:
    """The Town guard's Javelin against the Blademaster wins far less often than its best plan (the
    Heater): the entry plays the attack on screen, not the best one."""
    cat = wb.system("unbound").catalog()
    guard, master = cat.creature("Town guard"), cat.creature("Blademaster")
    best = wb.encounter([guard], [master]).p_a_wins
    javelin = wb.encounter([(guard, "Javelin")], [master]).p_a_wins
    assert javelin < best / 2


def test_two_copies_with_a_pick_and_bad_picks() -> None:
    cat = wb.system("unbound").catalog()
    guard, master = cat.creature("Town guard"), cat.creature("Blademaster")
    two = wb.encounter([(guard, "Longsword")] * 2, [master])
    assert two.a == ("Town guard", "Town guard #2") and two.exact
    with pytest.raises(wb.RulesError, match="no attack 'Bow'") as err:
        wb.encounter([guard], [master, (master, "Bow")])
    assert err.value.field == "side_b[1]"
    with pytest.raises(wb.RulesError) as err:
        wb.encounter([(guard, 3)], [master])
    assert err.value.field == "side_a[0]"
