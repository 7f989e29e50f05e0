"""The one description of a round that a rule system writes (issue 33): the protocol the fight's
interpreters (:mod:`workbench.fight.chain`, :mod:`workbench.fight.simulation`) read."""

from __future__ import annotations

from typing import Any, Protocol

from ..columns import Columns
from .draw import Draw

__all__ = ["FightRound", "between_of", "play"]


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

    A side that acts between rounds as well (Last Odyssey's phases) has a method ``between(me, foe,
    draw, opening) -> (me, foe)``: what its side does after each round (both sides' turns), and, with
    ``opening``, before the first. The interpreters call it when the description has it
    (:func:`between_of`): in a duel after both turns, each side's in the order a, b; in rounds-to-kill
    after the attacker's turn (the passive target has none). A kill in the phases after round r is a
    kill in round r, one before the first round a kill in round 1.
    """

    key: Any

    def start(self) -> tuple[Columns, Columns]: ...

    def hit_points(self, who: int) -> int: ...

    def turn(self, me: Columns, foe: Columns, draw: Draw, plan: Any = None) -> tuple[Columns, Columns]: ...

    def plans(self, me: Columns, foe: Columns) -> list[str]: ...

    def describe(self, me: Columns, foe: Columns) -> dict[str, Any]: ...


def between_of(rnd: FightRound) -> Any:
    """Return ``rnd``'s ``between`` (its side's acts between rounds), or None when it has none."""
    return getattr(rnd, "between", None)


def play(
    rnd: FightRound, me: Columns, foe: Columns, draw: Draw, steps: tuple[str, ...], plan: Any = None
) -> tuple[Columns, Columns]:
    """Return (me, foe) after ``steps`` of ``rnd`` in order: "turn" (its turn, playing ``plan``),
    "between" (its acts after a round) or "opening" (its acts before the first round); a step the
    description does not have is nothing."""
    for step in steps:
        if step == "turn":
            me, foe = rnd.turn(me, foe, draw, plan)
            continue
        between = between_of(rnd)
        if between is not None:
            me, foe = between(me, foe, draw, step == "opening")
    return me, foe
