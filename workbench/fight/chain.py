"""The exact fights derived from a round description (:class:`~workbench.fight.round.FightRound`):
its turns enumerated (:class:`~workbench.fight.draw.Enumerator`) over every state a fight can reach,
batched, then solved by the one keyed-chain solver and the one policy solver of
:mod:`workbench.state_chain`.

A state is (key, damage taken): the key is every field of both combatants but the target's
``damage_taken`` (:func:`workbench.columns.key_rows`), the attacker's own damage taken left
out (rounds-to-kill's target is passive, and nothing in a passive fight hurts the attacker). The
keys a fight reaches are found breadth first, each level's keys enumerated in ONE call of the
description, and counted before the chain is built: past ``max_states`` (keys x HP) or
``max_transitions`` (rows x HP) the chain is not built (None: the caller simulates).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, cast

import numpy as np

from ..columns import Columns, distinct_rows, from_key_rows, key_rows
from ..state_chain import Branch, KeyedTurn, PlannedChain, StateChain, solve_keyed_chain
from .draw import Enumerator
from .round import FightRound

__all__ = ["MAX_STATES", "MAX_TRANSITIONS", "enumerated", "keyed_turns", "passive_chain", "planned_chain"]

#: keys x HP past which the chain is not built (the fight is simulated, docs/limits.md)
MAX_STATES = 200_000
#: transitions (states x turn rows) past which the chain is not built: its time and memory follow
#: them (3.98 M took 0.6 s and 170 MB for a Glass Empires fight; 10.8 M 2.8 s)
MAX_TRANSITIONS = 4_000_000


def enumerated(
    rnd: FightRound,
    rows: np.ndarray,
    types: tuple[type[Columns], ...],
    plan: Any = None,
    own: bool = False,
    rest: bool = False,
    opened: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """Return every outcome of one turn from each state of ``rows`` (key rows, :func:`key_rows`), all
    enumerated in ONE call of ``rnd.turn``, equal outcomes merged: (an int array of rows (the
    state's index, the target's damage, with ``own`` the actor's own damage, the key after), their
    probabilities), sorted by state. With ``rest`` the turn is a passive fight's round: the
    attacker's turn, then the foe's turn without attacking (``rnd.rest``, when the description has
    one). With ``opened`` the rows are states after the description's ``opening`` (the turn from
    there)."""
    me, foe = from_key_rows(types, rows)
    draw = Enumerator(rows.shape[0])
    me2, foe2 = cast(Any, rnd).turn(me, foe, draw, plan, opened=True) if opened else rnd.turn(me, foe, draw, plan)
    rest_of = getattr(rnd, "rest", None) if rest else None
    if rest_of is not None:
        me2, foe2 = rest_of(me2, foe2, draw)
    parts = [draw.origin, np.asarray(getattr(foe2, foe2.POOL), dtype=np.int64)]
    if own:
        parts.append(np.asarray(getattr(me2, me2.POOL), dtype=np.int64))
    uniq, inverse = distinct_rows(np.column_stack([*parts, key_rows((me2, foe2))]))
    return uniq, np.bincount(inverse, weights=draw.weight, minlength=uniq.shape[0])


def keyed_turns(
    rnd: FightRound,
    keys: list[tuple[int, ...]],
    types: tuple[type[Columns], ...],
    plan: Any = None,
    opened: bool = False,
) -> list[KeyedTurn]:
    """Return one round of a passive fight from each key of ``keys`` (:func:`enumerated`, one call,
    with the foe's rest): the rows (the key after the round, the target's damage, probability)."""
    if not keys:
        return []
    uniq, weight = enumerated(
        rnd, np.array(keys, dtype=np.int64).reshape(len(keys), -1), types, plan, rest=True, opened=opened
    )
    starts = np.searchsorted(uniq[:, 0], np.arange(len(keys) + 1))
    out = []
    for i in range(len(keys)):
        part = uniq[starts[i] : starts[i + 1]]
        out.append(
            KeyedTurn([tuple(r) for r in part[:, 2:].tolist()], part[:, 1].copy(), weight[starts[i] : starts[i + 1]])
        )
    return out


def _start(rnd: FightRound) -> tuple[tuple[int, ...], tuple[type[Columns], ...], int]:
    # a description with a rest starts a passive fight knowing it (its target does not react either)
    me, foe = cast(Any, rnd).start(passive=True) if hasattr(rnd, "rest") else rnd.start()
    return tuple(key_rows((me, foe))[0].tolist()), (type(me), type(foe)), int(rnd.hit_points(1))


def passive_chain(
    rnd: FightRound,
    max_rounds: int,
    *,
    weights: np.ndarray | None = None,
    max_states: int | None = None,
    max_transitions: int | None = None,
) -> StateChain | None:
    """Return rounds-to-kill's chain of ``rnd`` (a round: the attacker's turn, then the target's
    turn without attacking, ``rnd.rest``, when the description has one),
    solved by :func:`~workbench.state_chain.solve_keyed_chain`; None past the counted bounds
    (module docstring: ``max_states`` and ``max_transitions`` default to MAX_STATES and
    MAX_TRANSITIONS)."""
    max_states = MAX_STATES if max_states is None else max_states
    max_transitions = MAX_TRANSITIONS if max_transitions is None else max_transitions
    start, types, hp = _start(rnd)
    turns: dict[Hashable, KeyedTurn] = {}
    frontier = [start]
    rows = 0
    while frontier:
        if (len(turns) + len(frontier)) * hp > max_states:
            return None
        got = keyed_turns(rnd, frontier, types)
        for k, t in zip(frontier, got):
            turns[k] = t
            rows += len(t.keys)
        if rows * hp > max_transitions:
            return None
        frontier = sorted(cast(set[tuple[int, ...]], {k for t in got for k in t.keys} - turns.keys()))
    return solve_keyed_chain(start, hp, turns.__getitem__, max_rounds, weights=weights, max_transitions=max_transitions)


def planned_chain(rnd: FightRound, *, max_states: int | None = None) -> PlannedChain | None:
    """Return the fight of :func:`passive_chain` with every plan legal at each key
    (``rnd.plans``), for optimal play (:func:`~workbench.state_chain.solve_keyed_policy`); a
    description with an ``opening`` (the dice its turn rolls before the plan is chosen) has its plans
    chosen after it (:func:`_branched_chain`); None
    past ``max_states`` (default MAX_STATES). Each level's (key, plan) pairs are enumerated in ONE
    call (``plan`` one label per row)."""
    max_states = MAX_STATES if max_states is None else max_states
    if hasattr(rnd, "opening"):
        return _branched_chain(rnd, max_states)
    start, types, hp = _start(rnd)
    per: dict[Hashable, dict[str, KeyedTurn]] = {}
    frontier = [start]
    while frontier:
        if (len(per) + len(frontier)) * hp > max_states:
            return None
        me, foe = from_key_rows(types, np.array(frontier, dtype=np.int64).reshape(len(frontier), -1))
        legal = [rnd.plans(me.take([i]), foe.take([i])) for i in range(len(frontier))]
        # every (key, plan) of the level in ONE enumeration: a plan per row; each key's plans in the
        # order rnd.plans lists them (ties go to the first)
        rows = [(k, label) for k, labels in zip(frontier, legal) for label in labels]
        plan = np.array([label for _, label in rows], dtype=object)
        turns = keyed_turns(rnd, [k for k, _ in rows], types, plan) if rows else []
        for k in frontier:
            per[k] = {}
        for (k, label), t in zip(rows, turns):
            per[k][label] = t
        frontier = sorted(
            cast(set[tuple[int, ...]], {n for k in frontier for t in per[k].values() for n in t.keys} - per.keys())
        )

    def describe(key: Any) -> dict[str, Any]:
        me, foe = from_key_rows(types, np.array([key], dtype=np.int64))
        return rnd.describe(me, foe)

    return PlannedChain(start, hp, per.__getitem__, describe)


def _branched_chain(rnd: FightRound, max_states: int) -> PlannedChain | None:
    """Return :func:`planned_chain` of a description whose turn rolls dice before its plan is chosen
    (optional ``opening(me, foe, draw)``, then ``turn(..., opened=True)``): each key's round is one
    :class:`~workbench.state_chain.Branch` per outcome of the opening, with the plans legal there.
    Each level's openings are enumerated in ONE call, and its (branch, plan) pairs in another."""
    start, types, hp = _start(rnd)
    per: dict[Hashable, list[Branch]] = {}
    frontier = [start]
    while frontier:
        if (len(per) + len(frontier)) * hp > max_states:
            return None
        me, foe = from_key_rows(types, np.array(frontier, dtype=np.int64).reshape(len(frontier), -1))
        draw = Enumerator(len(frontier))
        me2, foe2 = cast(Any, rnd).opening(me, foe, draw)
        taken = np.asarray(getattr(foe2, foe2.POOL), dtype=np.int64)
        uniq, inverse = distinct_rows(np.column_stack([draw.origin, taken, key_rows((me2, foe2))]))
        weight = np.bincount(inverse, weights=draw.weight, minlength=uniq.shape[0])
        mids = [tuple(r) for r in uniq[:, 2:].tolist()]
        bm, bf = from_key_rows(types, uniq[:, 2:])
        legal = [rnd.plans(bm.take([i]), bf.take([i])) for i in range(len(mids))]
        rows = [(i, label) for i, labels in enumerate(legal) for label in labels]
        plan = np.array([label for _, label in rows], dtype=object)
        turns = keyed_turns(rnd, [mids[i] for i, _ in rows], types, plan, opened=True) if rows else []
        plans: list[dict[str, KeyedTurn]] = [{} for _ in mids]
        for (i, label), t in zip(rows, turns):
            plans[i][label] = t
        for k in frontier:
            per[k] = []
        for i, r in enumerate(uniq.tolist()):
            named = rnd.describe(bm.take([i]), bf.take([i]))
            per[frontier[r[0]]].append(Branch(float(weight[i]), int(r[1]), plans[i], named))
        frontier = sorted(cast(set[tuple[int, ...]], {n for t in turns for n in t.keys} - per.keys()))

    def describe(key: Any) -> dict[str, Any]:
        me, foe = from_key_rows(types, np.array([key], dtype=np.int64))
        return rnd.describe(me, foe)

    return PlannedChain(start, hp, per.__getitem__, describe)
