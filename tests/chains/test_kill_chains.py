"""workbench.chains.kill_chains: hand-worked cases, independent enumeration, icepool, properties."""

from __future__ import annotations

import math
import subprocess
import sys
from fractions import Fraction

import icepool
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench import Dist, RulesError, mean_rounds_to_kill
from workbench.chains import CHAIN_TAIL, TRIM_BUDGET, kill_chains


# ------------------------------------------------------------------ independent oracles
def enumerate_hp(x, hp, rounds):
    """P(T = t), t = 1..rounds, and the alive vectors (t = 0..rounds) by plain enumeration of totals."""
    alive = {0: 1.0}
    killed, vectors = [], [alive]
    for _ in range(rounds):
        new: dict[int, float] = {}
        for s, p in alive.items():
            for d, q in enumerate(x):
                if q and s + d < hp:
                    new[s + d] = new.get(s + d, 0.0) + p * q
        killed.append(math.fsum(alive.values()) - math.fsum(new.values()))
        alive = new
        vectors.append(alive)
    dense = np.zeros((rounds + 1, hp))
    for t, v in enumerate(vectors):
        for s, p in v.items():
            dense[t, s] = p
    return np.array(killed), dense


def _pools_turn(alive, joint, endurance, vitality):
    """Return the alive (regular total, vital total) -> P after one more turn: dead once the Vitality
    lost, V + max(0, R - endurance), reaches the Vitality."""
    new: dict[tuple[int, int], float] = {}
    for (r, v), p in alive.items():
        for (dr, dv), q in np.ndenumerate(joint):
            R, V = r + dr, v + dv
            if q and V + max(0, R - endurance) < vitality:
                new[(R, V)] = new.get((R, V), 0.0) + p * q
    return new


def enumerate_pools(joint, endurance, vitality, rounds):
    """P(T = t) for the two-pool rule by enumeration of (regular total, vital total) states.

    annulus-attacks.txt: "Endurance is removed first, then Vitality if a target has no more
    Endurance. If you remove the last Vitality from a creature, that creature dies."
    """
    alive = {(0, 0): 1.0}
    killed = []
    for _ in range(rounds):
        new = _pools_turn(alive, joint, endurance, vitality)
        killed.append(math.fsum(alive.values()) - math.fsum(new.values()))
        alive = new
        if math.fsum(alive.values()) < 1e-18:
            break
    return np.concatenate((killed, np.zeros(rounds - len(killed))))


def plain_chain(x, hp, rounds):
    """P(S_t < hp), t = 1..rounds, by the full-width chain with no window and no trimming."""
    alive = np.zeros(hp)
    alive[0] = 1.0
    out = []
    for _ in range(rounds):
        alive = np.convolve(alive, x)[:hp]
        out.append(alive.sum())
    return np.array(out)


turn_weights = st.lists(st.integers(0, 6), min_size=2, max_size=7).filter(lambda w: sum(w[1:]) > 0)


def pmf(w):
    return np.array(w, dtype=float) / sum(w)


# ------------------------------------------------------------------ hand-worked
def test_d2_against_3_hp_by_hand():
    """A turn dealing 1 or 2 (1/2 each) against 3 HP.

    One turn deals at most 2 < 3: P(T = 1) = 0. After two turns the total is 2 (1+1, 1/4),
    3 (1+2 or 2+1, 1/2) or 4 (2+2, 1/4): dead unless 1+1, so P(T = 2) = 3/4; from 2 any third
    turn kills: P(T = 3) = 1/4. E[T] = 2 * 3/4 + 3 * 1/4 = 9/4.
    Alive vectors by damage 0, 1, 2: t = 0 (1, 0, 0); t = 1 (0, 1/2, 1/2); t = 2 (0, 0, 1/4).
    """
    c = kill_chains(np.array([0.0, 0.5, 0.5]), np.array([3]), weights=np.array([[1.0, 1.0, 1.0]]))
    assert c.killed.shape == (1, 3)
    assert np.all(np.abs(c.killed[0] - [0.0, 0.75, 0.25]) <= 1e-15)
    assert abs(c.mean[0] - 2.25) <= 1e-15
    assert c.rounds[0] == 3 and c.alive[0] == 0.0 and c.dropped[0] == 0.0
    assert np.all(np.abs(c.weighted[0] - [1.0, 0.5, 0.75]) <= 1e-15)


