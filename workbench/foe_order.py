"""The order in which a turn over several foes takes them, as the turn stands: CLARIFICATIONS.md,
Encounters: "A target that dies during a creature's turn: the remaining attacks of the action under
way go to the next living foe by the same policy", and an Annulus area set strikes "its target and the
next living foes by the same policy". The policy is read again at each such choice, not once as the
turn began: under ``focus`` the foe with the fewest HP left now (an area set may have hurt the others
unevenly), under ``spread`` the foe with the fewest attacks this round counting the turn's own.

An encounter (workbench/fight/) builds one :class:`FoeOrder` per turn and hands it to the round's
``group_turn``; the round asks it for the next foe (:meth:`FoeOrder.first`) or the foes an area
reaches (:meth:`FoeOrder.places`). A round description never knows the policy.
"""

from __future__ import annotations

import dataclasses

import numpy as np

__all__ = ["FoeOrder"]

#: the score of a foe that is not a candidate (fallen, or the one struck now)
_OUT = np.iinfo(np.int64).max // 4


@dataclasses.dataclass(frozen=True)
class FoeOrder:
    """The policy's order of a turn's foes (handed to the round in the order the turn began with).

    ``policy``: ``focus`` (fewest HP left, ties in listed order), ``spread`` (fewest attacks this
    round, ties in listed order) or ``given`` (the order handed over: ``random`` targeting draws a
    uniformly random order as the turn begins, and the next living foe in it is uniform among the
    living); ``listed``: each foe's place in listed order (the tie rule); ``before``: under
    ``spread``, the attacks on each foe this round before the turn (one per foe, or one row per
    fight)."""

    policy: str
    listed: tuple[int, ...]
    before: np.ndarray | None = None

    def scores(self, left: np.ndarray, struck: np.ndarray) -> np.ndarray:
        """Return (fights, foes) scores, lower first and no two equal in a fight: ``left`` the HP left
        of each foe now, ``struck`` the attacks the turn has made on each."""
        listed = np.asarray(self.listed, np.int64)
        size = np.int64(max(self.listed, default=0) + 1)
        if self.policy == "focus":
            return np.asarray(left, np.int64) * size + listed
        if self.policy == "spread":
            before = 0 if self.before is None else np.asarray(self.before, np.int64)
            return (before + np.asarray(struck, np.int64)) * size + listed
        return np.broadcast_to(np.arange(len(self.listed), dtype=np.int64), np.shape(left))

    def first(self, up: np.ndarray, left: np.ndarray, struck: np.ndarray) -> np.ndarray:
        """Return, per fight, the foe (its column) first in the order among the living ones (``up``,
        (fights, foes)); 0 where none stands."""
        return np.argmin(np.where(up, self.scores(left, struck), _OUT), axis=1)

    def places(self, up: np.ndarray, left: np.ndarray, struck: np.ndarray, now: np.ndarray) -> np.ndarray:
        """Return (fights, foes): each living foe's place in the order among the living ones but the
        one struck now (``now``, a column per fight): 0 the next, 1 the one after ...; ``len(foes)``
        for the others."""
        n, width = np.shape(up)
        candidate = np.asarray(up, bool) & (np.arange(width)[None, :] != np.asarray(now)[:, None])
        score = np.where(candidate, self.scores(left, struck), _OUT)
        place = np.argsort(np.argsort(score, axis=1, kind="stable"), axis=1, kind="stable")
        return np.where(candidate, place, width)

    def ranked(self, up: np.ndarray, left: np.ndarray, struck: np.ndarray) -> np.ndarray:
        """Return (fights, foes): the foes' columns in the order, the living first (the fallen after
        them in the order handed over)."""
        n, width = np.shape(up)
        score = np.where(up, self.scores(left, struck), _OUT + np.arange(width)[None, :])
        return np.argsort(score, axis=1, kind="stable")
