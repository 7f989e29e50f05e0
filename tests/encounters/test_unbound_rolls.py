"""Unbound in an encounter, roll by roll: CLARIFICATIONS.md, Encounters: "A target that dies during a
creature's turn: the remaining attacks of the action under way go to the next living foe by the same
policy (same weapons, same penalties)". The round's hook ``UnboundRound.steps`` (``RollStep``: the
turn's attack rolls one at a time, the plan chosen at the first)."""

from __future__ import annotations

import itertools
import random

import pytest

import workbench as wb

from .brute import brute
from .test_unbound_flanking import DUMMY, FIGHTER

U = wb.system("unbound")


def test_the_second_roll_goes_to_the_next_foe_by_hand() -> None:
    """A Fighter's turn is two Push the Attack with its Club (+0, then -4: "Every attack past the first
    in a turn takes a stacking -4", CLARIFICATIONS.md, Unbound): against AC 15 the first hits on
    15..20 (0.30), the second on 19..20 (0.10); any hit fells a 1-HP Dummy. Against two Dummies the
    Fighter fells both in its first turn when the first roll fells one and the second, which goes to
    the other, hits too: 0.30 x 0.10 = 0.03 (a turn played whole against one Dummy: 0)."""
    got = wb.encounter([FIGHTER], [DUMMY, DUMMY])
    assert got.exact
    assert got.rounds["p_a_wins"][0] == pytest.approx(0.03, abs=1e-12)


@pytest.mark.parametrize("targeting", ["focus", "spread", "random"])
def test_rolls_equal_an_enumeration_from_the_rules(targeting: str) -> None:
    """Two Fighters against a Fighter and a Dummy (the Fighter hits back), flanking off: the exact
    encounter equals the independent enumeration (brute.py, ``rolls=2``: each roll on the turn's
    target while it stands) to 1e-12, and the simulation agrees within 4 standard errors."""
    sa, sb = [FIGHTER, FIGHTER], [FIGHTER, DUMMY]
    got = wb.encounter(sa, sb, targeting=targeting, first="random", max_rounds=6, flanking="never")
    want = brute(sa, sb, targeting=targeting, first="random", max_rounds=6, rolls=2)
    assert got.exact
    assert got.p_a_wins == pytest.approx(want["a"], abs=1e-12)
    assert got.p_b_wins == pytest.approx(want["b"], abs=1e-12)
    assert got.creatures["p_falls_first"].to_list() == pytest.approx(want["first"], abs=1e-12)
    sim = wb.encounter(sa, sb, targeting=targeting, first="random", max_rounds=6, flanking="never", simulate=True)
    assert abs(sim.p_a_wins - got.p_a_wins) < 4 * sim.standard_error


def test_one_against_one_is_the_duel() -> None:
    """Against one foe the rolls one at a time are the whole turn (independent d20s): 30 catalog pairs
    (Wild Attacks, Shield Bashes, Braces, iteratives and Multi Actions among their plans), each
    encounter of one against one equal to ``wb.duel`` to 1e-12."""
    cs = list(U.catalog().creatures.values())
    pairs = random.Random(3).sample(list(itertools.permutations(cs, 2)), 30)
    checked = 0
    for a, b in pairs:
        duel = wb.duel(a, b, progress=False)
        got = wb.encounter([a], [b])
        assert got.exact and duel.exact
        assert got.p_a_wins == pytest.approx(duel.p_a_wins, abs=1e-12)
        assert got.p_b_wins == pytest.approx(duel.p_b_wins, abs=1e-12)
        checked += 1
    assert checked == 30