def test_zero_damage_turns_stretch_time_by_hand():
    """0 with probability 1/2, else 1, against 2 HP: T is the time of the 2nd success of a fair
    coin, P(T = t) = (t - 1) / 2^t, E[T] = 2 / (1/2) = 4."""
    c = kill_chains(np.array([0.5, 0.5]), np.array([2]))
    assert abs(c.mean[0] - 4.0) <= 1e-15
    t = np.arange(1, 11)
    assert np.all(np.abs(c.killed[0, :10] - (t - 1) / 2.0**t) <= 1e-15)
    assert c.alive[0] < CHAIN_TAIL


def test_two_pools_by_hand():
    """Endurance 1, Vitality 1; a turn deals 1 regular or 1 vital damage (1/2 each).

    Round 1: vital kills at once (Vitality 0), regular takes the Endurance: P(T = 1) = 1/2. Round
    2 from (R, V) = (1, 0): either 1 more regular (Vitality lost 0 + max(0, 2 - 1) = 1) or 1
    vital kills: P(T = 2) = 1/2, E[T] = 3/2. Alive after round 1: total damage 1 with 1/2.
    """
    joint = np.array([[0.0, 0.5], [0.5, 0.0]])
    c = kill_chains(joint, np.array([[1, 1]]), channels=2, weights=np.array([[0.0, 1.0]]))
    assert np.all(np.abs(c.killed[0] - [0.5, 0.5]) <= 1e-15)
    assert abs(c.mean[0] - 1.5) <= 1e-15 and c.rounds[0] == 2
    assert np.all(np.abs(c.weighted[0] - [0.0, 0.5]) <= 1e-15)


def test_vital_damage_ignores_endurance_by_hand():
    """Endurance 3, Vitality 2, a turn of exactly 1 vital: dead after 2 turns whatever the
    Endurance ("strikes directly at Vitality"); exactly 1 regular needs 3 + 2 = 5 turns."""
    vital = np.array([[0.0, 1.0]])
    regular = np.array([[0.0], [1.0]])
    c = kill_chains([vital, regular], np.array([[3, 2], [3, 2]]), channels=2)
    assert c.rounds.tolist() == [2, 5]
    assert c.mean.tolist() == [2.0, 5.0]
    assert c.killed[0].tolist() == [0.0, 1.0, 0.0, 0.0, 0.0]


def test_never_damaging_rows_leave_at_once():
    c = kill_chains(
        np.array([[1.0, 0.0], [0.5, 0.5]]), np.array([5, 5, 3]), np.array([0, 1, 0]), weights=np.ones((3, 4))
    )
    assert c.rounds[[0, 2]].tolist() == [0, 0] and c.alive[[0, 2]].tolist() == [1.0, 1.0]
    assert np.all(np.isinf(c.mean[[0, 2]])) and np.all(c.killed[[0, 2]] == 0.0)
    assert c.weighted[0].tolist() == [4.0, 0, 0, 0, 0]  # 4 rounds untouched, damage 0
    assert np.isfinite(c.mean[1])
    j = kill_chains(np.array([[1.0, 0.0]]), np.array([[2, 3]]), channels=2)
    assert j.rounds[0] == 0 and j.alive[0] == 1.0 and np.isinf(j.mean[0]) and j.killed.shape == (1, 0)


def test_a_row_stopped_by_max_rounds_reports_its_alive_mass():
    c = kill_chains(np.array([0.0, 0.5, 0.5]), np.array([100]), max_rounds=3)
    assert c.rounds[0] == 3 and c.alive[0] == 1.0 and np.all(c.killed == 0.0)
    full = kill_chains(np.array([0.0, 0.5, 0.5]), np.array([100]))  # converged: the mean from the chain
    assert abs(c.mean[0] - full.mean[0]) <= 1e-13 * full.mean[0]  # stopped: the renewal measure
    j = kill_chains(np.array([[0.5, 0.5]]), np.array([[0, 40]]), channels=2, max_rounds=5)
    assert j.rounds[0] == 5 and np.isnan(j.mean[0]) and abs(j.alive[0] - 1.0) < 1e-15


