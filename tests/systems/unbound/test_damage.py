"""Unbound damage: Strength on melee only, never below zero and the minimum option, sum notation
(unbound-d20-attacking.txt; CLARIFICATIONS.md, Unbound).
"""

import polars as pl
import pytest

from tests.systems.unbound.builders import Attack, Options, U, col_p, foe, me


def test_melee_damage_adds_strength_ranged_does_not():
    """CLARIFICATIONS.md, Unbound: 'Melee damage adds the Strength modifier; ranged and spell damage add nothing'."""
    o = Options(confirm_crits=False)
    t = U.outcomes(Attack("Sword", "1d8", attack_bonus=50, crit="20x2"), me(str_mod=2), foe(0), o)
    normal = t.filter(pl.col("hit") & ~pl.col("threat"))
    assert sorted(normal["damage"].to_list()) == list(range(3, 11))
    t = U.outcomes(Attack("Bow", "1d8", "ranged", range_increment=60, attack_bonus=50), me(str_mod=2), foe(0), o)
    assert sorted(t.filter(pl.col("hit") & ~pl.col("threat"))["damage"].to_list()) == list(range(1, 9))


def test_damage_never_below_zero_and_minimum_option():
    """Text states no minimum damage: a hit of 1d4-3 deals max(0, roll) (P(0 | hit) = 3/4);
    Options.minimum_damage=1 makes it at least 1."""
    a = Attack("Weak", "1d4-3", attack_bonus=50, crit="20x2")
    o = Options(confirm_crits=False)
    t = U.outcomes(a, me(), foe(0), o)
    hit_plain = t.filter(pl.col("hit") & ~pl.col("threat"))
    assert hit_plain["damage"].min() == 0
    p0 = col_p(hit_plain, pl.col("damage") == 0) / hit_plain["probability"].sum()
    assert p0 == pytest.approx(3 / 4)
    t1 = U.outcomes(a, me(), foe(0), Options(confirm_crits=False, minimum_damage=1))
    assert t1.filter(pl.col("hit"))["damage"].min() == 1
    assert col_p(t1, pl.col("damage") == 0) == pytest.approx(1 / 20)  # only the natural 1 misses


def test_sum_notation_damage():
    """'1d4+1d6' rolls both dice: 2..10 with P(7) = 4/24."""
    t = U.outcomes(Attack("Ray", "1d4+1d6", attack_bonus=50, crit="20x2"), me(), foe(0), Options(confirm_crits=False))
    plain = t.filter(pl.col("hit") & ~pl.col("threat"))
    p = dict(zip(plain["damage"], plain["probability"]))
    assert p[7] / sum(p.values()) == pytest.approx(4 / 24)
