"""kill_chains against the implementations it replaces (combat.py chains, batch_chains.rounds_batch).

To be deleted together with the old code once combat and comparison run on workbench.chains.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench import Dist
from workbench.batch_chains import rounds_batch
from workbench.chains import kill_chains
from workbench.combat import _alive_rows, alive_chain, kill_chain, mean_rounds_to_kill, two_pool_alive_chain

turn_weights = st.lists(st.integers(0, 6), min_size=2, max_size=9).filter(lambda w: sum(w[1:]) > 0)


def as_dist(w):
    return Dist(np.array(w, dtype=float) / sum(w), 0)


@settings(max_examples=150)
@given(turn_weights, st.lists(st.integers(1, 700), min_size=1, max_size=4))
def test_hp_chains_match_combat(w, hps):
    d = as_dist(w)
    x = np.array(w, dtype=float) / sum(w)
    c = kill_chains(x, np.array(hps))
    for i, hp in enumerate(hps):
        old = kill_chain(d, hp)[:, 0]
        assert c.rounds[i] == old.size == alive_chain(d, hp).shape[0] - 1
        assert np.all(np.abs(np.cumsum(c.killed[i, : old.size]) - old) <= 1e-12)
        want = mean_rounds_to_kill(d, hp)
        assert abs(c.mean[i] - want) <= 1e-12 * max(1.0, want)  # both float renewal sums


@settings(max_examples=100)
@given(turn_weights, st.integers(1, 400), st.integers(1, 30))
def test_weights_match_the_duel_product(w, hp, rounds):
    """combat._duel_rows takes ``kill_a @ cb[:-1]``: the same as ``weights=kill_a``."""
    d = as_dist(w)
    x = np.array(w, dtype=float) / sum(w)
    rows = _alive_rows(d, hp, rounds)
    kill = np.random.default_rng(hp).random(rounds)
    c = kill_chains(x, np.array([hp]), weights=kill[None, :], max_rounds=rounds)
    assert np.all(np.abs(c.weighted[0] - kill @ rows[:-1]) <= 1e-12)


@settings(max_examples=150)
@given(st.lists(st.integers(0, 5), min_size=9, max_size=9).filter(lambda w: sum(w[1:]) > 0),
       st.integers(0, 12), st.integers(1, 10))
def test_two_pool_chains_match_combat(w, endurance, vitality):
    joint = np.array(w, dtype=float).reshape(3, 3) / sum(w)
    old = two_pool_alive_chain(joint, endurance, vitality)
    c = kill_chains(joint, np.array([[endurance, vitality]]), channels=2,
                    weights=np.ones((1, min(old.shape[0], 20))))
    mass = old.sum(axis=1)
    assert c.rounds[0] == old.shape[0] - 1
    assert np.all(np.abs(c.killed[0] - (mass[:-1] - mass[1:])) <= 1e-12)
    assert np.all(np.abs(c.weighted[0] - old[:20].sum(axis=0)) <= 1e-12)


def test_grid_matches_rounds_batch():
    rng = np.random.default_rng(3)
    X = rng.random((30, 12)) ** 3
    X[:, 0] += rng.random(30) * 3
    X[3] = 0.0
    X[3, 0] = 1.0  # a turn that never damages
    X /= X.sum(axis=1, keepdims=True)
    ti = rng.integers(0, 30, size=400)
    hp = rng.integers(1, 300, size=400)
    old = rounds_batch(X, ti, hp, max_rounds=100, chain=True)
    c = kill_chains(X, hp, ti, max_rounds=100)
    by = np.cumsum(c.killed, axis=1)
    by = np.concatenate([by, np.repeat(by[:, -1:], 100 - by.shape[1], axis=1)], axis=1)
    assert np.all(np.abs(by - old["p_killed_by"]) <= 1e-12)
    finite = np.isfinite(old["mean_rounds"])
    assert np.array_equal(finite, np.isfinite(c.mean))
    assert np.all(np.abs(c.mean[finite] - old["mean_rounds"][finite]) <= 1e-12 * old["mean_rounds"][finite])
