"""workbench.columns.distinct_rows, which numbers the keys of every chain, duel and simulation: numpy's
``unique(rows, axis=0, return_inverse=True)`` by a mixed-radix index over the columns that vary."""

from __future__ import annotations

import numpy as np
import pytest

from workbench.columns import distinct_rows


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
