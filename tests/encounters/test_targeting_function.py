"""Targeting by a function of the fight's state (CLARIFICATIONS.md, Encounters: Targets: "Options:
spread, random, or a function of the fight's state"): ``wb.encounter(targeting=f)``, ``f`` called with
each foe's ``workbench.foe_order.Foe`` (name, place in listed order, HP, and per fight or per cell of
the exact chain its HP left and the attacks on it this round) returning its score; the living foe
of lowest score is attacked, ties in listed order, and the policy is read again for the next foes
of a turn (workbench/foe_order.py)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import workbench as wb

from .test_annulus import _burst_and_line


def fewest_hp(foe: Any) -> Any:
    return foe.hp_left


def fewest_attacks(foe: Any) -> Any:
    return foe.attacks


def most_hp(foe: Any) -> Any:
    return -foe.hp_left


@pytest.mark.parametrize(
    "system, a, b",
    [
        ("glass_empires", ["Wolf", "Boar"], ["Spider Lily", "Moon Rabbit", "Spider Lily"]),
        ("unbound", ["Town guard"], ["Ranger", "Ranger"]),
        ("last_odyssey", ["Cop"], ["Imp", "Skirmisher"]),
    ],
)
def test_a_function_can_be_focus_or_spread(system: str, a: list[str], b: list[str]) -> None:
    """A function returning the HP left is ``focus``, one returning the attacks is ``spread``: the
    same exact encounter to 1e-12 (rounds, survivors, who falls first)."""
    cat = wb.system(system).catalog()
    sa, sb = [cat.creature(n) for n in a], [cat.creature(n) for n in b]
    for named, fn in (("focus", fewest_hp), ("spread", fewest_attacks)):
        want = wb.encounter(sa, sb, targeting=named, max_rounds=6)
        got = wb.encounter(sa, sb, targeting=fn, max_rounds=6)
        assert want.exact and got.exact
        assert got.targeting == f"function {fn.__name__}"
        for col in ("p_a_wins", "p_b_wins", "p_draw"):
            assert np.abs(got.rounds[col].to_numpy() - want.rounds[col].to_numpy()).max() < 1e-12, (named, col)
        for col in ("p_survives", "p_falls_first"):
            assert got.creatures[col].to_list() == pytest.approx(want.creatures[col].to_list(), abs=1e-12)


def test_the_foe_with_the_most_hp_left_by_hand() -> None:
    """The Blaster's turn is its Burst (3 foes) then its Line (2), each 4 dice at 1/2 a foe
    (Binomial(4, 1/2) damage, rolled separately), against the Shell (1 HP, never hurt) and two 3-HP
    Mice. Targeting the most HP left (score -HP left): Mouse A (a tie with B, listed first). The Burst
    strikes A, B and the Shell; the Line strikes A and the foe with the most HP left now: B where it
    took 0 or 1, the Shell where B is down to 1 HP (a tie, the Shell listed first) and A stands;
    where the Burst felled A, the Line's target is B or that Shell, and B is struck either way.
    A stands when the two rolls on it sum below 3: Binomial(8, 1/2) <= 2, 37/256. B falls with
    5/16 + (1 x 16 x 5 + 4 x 16 x 11 + 6 x 5 x 15) / 4096 = 2514/4096."""
    blaster, _, _, mouse, shell = _burst_and_line(mouse_hp=3)
    got = wb.encounter([blaster], [shell, mouse, mouse], max_rounds=1, targeting=most_hp)
    assert got.exact
    want = [37 / 256, 1 - 2514 / 4096]
    assert got.creatures["p_survives"].to_list()[2:] == pytest.approx(want, abs=1e-12)
    fights = 20_000
    sim = wb.encounter(
        [blaster], [shell, mouse, mouse], max_rounds=1, targeting=most_hp, simulate=True, fights=fights, seed=3
    )
    for p, s in zip(want, sim.creatures["p_survives"].to_list()[2:]):
        assert abs(s - p) <= 4 * np.sqrt(p * (1 - p) / fights)


def test_the_function_reads_each_foe() -> None:
    """The function is given each foe's name, place in listed order and HP: hunting the Moon Rabbit
    by name, the Wolf's first turn goes to it (listed second) and, with no refunded Attack, never to
    the Lily."""
    cat = wb.system("glass_empires").catalog()
    wolf, lily, rabbit = cat.creature("Wolf"), cat.creature("Spider Lily"), cat.creature("Moon Rabbit")
    seen: list[tuple[str, int, int]] = []

    def rabbit_first(foe: Any) -> Any:
        seen.append((foe.name, foe.place, foe.hp))
        return 0 if foe.name == "Moon Rabbit" else 1

    got = wb.encounter([wolf], [lily, rabbit], targeting=rabbit_first, max_rounds=1, refund=False)
    assert got.creatures["p_survives"][1] == pytest.approx(1.0, abs=1e-12) and got.creatures["p_survives"][2] < 0.9
    assert ("Moon Rabbit", 2, wb.system("glass_empires").hit_points(rabbit)) in seen


@pytest.mark.parametrize(
    "bad",
    [
        lambda foe: 1 / 0,
        lambda foe: "high",
        lambda foe: np.full(7, np.nan),
        lambda foe: np.zeros((3, 3, 3, 3)),
        lambda foe: np.inf,
    ],
)
def test_a_bad_function_is_refused_naming_targeting(bad: Any) -> None:
    cat = wb.system("glass_empires").catalog()
    with pytest.raises(wb.RulesError) as err:
        wb.encounter([cat.creature("Wolf")], [cat.creature("Spider Lily")] * 2, targeting=bad, max_rounds=2)
    assert err.value.field == "targeting"
    assert "Targets" in str(err.value.rule)


def test_a_name_that_is_no_policy_is_still_refused() -> None:
    cat = wb.system("glass_empires").catalog()
    with pytest.raises(wb.RulesError) as err:
        wb.encounter([cat.creature("Wolf")], [cat.creature("Spider Lily")], targeting="weakest")
    assert err.value.field == "targeting"
