"""The one description of a round that a rule system writes (issue 33): the protocol the fight's
interpreters (:mod:`workbench.fight.chain`, :mod:`workbench.fight.simulation`) read."""

from __future__ import annotations

from typing import Any, Protocol

from ..columns import Columns
from .draw import Draw

__all__ = ["FightRound", "between_of", "play", "round_steps"]


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

    Optional parts, each read by the interpreters only when the description has it:

    - ``ready(me, foe, draw) -> (me, foe)``: what the turn rolls and does before its plan is chosen
      (Annulus: the recharge dice, a devoured foe's dice, a Telegraphed strike). A turn is
      ``ready`` then ``turn``; optimal play chooses the plan after ``ready`` (one Branch per
      outcome), every other interpreter plays both in order (:func:`play`'s step "turn").
    - ``rest(me, foe, draw) -> (me, foe)``: the foe's turn when it does not attack (``me`` stays the
      attacker): what a passive target's own turn still does (recovery, damage at the end of its
      turn, timers), played with the foe's tactics. Rounds-to-kill's round is the attacker's turn
      then the foe's rest; the duel never rests. Without it a passive target's turn is nothing.
    - ``between(me, foe, draw, opening) -> (me, foe)``: what its side does between rounds (Last
      Odyssey's phases) after each round and, with ``opening``, before the first: in a duel after
      both turns, each side's in the order a, b; in rounds-to-kill after the attacker's turn. A kill
      in the phases after round r is a kill in round r, one before the first round a kill in round 1.
    - ``falls_mid_turn`` (a bool attribute, False when absent): True when a fight can end part-way
      through a turn in a way the rest of the turn depends on (a Counter or the striker's own damage
      fells it; its foe falls before the turn's later uses). The turn then reads the damage taken
      and stops striking once a side has fallen, and the duel plays it from the full state (both
      damages taken) wherever an outcome can fell a side (:mod:`workbench.fight.duel`).
    - ``hp_total(who)`` and ``hp_lost(who, c)``: the hit points of the attacker (0) or the target
      (1), and what creature ``who`` has lost in the states ``c``, when the damage taken is not all of
      it (Annulus keeps Endurance lost apart when vital damage can fall); by default
      ``hit_points(who)`` and the damage taken. A duel's HP left is read from them.
    - ``whole_pool`` (a bool attribute, True when absent): False when the damage taken is not every
      hit point the creature has (Annulus keeps Endurance lost apart when vital damage can fall), so
      HP left cannot be read off it (a duel's HP left is then simulated).

    - ``prepare_turns(items)`` (a classmethod): builds what the turns of many rounds of its class
      read from the states given (items: (round, the attacker's states, the target's states)), for
      all of them at once; a compare walks its rows' fights in step and calls it before each level
      (:func:`workbench.fight.chain.passive_chains`). It must change no number: without it each
      round builds the same when its turn meets it (Last Odyssey: a level's plans and outcome
      tables in one call each).

    - ``stack(rounds)`` (a classmethod): one round of its class over the fights of several rounds,
      whose ``turn`` plays each row's own round, read from the ``fight`` column the interpreter gives
      the attacker's state (:func:`workbench.columns.in_fights`; ``fights_of`` reads it, 0 in every
      row of a round that is not a stack). A compare's walk then enumerates a level of all its
      fights of that class in ONE call of the description instead of one per fight (Glass Empires,
      Unbound, Last Odyssey); a single round is the stack of one, so the turn is written once. Only the steps of
      rounds-to-kill are played on a stack.

    ``start(passive)`` with ``passive`` True starts rounds-to-kill's fight: the target neither
    attacks nor reacts.
    """

    key: Any

    def start(self, passive: bool = False) -> tuple[Columns, Columns]: ...

    def hit_points(self, who: int) -> int: ...

    def turn(self, me: Columns, foe: Columns, draw: Draw, plan: Any = None) -> tuple[Columns, Columns]: ...

    def plans(self, me: Columns, foe: Columns) -> list[str]: ...

    def describe(self, me: Columns, foe: Columns) -> dict[str, Any]: ...


def between_of(rnd: FightRound) -> Any:
    """Return ``rnd``'s ``between`` (its side's acts between rounds), or None when it has none."""
    return getattr(rnd, "between", None)


def round_steps(rnd: FightRound, passive: bool) -> tuple[str, ...]:
    """Return the steps (:func:`play`) of one round of rounds-to-kill (``passive``: the attacker's
    turn, its acts between rounds, the foe's rest) or of one side's turn in a duel, leaving out what
    the description does not have."""
    steps = ["turn"]
    if passive and between_of(rnd) is not None:
        steps.append("between")
    if passive and hasattr(rnd, "rest"):
        steps.append("rest")
    return tuple(steps)


def play(
    rnd: FightRound, me: Columns, foe: Columns, draw: Draw, steps: tuple[str, ...], plan: Any = None
) -> tuple[Columns, Columns]:
    """Return (me, foe) after ``steps`` of ``rnd`` in order: "turn" (its ``ready`` then its turn,
    playing ``plan``), "ready" and "act" (the two apart: optimal play chooses the plan between them),
    "rest" (the foe's turn when it does not attack), "between" (its acts after a round) or "opening"
    (its acts before the first round); a step the description does not have is nothing."""
    for step in steps:
        if step in ("turn", "ready"):
            ready = getattr(rnd, "ready", None)
            if ready is not None:
                me, foe = ready(me, foe, draw)
        if step in ("turn", "act"):
            me, foe = rnd.turn(me, foe, draw, plan)
        elif step == "rest":
            rest = getattr(rnd, "rest", None)
            if rest is not None:
                me, foe = rest(me, foe, draw)
        elif step in ("between", "opening"):
            between = between_of(rnd)
            if between is not None:
                me, foe = between(me, foe, draw, step == "opening")
    return me, foe
