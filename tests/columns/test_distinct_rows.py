"""workbench.columns.distinct_rows, which numbers the keys of every chain, duel and simulation: numpy's
``unique(rows, axis=0, return_inverse=True)`` by a mixed-radix index over the columns that vary; and
distinct_columns, the same of columns not stacked (an Annulus state class's, most of them one value)."""

from __future__ import annotations

import numpy as np
import pytest

from workbench.columns import distinct_columns, distinct_rows


@pytest.mark.parametrize("seed", range(4))
def test_distinct_rows_is_numpys_unique(seed: int) -> None:
    """Rows with a constant column, negative values and a wide one: workbench.columns.distinct_rows gives
    numpy's distinct rows, in the same order, and the same index of each row."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 400))
    rows = np.column_stack(
        [rng.integers(-3, 4, n), np.full(n, 7), rng.integers(0, 2, (n, 20)), rng.integers(0, 10**6, n) * (seed % 2)]
    )
    want, want_at = np.unique(rows, axis=0, return_inverse=True)
    got, got_at = distinct_rows(rows)
    assert np.array_equal(want, got) and np.array_equal(want_at.ravel(), got_at)


def _whole(cols: list, n: int) -> tuple[np.ndarray, np.ndarray]:
    return distinct_rows(np.column_stack([np.broadcast_to(np.asarray(c, dtype=np.int64), (n,)) for c in cols]))


@pytest.mark.parametrize("seed", range(40))
def test_distinct_over_the_columns_that_vary_is_distinct_rows_of_the_whole_key(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 300))
    cols: list = []
    # up to 39 columns: from 8 arrays of the rows' length on, their ranges are read stacked
    for _ in range(int(rng.integers(1, 40))):
        kind = rng.integers(0, 7)
        if kind == 0:  # one number for every row
            cols.append(int(rng.integers(-1, 3)))
        elif kind == 5:  # one number as a 0-d array, or broadcast over the rows (a view of stride 0)
            v = np.int64(rng.integers(-1, 3))
            cols.append(np.asarray(v) if rng.random() < 0.5 else np.broadcast_to(v, (n,)))
        elif kind == 6:  # small whole numbers in a bool-free narrow dtype
            cols.append(rng.integers(0, 3, n).astype(np.int8))
        elif kind == 1:  # bools, sometimes all alike
            cols.append(rng.random(n) < rng.choice([0.0, 0.3, 1.0]))
        elif kind == 2:  # a constant array
            cols.append(np.full(n, int(rng.integers(-1, 5)), np.int64))
        else:  # small whole numbers, -1 among them
            cols.append(rng.integers(-1, int(rng.integers(1, 6)), n))
    uniq, inverse = distinct_columns(cols, n)
    want_uniq, want_inverse = _whole(cols, n)
    assert uniq.dtype == np.int64 and uniq.shape == want_uniq.shape
    assert np.array_equal(uniq, want_uniq) and np.array_equal(inverse, want_inverse)


def test_distinct_of_wide_ranges_and_of_no_rows() -> None:
    rng = np.random.default_rng(5)
    cols = [rng.integers(0, 2**40, 50) for _ in range(3)]  # (a product past int64: the whole key's rows)
    for got, want in zip(distinct_columns(cols, 50), _whole(cols, 50)):
        assert np.array_equal(got, want)
    uniq, inverse = distinct_columns([np.zeros(0, np.int64), 0], 0)
    assert uniq.shape == (0, 2) and inverse.size == 0
