"""The duel chain derived from two round descriptions (workbench/fight/duel.py), on toy rounds worked by
hand: the damage a turn deals to its own side (Reckless and the like) moves the mass along the actor's axis,
an actor felled by its own damage loses, and both falling in one turn is a draw."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from workbench.columns import Columns
from workbench.fight.duel import duel_chain


@dataclasses.dataclass
class Taken(Columns):
    damage_taken: np.ndarray


class Reckless:
    """Each turn: 1 damage to the foe, or 2 with probability ``q``, and ``own`` to the actor itself."""

    key = None

    def __init__(self, hp_me: int, hp_foe: int, own: int, q: float = 0.0):
        self.hp, self.own, self.q = (hp_me, hp_foe), own, q

    def start(self, passive=False):
        return Taken(np.zeros(1, np.int64)), Taken(np.zeros(1, np.int64))

    def hit_points(self, who):
        return self.hp[who]

    def turn(self, me, foe, draw, plan=None):
        n = me.size
        table = {
            "damage": np.tile([1, 2], (n, 1)),
            "probability": np.tile([1 - self.q, self.q], (n, 1)),
        }
        (me, foe), row = draw.row((me, foe), table)
        return me.replace(damage_taken=me.damage_taken + self.own), foe.replace(
            damage_taken=foe.damage_taken + row["damage"]
        )

    def plans(self, me, foe):
        return ["Swing"]

    def describe(self, me, foe):
        return {}


def test_both_falling_in_one_turn_is_a_draw():
    """HP 2 each, each turn deals 1 and takes 1, a first: a's turn leaves (1, 1); b's turn deals a its second
    point and itself its second: both fall in round 1, a draw (neither side wins)."""
    d = duel_chain(Reckless(2, 2, 1), Reckless(2, 2, 1), "a", 5)
    win_a, win_b, left_a, left_b = d.win_a, d.win_b, d.left_a, d.left_b
    assert win_a.sum() == 0 and win_b.sum() == 0


def test_a_side_felled_by_its_own_damage_loses():
    """a HP 3, b HP 2, each turn deals 1 and takes 1, a first. Round 1: a -> (a 1, b 1); b -> (a 2, b 2): b
    falls to its own damage with a standing at 2 taken: a wins in round 1, its HP left kept at 2 taken."""
    d = duel_chain(Reckless(3, 2, 1), Reckless(2, 3, 1), "a", 5)
    win_a, win_b, left_a, _ = d.win_a, d.win_b, d.left_a, d.left_b
    assert win_a[0] == pytest.approx(1.0, abs=1e-15) and win_b.sum() == 0
    assert left_a.tolist() == [0.0, 0.0, 1.0]


def test_self_damage_with_chance():
    """a HP 2 takes 1 a turn and deals 2 with q = 1/4 (else 1); b HP 2 deals 1 and takes nothing; a first.
    Round 1: a's turn kills b with 1/4 (a stands at 1 taken: a wins); else (b at 1 taken) b's turn deals a its
    second point: b wins with 3/4, at 1 taken."""
    d = duel_chain(Reckless(2, 2, 1, q=0.25), Reckless(2, 2, 0), "a", 5)
    win_a, win_b, left_a, left_b = d.win_a, d.win_b, d.left_a, d.left_b
    assert win_a[0] == pytest.approx(0.25, abs=1e-15) and win_b[0] == pytest.approx(0.75, abs=1e-15)
    assert left_a.tolist() == [0.0, 0.25] and left_b.tolist() == [0.0, 0.75]
