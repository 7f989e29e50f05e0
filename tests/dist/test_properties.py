"""workbench.Dist properties: probabilities sum to one and means add, keep highest dominates keep
lowest, hand-worked values, polars columns and repr, equality within tolerance, bad input raising
RulesError naming the field.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.dist.strategies import dice_pairs
from workbench import Dist, RulesError


@given(dice_pairs(), dice_pairs())
def test_probabilities_sum_to_one_and_means_add(a, b):
    s = a[0] + b[0]
    assert abs(s.pmf.sum() - 1.0) < 1e-12
    assert abs(s.mean() - (a[0].mean() + b[0].mean())) < 1e-12


@given(st.integers(2, 12), st.integers(2, 6), st.data())
def test_keep_highest_dominates_keep_lowest(sides, n, data):
    keep = data.draw(st.integers(1, n))
    hi, lo = Dist.highest(sides, n, keep), Dist.lowest(sides, n, keep)
    xs = np.arange(0, sides * keep + 2)
    assert np.all(hi.cdf(xs) <= lo.cdf(xs) + 1e-12)  # first-order stochastic dominance
    assert hi.mean() >= lo.mean() - 1e-12


def test_hand_worked_values():
    """Numbers worked out by hand."""
    assert Dist.dice(2, 6).probability(7) == pytest.approx(6 / 36, abs=1e-15)
    assert Dist.pool(4).probability(2) == pytest.approx(6 / 16, abs=1e-15)  # C(4,2)/2^4
    assert Dist.highest(20, 2).probability(20) == pytest.approx(39 / 400, abs=1e-15)
    assert Dist.die(6).scale(Fraction(1, 2), "nearest_half_up").to_dict() == pytest.approx({1: 1 / 3, 2: 1 / 3, 3: 1 / 3})
    assert Dist.die(6).quantile(0.5) == 3
    assert Dist.constant(3).mean() == 3 and Dist.constant(3).std() == 0


def test_to_polars_columns_and_repr():
    df = Dist.dice(2, 6).to_polars()
    assert df.columns == ["damage", "probability"]
    assert df.height == 11 and abs(df["probability"].sum() - 1) < 1e-12
    assert "mean=7" in repr(Dist.dice(2, 6))


def test_equality_is_within_tolerance():
    a = Dist.die(6)
    b = Dist(a.pmf + np.array([1e-13, -1e-13, 0, 0, 0, 0]), 1)
    assert a == b
    assert a != Dist.die(8)


@pytest.mark.parametrize(
    "call, field",
    [
        (lambda: Dist([0.5, 0.6]), "pmf"),
        (lambda: Dist([-0.5, 1.5]), "pmf"),
        (lambda: Dist([]), "pmf"),
        (lambda: Dist.die(0), "sides"),
        (lambda: Dist.die(2.5), "sides"),
        (lambda: Dist.pool(-1), "n"),
        (lambda: Dist.highest(6, 2, 3), "keep"),
        (lambda: Dist.die(6).scale(2, "banker"), "rounding"),
        (lambda: Dist.mixture([]), "dists"),
        (lambda: Dist.die(6).quantile(1.5), "q"),
    ],
)
def test_bad_input_raises_rules_error_naming_the_field(call, field):
    with pytest.raises(RulesError) as err:
        call()
    assert err.value.field == field
    assert field in str(err.value)
