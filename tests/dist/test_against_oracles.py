"""workbench.Dist constructors and operations against icepool and dyce (to 1e-12): dice, pools, keep
highest/lowest, mixtures, convolution, max/min, map, clip, scale, statistics, quantiles, FFT sums,
mean rounds to kill.
"""

from __future__ import annotations

from fractions import Fraction

import icepool
from dyce import H
from hypothesis import given
from hypothesis import strategies as st

from tests.dist.strategies import dice_pairs
from tests.oracles import assert_dist_close, from_dyce, from_icepool
from workbench import Dist


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
