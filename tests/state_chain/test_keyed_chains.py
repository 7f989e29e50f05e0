"""Many fights' chains solved together (workbench/state_chain.py, ``solve_keyed_chains``): each one's
numbers are those of a plain dense iteration of its own chain written here from the definition
(P(killed by t) by pushing the distribution round by round, the mean from (I - Q) m = 1), and those
of the same fight solved alone, whatever else is in the batch."""

from __future__ import annotations

import numpy as np
import pytest

from workbench.state_chain import KeyedChain, KeyedTurn, solve_keyed_chain, solve_keyed_chains


def random_fight(rng: np.random.Generator, stuck: bool = False) -> tuple[int, dict[int, KeyedTurn]]:
    """Return (hp, the turn of each key) of a random fight over 1-5 keys: each key's turn is 1-4
    rows (a next key, damage 0-3, probabilities summing to 1); ``stuck``: key 0 may lead to a last
    key that deals nothing for ever (a state that can never be killed)."""
    hp = int(rng.integers(1, 9))
    n = int(rng.integers(1, 6))
    turns = {}
    for k in range(n):
        rows = int(rng.integers(1, 5))
        p = rng.random(rows) + 0.05
        turns[k] = KeyedTurn(
            [int(x) for x in rng.integers(0, n, rows)], rng.integers(0, 4, rows).astype(np.int64), p / p.sum()
        )
    if stuck:
        t = turns[0]
        turns[0] = KeyedTurn([*t.keys, n], np.append(t.damage, 0), np.append(t.probability * 0.8, 0.2))
        turns[n] = KeyedTurn([n], np.array([0]), np.array([1.0]))
    return hp, turns


def dense(hp: int, turns: dict[int, KeyedTurn], max_rounds: int) -> tuple[np.ndarray, float]:
    """Return (P(killed by t) for t = 1..max_rounds, the mean rounds) of the fight by the definition:
    state (key, damage taken) numbered key x hp + damage, a row (k', d, p) from (k, h) leads to
    (k', h + d) or, at h + d >= hp, to the kill."""
    K = max(turns) + 1
    n = K * hp
    Q = np.zeros((n, n))
    kill = np.zeros(n)
    for k, t in turns.items():
        for k2, d, p in zip(t.keys, t.damage, t.probability):
            for h in range(hp):
                if h + d >= hp:
                    kill[k * hp + h] += p
                else:
                    Q[k * hp + h, k2 * hp + h + d] += p
    v = np.zeros(n)
    v[0] = 1.0
    by, total = [], 0.0
    for _ in range(max_rounds):
        total += v @ kill
        by.append(total)
        v = v @ Q
    # the mean over the states reached from the start; inf if one of them can never be killed
    reach = np.zeros(n, bool)
    reach[0] = True
    for _ in range(n):
        reach |= (reach.astype(float) @ Q) > 0
    can = kill > 0
    for _ in range(n):
        can |= (Q @ can.astype(float)) > 0
    if not can[reach].all():
        return np.array(by), np.inf
    idx = np.flatnonzero(reach)
    m = np.linalg.solve(np.eye(idx.size) - Q[np.ix_(idx, idx)], np.ones(idx.size))
    return np.array(by), float(m[0])


def test_a_batch_of_random_fights_each_as_the_definition_and_as_alone():
    """60 random fights (some with a state that can never be killed, round limits from 1 to 400)
    solved in one batch: each curve equals the dense iteration over its own rounds (the batch stops
    a fight once its mass left is below 1e-16, so the rest of the dense curve is flat), each mean the
    dense solve, to 1e-12; and each equals the fight solved alone."""
    rng = np.random.default_rng(7)
    fights = []
    for i in range(60):
        hp, turns = random_fight(rng, stuck=i % 4 == 0)
        fights.append(KeyedChain(0, hp, turns.__getitem__, int(rng.choice([1, 3, 40, 400]))))
    together = solve_keyed_chains(fights)
    for c, got in zip(fights, together):
        assert got is not None
        by, mean = dense(c.hp, {k: c.turn(k) for k in _keys(c)}, c.max_rounds)
        assert 1 <= got.by.size <= c.max_rounds
        np.testing.assert_allclose(got.by, by[: got.by.size], rtol=0, atol=1e-12)
        assert np.abs(by[got.by.size :] - got.by[-1]).max(initial=0.0) < 1e-12
        assert got.mean == pytest.approx(mean, rel=1e-12) if np.isfinite(mean) else got.mean == np.inf
        alone = solve_keyed_chain(c.start, c.hp, c.turn, c.max_rounds)
        assert alone is not None and alone.states == got.states
        np.testing.assert_allclose(got.by, alone.by, rtol=0, atol=1e-12)
        assert got.mean == pytest.approx(alone.mean, rel=1e-12) or got.mean == alone.mean == np.inf


