"""Independent oracles shared by the combat tests (docs/combat.md): a Dist's pmf, the rounds-to-kill
chain by recursion, strategies of small dice.
"""

from __future__ import annotations

import icepool
import numpy as np
from hypothesis import strategies as st

from workbench import Dist


def _pmf(d: Dist) -> np.ndarray:
    return np.concatenate((np.zeros(d.offset), d.pmf))


weights = st.lists(st.integers(0, 6), min_size=2, max_size=7).filter(lambda w: sum(w[1:]) > 0)


def dist_and_die(w):
    """Non-negative damage per turn: outcome i has weight w[i]."""
    ice = icepool.Die({i: q for i, q in enumerate(w) if q})
    return Dist(np.array(w, float) / sum(w), 0), ice