# ------------------------------------------------------------------ oracles
@settings(max_examples=300)
@given(turn_weights, st.integers(1, 30))
def test_hp_chain_matches_enumeration(w, hp):
    x = pmf(w)
    c = kill_chains(x, np.array([hp]), weights=np.linspace(0.0, 1.0, 12)[None, :])
    R = int(c.rounds[0])
    killed, vectors = enumerate_hp(x, hp, max(R, 11))
    assert np.all(np.abs(c.killed[0, :R] - killed[:R]) <= 1e-12)
    assert np.all(np.abs(c.weighted[0] - np.linspace(0.0, 1.0, 12) @ vectors[:12]) <= 1e-12)
    assert abs(math.fsum(killed[:R]) + c.alive[0] - 1.0) <= 1e-12 and c.alive[0] < CHAIN_TAIL


@settings(max_examples=300)
@given(turn_weights, st.integers(1, 60))
def test_mean_matches_icepool_mean_time_to_sum(w, hp):
    ice = icepool.Die({i: q for i, q in enumerate(w) if q})
    assert abs(kill_chains(pmf(w), np.array([hp])).mean[0] - float(ice.mean_time_to_sum(hp))) <= 1e-12


@settings(max_examples=200)
@given(
    st.lists(st.integers(0, 4), min_size=6, max_size=6).filter(lambda w: sum(w[1:]) > 0),
    st.integers(0, 6),
    st.integers(1, 6),
)
def test_two_pool_chain_matches_enumeration(w, endurance, vitality):
    joint = np.array(w, dtype=float).reshape(3, 2) / sum(w)  # regular 0..2, vital 0..1
    c = kill_chains(joint, np.array([[endurance, vitality]]), channels=2)
    R = int(c.rounds[0])
    killed = enumerate_pools(joint, endurance, vitality, R)
    assert np.all(np.abs(c.killed[0, :R] - killed) <= 1e-12)
    t = np.arange(1, R + 1)
    assert abs(c.mean[0] - float(t @ killed)) <= 1e-9 * max(1.0, c.mean[0])


def _pools_alive_by_total(joint, endurance, vitality, rounds):
    """Alive mass by total damage taken (r + v) after t = 0..rounds turns, by enumeration."""
    alive = {(0, 0): 1.0}
    out = np.zeros((rounds + 1, endurance + vitality))
    for t in range(rounds + 1):
        for (r, v), p in alive.items():
            out[t, r + v] += p
        alive = _pools_turn(alive, joint, endurance, vitality)
    return out


@pytest.mark.parametrize("cells", [None, 64])
def test_one_joint_serves_many_pools(monkeypatch, cells):
    """One turn against many (endurance, vitality) pools is chained once for all of them (the totals'
    region of each pool is a down-set: mass that leaves it never returns); each pool still gets the
    enumerated kill chances and, with weights, the enumerated alive mass by damage taken. With
    ``cells`` the region masks go in parts (_POOL_CELLS), with the same numbers."""
    import workbench.chains as chains

    if cells is not None:
        monkeypatch.setattr(chains, "_POOL_CELLS", cells)
    rng = np.random.default_rng(11)
    joint = rng.integers(0, 4, size=(4, 3)).astype(float)
    joint[0, 0] += 2
    joint /= joint.sum()
    pools = np.array([[0, 1], [3, 2], [7, 1], [2, 5], [9, 4], [3, 2]])
    W = rng.random((pools.shape[0], 6))
    c = kill_chains(joint, pools, np.zeros(pools.shape[0], dtype=int), channels=2, weights=W)
    for i, (e, v) in enumerate(pools.tolist()):
        R = int(c.rounds[i])
        assert np.all(np.abs(c.killed[i, :R] - enumerate_pools(joint, e, v, R)) <= 1e-12)
        assert c.alive[i] < CHAIN_TAIL and np.all(c.killed[i, R:] == 0.0)
        by_total = _pools_alive_by_total(joint, e, v, 5)
        assert np.all(np.abs(c.weighted[i, : e + v] - W[i] @ by_total) <= 1e-12)
        assert np.all(c.weighted[i, e + v :] == 0.0)
        alone = kill_chains(joint, pools[i : i + 1], channels=2)  # the 1 x 1 case
        assert abs(alone.mean[0] - c.mean[i]) <= 1e-12 * c.mean[i]


