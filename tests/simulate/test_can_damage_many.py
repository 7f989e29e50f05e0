"""Whether an attacker can ever hurt a target, asked for many pairs at once (workbench/simulate/
__init__.py ``can_damage_many``, which compare's rows with state ask before their fights): the
same answer as each pair asked alone, for every ordered pair of every catalog, the memo cleared
in between so neither reads the other's; and by hand, a creature with no attack never can."""

from __future__ import annotations

import pytest

import workbench as wb
from workbench.memo import MEMO
from workbench.simulate import can_damage, can_damage_many


@pytest.mark.parametrize("system", ["annulus", "unbound", "last_odyssey", "glass_empires"])
def test_many_as_one_at_a_time(system):
    cat = wb.system(system).catalog()
    cs = [cat.creature(n) for n in cat.creatures][:25]
    pairs = [(a, t) for a in cs for t in cs]
    MEMO.clear()
    together = can_damage_many(pairs)
    alone = []
    for a, t in pairs:
        MEMO.clear()
        alone.append(can_damage(a, t))
    assert together == alone
    assert any(alone)


def test_no_attack_never_hurts():
    """A Last Odyssey creature stripped of its abilities (and phase abilities) cannot hurt anyone;
    beside it in the same batch, the Paladin can hurt the Troll."""
    lo = wb.system("last_odyssey").catalog()
    paladin, troll = lo.creature("Paladin"), lo.creature("Troll")
    bare = paladin.replace(abilities=(), phase_abilities=())
    MEMO.clear()
    assert can_damage_many([(bare, troll), (paladin, troll)]) == [False, True]
