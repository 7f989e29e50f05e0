"""Turn order and targeting of an encounter (CLARIFICATIONS.md, "Encounters: groups against groups":
Rounds, Targets), the exact chain against an independent enumeration written from the rules text
(brute.py) on Glass Empires creatures of 4 HP whose fights carry no state: to 1e-12."""

from __future__ import annotations

import pytest

import workbench as wb
from workbench.fight.encounter import schedule

from .brute import brute


def test_schedule_sides_and_alternate() -> None:
    """"Default order sides: every creature of the side acting first ... in listed order, then every
    creature of the other side. Option alternate: a1, b1, a2, b2, ..., the larger side's extra
    creatures last" (a: 0, 1, 2; b: 3, 4)."""
    assert schedule((3, 2), "sides", 0) == [0, 1, 2, 3, 4]
    assert schedule((3, 2), "sides", 1) == [3, 4, 0, 1, 2]
    assert schedule((3, 2), "alternate", 0) == [0, 3, 1, 4, 2]
    assert schedule((3, 2), "alternate", 1) == [3, 0, 4, 1, 2]


def _ge(*names: str) -> list:
    cat = wb.system("glass_empires").catalog()
    return [cat.creature(n) for n in names]


CASES = [
    (("Vegetable Sprite", "Porcelain Doll"), ("Bush, Angry",)),
    (("Moon Rabbit", "Moon Rabbit"), ("Spider Lily", "Porcelain Doll")),
    (("Spider Lily",), ("Vegetable Sprite", "Bush, Angry", "Moon Rabbit")),
]


@pytest.mark.parametrize("a, b", CASES)
@pytest.mark.parametrize("targeting", ["focus", "spread", "random"])
@pytest.mark.parametrize("order", ["sides", "alternate"])
def test_exact_encounter_equals_an_enumeration_from_the_rules(a, b, targeting, order) -> None:
    sa, sb = _ge(*a), _ge(*b)
    # 12 rounds at most (the round limit, "default 100 rounds; unresolved"): the enumeration stays short
    got = wb.encounter(sa, sb, first="random", order=order, targeting=targeting, max_rounds=12)
    want = brute(sa, sb, first="random", order=order, targeting=targeting, max_rounds=12, refund=True)
    assert got.exact
    assert got.p_a_wins == pytest.approx(want["a"], abs=1e-12)
    assert got.p_b_wins == pytest.approx(want["b"], abs=1e-12)
    assert got.p_draw == pytest.approx(want["draw"], abs=1e-12)
    assert got.p_unresolved == pytest.approx(1 - want["a"] - want["b"] - want["draw"], abs=1e-12)
    assert got.creatures["p_falls_first"].to_list() == pytest.approx(want["first"], abs=1e-12)


def test_focus_strikes_the_weakest_and_spread_shares() -> None:
    """Focus: "the living foe with the fewest hit points left ..., ties in listed order"; spread: "the
    living foe targeted by the fewest attacks so far this round". Two attackers against two foes of
    equal HP: under focus the first foe (listed first) always falls first whenever a foe falls in
    the first attack, under spread the second attacker goes for the second foe, so the second foe
    falls first more often than under focus."""
    sa, sb = _ge("Moon Rabbit", "Moon Rabbit"), _ge("Spider Lily", "Porcelain Doll")
    focus = wb.encounter(sa, sb, targeting="focus")
    spread = wb.encounter(sa, sb, targeting="spread")
    f, s = focus.creatures["p_falls_first"].to_list(), spread.creatures["p_falls_first"].to_list()
    assert s[3] > f[3]