@pytest.mark.parametrize("simulate", [False, True])
def test_a_turn_with_no_roll_left_makes_no_attack(simulate: bool) -> None:
    """Under ``spread`` ("the living foe targeted by the fewest attacks so far this round",
    CLARIFICATIONS.md, Encounters) only rolls count. The Musketeer's plan against a Dummy is Brace +
    Push the Attack: one roll, though its longest plan has two (so its turn is two steps; the second
    passes). Fighter, Musketeer, Fighter against two 65-HP Dummies (nobody can fall in one round),
    one round: the first Fighter's two rolls go to the first Dummy (2 attacks), the Musketeer's one
    to the second (1 attack), and the second Fighter to the one attacked fewer times: the second
    Dummy. Counting the Musketeer's empty step too would make it 2 against 2 and send the second
    Fighter to the first Dummy (listed first).

    A Fighter's turn against AC 15 (test_the_second_roll_goes_to_the_next_foe_by_hand): hits 0.30 and
    0.10 of 1d4 (mean 2.5), a 20 confirmed by a roll that hits doubles it: 2.5 x (0.30 + 0.10) +
    2.5 x 0.05 x (0.30 + 0.10) = 1.05. So the first Dummy keeps 65 - 1.05 = 63.95 HP on average (62.9
    were the empty step an attack), and the second loses the Musketeer's turn and 1.05."""
    fighter, dummy = FIGHTER, U.Creature("Dummy", 65, 15, 10)
    musketeer = U.catalog().creature("Musketeer")
    got = wb.encounter(
        [fighter, musketeer, fighter],
        [dummy, dummy],
        targeting="spread",
        max_rounds=1,
        flanking="never",
        simulate=simulate,
    )
    left = got.creatures["mean_hp_left"].to_list()
    musket, club = wb.turn_damage(musketeer, dummy), wb.turn_damage(fighter, dummy)
    if simulate:  # within 4 standard errors of the 100,000 fights' means
        assert left[3] == pytest.approx(63.95, abs=4 * club.std() / 100_000**0.5)
        spread = (club.std() ** 2 + musket.std() ** 2) ** 0.5
        assert left[4] == pytest.approx(65 - musket.mean() - 1.05, abs=4 * spread / 100_000**0.5)
    else:
        assert got.exact
        assert left[3] == pytest.approx(63.95, abs=1e-12)
        assert left[4] == pytest.approx(65 - musket.mean() - 1.05, abs=1e-12)


MAUL = U.Attack("Maul", "2d6", kind="melee", attack_bonus=0, two_handed=True)
DAGGER = U.Attack("Dagger", "1d4", kind="melee", attack_bonus=9)
DUELIST = U.Creature("Duelist", 10, 10, 10, weapons=[MAUL, DAGGER])


@pytest.mark.parametrize("simulate", [False, True])
def test_the_actions_left_are_planned_again_against_the_next_foe(simulate: bool) -> None:
    """"... and the turn's remaining actions are planned again against that foe" (CLARIFICATIONS.md,
    Encounters). The Duelist's two-handed Maul (+0, 2d6) and Dagger (+9, 1d4), against a 1-HP Dummy of AC 10 and
    a Wall of AC 20: against the Dummy its turn is Push the Attack with the Maul twice (it hits AC 10
    on 10..20 and deals 7 on average, the Dagger 2.5). When the first Maul fells the Dummy (0.55: a
    hit fells 1 HP), its second action is planned again against the Wall: at -4 (the second attack
    of the turn) the Maul hits AC 20 on a natural 20 only, the Dagger (+5) on 15..20, so it stabs.
    The Wall loses 0.55 x (the Dagger's damage at +5 against it) on average in round 1, not 0.55 x
    (the Maul's at -4). Each roll's damage is ``wb.turn_damage`` of that one Push the Attack, as
    brute.py reads it."""
    dummy, wall = U.Creature("Dummy", 1, 10, 10), U.Creature("Wall", 200, 20, 20)
    plans = U.turn_plans(DUELIST, dummy)
    assert max(plans, key=lambda k: plans[k].mean()) == "Push the Attack (Maul) + Push the Attack (Maul)"
    dagger = wb.turn_damage(DUELIST.replace(weapons=(MAUL, DAGGER.replace(attack_bonus=5))), wall, plan=["Dagger"])
    maul = wb.turn_damage(DUELIST.replace(weapons=(MAUL.replace(attack_bonus=-4), DAGGER)), wall, plan=["Maul"])
    assert dagger.mean() > maul.mean()
    got = wb.encounter([DUELIST], [dummy, wall], max_rounds=1, simulate=simulate, fights=100_000, seed=6)
    lost = 200 - got.creatures["mean_hp_left"][2]
    if simulate:
        sd = (0.55 * (dagger.std() ** 2 + dagger.mean() ** 2) - (0.55 * dagger.mean()) ** 2) ** 0.5
        assert lost == pytest.approx(0.55 * dagger.mean(), abs=4 * sd / 100_000**0.5)
    else:
        assert got.exact
        assert lost == pytest.approx(0.55 * dagger.mean(), abs=1e-12)
