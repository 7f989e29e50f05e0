"""Unbound flanking in an encounter: "When two characters flank an enemy they gain a +2 tactical bonus
to hit at base" (unbound-d20-attacking.txt, Situational Bonuses); CLARIFICATIONS.md, Encounters:
"default auto: a melee attack gets +2 when another living creature of its side that attacks in melee
has the same foe as its target this round (...; under focus targeting, whenever such an ally lives);
options never and always". The round's hook: ``UnboundRound.flanked`` (the Situation's flanking)."""

from __future__ import annotations

import pytest

import workbench as wb

from .brute import brute

U = wb.system("unbound")
CLUB = U.Attack("Club", "1d4", kind="melee", attack_bonus=0)
FIGHTER = U.Creature("Fighter", 4, 10, 10, weapons=[CLUB])
DUMMY = U.Creature("Dummy", 1, 15, 10)


def test_flanking_by_hand() -> None:
    """A Fighter's turn is two Push the Attack with its Club, bonus +0 against AC 15 (CLARIFICATIONS.md,
    Unbound: "d20 + attack bonus >= AC hits; a natural 1 always misses, a natural 20 always hits ...
    Every attack past the first in a turn takes a stacking -4"). Any hit fells the 1-HP Dummy.

    Not flanking: the first attack hits on 15..20 (6/20 = 0.30), the second on 19..20 (0.10):
    P(no hit in a turn) = 0.70 x 0.90 = 0.63. Flanking (+2): 13..20 (0.40) and 17..20 (0.20):
    P(no hit) = 0.60 x 0.80 = 0.48.

    Two Fighters against the Dummy, focus, side a first: with ``auto`` each has a living melee ally,
    so P(the Dummy falls in round 1) = 1 - 0.48^2 = 0.7696, in round 2 0.48^2 x 0.7696 = 0.17731584;
    ``never``: 1 - 0.63^2 = 0.6031. One Fighter alone: ``auto`` has nobody to flank with, 1 - 0.63 =
    0.37; ``always``: 1 - 0.48 = 0.52."""
    two = {f: wb.encounter([FIGHTER, FIGHTER], [DUMMY], flanking=f) for f in ("auto", "never", "always")}
    assert two["auto"].rounds["p_a_wins"][:2].to_list() == pytest.approx([0.7696, 0.17731584], abs=1e-12)
    assert two["always"].rounds["p_a_wins"][0] == pytest.approx(0.7696, abs=1e-12)
    assert two["never"].rounds["p_a_wins"][0] == pytest.approx(0.6031, abs=1e-12)
    one = {f: wb.encounter([FIGHTER], [DUMMY], flanking=f) for f in ("auto", "always")}
    assert one["auto"].rounds["p_a_wins"][0] == pytest.approx(0.37, abs=1e-12)
    assert one["always"].rounds["p_a_wins"][0] == pytest.approx(0.52, abs=1e-12)


def test_off_focus_an_ally_still_to_act_flanks() -> None:
    """Off focus, ``auto`` counts an ally still to act that will attack the same foe as things stand
    ("acted already or still to act"). Two Fighters against the Dummy: the second Fighter can only
    attack the Dummy, so the first is flanked too (P(no hit) 0.48), under spread and random alike:
    P(round 1) = 1 - 0.48 x 0.48 = 0.7696, as under focus."""
    for targeting in ("spread", "random"):
        got = wb.encounter([FIGHTER, FIGHTER], [DUMMY], targeting=targeting)
        assert got.exact
        assert got.rounds["p_a_wins"][0] == pytest.approx(0.7696, abs=1e-12)
    never = wb.encounter([FIGHTER, FIGHTER], [DUMMY], targeting="spread", flanking="never")
    assert never.rounds["p_a_wins"][0] == pytest.approx(1 - 0.63 * 0.63, abs=1e-12)


