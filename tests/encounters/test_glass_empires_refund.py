"""Glass Empires' refunded action in an encounter (CLARIFICATIONS.md, Encounters: "a Strike that kills
ends its Attack (its remaining Strikes are lost) and refunds the Attack's action, which makes a new
Attack on the next living foe by the same policy in the same turn; a kill by that Attack refunds
again"), option ``refund`` (default True); the round's hook ``GlassEmpiresRound.refunds`` (turns of
one Attack)."""

from __future__ import annotations

import pytest

import workbench as wb

from .brute import brute

GE = wb.system("glass_empires").catalog()
WOLF, BOAR, LILY = GE.creature("Wolf"), GE.creature("Boar"), GE.creature("Spider Lily")


def test_refund_by_hand() -> None:
    """The Wolf's turn (one Attack) against a Spider Lily of 4 HP deals 0 (5/12), 3 (1/6), 6 (7/18) or
    12 (1/36) damage (``wb.turn_damage``): it fells a fresh Lily with P = 7/18 + 1/36 = 5/12. With the
    refund each kill makes a new Attack on the next Lily, so the Wolf fells all three in its first
    turn with P (5/12)^3 = 0.0723380; without it, three Lilies need three turns: P(round 1) = P(round
    2) = 0."""
    turn = wb.turn_damage(WOLF, LILY).to_dict()
    assert turn == pytest.approx({0: 5 / 12, 3: 1 / 6, 6: 7 / 18, 12: 1 / 36})
    got = wb.encounter([WOLF], [LILY, LILY, LILY])
    assert got.rounds["p_a_wins"][0] == pytest.approx((5 / 12) ** 3, abs=1e-12)
    off = wb.encounter([WOLF], [LILY, LILY, LILY], refund=False)
    assert off.rounds["p_a_wins"][:2].to_list() == pytest.approx([0.0, 0.0], abs=1e-15)


@pytest.mark.parametrize("targeting", ["focus", "spread", "random"])
def test_refund_equals_an_enumeration_from_the_rules(targeting: str) -> None:
    """The Wolf and the Boar against three Lilies (which hit back): the exact encounter equals the
    independent enumeration (brute.py, ``refund=True``) to 1e-12, and differs from it without."""
    sa, sb = [WOLF, BOAR], [LILY, LILY, LILY]
    got = wb.encounter(sa, sb, targeting=targeting, first="random", max_rounds=8)
    want = brute(sa, sb, targeting=targeting, first="random", max_rounds=8, refund=True)
    assert got.p_a_wins == pytest.approx(want["a"], abs=1e-12)
    assert got.p_b_wins == pytest.approx(want["b"], abs=1e-12)
    assert got.creatures["p_falls_first"].to_list() == pytest.approx(want["first"], abs=1e-12)
    off = wb.encounter(sa, sb, targeting=targeting, first="random", max_rounds=8, refund=False)
    plain = brute(sa, sb, targeting=targeting, first="random", max_rounds=8)
    assert off.p_a_wins == pytest.approx(plain["a"], abs=1e-12)
    assert got.p_a_wins > off.p_a_wins + 1e-3
