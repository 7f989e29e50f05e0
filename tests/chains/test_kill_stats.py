"""The kill statistics of every compare row (workbench.chains.kill_stats) against one-at-a-time
oracles: the one matchup's chain, zero past the support, two pools by hand.
"""

from __future__ import annotations

import numpy as np
import pytest

import workbench as wb
from workbench.chains import kill_stats

TOL = 1e-12


def test_kill_stats_equal_the_one_matchup_chain():
    rng = np.random.default_rng(3)
    T = rng.random((40, 9)) * (rng.random((40, 9)) < 0.6)
    T[:, 0] += 0.05
    T[5] = 0.0
    T[5, 0] = 1.0  # never damages
    T /= T.sum(axis=1, keepdims=True)
    ti = rng.integers(0, 40, 400)
    hp = rng.integers(1, 70, 400)
    out = kill_stats(T, ti, hp[:, None], max_rounds=60, chain=True)
    for i in range(0, 400, 37):
        if T[ti[i], 1:].sum() == 0:
            assert np.isinf(out["mean_rounds"][i]) and np.all(out["p_killed_by"][i] == 0)
            continue
        d = wb.Dist(T[ti[i]], 0)
        assert abs(out["mean_rounds"][i] - wb.mean_rounds_to_kill(d, int(hp[i]))) < 1e-9
        assert abs(out["p_kill_one_turn"][i] - d.sf(int(hp[i]))) < TOL
        by = wb.rounds_to_kill(d, hp=int(hp[i]))["p_killed_by"].to_numpy()[:60]
        assert np.abs(out["p_killed_by"][i, : by.size] - by).max() < 1e-12


def test_kill_chance_past_the_support_is_exactly_zero():
    """A turn dealing at most 3 cannot kill 4 HP in one turn: exactly 0, not rounding noise."""
    T = np.array([[0.1, 0.2, 0.3, 0.4]])
    out = kill_stats(T, np.array([0, 0]), np.array([[4], [3]]), max_rounds=5)
    assert out["p_kill_one_turn"][0] == 0.0
    assert abs(out["p_kill_one_turn"][1] - 0.4) < TOL


def test_two_pool_kill_stats_hand_worked():
    """annulus-attacks.txt: "Endurance is removed first, then Vitality"; Vital goes "directly at
    Vitality". Endurance 1, Vitality 1; a turn deals 1 regular (1/2), 1 vital (1/4) or nothing (1/4).
    One turn kills only by the vital point: P = 1/4. Two turns kill unless both are nothing or the
    first regular point is followed by nothing / nothing then a regular point: alive after 2 turns
    = P(0,0) + P(1r,0) + P(0,1r) = 1/16 + 1/8 + 1/8 = 5/16, so P(T <= 2) = 11/16."""
    J = np.zeros((1, 2, 2))
    J[0, 1, 0], J[0, 0, 1], J[0, 0, 0] = 0.5, 0.25, 0.25
    out = kill_stats(J, np.array([0]), np.array([[1, 1]]), max_rounds=3, chain=True)
    assert abs(out["p_killed_by"][0, 0] - 0.25) < TOL
    assert abs(out["p_killed_by"][0, 1] - 11 / 16) < TOL
    # mean: damaging steps Y (regular 2/3, vital 1/3): K = 1 w.p. 1/3, else 2: E[K] = 5/3; / P(dmg) 3/4
    assert abs(out["mean_rounds"][0] - (5 / 3) / 0.75) < TOL


def test_rounds_from_damaging_steps_equal_the_binomial_sum():
    """P(T <= t) = sum_k P(K = k) P(Binomial(t, p) >= k): by_round_from_steps equals that sum (scipy's
    binomial survival function) to 1e-12 for rows of different step counts and chances (each row its
    own chance: one gathered product per block of rows)."""
    from scipy.stats import binom

    from workbench.chains import by_round_from_steps

    rng = np.random.default_rng(4)
    steps = np.zeros((6, 9))
    steps[0, 0] = 1.0  # one step, p 0.99: done after a few rounds
    steps[1, :2] = [0.25, 0.75]
    for i in range(2, 6):
        w = rng.random(int(rng.integers(3, 10)))
        steps[i, : w.size] = w / w.sum()
    p = np.array([0.99, 0.9, 0.5, 0.2, 0.05, 0.7])
    got = by_round_from_steps(steps, p, 60)
    t = np.arange(1, 61)
    want = np.array([[steps[i] @ binom.sf(np.arange(9), r, p[i]) for r in t] for i in range(6)])
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)
    assert abs(got[0, -1] - 1.0) < 1e-15 and got[4, -1] < 1 - 1e-6  # the quick row is done; the slow one still moves
    assert np.all(np.diff(got, axis=1) >= -1e-15)  # P(T <= t) never falls