def test_window_trimming_agrees_with_the_untrimmed_chain():
    """HP in the hundreds to thousands run on trimmed windows: equal to the full-width chain to 1e-12, and the
    mass dropped stays under TRIM_BUDGET."""
    rng = np.random.default_rng(5)
    for _ in range(12):
        w = rng.integers(0, 6, size=rng.integers(3, 25)).astype(float)
        w[0] = rng.integers(0, 30)
        w[-1] = max(w[-1], 1.0)
        x = w / w.sum()
        hps = rng.integers(257, 2500, size=3)
        c = kill_chains(x, hps)
        for i, hp in enumerate(hps):
            R = int(c.rounds[i])
            surv = 1.0 - np.cumsum(c.killed[i, :R])  # = P(S_t < hp) less the (< 1e-18) mass dropped
            want = plain_chain(x, int(hp), R)
            assert np.all(np.abs(surv - want) <= 1e-12), hp
            assert 0.0 <= c.dropped[i] < TRIM_BUDGET
        assert np.any(c.dropped > 0)  # the windows were trimmed


def test_batched_rows_equal_rows_alone():
    rng = np.random.default_rng(7)
    X = rng.random((6, 9))
    X[:, 0] *= 4
    X /= X.sum(axis=1, keepdims=True)
    ti = rng.integers(0, 6, size=40)
    hp = rng.integers(1, 600, size=40)
    c = kill_chains(X, hp, ti, weights=rng.random((40, 20)))
    for i in range(0, 40, 7):
        one = kill_chains(X[ti[i]], hp[i : i + 1])
        R = int(one.rounds[0])
        assert c.rounds[i] == R
        assert np.all(np.abs(c.killed[i, :R] - one.killed[0]) <= 1e-12)  # dense block vs one window
        assert np.all(c.killed[i, R:] == 0.0)
        assert abs(c.mean[i] - one.mean[0]) <= 1e-12 * one.mean[0]


def test_a_turn_left_alone_in_its_group_keeps_its_own_support():
    """Once the wide turn's low HP is dead, the narrow turn runs alone in the group: its rounds equal
    the turn alone (its window grows by its own support, not the group's widest)."""
    X = np.zeros((2, 41))
    X[0] = 1 / 41
    X[1, :3] = [0.5, 0.3, 0.2]
    c = kill_chains(X, np.array([5, 900]))
    one = kill_chains(X[1], np.array([900]))
    R = int(one.rounds[0])
    assert c.rounds[1] == R and c.rounds[0] < R
    assert np.all(np.abs(c.killed[1, :R] - one.killed[0]) <= 1e-12)
    assert abs(c.mean[1] - one.mean[0]) <= 1e-12 * one.mean[0]


def test_weights_match_enumeration_across_the_window_path():
    rng = np.random.default_rng(11)
    x = pmf([3, 1, 2, 0, 1])
    hp = np.array([300, 420, 5])
    W = rng.random((3, 25))
    c = kill_chains(x, hp, weights=W, max_rounds=40)
    for i, h in enumerate(hp):
        _, vectors = enumerate_hp(x, int(h), 24)
        assert np.all(np.abs(c.weighted[i, :h] - W[i] @ vectors) <= 1e-12)
        assert np.all(c.weighted[i, h:] == 0.0)


# ------------------------------------------------------------------ properties
@settings(max_examples=200)
@given(turn_weights, st.lists(st.integers(1, 400), min_size=1, max_size=6))
def test_properties(w, hps):
    hps = np.array(sorted(hps))
    c = kill_chains(pmf(w), hps)
    assert np.all(c.killed >= 0.0)
    assert np.all(np.abs(c.killed.sum(axis=1) + c.alive + c.dropped - 1.0) <= 1e-12)
    by = np.cumsum(c.killed, axis=1)
    assert np.all(np.diff(by, axis=0) <= 1e-12)  # more HP never kills sooner (up to summation rounding)
    assert np.all(np.diff(c.mean) >= -1e-12)


def test_identical_rows_are_computed_once_and_agree():
    c = kill_chains(np.array([0.2, 0.3, 0.5]), np.array([7, 7, 9, 7]))
    assert np.array_equal(c.killed[0], c.killed[1]) and np.array_equal(c.killed[0], c.killed[3])
    assert c.killed.shape == (4, int(c.rounds.max()))


