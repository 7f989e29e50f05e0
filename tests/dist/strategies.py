"""Hypothesis strategies shared by the Dist tests: small integer-weighted dice, exact in icepool
(integer quantities) and exact enough in float64.
"""

from __future__ import annotations

import icepool
import numpy as np
from hypothesis import strategies as st

from workbench import Dist

# Small integer-weighted dice: exact in icepool (integer quantities), exact enough in float64.
weights = st.lists(st.integers(0, 9), min_size=1, max_size=8).filter(lambda w: sum(w) > 0)

offsets = st.integers(-5, 10)


@st.composite
def dice_pairs(draw):
    """Return (Dist, icepool.Die) describing the same random die."""
    w = draw(weights)
    off = draw(offsets)
    ice = icepool.Die({off + i: q for i, q in enumerate(w) if q})
    return Dist(np.array(w, dtype=float) / sum(w), off), ice
