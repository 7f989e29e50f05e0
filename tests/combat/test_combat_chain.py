"""Rounds-to-kill chains and exact duels (DESIGN.md, Combat) against independent oracles."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

import icepool
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench import Dist, RulesError, mean_rounds_to_kill, rounds_to_kill
from workbench.chains import kill_chains
from workbench.combat import duel_chains


def _pmf(d: Dist) -> np.ndarray:
    return np.concatenate((np.zeros(d.offset), d.pmf))


def kill_chain(turn: Dist, hp) -> np.ndarray:
    """P(T <= t), one row per round, one column per HP: ONE kill_chains call for every HP."""
    hp = np.atleast_1d(hp)
    c = kill_chains(_pmf(turn)[None, :], hp, np.zeros(hp.size, dtype=np.int64))
    return np.cumsum(c.killed, axis=1).T


def _duel_exact(da: Dist, db: Dist, hp_a: int, hp_b: int, first: str, rounds: int):
    """The duel of two per-turn Dists on the chain kernel (combat.duel_chains)."""
    return duel_chains(_pmf(da), _pmf(db), (hp_a,), (hp_b,), first, rounds)

weights = st.lists(st.integers(0, 6), min_size=2, max_size=7).filter(lambda w: sum(w[1:]) > 0)


def dist_and_die(w):
    """Non-negative damage per turn: outcome i has weight w[i]."""
    ice = icepool.Die({i: q for i, q in enumerate(w) if q})
    return Dist(np.array(w, float) / sum(w), 0), ice


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


# ------------------------------------------------------------------ duels
def duel_oracle(wa, wb, hp_a, hp_b, first, rounds):
    """Exact recursive duel over (hp left, hp left, round) with Fractions: independent of the chains."""
    pa = [Fraction(q, sum(wa)) for q in wa]
    pb = [Fraction(q, sum(wb)) for q in wb]

    @lru_cache(maxsize=None)
    def play(ha, hb, r):  # returns (P(a wins), P(b wins)) from the start of round r
        if r > rounds:
            return Fraction(0), Fraction(0)
        order = ("a", "b") if first == "a" else ("b", "a")
        return turn(ha, hb, r, order, 0)

    @lru_cache(maxsize=None)
    def turn(ha, hb, r, order, i):
        if i == 2:
            return play(ha, hb, r + 1)
        who = order[i]
        win_a = win_b = Fraction(0)
        for dmg, p in enumerate(pa if who == "a" else pb):
            if not p:
                continue
            if who == "a":
                if hb - dmg <= 0:
                    win_a += p
                    continue
                x, y = turn(ha, hb - dmg, r, order, i + 1)
            else:
                if ha - dmg <= 0:
                    win_b += p
                    continue
                x, y = turn(ha - dmg, hb, r, order, i + 1)
            win_a += p * x
            win_b += p * y
        return win_a, win_b

    return play(hp_a, hp_b, 1)


@settings(max_examples=60)
@given(weights, weights, st.integers(1, 12), st.integers(1, 12), st.sampled_from("ab"), st.integers(1, 8))
def test_exact_duel_matches_recursive_oracle(wa, wb, hp_a, hp_b, first, rounds):
    da, _ = dist_and_die(wa)
    db, _ = dist_and_die(wb)
    win_a, win_b, left_a, left_b = _duel_exact(da, db, hp_a, hp_b, first, rounds)
    oa, ob = duel_oracle(tuple(wa), tuple(wb), hp_a, hp_b, first, rounds)
    assert abs(win_a.sum() - float(oa)) < 1e-12
    assert abs(win_b.sum() - float(ob)) < 1e-12
    assert abs(left_a.sum() - win_a.sum()) < 1e-12 and abs(left_b.sum() - win_b.sum()) < 1e-12


def test_duel_hand_worked():
    """Both deal exactly 1 per turn, 1 HP each: whoever acts first wins in round 1."""
    one = Dist.constant(1)
    wa, wb, la, _ = _duel_exact(one, one, 1, 1, "a", 5)
    assert wa[0] == 1.0 and wb.sum() == 0.0 and la[0] == 1.0  # a keeps its 1 HP
    wa, wb, _, _ = _duel_exact(one, one, 1, 1, "b", 5)
    assert wb[0] == 1.0 and wa.sum() == 0.0
