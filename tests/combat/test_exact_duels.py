"""Exact duels (docs/combat.md) against an independent recursive oracle and by hand."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.combat.oracles import _pmf, dist_and_die, weights
from workbench import Dist
from workbench.combat import duel_chains


def _duel_exact(da: Dist, db: Dist, hp_a: int, hp_b: int, first: str, rounds: int):
    """The duel of two per-turn Dists on the chain kernel (combat.duel_chains)."""
    return duel_chains(_pmf(da), _pmf(db), (hp_a,), (hp_b,), first, rounds)


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
