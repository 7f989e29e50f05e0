"""Rounds-to-kill chains (docs/combat.md) against icepool's time to sum, the renewal mean and hand-
worked numbers.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.combat.oracles import _pmf, dist_and_die, weights
from workbench import Dist, RulesError, mean_rounds_to_kill, rounds_to_kill
from workbench.chains import kill_chains


def kill_chain(turn: Dist, hp) -> np.ndarray:
    """P(T <= t), one row per round, one column per HP: ONE kill_chains call for every HP."""
    hp = np.atleast_1d(hp)
    c = kill_chains(_pmf(turn)[None, :], hp, np.zeros(hp.size, dtype=np.int64))
    return np.cumsum(c.killed, axis=1).T


@given(weights, st.integers(1, 40))
def test_kill_chain_matches_icepool_time_to_sum(w, hp):
    ours, ice = dist_and_die(w)
    by = kill_chain(ours, hp)[:, 0]
    horizon = min(len(by), 25)  # icepool's exact fractions grow with time; 25 rounds suffice
    oracle = ice.time_to_sum(hp, max_time=horizon)  # P(T = t); mass beyond the horizon lumps at it
    exact = 0.0
    for t in range(1, horizon):
        exact += float(oracle.probability(t)) if t in oracle else 0.0
        assert abs(by[t - 1] - exact) < 1e-12


@given(weights, st.integers(1, 60))
def test_mean_rounds_matches_icepool_mean_time_to_sum(w, hp):
    ours, ice = dist_and_die(w)
    assert abs(mean_rounds_to_kill(ours, hp) - float(ice.mean_time_to_sum(hp))) < 1e-12


@given(weights, st.integers(1, 30))
def test_mean_from_the_distribution_agrees_with_the_renewal_mean(w, hp):
    ours, _ = dist_and_die(w)
    frame = rounds_to_kill(ours, hp=hp)
    assert abs(frame["p_killed_at"].sum() - 1) < 1e-12
    assert abs(float((frame["round"] * frame["p_killed_at"]).sum()) - mean_rounds_to_kill(ours, hp)) < 1e-9


def test_one_chain_serves_every_hp():
    turn = Dist.dice(2, 6)
    many = kill_chain(turn, [5, 20, 50])
    for j, hp in enumerate([5, 20, 50]):
        alone = kill_chain(turn, hp)[:, 0]
        assert np.allclose(many[: len(alone), j], alone, atol=1e-15, rtol=0)


def test_hand_worked_rounds_to_kill():
    """A d6 per turn against 6 HP: killed in round 1 only on a 6 -> P(T = 1) = 1/6."""
    frame = rounds_to_kill(Dist.die(6), hp=6)
    assert frame["p_killed_at"][0] == pytest.approx(1 / 6, abs=1e-15)
    # Against 2 HP: round 1 unless a 1 is rolled, and any second roll finishes it.
    frame = rounds_to_kill(Dist.die(6), hp=2)
    assert frame["p_killed_at"].to_list()[:2] == pytest.approx([5 / 6, 1 / 6], abs=1e-15)


def test_chain_rejects_turns_that_cannot_kill():
    with pytest.raises(RulesError, match="never"):
        rounds_to_kill(Dist.constant(0), hp=5)
    with pytest.raises(RulesError) as err:
        rounds_to_kill(Dist.die(6), hp=0)
    assert err.value.field == "hp"
    with pytest.raises(RulesError, match="negative"):
        mean_rounds_to_kill(Dist.die(6) - 3, 10)


def test_hp_as_a_zero_dimensional_array_is_its_number():
    # issue 35: hp=np.array(3) raised TypeError (iteration over a 0-d array)
    turn = Dist.die(6)
    assert mean_rounds_to_kill(turn, np.array(3)) == pytest.approx(mean_rounds_to_kill(turn, 3))
    assert rounds_to_kill(turn, hp=np.array(3)).equals(rounds_to_kill(turn, hp=3))
    with pytest.raises(RulesError) as e:
        mean_rounds_to_kill(turn, np.array(1.5))
    assert e.value.field == "hp"
