"""The chain over (state key, damage taken) (workbench/state_chain.py), on its own: a key that only
changes what the next turn deals, checked by hand and against the plain HP chain."""

from __future__ import annotations

import numpy as np
import pytest

import workbench as wb
from workbench.dist import Dist
from workbench.state_chain import KeyedTurn, solve_keyed_chain


def test_by_hand_a_first_strike_then_steady_blows():
    """Key "fresh": the first turn deals 3 with probability 1/2, else 0, and either way the key becomes
    "tired"; a tired turn deals 1 surely. HP 3: round 1 kills with 1/2; otherwise the tired blows need 3
    more rounds: P(killed by 1) = 1/2, by 2 and 3 still 1/2, by 4 = 1. Mean = 1/2 x 1 + 1/2 x 4 = 2.5."""

    def turn(key):
        if key == "fresh":
            return KeyedTurn(["tired", "tired"], np.array([3, 0]), np.array([0.5, 0.5]))
        return KeyedTurn(["tired"], np.array([1]), np.array([1.0]))

    c = solve_keyed_chain("fresh", 3, turn, 100)
    assert c.by.tolist() == pytest.approx([0.5, 0.5, 0.5, 1.0], abs=1e-15)
    assert c.mean == pytest.approx(2.5, abs=1e-12)
    assert c.states == 2 * 3


def test_one_key_is_the_hp_chain():
    """With a single key the chain is the HP chain of its turn: equal to wb.rounds_to_kill of that Dist."""
    turn = Dist.from_mapping({0: 0.2, 2: 0.5, 5: 0.3})
    c = solve_keyed_chain(0, 17, lambda k: KeyedTurn([0, 0, 0], np.array([0, 2, 5]), np.array([0.2, 0.5, 0.3])), 500)
    f = wb.rounds_to_kill(turn, hp=17)
    n = min(c.by.size, f.height)
    np.testing.assert_allclose(c.by[:n], f["p_killed_by"].to_numpy()[:n], rtol=0, atol=1e-12)
    assert c.mean == pytest.approx(float((f["round"] * f["p_killed_at"]).sum()), abs=1e-9)


def test_a_state_that_never_kills_makes_the_mean_infinite_and_weights_count_the_alive_mass():
    """From "armed" the turn deals 2 (p 1/2) or drops the weapon (p 1/2, key "dropped": 0 for ever). HP 2:
    P(killed by t) = 1/2 for every t, mean inf. Weights w = (1, 1): the alive mass after 0 rounds (1 at
    damage 0) plus after 1 round (1/2 at damage 0). With no weights the chain stops after round 1 (what is
    left can never be killed), not after 10,000 rounds."""

    def turn(key):
        if key == "armed":
            return KeyedTurn(["armed", "dropped"], np.array([2, 0]), np.array([0.5, 0.5]))
        return KeyedTurn(["dropped"], np.array([0]), np.array([1.0]))

    c = solve_keyed_chain("armed", 2, turn, 5, weights=np.array([1.0, 1.0]))
    # once the mass that can still be killed has left (after round 1) the curve is flat: the iteration
    # stops there, or once the weights have read every round they weigh (2 here)
    assert c.mean == np.inf and c.by.tolist() == pytest.approx([0.5] * 2, abs=1e-15)
    assert c.weighted.tolist() == pytest.approx([1.5, 0.0], abs=1e-15)
    plain = solve_keyed_chain("armed", 2, turn, 10_000)
    assert plain.mean == np.inf and plain.by.tolist() == pytest.approx([0.5], abs=1e-15)


def test_past_its_transitions_it_gives_up():
    assert solve_keyed_chain(0, 1000, lambda k: KeyedTurn([0], np.array([1]), np.array([1.0])), 10, max_transitions=10) is None


def test_past_its_keys_it_gives_up(monkeypatch):
    """Each key asks its system for a turn: past MAX_KEYS the chain is not built (the caller simulates)."""
    import workbench.state_chain as sc

    monkeypatch.setattr(sc, "MAX_KEYS", 5)
    walk = lambda k: KeyedTurn([k + 1], np.array([0]), np.array([1.0]))  # noqa: E731 - a new key every turn
    assert sc.solve_keyed_chain(0, 3, walk, 10) is None
    monkeypatch.setattr(sc, "MAX_KEYS", 50)
    bounded_walk = lambda k: KeyedTurn([min(k + 1, 9)], np.array([1]), np.array([1.0]))  # noqa: E731
    c = sc.solve_keyed_chain(0, 3, bounded_walk, 10)
    assert c is not None and c.by.tolist() == pytest.approx([0.0, 0.0, 1.0]) and c.mean == pytest.approx(3.0)
