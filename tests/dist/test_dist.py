"""workbench.Dist checked against icepool and dyce (to 1e-12) and by properties."""

from __future__ import annotations

from fractions import Fraction

import icepool
import numpy as np
import pytest
from dyce import H
from hypothesis import given
from hypothesis import strategies as st

from workbench import Dist, RulesError

from tests.oracles import assert_dist_close, from_dyce, from_icepool

# Small integer-weighted dice: exact in icepool (integer quantities), exact enough in float64.
weights = st.lists(st.integers(0, 9), min_size=1, max_size=8).filter(lambda w: sum(w) > 0)
offsets = st.integers(-5, 10)


@st.composite
def dice_pairs(draw):
    """Return (Dist, icepool.Die) describing the same random die."""
    w = draw(weights)
    off = draw(offsets)
    ice = icepool.Die({off + i: q for i, q in enumerate(w) if q})
    return Dist(np.array(w, dtype=float) / sum(w), off), ice


# ------------------------------------------------------------------ constructors vs oracles
@given(st.integers(1, 30))
def test_die_matches_icepool(sides):
    assert_dist_close(Dist.die(sides), from_icepool(icepool.d(sides)))


@given(st.integers(0, 12), st.integers(2, 20))
def test_n_dice_match_icepool_and_dyce(n, sides):
    ours = Dist.dice(n, sides)
    assert_dist_close(ours, from_icepool(n @ icepool.d(sides)))
    if n:
        assert_dist_close(ours, from_dyce(n @ H(sides)))


@given(st.integers(0, 20), st.integers(2, 12), st.data())
def test_success_pool_matches_icepool_and_dyce(n, sides, data):
    k = data.draw(st.integers(1, sides))
    ours = Dist.pool(n, sides, k)
    assert_dist_close(ours, from_icepool(n @ icepool.d(sides).map(lambda x: int(x >= k))))
    if n:
        assert_dist_close(ours, from_dyce(n @ H(sides).ge(k)))


@given(st.integers(2, 12), st.integers(1, 6), st.data())
def test_keep_highest_and_lowest_match_icepool(sides, n, data):
    keep = data.draw(st.integers(1, n))
    assert_dist_close(Dist.highest(sides, n, keep), from_icepool(icepool.d(sides).highest(n, keep)))
    assert_dist_close(Dist.lowest(sides, n, keep), from_icepool(icepool.d(sides).lowest(n, keep)))


@given(dice_pairs(), st.integers(1, 5), st.data())
def test_keep_highest_of_custom_die_matches_icepool(pair, n, data):
    ours, ice = pair
    keep = data.draw(st.integers(1, n))
    assert_dist_close(Dist.highest(ours, n, keep), from_icepool(ice.highest(n, keep)))
    assert_dist_close(Dist.lowest(ours, n, keep), from_icepool(ice.lowest(n, keep)))


@given(dice_pairs(), dice_pairs(), st.integers(1, 5), st.integers(1, 5))
def test_mixture_matches_icepool(a, b, wa, wb):
    ours = Dist.mixture([a[0], b[0]], [wa, wb])
    assert_dist_close(ours, from_icepool(icepool.Die([a[1], b[1]], times=[wa, wb])))


@given(dice_pairs(), dice_pairs())
def test_convolution_matches_icepool(a, b):
    assert_dist_close(a[0] + b[0], from_icepool(a[1] + b[1]))
    assert_dist_close(a[0] - b[0], from_icepool(a[1] - b[1]))


@given(dice_pairs(), st.integers(0, 40))
def test_n_fold_sum_by_squaring_matches_icepool(a, n):
    assert_dist_close(n @ a[0], from_icepool(n @ a[1]))
    assert_dist_close(a[0].sum_of(n), from_icepool(n @ a[1]))


@given(dice_pairs(), dice_pairs())
def test_max_min_of_two_match_icepool(a, b):
    assert_dist_close(a[0].max_with(b[0]), from_icepool(icepool.highest(a[1], b[1])))
    assert_dist_close(a[0].min_with(b[0]), from_icepool(icepool.lowest(a[1], b[1])))


@given(dice_pairs(), st.integers(-3, 3), st.integers(0, 4))
def test_map_matches_icepool(a, k, m):
    f = lambda x: (x * k) % (m + 1) - x // 2  # noqa: E731 - any integer function will do
    assert_dist_close(a[0].map(f), from_icepool(a[1].map(f)))


@given(dice_pairs(), st.integers(-5, 5))
def test_clip_at_zero_matches_icepool(a, lo):
    assert_dist_close(a[0].clip(0), from_icepool(a[1].map(lambda x: max(x, 0))))
    assert_dist_close(a[0].clip(lo, lo + 3), from_icepool(a[1].map(lambda x: min(max(x, lo), lo + 3))))


@given(dice_pairs(), st.sampled_from([Fraction(1, 2), Fraction(1, 4), Fraction(3, 2), Fraction(2), Fraction(2, 3)]))
def test_scale_rounding_modes_match_exact_fractions(a, f):
    floor = a[1].map(lambda x: (Fraction(x) * f).__floor__())
    half_up = a[1].map(lambda x: (Fraction(x) * f + Fraction(1, 2)).__floor__())
    assert_dist_close(a[0].scale(f, "floor"), from_icepool(floor))
    assert_dist_close(a[0].scale(f, "nearest_half_up"), from_icepool(half_up))


@given(dice_pairs(), st.integers(-8, 20))
def test_statistics_match_icepool(a, x):
    ours, ice = a
    assert abs(ours.mean() - float(ice.mean())) < 1e-12
    assert abs(ours.std() - ice.standard_deviation()) < 1e-12
    denom = ice.denominator()
    assert abs(ours.cdf(x) - ice.quantity("<=", x) / denom) < 1e-12
    assert abs(ours.sf(x) - ice.quantity(">=", x) / denom) < 1e-12


@given(dice_pairs(), st.integers(1, 99))
def test_quantile_is_smallest_outcome_reaching_q(a, pct):
    ours, ice = a
    q = pct / 100
    x = ours.quantile(q)
    exact_cdf = lambda v: Fraction(ice.quantity("<=", v), ice.denominator())  # noqa: E731
    assert exact_cdf(x) >= Fraction(pct, 100) - Fraction(1, 10**12)
    assert exact_cdf(x - 1) < Fraction(pct, 100)


def test_long_support_uses_fft_and_stays_exact():
    """Thousands of points: FFT convolution agrees with exact (icepool) arithmetic to 1e-12."""
    a = Dist.dice(40, 30)  # support 40..1200
    b = Dist.dice(30, 40)
    from workbench.dist import _FFT_MIN_WORK

    assert a.pmf.size * b.pmf.size > _FFT_MIN_WORK
    assert_dist_close(a + b, from_icepool(40 @ icepool.d30 + 30 @ icepool.d40))


def test_mean_rounds_to_kill_matches_icepool_mean_time_to_sum():
    turn = Dist.dice(2, 6) - 3  # can be negative: clip so that a turn deals 0 or more
    turn = turn.clip(0)
    ice = (2 @ icepool.d6 - 3).map(lambda x: max(x, 0))
    from workbench import mean_rounds_to_kill

    for hp in (1, 7, 40, 150):
        assert abs(mean_rounds_to_kill(turn, hp) - float(ice.mean_time_to_sum(hp))) < 1e-12


# ------------------------------------------------------------------ properties
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
