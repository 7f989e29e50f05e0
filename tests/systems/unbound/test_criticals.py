"""Unbound criticals: threat range and multiplier, the confirmation roll, threats need a hit, x3 damage
exact (unbound-d20-attacking.txt; CLARIFICATIONS.md, Unbound).
"""

import polars as pl
import pytest

from tests.systems.unbound.builders import Attack, Options, U, col_p, foe, me


def test_threat_range_and_multiplier_without_confirmation():
    """CLARIFICATIONS: '"20x2" is threat range and multiplier'; 19-20x2 with certain hits:
    P(crit) = 2/20; a crit rolls 1d8+2 twice: mean 13."""
    t = U.outcomes(Attack("Sword", "1d8", crit="19-20x2", attack_bonus=50), me(str_mod=2), foe(0),
                   Options(confirm_crits=False))
    crit = t.filter(pl.col("crit"))
    assert crit["probability"].sum() == pytest.approx(2 / 20)
    assert (crit["damage"] * crit["probability"]).sum() / crit["probability"].sum() == pytest.approx(13.0)
    assert crit["damage"].min() == 6 and crit["damage"].max() == 20


def test_confirmation_roll_same_modifiers_same_ac():
    """CLARIFICATIONS: 'A threat that hits is confirmed by a second roll with the same modifiers
    against the same AC': +0 vs AC 11 hits 10/20; 19-20 threatens 2/20; crit = 2/20 * 10/20."""
    t = U.outcomes(Attack("S", crit="19-20x2", attack_bonus=0), me(), foe(11))
    assert col_p(t, pl.col("threat")) == pytest.approx(0.1)
    assert col_p(t, pl.col("crit")) == pytest.approx(0.05)
    assert col_p(t, pl.col("threat") & ~pl.col("crit")) == pytest.approx(0.05)
    assert col_p(t, pl.col("hit")) == pytest.approx(0.5)


def test_threat_needs_a_hit():
    """A natural 19 that misses (+0 vs AC 20) does not threaten; only the natural 20 does."""
    t = U.outcomes(Attack("S", crit="19-20x2", attack_bonus=0), me(), foe(20), Options(confirm_crits=False))
    assert col_p(t, pl.col("threat")) == pytest.approx(1 / 20)


def test_crit_x3_damage_exact():
    """20x3 with '1d4+1': crit = three rolls of 1d4+1 = 3d4+3, exact against brute enumeration."""
    t = U.outcomes(Attack("A", "1d4+1", crit="20x3", attack_bonus=50), me(), foe(0), Options(confirm_crits=False))
    crit = t.filter(pl.col("crit"))
    got = {d: p * 20 for d, p in zip(crit["damage"], crit["probability"])}
    want = {}
    for a in range(1, 5):
        for b in range(1, 5):
            for c in range(1, 5):
                want[a + b + c + 3] = want.get(a + b + c + 3, 0) + 1 / 64
    assert got == pytest.approx(want)
