"""What a rule system's ``build_space`` returns: the candidate attacks of a budget search.

``explore(system, targets=..., budget=...)`` asks the system for its :class:`BuildSpace` and
evaluates every build in it; the enumeration, its counting and its pruning are the system's own
(e.g. ``workbench/systems/annulus/builds.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import RulesError

__all__ = ["BuildSpace"]


@dataclass(frozen=True)
class BuildSpace:
    """The distinct builds within a budget, as one system enumerates them.

    - ``attacker``: the creature that uses every build.
    - ``builds``: a polars frame, one row per distinct build: ``build`` (the Attack, an object
      column), ``cost`` (Int64, in the system's budget unit) and any descriptive columns (they are
      carried into ``explore``'s result, in this order).
    - ``counts``: at least ``legal_sets`` (every legal attack within the budget, before
      collapsing builds whose damage maths is identical) and ``distinct`` (rows of ``builds``).
    - ``family``: per row, a group id; builds of one family share their dice parameters against
      equal defenses and are evaluated in the same chunk (a speed hint, not a result).
    """

    attacker: Any
    builds: Any
    counts: dict[str, int]
    family: np.ndarray

    def __post_init__(self) -> None:
        if len(self.family) != self.builds.height:
            raise RulesError(
                f"family has {len(self.family)} entries for {self.builds.height} builds; give one per build",
                field="family",
            )
