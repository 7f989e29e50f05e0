"""``Columns.replace``: a new batch with the named fields replaced, the old one unchanged, its class
(and a stack's ``fight`` column) kept, a name that is not a field refused as ``dataclasses.replace``
refuses it."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from workbench.columns import Columns, in_fights


@dataclasses.dataclass
class _Side(Columns):
    damage_taken: np.ndarray
    prone: np.ndarray


def test_replace_makes_a_new_batch_and_leaves_the_old_one():
    a = _Side(np.array([0, 3]), np.array([1, 0]))
    b = a.replace(prone=np.array([0, 0]))
    assert type(b) is _Side and b is not a
    assert b.prone.tolist() == [0, 0] and b.damage_taken is a.damage_taken
    assert a.prone.tolist() == [1, 0]  # the old batch keeps its field
    assert b.damage_taken.tolist() == [0, 3]


def test_replace_keeps_a_stacks_fight_column():
    a = in_fights(_Side(np.array([0, 3]), np.array([1, 0])), np.array([4, 7]))
    b = a.replace(damage_taken=np.array([1, 1]))
    assert type(b) is type(a) and b.fight.tolist() == [4, 7] and b.damage_taken.tolist() == [1, 1]


def test_replace_refuses_a_name_that_is_not_a_field():
    with pytest.raises(TypeError, match="no field 'burning'"):
        _Side(np.array([0]), np.array([0])).replace(burning=np.array([1]))
