"""Dist operations check their operands and count their result's support before allocating
(issue 35): a non-Dist operand, NaN, a non-function or a result past MAX_SUPPORT is a RulesError
naming the argument, never AttributeError, IndexError, MemoryError or a wrong number."""

from __future__ import annotations

import math

import numpy as np
import pytest

from workbench import Dist, RulesError
from workbench.limits import MAX_SUPPORT


@pytest.mark.parametrize("op", ["max_with", "min_with"])
@pytest.mark.parametrize("other", [3, 2.5, None, "d6", [1, 2]])
def test_max_and_min_with_refuse_what_is_not_a_dist(op, other):
    with pytest.raises(RulesError) as e:
        getattr(Dist.die(6), op)(other)
    assert e.value.field == "other" and "Dist.constant" in e.value.message


@pytest.mark.parametrize("other", [0, None, np.arange(3)])
def test_combine_refuses_what_is_not_a_dist(other):
    with pytest.raises(RulesError) as e:
        Dist.die(6).combine(other, np.add)
    assert e.value.field == "other"


def test_combine_refuses_a_function_that_is_none_or_fails():
    with pytest.raises(RulesError) as e:
        Dist.die(6).combine(Dist.die(6), 5)
    assert e.value.field == "func"
    with pytest.raises(RulesError) as e:
        Dist.die(6).combine(Dist.die(6), lambda x, y: x // 0 + {}[1])
    assert e.value.field == "func" and "KeyError" in e.value.message
    with pytest.raises(RulesError) as e:
        Dist.die(6).map(lambda x: x[99])
    assert e.value.field == "func" and "IndexError" in e.value.message


def test_combine_counts_its_pairs_before_allocating():
    # issue 35: Dist.uniform(1, 10**7) combined with itself asked numpy for 728 TiB
    big = Dist.uniform(1, 10**7)
    with pytest.raises(RulesError) as e:
        big.combine(big, np.multiply)
    assert e.value.field == "other" and f"{MAX_SUPPORT}" in e.value.message and "limits" in e.value.rule
    side = math.isqrt(MAX_SUPPORT)  # the largest square that fits still runs
    assert Dist.die(side).combine(Dist.constant(1), np.multiply).isclose(Dist.die(side))


def test_max_with_spans_only_its_result():
    # issue 35: asked 7.28 TiB for a grid from -10**12 to 0; max(X, Y) is exactly 0 here
    assert Dist.constant(-(10**12)).max_with(Dist.constant(0)).to_dict() == {0: 1.0}
    assert Dist.constant(10**12).min_with(Dist.constant(-(10**12))).to_dict() == {-(10**12): 1.0}
    # and the result still matches the definition on overlapping supports
    x, y = Dist.die(6), Dist.die(4) + 3
    brute = x.combine(y, np.maximum)
    assert x.max_with(y).isclose(brute) and x.min_with(y).isclose(x.combine(y, np.minimum))


def test_sum_of_two_long_dists_counts_its_support():
    wide = Dist.uniform(0, MAX_SUPPORT - 1)
    with pytest.raises(RulesError) as e:
        wide + wide
    assert e.value.field == "other"


def test_isclose_of_far_apart_dists_allocates_nothing_of_their_gap():
    a, b = Dist.constant(-(10**12)), Dist.constant(10**12)
    assert not a.isclose(b) and a.isclose(Dist.constant(-(10**12)))
    assert Dist.die(6).isclose(Dist.die(6)) and not Dist.die(6).isclose(Dist.die(6) + 1)


@pytest.mark.parametrize("method", ["cdf", "sf"])
@pytest.mark.parametrize("x", [math.nan, np.array([1.0, math.nan]), "3", True, None])
def test_cdf_and_sf_refuse_nan_and_non_numbers(method, x):
    # issue 35: cdf(nan) raised IndexError
    with pytest.raises(RulesError) as e:
        getattr(Dist.die(6), method)(x)
    assert e.value.field == "x"


def test_cdf_and_sf_at_infinity_and_in_between():
    d = Dist.die(6)
    assert d.cdf(math.inf) == 1.0 and d.cdf(-math.inf) == 0.0 and d.sf(math.inf) == 0.0 and d.sf(-math.inf) == 1.0
    assert d.cdf(3.5) == pytest.approx(0.5) and d.sf(3.5) == pytest.approx(0.5)


@pytest.mark.parametrize("q", [math.nan, np.array([0.5, math.nan]), "0.5", None, 1.5, -0.1])
def test_quantile_refuses_nan_non_numbers_and_out_of_range(q):
    # issue 35: quantile(nan) returned 6
    with pytest.raises(RulesError) as e:
        Dist.die(6).quantile(q)
    assert e.value.field == "q"