def _keys(c: KeyedChain) -> list[int]:
    seen, todo = {c.start}, [c.start]
    while todo:
        for k in c.turn(todo.pop()).keys:
            if k not in seen:
                seen.add(k)
                todo.append(k)
    return sorted(seen)


def test_a_fight_past_its_bounds_is_none_and_leaves_the_others_alone():
    """A fight past its transitions between two others is None; the two others are as alone. By
    hand: one key dealing 1 a round surely against HP 2 is killed in round 2 (mean 2)."""
    sure = KeyedChain(0, 2, lambda k: KeyedTurn([0], np.array([1]), np.array([1.0])), 10)
    big = KeyedChain(0, 1000, lambda k: KeyedTurn([0], np.array([1]), np.array([1.0])), 10, max_transitions=10)
    got = solve_keyed_chains([sure, big, sure])
    assert got[1] is None
    for c in (got[0], got[2]):
        assert c is not None and c.by.tolist() == [0.0, 1.0] and c.mean == pytest.approx(2.0, abs=1e-12)


def test_weights_in_a_batch_read_their_own_fight():
    """The fight of test_keyed_chain's dropped weapon (from "armed": 2 damage or the weapon dropped,
    each 1/2; HP 2) with weights (1, 1) beside a fight without weights: its weighted alive mass is
    1 (at damage 0, round 0) + 1/2 (round 1) = 1.5 at damage 0, and 0 at damage 1; the other has none."""

    def turn(key):
        if key == "armed":
            return KeyedTurn(["armed", "dropped"], np.array([2, 0]), np.array([0.5, 0.5]))
        return KeyedTurn(["dropped"], np.array([0]), np.array([1.0]))

    other = KeyedChain(0, 3, lambda k: KeyedTurn([0, 0], np.array([0, 1]), np.array([0.5, 0.5])), 1000)
    got = solve_keyed_chains([other, KeyedChain("armed", 2, turn, 5, weights=np.array([1.0, 1.0]))])
    assert got[0] is not None and got[0].weighted is None and got[0].mean == pytest.approx(6.0, rel=1e-12)
    assert got[1] is not None and got[1].mean == np.inf
    assert got[1].weighted.tolist() == pytest.approx([1.5, 0.0], abs=1e-15)


def test_a_fight_walked_by_its_caller_is_the_same_fight():
    """A chain whose keys the caller numbered as it walked them (``KeyedChain.numbered``: the start
    0, each turn's keys an int array, as workbench/fight/chain.py's walk hands them over) gives the
    numbers of the same fight walked by the solver, keyed by name: the random fights above, their
    keys renamed to strings for the one and renumbered 0.. over the keys reached (the start first)
    for the other."""
    rng = np.random.default_rng(11)
    named, numbered = [], []
    for i in range(40):
        hp, turns = random_fight(rng, stuck=i % 3 == 0)
        order = _keys(KeyedChain(0, hp, turns.__getitem__, 1))
        number = {k: j for j, k in enumerate(order)}
        by_name = {
            f"key {k}": KeyedTurn([f"key {x}" for x in t.keys], t.damage, t.probability) for k, t in turns.items()
        }
        by_number = [
            KeyedTurn(np.array([number[x] for x in turns[k].keys]), turns[k].damage, turns[k].probability)
            for k in order
        ]
        rounds = int(rng.choice([2, 50, 400]))
        named.append(KeyedChain("key 0", hp, by_name.__getitem__, rounds))
        numbered.append(KeyedChain(0, hp, by_number.__getitem__, rounds, numbered=len(order)))
    for a, b in zip(solve_keyed_chains(named), solve_keyed_chains(numbered)):
        assert a is not None and b is not None and a.states == b.states
        np.testing.assert_allclose(a.by, b.by, rtol=0, atol=1e-12)
        assert a.mean == pytest.approx(b.mean, rel=1e-12) or a.mean == b.mean == np.inf
