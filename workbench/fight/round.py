"""The one description of a round that a rule system writes (issue 33): the protocol the fight's
interpreters (:mod:`workbench.fight.chain`, :mod:`workbench.fight.simulation`) read."""

from __future__ import annotations

from typing import Any, Protocol

from ..columns import Columns
from .draw import Draw

__all__ = ["FightRound"]


class FightRound(Protocol):
    """One side's turn against a foe, described once over named state.

    ``start()`` returns (the attacker's state, the target's state), one row each, at the start of a
    fight; ``hit_points(who)`` the HP of the attacker (0) or target (1): a combatant falls when its
    ``damage_taken`` reaches them. ``turn(me, foe, draw, plan)`` plays the attacker's turn over a
    batch of fights: every random value from ``draw``; ``plan`` None plays the damage play (the
    system's choice in each state), a label one plan of :meth:`plans`, an array of labels one plan
    per fight (optimal play enumerates every plan of a level of states at once; the array is aligned
    with the batch as given, so a description that draws more than once reads it through
    ``Enumerator.origin`` after the first draw). ``plans(me, foe)`` lists the
    plan labels legal in the one state given (optimal play chooses among them); ``describe(me,
    foe)`` names that state's parts for a reader (optimal play's table). ``key`` is a hashable
    naming what the turn tables depend on (models, options, situation, plan), or None: the
    interpreters memoise derived turns under it.

    Optional: ``rest(me, foe, draw)`` returns (me, foe) after the foe's turn when it does not attack
    (``me`` stays the attacker): what a passive target's own turn still does (recovery, damage at
    the end of its turn, timers). The passive fight's round is the attacker's ``turn`` then the
    foe's ``rest`` (:mod:`workbench.fight.chain`, :class:`~workbench.fight.simulation.RoundSide`);
    the duel plays both sides' turns and never a rest. Without it a passive target's turn is nothing.
    A description with a rest takes ``start(passive=True)`` for a passive fight (its target neither
    attacks nor reacts from the first turn on).
    """

    key: Any

    def start(self) -> tuple[Columns, Columns]: ...

    def hit_points(self, who: int) -> int: ...

    def turn(self, me: Columns, foe: Columns, draw: Draw, plan: Any = None) -> tuple[Columns, Columns]: ...

    def plans(self, me: Columns, foe: Columns) -> list[str]: ...

    def describe(self, me: Columns, foe: Columns) -> dict[str, Any]: ...
