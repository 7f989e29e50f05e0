"""Unbound outcome tables, the reference scenario's pieces: probabilities sum to one, one matchup is
the 1 x 1 grid, the hand-worked mean (unbound-d20-attacking.txt; CLARIFICATIONS.md, Unbound).
"""

from fractions import Fraction as F

import polars as pl
import pytest

from tests.systems.unbound.builders import Attack, U, foe, me


def test_outcome_table_probabilities_sum_to_one_and_rows_unique():
    atk = [Attack("S", "2d6-1", crit="18-20x3", attack_bonus=b) for b in range(-3, 12)]
    n = len(atk)
    t = U.outcome_tables(atk, [me()] * n, [foe(15)] * n)
    sums = t.group_by("matchup").agg(pl.col("probability").sum()).sort("matchup")
    assert sums["matchup"].to_list() == list(range(n))
    assert max(abs(x - 1) for x in sums["probability"]) < 1e-12
    assert t.select("matchup", "damage", "hit", "threat", "crit").is_duplicated().sum() == 0
    assert t.schema["damage"] == pl.Int64 and t.schema["probability"] == pl.Float64


def test_single_matchup_is_the_1x1_grid():
    a, c, t = Attack("S", "1d8", attack_bonus=3), me(), foe(14)
    grid = U.outcome_tables([a, a], [c, c], [foe(20), t])
    one = U.outcomes(a, c, t)
    assert grid.filter(pl.col("matchup") == 1).drop("matchup").equals(one)


def test_hand_worked_mean():
    """+4 vs AC 14, 1d8 (str 0), 20x2 confirmed: P(hit)=11/20, P(crit)=1/20*11/20;
    mean = 11/20*4.5 + P(crit)*4.5."""
    d = U.damage(Attack("S", "1d8", attack_bonus=4), me(), foe(14))
    assert d.mean() == pytest.approx(float(F(11, 20) * F(9, 2) + F(1, 20) * F(11, 20) * F(9, 2)), abs=1e-12)
