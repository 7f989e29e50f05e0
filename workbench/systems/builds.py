"""What a rule system's ``build_space`` returns: the candidate attacks of a budget search.

``explore(system, targets=..., budget=...)`` asks the system for its :class:`BuildSpace` and
evaluates its builds chunk by chunk (:meth:`BuildSpace.frames`): the enumeration, its counting and
its pruning are the system's own (e.g. ``workbench/systems/annulus/builds.py``), and no more than
one chunk of builds exists as Attacks and frames at a time.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import polars as pl

from ..errors import RulesError

__all__ = ["BuildSpace"]


@dataclass(frozen=True)
class BuildSpace:
    """The distinct builds within a budget, as one system enumerates them, lazily.

    - ``attacker``: the creature that uses every build.
    - ``counts``: at least ``legal_sets`` (every legal attack within the budget, before collapsing
      builds whose damage maths is identical) and ``distinct`` (the builds ``chunks`` yields).
    - ``chunks``: ``chunks(n)`` yields polars frames of at most ``n`` builds each, every build once:
      ``build_id`` (Int64, 0 .. distinct - 1, numbered in order of nondecreasing cost, so that the
      lower id of two builds is never the dearer), ``build`` (the Attack, an object column),
      ``cost`` (Int64, in the system's budget unit) and any descriptive columns (carried into
      ``explore``'s result, in this order). A chunk should hold builds whose tables have alike
      shapes (a speed hint: the system decides which builds share a chunk).
    - ``maths_keys`` (optional): a module-level function ``(attacker, attacks, targets, options,
      situation) -> (hi, lo)``, two uint64 arrays of shape (attacks, targets) equal exactly when the
      matchups' damage per use and per turn over the pools is (``explore`` merges such builds);
      None: the system cannot tell, and nothing is merged.
    """

    attacker: Any
    counts: dict[str, int]
    chunks: Callable[[int], Iterator[pl.DataFrame]]
    maths_keys: Callable[..., tuple[Any, Any]] | None = None

    @property
    def size(self) -> int:
        """Return the number of distinct builds (``counts["distinct"]``)."""
        return int(self.counts["distinct"])

    def frames(self, n: int) -> Iterator[pl.DataFrame]:
        """Yield the chunk frames of at most ``n`` builds; a frame without ``build_id``, ``build``
        or ``cost`` raises RulesError (field ``build_space``)."""
        for frame in self.chunks(n):
            missing = [c for c in ("build_id", "build", "cost") if c not in frame.columns]
            if missing or frame.height > n:
                raise RulesError(
                    f"a build space chunk must have build_id, build and cost and at most {n} rows; "
                    f"this one has columns {frame.columns} and {frame.height} rows",
                    field="build_space",
                )
            yield frame

    @property
    def builds(self) -> pl.DataFrame:
        """Return every build in one frame, by build id (this holds the whole space: for small
        budgets and tests; explore reads :meth:`frames`)."""
        return pl.concat(list(self.frames(4096))).sort("build_id")