def test_spread_flanks_by_the_allies_picks_as_things_stand() -> None:
    """Three Fighters against two Dummies, spread. Each roll is an attack on the turn's target while it
    stands (the rolls left after a kill go to the next living foe): the first at +0 hits AC 15 with
    0.30 (0.40 flanked), the second at -4 with 0.10 (0.20 flanked); a hit fells a Dummy. Flanked when
    another melee Fighter struck that Dummy this round, or will as things stand (the allies still to
    act pick in turn order the living Dummy attacked the fewest times, this roll counted).

    - F1's first roll on D1: as things stand F2 takes D2 and F3 D1 (1 attack each, listed order):
      flanked, 0.40.
    - It hit: the second roll goes to D2, which F2 will attack too: flanked, 0.20; if it misses,
      F2's and F3's four rolls on D2 are all flanked (F1 struck it): 1 - (0.6 x 0.8)^2 = 0.7696.
      0.20 + 0.80 x 0.7696 = 0.81568.
    - It missed: the second roll stays on D1 (2 attacks), F2 would take D2 and F3 then D2 too (1
      against 2): unflanked, 0.10. If it hits, F2 and F3 attack D2, the only one left, flanked by
      the ally still to act and then by the strike: 0.7696. If it misses, F2 attacks D2 (F3 will
      too): 0.40; a hit sends F2's second roll to D1, struck by F1: 0.20, then F3 0.40, 0.20: 1 -
      0.8 x 0.6 x 0.8 = 0.616. F2's miss: its second roll on D2, F3 would take D1 (2 each): 0.10;
      a hit leaves D1 to F3, flanked: 1 - 0.6 x 0.8 = 0.52; a miss leaves F3 to fell both, D1 then
      D2: 0.40 x 0.20 = 0.08. So 0.40 x 0.616 + 0.60 x (0.10 x 0.52 + 0.90 x 0.08) = 0.3208, and
      0.10 x 0.7696 + 0.90 x 0.3208 = 0.36568.

    P(a wins in round 1) = 0.40 x 0.81568 + 0.60 x 0.36568 = 0.54568."""
    got = wb.encounter([FIGHTER] * 3, [DUMMY, DUMMY], targeting="spread")
    assert got.exact
    assert got.rounds["p_a_wins"][0] == pytest.approx(0.54568, abs=1e-12)


def test_flanking_equals_an_enumeration_from_the_rules() -> None:
    """Two Fighters and a Dummy against two Fighters (they hit back, and fall): the exact encounter
    with flanking ``auto`` equals the independent enumeration (brute.py, roll by roll) to 1e-12
    under each targeting policy."""
    sa, sb = [FIGHTER, FIGHTER, DUMMY], [FIGHTER, FIGHTER]
    got = wb.encounter(sa, sb, first="random", max_rounds=6)
    want = brute(sa, sb, first="random", max_rounds=6, flanking="auto", rolls=2)
    assert got.exact
    assert got.p_a_wins == pytest.approx(want["a"], abs=1e-12)
    assert got.p_b_wins == pytest.approx(want["b"], abs=1e-12)
    assert got.creatures["p_falls_first"].to_list() == pytest.approx(want["first"], abs=1e-12)
    # (fewer rounds, and two against two under random: the enumeration keeps each attack count and
    # whether a melee attack struck each creature this round apart, which grows it tenfold)
    for targeting, sides, rounds in (("spread", (sa, sb), 4), ("random", ([FIGHTER, FIGHTER], [FIGHTER, DUMMY]), 6)):
        got_t = wb.encounter(*sides, first="random", max_rounds=rounds, targeting=targeting)
        want_t = brute(*sides, first="random", max_rounds=rounds, targeting=targeting, flanking="auto", rolls=2)
        assert got_t.exact
        assert got_t.p_a_wins == pytest.approx(want_t["a"], abs=1e-12)
        assert got_t.p_b_wins == pytest.approx(want_t["b"], abs=1e-12)
        assert got_t.creatures["p_falls_first"].to_list() == pytest.approx(want_t["first"], abs=1e-12)
        plain = wb.encounter(*sides, first="random", max_rounds=rounds, targeting=targeting, flanking="never")
        assert abs(plain.p_a_wins - got_t.p_a_wins) > 1e-3
    never = wb.encounter(sa, sb, first="random", max_rounds=6, flanking="never")
    plain = brute(sa, sb, first="random", max_rounds=6, rolls=2)
    assert never.p_a_wins == pytest.approx(plain["a"], abs=1e-12)
    assert abs(never.p_a_wins - got.p_a_wins) > 1e-3


@pytest.mark.parametrize("targeting", ["spread", "random"])
def test_simulated_flanking_agrees_with_the_exact_encounter(targeting: str) -> None:
    """The simulation plays the same flanking rule: three Fighters against two Dummies, simulated,
    P(side a wins in round 1) within 4 standard errors of the exact encounter (a simulation that
    counted only the allies that attacked already is 10-45 standard errors off)."""
    sa, sb = [FIGHTER] * 3, [DUMMY, DUMMY]
    exact = wb.encounter(sa, sb, targeting=targeting, first="random", max_rounds=8)
    sim = wb.encounter(sa, sb, targeting=targeting, first="random", max_rounds=8, simulate=True, fights=40_000)
    assert exact.exact and not sim.exact
    p = exact.rounds["p_a_wins"][0]
    assert abs(sim.rounds["p_a_wins"][0] - p) < 4 * (p * (1 - p) / 40_000) ** 0.5
