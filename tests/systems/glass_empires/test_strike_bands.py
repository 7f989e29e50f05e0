"""Glass Empires Strike bands, hand-worked from the 2d6 counts and against icepool: Crit, Pass, Seven,
Failure and Fumble; naturals 12 and 2; Crit doubles and Seven halves (glass-empires-attack.txt;
CLARIFICATIONS.md, Glass Empires).
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.systems.glass_empires.builders import GE, p_damage, sword_pair

# Hand-worked from the 2d6 counts 1,2,3,4,5,6,5,4,3,2,1 (naturals 2..12), natural 12 always Crit,
# natural 2 always Fumble: (crit, pass, seven, failure, fumble) out of 36.
HAND_BANDS = {
    -4: (1, 0, 2, 18, 15),
    -3: (1, 2, 3, 20, 10),
    -2: (1, 5, 4, 20, 6),
    -1: (1, 9, 5, 18, 3),
    0: (1, 14, 6, 14, 1),
    1: (3, 18, 5, 9, 1),
    2: (6, 20, 4, 5, 1),
    3: (10, 20, 3, 2, 1),
    4: (15, 18, 2, 0, 1),
}


@pytest.mark.parametrize("modifier", sorted(HAND_BANDS))
def test_band_probabilities_hand_worked(modifier):
    """glass-empires-attack.txt Strike Save table; CLARIFICATIONS.md: natural 12 Crit, natural 2 Fumble."""
    got = GE.band_table(modifier)["probability"].to_list()
    assert np.allclose(got, [c / 36 for c in HAND_BANDS[modifier]], atol=1e-15, rtol=0)


def test_band_probabilities_match_icepool():
    """The band split of 2d6 + modifier, checked against icepool's 2d6 (natural overrides applied)."""
    import icepool

    d = 2 @ icepool.d6
    for m in range(-8, 9):
        want = [0.0] * 5
        for nat, count in d.items():
            t = nat + m
            band = 0 if nat == 12 else 4 if nat == 2 else 0 if t >= 12 else 1 if t >= 8 else 2 if t == 7 else 3 if t >= 3 else 4
            want[band] += count / d.denominator()
        assert np.allclose(GE.band_table(m)["probability"].to_list(), want, atol=1e-14)


def test_crit_doubles_and_seven_halves_rounded_down():
    """Crit (>=12): 'twice the normal severity'; Seven (7): 'halving Damage taken; round down'. Sword 5 at +0."""
    sword, attacker, target = sword_pair()
    t = GE.outcomes(sword, attacker, target)
    assert p_damage(t, 10) == pytest.approx(1 / 36, abs=1e-15)    # natural 12 only
    assert p_damage(t, 5) == pytest.approx(14 / 36, abs=1e-15)
    assert p_damage(t, 2) == pytest.approx(6 / 36, abs=1e-15)     # 5 // 2
    assert p_damage(t, 0) == pytest.approx(15 / 36, abs=1e-15)    # Failure 14 + Fumble 1
    assert t["probability"].sum() == pytest.approx(1, abs=1e-12)


def test_natural_twelve_and_two_override_any_modifier():
    """CLARIFICATIONS.md: 'Natural 12 is always a Crit, natural 2 always a Fumble'."""
    assert GE.band_table(-20)["probability"].to_list() == pytest.approx([1 / 36, 0, 0, 0, 35 / 36])
    assert GE.band_table(20)["probability"].to_list() == pytest.approx([35 / 36, 0, 0, 0, 1 / 36])
