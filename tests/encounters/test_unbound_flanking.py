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


def test_spread_flanks_after_an_ally_attacked_the_foe() -> None:
    """Off focus, ``auto`` gives +2 once another melee creature of the side has attacked that foe this
    round: the first Fighter attacks unflanked (P(no hit) 0.63), the second flanked (0.48):
    P(round 1) = 1 - 0.63 x 0.48 = 0.6976."""
    got = wb.encounter([FIGHTER, FIGHTER], [DUMMY], targeting="spread")
    assert got.rounds["p_a_wins"][0] == pytest.approx(1 - 0.63 * 0.48, abs=1e-12)


def test_flanking_equals_an_enumeration_from_the_rules() -> None:
    """Two Fighters and a Dummy against two Fighters (they hit back, and fall): the exact encounter
    with flanking ``auto`` (focus) equals the independent enumeration (brute.py) to 1e-12."""
    sa, sb = [FIGHTER, FIGHTER, DUMMY], [FIGHTER, FIGHTER]
    got = wb.encounter(sa, sb, first="random", max_rounds=6)
    want = brute(sa, sb, first="random", max_rounds=6, flanking="auto")
    assert got.exact
    assert got.p_a_wins == pytest.approx(want["a"], abs=1e-12)
    assert got.p_b_wins == pytest.approx(want["b"], abs=1e-12)
    assert got.creatures["p_falls_first"].to_list() == pytest.approx(want["first"], abs=1e-12)
    never = wb.encounter(sa, sb, first="random", max_rounds=6, flanking="never")
    plain = brute(sa, sb, first="random", max_rounds=6)
    assert never.p_a_wins == pytest.approx(plain["a"], abs=1e-12)
    assert abs(never.p_a_wins - got.p_a_wins) > 1e-3