@pytest.mark.parametrize("cells", [None, 64])
def test_rows_sharing_a_chance_share_its_binomial_table(monkeypatch, cells):
    """Many rows over few chances (one turn against many pools): one product per chance, the same
    binomial sum to 1e-12, each row as if alone; ``cells=64`` forces the table into chunks of rounds."""
    from scipy.stats import binom

    import workbench.chains as chains

    if cells is not None:
        monkeypatch.setattr(chains, "_BINOMIAL_CELLS", cells)
    rng = np.random.default_rng(7)
    steps = rng.random((40, 5))
    steps /= steps.sum(axis=1, keepdims=True)
    chance = np.array([0.3, 0.75, 0.5])
    p = chance[rng.integers(0, 3, 40)]
    got = chains.by_round_from_steps(steps, p, 25)
    want = np.array([[steps[i] @ binom.sf(np.arange(5), r, p[i]) for r in range(1, 26)] for i in range(40)])
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)
    alone = chains.by_round_from_steps(steps[7:8], p[7:8], 25)
    np.testing.assert_allclose(got[7], alone[0], rtol=0, atol=1e-15)


def test_no_steps_never_kill():
    """Rows with no damaging-step chance at all (K = 0 columns) are never killed, in both forms of
    the product (each row its own chance, and rows sharing one)."""
    from workbench.chains import by_round_from_steps

    assert not by_round_from_steps(np.zeros((3, 0)), np.array([0.2, 0.5, 0.9]), 4).any()
    assert not by_round_from_steps(np.zeros((30, 0)), np.full(30, 0.5), 2).any()


def test_rows_not_chained_keep_their_turn_columns_and_the_rest_are_unchanged():
    """``chained=False`` rows (compare's rows with state, whose kill columns come from their own
    fight) get the turn's damage columns and no chain; every other row is as without the mask."""
    from workbench.memo import MEMO

    T = np.array([[0.5, 0.25, 0.25], [0.2, 0.0, 0.8]])
    ti = np.array([0, 1, 0, 1])
    hp = np.array([[3], [4], [2], [5]])
    MEMO.clear()
    whole = kill_stats(T, ti, hp, max_rounds=30, chain=True)
    mask = np.array([True, False, True, False])
    part = kill_stats(T, ti, hp, max_rounds=30, chain=True, chained=mask)
    for k, v in whole.items():
        assert np.array_equal(part[k][mask], v[mask], equal_nan=True), k
    # the turn, by hand: turn 1 deals 2 with 0.8, so mean 1.6 and sd sqrt(0.8*4 - 1.6**2) = 0.8
    assert part["mean_turn_damage"][1] == pytest.approx(1.6, abs=TOL)
    assert part["sd_turn_damage"][1] == pytest.approx(0.8, abs=TOL)
    assert np.isinf(part["mean_rounds"][1]) and np.all(part["p_killed_by"][1] == 0)
    assert np.isfinite(whole["mean_rounds"][1])  # the chain would have given it a number


def test_a_repeated_call_is_read_back_as_a_copy():
    """kill_stats keeps its result in the bounded memo by the contents of its arrays: the same
    arrays again give equal numbers, and changing what was returned changes no later call."""
    from workbench.memo import MEMO

    T = np.array([[0.5, 0.25, 0.25]])
    MEMO.clear()
    first = kill_stats(T, np.zeros(3, dtype=np.int64), np.array([[1], [2], [3]]), max_rounds=20)
    kept = len(MEMO)
    first["mean_rounds"][:] = -1.0
    again = kill_stats(T.copy(), np.zeros(3, dtype=np.int64), np.array([[1], [2], [3]]), max_rounds=20)
    assert len(MEMO) == kept  # read back, not solved again
    # E[rounds to deal 1] = 1 / P(damage > 0) = 2
    assert again["mean_rounds"][0] == pytest.approx(2.0, abs=TOL)
    other = kill_stats(T, np.zeros(3, dtype=np.int64), np.array([[1], [2], [4]]), max_rounds=20)
    assert len(MEMO) == kept + 1 and other["mean_rounds"][2] > again["mean_rounds"][2]
