"""A batch of several rounds' fights (workbench/columns.py ``in_fights``, ``fights_of``,
``concatenated``): the ``fight`` column travels with every take, tile and replace and stays out of
the key, so a stack of rounds enumerates each fight's states under the keys its own round gives them."""

from __future__ import annotations

import numpy as np

from workbench.columns import concatenated, fights_of, in_fights, key_rows
from workbench.systems.glass_empires.round import Combatant


def _batch(armor: list[int]) -> Combatant:
    n = len(armor)
    return Combatant(np.zeros(n, np.int64), np.array(armor), np.zeros(n, np.int64), np.ones(n, np.int64))


def test_the_fight_travels_with_the_rows_and_stays_out_of_the_key():
    plain = concatenated([_batch([3, 4]), _batch([5])])
    assert plain.armor_points.tolist() == [3, 4, 5]
    stacked = in_fights(plain, np.array([0, 0, 1]))
    assert type(stacked).key_names() == Combatant.key_names()  # (the key is the state's own)
    assert np.array_equal(key_rows((stacked,)), key_rows((plain,)))
    # a draw expands rows by take: each expanded row keeps its fight
    assert fights_of(stacked.take(np.array([2, 2, 0]))).tolist() == [1, 1, 0]
    assert fights_of(stacked.replace(jammed=np.ones(3, np.int64))).tolist() == [0, 0, 1]
    assert fights_of(concatenated([stacked, stacked.take(np.array([2]))])).tolist() == [0, 0, 1, 1]
    # a round that is not a stack: every row is its one round's
    assert fights_of(plain).tolist() == [0, 0, 0]
