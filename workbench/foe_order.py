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
from collections.abc import Callable

import numpy as np

__all__ = ["Foe", "FoeOrder"]


@dataclasses.dataclass(frozen=True)
class Foe:
    """What a targeting function reads of one foe (CLARIFICATIONS.md, Encounters: Targets, "or a
    function of the fight's state"): its ``name``, its ``place`` in listed order among the
    creatures, its ``hp``, and, one value per fight (or per cell of the exact chain: arrays that
    broadcast together), its ``hp_left`` and the ``attacks`` made on it so far this round (a turn's
    own counted). The function returns the foe's score, of that shape or one number: the living foe
    of lowest score is attacked, ties in listed order."""

    name: str
    place: int
    hp: int
    hp_left: np.ndarray
    attacks: np.ndarray


#: the score a targeting policy gives the turn's foe k (its column) from its HP left and attacks
Scorer = Callable[[int, np.ndarray, np.ndarray], np.ndarray]


@dataclasses.dataclass(frozen=True)
class FoeOrder:
    """The policy's order of a turn's foes (handed to the round in the order the turn began with).

    ``policy``: ``focus`` (fewest HP left), ``spread`` (fewest attacks this round), ``score`` (the
    lowest ``score``: a targeting function's, :class:`Foe`) or ``given`` (the order handed over:
    ``random`` targeting draws a uniformly random order as the turn begins, and the next living foe
    in it is uniform among the living); ties in listed order (``listed``: each foe's place in it);
    ``before``: the attacks on each foe this round before the turn (one per foe, or one row per
    fight), which ``spread`` and a function read."""

    policy: str
    listed: tuple[int, ...]
    before: np.ndarray | None = None
    score: Scorer | None = None

    def scores(self, left: np.ndarray, struck: np.ndarray) -> np.ndarray:
        """Return (fights, foes) scores, lower first (ties in listed order): ``left`` the HP left of
        each foe now, ``struck`` the attacks the turn has made on each."""
        left = np.asarray(left)
        if self.policy == "focus":
            return left.astype(np.float64)
        before = 0 if self.before is None else np.asarray(self.before, np.int64)
        attacks = np.broadcast_to(before + np.asarray(struck, np.int64), left.shape)
        if self.policy == "spread":
            return attacks.astype(np.float64)
        if self.policy == "score" and self.score is not None:
            return np.stack(
                [
                    np.broadcast_to(np.asarray(self.score(k, left[:, k], attacks[:, k]), np.float64), left.shape[:1])
                    for k in range(len(self.listed))
                ],
                axis=1,
            )
        return np.broadcast_to(np.arange(len(self.listed), dtype=np.float64), left.shape)

    def _sorted(self, score: np.ndarray) -> np.ndarray:
        """Return (fights, foes): the columns of ``score`` from the lowest, ties in listed order."""
        by_list = np.argsort(np.asarray(self.listed), kind="stable")
        return by_list[np.argsort(score[:, by_list], axis=1, kind="stable")]

    def ranked(self, up: np.ndarray, left: np.ndarray, struck: np.ndarray) -> np.ndarray:
        """Return (fights, foes): the foes' columns in the order, the living first (the fallen after
        them, in listed order)."""
        return self._sorted(np.where(up, self.scores(left, struck), np.inf))

    def first(self, up: np.ndarray, left: np.ndarray, struck: np.ndarray) -> np.ndarray:
        """Return, per fight, the foe (its column) first in the order among the living ones (``up``,
        (fights, foes)); 0 where none stands."""
        return np.where(np.asarray(up).any(axis=1), self.ranked(up, left, struck)[:, 0], 0)

    def places(self, up: np.ndarray, left: np.ndarray, struck: np.ndarray, now: np.ndarray) -> np.ndarray:
        """Return (fights, foes): each living foe's place in the order among the living ones but the
        one struck now (``now``, a column per fight): 0 the next, 1 the one after ...; ``len(foes)``
        for the others."""
        n, width = np.shape(up)
        candidate = np.asarray(up, bool) & (np.arange(width)[None, :] != np.asarray(now)[:, None])
        order = self._sorted(np.where(candidate, self.scores(left, struck), np.inf))
        place = np.empty_like(order)
        np.put_along_axis(place, order, np.broadcast_to(np.arange(width), (n, width)).copy(), axis=1)
        return np.where(candidate, place, width)
