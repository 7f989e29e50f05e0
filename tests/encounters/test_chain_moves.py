"""How the exact encounter moves its mass over the damage grid (workbench/fight/encounter_chain.py):
the product along one creature's axis, where each cell goes when several creatures take damage, and
the cells where one creature alone has fallen. The encounters' numbers are checked against the
rules elsewhere in this folder; these are the three moves, each against a plain computation.

The grid of the hand-worked cases has three creatures of HP 2, 3 and 1, so its shape is (3, 4, 2):
a creature's damage taken runs 0..HP, HP meaning fallen. Flat cells count in C order, (x0, x1, x2)
-> 8 x0 + 2 x1 + x2.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from workbench.fight.encounter_chain import _along, _Chain

SHAPE = (3, 4, 2)
HP = np.array([2, 3, 1])


def _grid() -> SimpleNamespace:
    """Return what the moves read of a chain: the grid's shape, the creatures' HP, its caches, and
    the box where every creature stands."""
    return SimpleNamespace(shape=SHAPE, enc=SimpleNamespace(hp=HP), cache={}, box=tuple(slice(0, int(h)) for h in HP))


@pytest.mark.parametrize("axis", [0, 1, 2, 3])
def test_the_product_along_an_axis_is_tensordot_in_place(axis: int) -> None:
    """``_along(a, axis, M)`` is ``np.tensordot`` over that axis, put back where it was, on every
    axis of a 4-axis grid (to 1e-12), for a square damage matrix and one with fewer rows (the box
    where the mass acts: the fallen cell left out)."""
    rng = np.random.default_rng(axis)
    a = rng.random((5, 4, 6, 3))
    n = a.shape[axis]
    for rows in (n, n - 1):
        part = np.take(a, np.arange(rows), axis=axis)
        M = rng.random((rows, n))
        want = np.moveaxis(np.tensordot(part, M, axes=([axis], [0])), -1, axis)
        got = _along(part, axis, M)
        assert got.shape == want.shape
        assert np.max(np.abs(got - want)) < 1e-12


def test_where_each_cell_goes_by_hand() -> None:
    """Creature 0 takes 1 damage and creature 1 takes 2: a cell goes to (min(x0 + 1, 2),
    min(x1 + 2, 3), x2). By hand: (0, 0, 0) -> (1, 2, 0), flat 8 + 4 = 12; (1, 2, 1) -> (2, 3, 1),
    flat 16 + 6 + 1 = 23; (2, 3, 1), both fallen already, stays at 23; (0, 3, 0) -> (1, 3, 0) = 14."""
    to = _Chain.shift_to(_grid(), ((0, 1), (1, 2)))
    flat = np.ravel_multi_index
    assert to[flat((0, 0, 0), SHAPE)] == 12
    assert to[flat((1, 2, 1), SHAPE)] == 23
    assert to[flat((2, 3, 1), SHAPE)] == 23
    assert to[flat((0, 3, 0), SHAPE)] == 14


def test_where_each_cell_goes_is_the_capped_sum_everywhere() -> None:
    """Every cell of the grid, for every pair of damages to creatures 0 and 2, against the rule
    written out cell by cell: damage adds to the damage taken and stops at HP (fallen)."""
    grid = _grid()
    for d0 in range(4):
        for d2 in range(3):
            to = _Chain.shift_to(grid, ((0, d0), (2, d2)))
            for cell in np.ndindex(SHAPE):
                after = (min(cell[0] + d0, 2), cell[1], min(cell[2] + d2, 1))
                assert to[np.ravel_multi_index(cell, SHAPE)] == np.ravel_multi_index(after, SHAPE)


def test_a_move_is_the_mass_gathered_where_it_goes() -> None:
    """Moving a grid's mass by ``shift_to`` keeps every bit of it (the capped cells gather it): a
    grid of random mass, creature 1 taking 2, sums to the same 1 after; the fallen row x1 = 3 holds
    what stood at x1 = 1, 2 and 3 before."""
    rng = np.random.default_rng(7)
    mass = rng.random(SHAPE)
    mass /= mass.sum()
    to = _Chain.shift_to(_grid(), ((1, 2),))
    moved = np.bincount(to, weights=mass.ravel(), minlength=mass.size).reshape(SHAPE)
    assert abs(moved.sum() - 1.0) < 1e-12
    assert np.max(np.abs(moved[:, 3, :] - mass[:, 1:, :].sum(axis=1))) < 1e-12
    assert np.max(np.abs(moved[:, 2, :] - mass[:, 0, :])) < 1e-12
    assert not moved[:, :2, :].any()


def test_the_cells_where_one_creature_alone_has_fallen() -> None:
    """Creature 1 alone fallen: x1 = 3 and the others standing (x0 < 2, x2 < 1), two cells of 24.
    In the sub-grid where creature 2 has fallen already (x2 = 1) there are none: creature 1 did not
    fall first there."""
    grid = _grid()
    whole = tuple(slice(None) for _ in SHAPE)
    at = _Chain.only_fallen(grid, 1, whole)
    mask = np.zeros(SHAPE, bool)
    mask[at] = True
    want = np.zeros(SHAPE, bool)
    want[:2, 3, :1] = True
    assert (mask == want).all() and mask.sum() == 2
    fallen_2 = (slice(None), slice(None), slice(1, 2))
    sub = np.zeros((3, 4, 1))
    assert sub[_Chain.only_fallen(grid, 1, fallen_2)].size == 0
