"""The order of a turn's next foes (workbench/foe_order.py): CLARIFICATIONS.md, Encounters: "the
next living foe by the same policy", the policy read as the turn stands; ties in listed order."""

from __future__ import annotations

import numpy as np

from workbench.foe_order import FoeOrder


def test_focus_takes_the_fewest_hp_left_now_ties_in_listed_order() -> None:
    """Three foes handed as (creature 4, creature 2, creature 7). HP left 5, 3, 3: the two with 3 tie
    and creature 2 is listed first; after a blow leaving creature 7 at 1 HP it comes first."""
    order = FoeOrder("focus", (4, 2, 7))
    up = np.ones((2, 3), bool)
    left = np.array([[5, 3, 3], [5, 3, 1]])
    struck = np.zeros((2, 3), np.int64)
    assert order.first(up, left, struck).tolist() == [1, 2]
    assert order.ranked(up, left, struck).tolist() == [[1, 2, 0], [2, 1, 0]]


def test_spread_counts_the_turns_own_attacks_on_top_of_the_rounds() -> None:
    """Attacks this round before the turn (1, 0, 0) and the turn's own (0, 1, 0): the third foe has
    none and comes first; without the turn's attack the second (listed before the third) would."""
    order = FoeOrder("spread", (0, 1, 2), np.array([1, 0, 0]))
    up = np.ones((1, 3), bool)
    left = np.array([[9, 9, 9]])
    assert order.first(up, left, np.array([[0, 1, 0]])).tolist() == [2]
    assert order.first(up, left, np.zeros((1, 3), np.int64)).tolist() == [1]


def test_the_fallen_and_the_foe_struck_now_take_no_place() -> None:
    """places: the foe struck now (column 0) and a fallen one (column 2) are out (len = 4); the
    others are numbered in the order, here by HP left 6 and 2: column 3 first."""
    order = FoeOrder("focus", (0, 1, 2, 3))
    up = np.array([[True, True, False, True]])
    left = np.array([[1, 6, 0, 2]])
    got = order.places(up, left, np.zeros((1, 4), np.int64), np.array([0]))
    assert got.tolist() == [[4, 1, 4, 0]]


def test_given_keeps_the_order_handed_over() -> None:
    """``random`` targeting draws the order as the turn begins: ``given`` keeps it whatever the HP."""
    order = FoeOrder("given", (5, 3, 1))
    up = np.array([[False, True, True]])
    assert order.first(up, np.array([[1, 9, 2]]), np.zeros((1, 3), np.int64)).tolist() == [1]
