"""A grouped draw (workbench/fight/draw.py) that skips an outcome column 0 in every table gives the
values of the gathered one, with the same random numbers."""

from __future__ import annotations

import numpy as np

from workbench.columns import Grouped
from workbench.fight.draw import Sampler


def test_a_grouped_draw_gives_a_column_zero_in_every_table_as_zeros() -> None:
    p = np.array([[0.2, 0.8, 0.0], [0.5, 0.25, 0.25]])
    columns = {"hit": np.array([[0, 1, 0], [1, 2, 3]]), "none": np.zeros((2, 3), np.int64), "probability": p}
    inverse = np.random.default_rng(1).integers(0, 2, 1000)
    _, got = Sampler(np.random.default_rng(7)).row((), Grouped(columns, inverse))
    rng = np.random.default_rng(7)  # the same draw, every column gathered
    cdf = np.cumsum(p, axis=1)
    cdf = cdf / cdf[:, -1:] + np.arange(2)[:, None]
    j = np.searchsorted(cdf.ravel(), rng.random(inverse.size) + inverse, side="right")
    last = 2 - np.argmax(p[:, ::-1] > 0, axis=1)
    j = np.minimum(j, inverse * 3 + last[inverse])
    assert np.array_equal(got["hit"], columns["hit"].ravel()[j])
    assert np.array_equal(got["none"], np.zeros(1000, np.int64)) and got["none"].dtype == np.int64