def test_bad_input_names_its_field():
    cases = [
        (lambda: kill_chains(np.array([0.5, 0.6]), np.array([3])), "turns"),
        (lambda: kill_chains(np.array([-0.5, 1.5]), np.array([3])), "turns"),
        (lambda: kill_chains(np.array([0.5, 0.5]), np.array([0])), "hp"),
        (lambda: kill_chains(np.array([0.5, 0.5]), np.array([2.5])), "hp"),
        (lambda: kill_chains(np.ones((2, 2)) / 2, np.array([3, 3, 3])), "turn_index"),
        (lambda: kill_chains(np.ones((2, 2)) / 2, np.array([3]), np.array([2])), "turn_index"),
        (lambda: kill_chains(np.array([0.5, 0.5]), np.array([3]), max_rounds=0), "max_rounds"),
        (lambda: kill_chains(np.array([0.5, 0.5]), np.array([3]), max_rounds=2, weights=np.ones((1, 4))), "weights"),
        (lambda: kill_chains(np.array([0.5, 0.5]), np.array([3]), channels=3), "channels"),
        (lambda: kill_chains(np.array([[0.5, 0.5]]), np.array([[1, 0]]), channels=2), "pools"),
        (lambda: kill_chains(np.array([[0.5, 0.5]]), np.array([3]), channels=2), "pools"),
    ]
    for call, field in cases:
        with pytest.raises(RulesError) as err:
            call()
        assert err.value.field == field


def test_importing_and_running_the_kernel_leaves_scipy_signal_alone():
    code = (
        "import sys, numpy as np; from workbench.chains import kill_chains; "
        "kill_chains(np.array([0.2, 0.3, 0.5]), np.array([5, 900])); "
        "print('scipy.signal' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_exact_fraction_mean_at_larger_hp():
    """The renewal mean at 1,000 HP (doubling past the first 256 terms) against exact Fractions."""
    w = [12, 3, 2, 3, 1]
    hp = 1000
    pos = sum(w) - w[0]
    y = [Fraction(0)] + [Fraction(v, pos) for v in w[1:]]
    U = [Fraction(1)]
    for s in range(1, hp):
        U.append(sum(y[j] * U[s - j] for j in range(1, min(s, len(y) - 1) + 1)))
    exact = float(sum(U) * Fraction(sum(w), pos))
    assert abs(kill_chains(pmf(w), np.array([hp])).mean[0] - exact) <= 1e-14 * exact


# ------------------------------------------------------------------ the per-round form (lead)
def enumerate_schedule(turns, hp, rounds):
    """P(T = t), t = 1..rounds, by plain enumeration of totals when round t plays ``turns[min(t, len) - 1]``
    (stopping early, zeros after, once less than 1e-18 is alive)."""
    alive = {0: 1.0}
    killed = []
    for t in range(rounds):
        x = turns[min(t, len(turns) - 1)]
        new: dict[int, float] = {}
        for s, p in alive.items():
            for d, q in enumerate(x):
                if q and s + d < hp:
                    new[s + d] = new.get(s + d, 0.0) + p * q
        killed.append(math.fsum(alive.values()) - math.fsum(new.values()))
        alive = new
        if math.fsum(alive.values()) < 1e-18:
            break
    return np.concatenate((killed, np.zeros(rounds - len(killed))))


def test_renewal_mean_when_every_hit_kills_at_once():
    # issue 35: damage 0 or 10**6 against 1,001 HP (more than the recurrence's first 256 entries)
    # raised ValueError: no damage below HP left the kernel an empty convolution. Every hit kills,
    # so the rounds are geometric with p = 1e-6: mean 1/p.
    turn = Dist.from_mapping({0: 0.999999, 10**6: 1e-6})
    assert mean_rounds_to_kill(turn, 1001) == pytest.approx(1e6, rel=1e-9)
    assert mean_rounds_to_kill(turn, [10, 300, 1001]) == pytest.approx([1e6] * 3, rel=1e-9)
    assert mean_rounds_to_kill(Dist.from_mapping({0: 0.5, 300: 0.5}), [299, 301]) == pytest.approx([2.0, 4.0])
