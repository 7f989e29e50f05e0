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

import dataclasses
from collections.abc import Generator, Hashable
from typing import Any, cast

import numpy as np

from .. import state_chain as state_chain_module
from ..arguments import check_time
from ..columns import (
    Columns,
    distinct_columns,
    distinct_rows,
    from_key_rows,
    in_fights,
    key_columns,
    key_rows,
)
from ..errors import RulesError
from ..memo import MEMO
from ..state_chain import (
    MAX_KEYS,
    MAX_POLICY_TRANSITIONS,
    Branch,
    KeyedChain,
    KeyedTurn,
    PlannedChain,
    StateChain,
    solve_keyed_chains,
)
from .draw import Enumerator
from .round import FightRound, between_of, play, round_steps

__all__ = [
    "MAX_STATES",
    "MAX_TRANSITIONS",
    "enumerated",
    "keyed_turns",
    "passive_chain",
    "passive_chains",
    "planned_chain",
]

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
    steps: tuple[str, ...] = ("turn",),
    states: tuple[Columns, Columns] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Return every outcome of ``steps`` (:func:`~workbench.fight.round.play`: one turn by default)
    from each state of ``rows`` (key rows, :func:`key_rows`; or ``states``, the states themselves),
    all enumerated in ONE pass of the description, equal outcomes merged: (an int array of rows (the
    state's index, the target's damage, with ``own`` the actor's own damage, the key after), their
    probabilities), sorted by state."""
    me, foe = from_key_rows(types, rows) if states is None else states
    draw = Enumerator(me.size)
    me2, foe2 = play(rnd, me, foe, draw, steps, plan)
    parts = [draw.origin, np.asarray(getattr(foe2, foe2.POOL), dtype=np.int64)]
    if own:
        parts.append(np.asarray(getattr(me2, me2.POOL), dtype=np.int64))
    # (the columns numbered as they are: stacking them first costs more than the numbering)
    uniq, inverse = distinct_columns([*parts, *key_columns((me2, foe2))], draw.weight.shape[0])
    return uniq, np.bincount(inverse, weights=draw.weight, minlength=uniq.shape[0])


@dataclasses.dataclass(frozen=True)
class _Level:
    """One round from each state of a batch (:func:`_level`): state j's outcomes are rows
    ``starts[j]:starts[j + 1]`` of ``after`` (the key after the round, as key rows), ``damage``
    (the target's) and ``probability``."""

    starts: np.ndarray
    after: np.ndarray
    damage: np.ndarray
    probability: np.ndarray
    #: (the distinct rows of ``after``, sorted; each row's index among them) when found already
    distinct: tuple[np.ndarray, np.ndarray] | None = None


def _level(
    rnd: FightRound,
    n: int,
    types: tuple[type[Columns], ...],
    plan: Any = None,
    steps: tuple[str, ...] | None = None,
    rows: np.ndarray | None = None,
    states: tuple[Columns, Columns] | None = None,
) -> _Level:
    """Return one round of rounds-to-kill from each of ``n`` states, the key ``rows`` or the
    ``states`` themselves (a stack's, with their ``fight``), all enumerated in ONE call
    (:func:`enumerated`): the attacker's turn, its acts after the round and the target's rest
    (``steps``, default :func:`~workbench.fight.round.round_steps`)."""
    steps = round_steps(rnd, passive=True) if steps is None else steps
    if rows is None:
        rows = np.zeros((0, 0), np.int64)
    uniq, weight = enumerated(rnd, rows, types, plan, steps=steps, states=states)
    return _Level(np.searchsorted(uniq[:, 0], np.arange(n + 1)), uniq[:, 2:], uniq[:, 1].copy(), weight)


def keyed_turns(
    rnd: FightRound,
    keys: list[tuple[int, ...]],
    types: tuple[type[Columns], ...],
    plan: Any = None,
    steps: tuple[str, ...] | None = None,
    known: dict[tuple[int, ...], tuple[int, ...]] | None = None,
) -> list[KeyedTurn]:
    """Return one round of rounds-to-kill from each key of ``keys`` (:func:`_level`, one call), as
    rows (the key after the round, the target's damage, probability). With ``known`` (a dict kept
    across calls), each distinct key is one tuple shared by every row that reaches it."""
    if not keys:
        return []
    level = _level(rnd, len(keys), types, plan, steps, rows=np.array(keys, dtype=np.int64).reshape(len(keys), -1))
    # (one tuple per distinct key: a large optimal-play chain has millions of rows over a few
    # thousand keys, and a tuple per row held most of its memory)
    shared = {} if known is None else known
    after = [shared.setdefault(k, k) for k in map(tuple, level.after.tolist())]
    s = level.starts.tolist()
    return [
        KeyedTurn(after[s[i] : s[i + 1]], level.damage[s[i] : s[i + 1]], level.probability[s[i] : s[i + 1]])
        for i in range(len(keys))
    ]


def _start(rnd: FightRound) -> tuple[tuple[int, ...], tuple[type[Columns], ...], int]:
    me, foe = rnd.start(passive=True)
    return tuple(key_rows((me, foe))[0].tolist()), (type(me), type(foe)), int(rnd.hit_points(1))


#: the key of the first round of a fight whose attacker acts before it (``between`` with
#: ``opening``): ("opening", *the start key), a key no round leads to
OPENING = "opening"


def _plain(key: Any) -> tuple[int, ...]:
    """Return the state key of a chain key (the opening's is its start key)."""
    return tuple(key[1:]) if key and key[0] == OPENING else tuple(key)


def passive_chain(
    rnd: FightRound,
    max_rounds: int,
    *,
    weights: np.ndarray | None = None,
    max_states: int | None = None,
    max_transitions: int | None = None,
) -> StateChain | None:
    """Return rounds-to-kill's chain of ``rnd`` (a round: the attacker's turn, its acts after the
    round, the target's rest: :func:`~workbench.fight.round.round_steps`), solved by
    :func:`~workbench.state_chain.solve_keyed_chain`; None past the counted bounds (module
    docstring: ``max_states`` and ``max_transitions`` default to MAX_STATES and MAX_TRANSITIONS).
    The one fight of :func:`passive_chains`."""
    return passive_chains([rnd], max_rounds, weights=weights, max_states=max_states, max_transitions=max_transitions)[0]


def passive_chains(
    rnds: list[FightRound],
    max_rounds: int,
    *,
    weights: np.ndarray | None = None,
    max_states: int | None = None,
    max_transitions: int | None = None,
) -> list[StateChain | None]:
    """Return :func:`passive_chain` of each round of ``rnds`` (a compare's rows): their keys walked
    in step, a level of every round at a time (:func:`_walk_all`: a round class may build what the
    level reads for all of them at once), the chains solved together
    (:func:`~workbench.state_chain.solve_keyed_chains`) in batches of at most ``max_transitions``
    transitions, so the solver's memory stays one large chain's.

    Reused across calls: a round with a ``key`` (its models, options, situation and plan) keeps its
    chain (or that it is past the bounds) in the bounded :data:`~workbench.memo.MEMO`, its arrays
    read-only, so a repeated compare or rounds-to-kill solves nothing again."""
    max_states = MAX_STATES if max_states is None else max_states
    max_transitions = MAX_TRANSITIONS if max_transitions is None else max_transitions
    out: list[StateChain | None] = [None] * len(rnds)
    # (every bound the build and the solve read, as they stand now: a chain past one is None)
    bounds = (max_rounds, max_states, max_transitions, state_chain_module.MAX_KEYS)
    pending: list[tuple[int, Any, KeyedChain]] = []  # (position, memo key, its walked chain)
    held = 0  # the transitions (rows x HP) of the pending chains

    def solve() -> None:
        for (i, memo_key, _), chain in zip(pending, solve_keyed_chains([c for *_, c in pending])):
            out[i] = chain
            if memo_key is not None:
                if chain is not None:  # (kept only without weights: ``by`` is its one array)
                    chain.by.setflags(write=False)
                MEMO.put(memo_key, _PAST_BOUNDS if chain is None else chain)
        pending.clear()

    todo: list[tuple[int, Any]] = []  # (position, memo key) of the rounds not kept in the memo
    for i, rnd in enumerate(rnds):
        memo_key = None
        if weights is None and rnd.key is not None:
            memo_key = ("passive chain", rnd.key, *bounds)
            got = MEMO.lookup(memo_key)
            if got is not None:
                out[i] = None if got is _PAST_BOUNDS else cast(StateChain, got)
                continue
        todo.append((i, memo_key))
    for (i, memo_key), walked in zip(todo, _walk_all([rnds[i] for i, _ in todo], max_states, max_transitions)):
        if walked is None:
            if memo_key is not None:
                MEMO.put(memo_key, _PAST_BOUNDS)
            continue
        first, hp, turns, rows = walked
        if pending and held + rows * hp > max_transitions:
            solve()
            held = 0
        chain = KeyedChain(first, hp, turns.__getitem__, max_rounds, weights, max_transitions, numbered=len(turns))
        pending.append((i, memo_key, chain))
        held += rows * hp
    if pending:
        solve()
    return out


#: what the memo keeps for a chain past the counted bounds
_PAST_BOUNDS = "past the bounds"


def _walking(rnd: FightRound, max_states: int, max_transitions: int) -> Generator[tuple[Any, ...], Any, Any]:
    """Walk :func:`passive_chain`'s fight: the keys found breadth first, each level's in ONE
    enumeration (:func:`_level`), numbered as they are found (the start, or the opening round's
    key, 0; a level's new keys in their sorted order) and counted level by level. Yields (the types
    of the states, the key rows of the level about to be enumerated) before each level, and takes
    back the level when the caller enumerated it (a stack of fights, :func:`_walk_all`) or None;
    returns (the first key's number, the target's HP, each key's round by number, the rows in all:
    :attr:`~workbench.state_chain.KeyedChain.numbered`'s form), or None past ``max_states`` (keys x
    HP) or ``max_transitions`` (rows x HP)."""
    start, types, hp = _start(rnd)
    index: dict[tuple[int, ...], int] = {}
    keys: list[tuple[int, ...]] = []  # each number's key
    turns: list[KeyedTurn] = []  # each number's round, the frontier's filled as its level is enumerated

    def numbered(level: _Level) -> list[KeyedTurn]:
        """Return each state's round from ``level``, its keys as numbers (a new key numbered in the
        sorted order of the level's new keys: each distinct key looked up once, not each row)."""
        after = level.after
        if level.distinct is not None:
            uniq, inverse = level.distinct
        elif after.shape[1]:
            uniq, inverse = distinct_rows(after)
        else:  # (a key of no fields: every row leads to the one key)
            uniq, inverse = np.zeros((min(after.shape[0], 1), 0), np.int64), np.zeros(after.shape[0], np.int64)
        ids = np.empty(uniq.shape[0], np.int64)
        for j, k in enumerate(map(tuple, uniq.tolist())):
            i = index.get(k)
            if i is None:
                i = index[k] = len(keys)
                keys.append(k)
            ids[j] = i
        dest = ids[inverse]
        s = level.starts.tolist()
        return [
            KeyedTurn(dest[s[j] : s[j + 1]], level.damage[s[j] : s[j + 1]], level.probability[s[j] : s[j + 1]])
            for j in range(len(s) - 1)
        ]

    if between_of(rnd) is not None:  # round 1 is the acts before it, then a round: its own key, 0
        keys.append((OPENING, *start))  # type: ignore[arg-type]
        steps = ("opening", *round_steps(rnd, passive=True))
        turns += numbered(_level(rnd, 1, types, steps=steps, rows=np.array([start], dtype=np.int64)))
    else:
        index[start] = 0
        keys.append(start)
    rows = sum(len(t.keys) for t in turns)
    frontier = range(len(turns), len(keys))
    while frontier:
        if len(keys) * hp > max_states:
            return None
        at = np.array([keys[i] for i in frontier], dtype=np.int64).reshape(len(frontier), -1)
        level = yield types, at
        if level is None:
            level = _level(rnd, len(frontier), types, rows=at)
        found = len(keys)
        turns += numbered(level)
        rows += int(level.after.shape[0])
        if rows * hp > max_transitions:
            return None
        frontier = range(found, len(keys))
    return 0, hp, turns, rows


def _walk_all(rnds: list[FightRound], max_states: int, max_transitions: int) -> list[Any]:
    """Return :func:`_walking`'s result for each round of ``rnds``, the walks in step, a level of
    every walk at a time. A round class with ``stack(rounds)`` (a round over several rounds' fights,
    each row's round read from its ``fight`` column, :func:`~workbench.columns.in_fights`) has the
    level of all its walks enumerated in ONE call of its description and their new keys found in
    one pass (:func:`_level_of_stack`); before each level, a round class with the optional hook
    ``prepare_turns(items)`` (items: (round, the attacker's states, the target's states) of every
    round of that class at that level) builds what those turns read for all of them at once (Last
    Odyssey: its plans and outcome tables in one call each instead of one per round). Neither
    changes a number, only how many calls build them."""
    out: list[Any] = [None] * len(rnds)
    walks = {i: _walking(rnd, max_states, max_transitions) for i, rnd in enumerate(rnds)}
    level: dict[int, tuple[Any, np.ndarray]] = {}  # each walk's (state types, key rows) of the level
    got: dict[int, Any] = {}  # the level's rounds of each walk, when enumerated here
    depth = 0
    while walks:
        depth += 1
        check_time(f"the states of {len(walks):,} fights, level {depth:,}")  # (a panel's Cancel stops here)
        for i, walk in list(walks.items()):
            try:
                level[i] = walk.send(got.pop(i, None))
            except StopIteration as done:
                out[i] = done.value
                del walks[i]
                level.pop(i, None)
        classes: dict[type, list[int]] = {}
        for i in level:
            classes.setdefault(type(rnds[i]), []).append(i)
        for cls, members in classes.items():
            hook = getattr(cls, "prepare_turns", None)
            stack = getattr(cls, "stack", None)
            if hook is None and stack is None:
                continue
            # the level's states of every walk of the class, built once
            bounds = np.cumsum([0, *(level[i][1].shape[0] for i in members)]).tolist()
            me, foe = from_key_rows(level[members[0]][0], np.concatenate([level[i][1] for i in members]))
            if hook is not None:
                hook(
                    [
                        (rnds[i], me.take(slice(a, b)), foe.take(slice(a, b)))
                        for i, a, b in zip(members, bounds, bounds[1:])
                    ]
                )
            if stack is not None:
                got.update(_level_of_stack(stack, [rnds[i] for i in members], members, bounds, (me, foe)))
    return out


def _level_of_stack(
    stack: Any, rnds: list[FightRound], ids: list[int], bounds: list[int], states: tuple[Columns, Columns]
) -> dict[int, _Level]:
    """Return, per walk id of ``ids``, the round (:class:`_Level`) from each of its level's states
    (``states``: every walk's, walk j's rows ``bounds[j]:bounds[j + 1]``), every walk's enumerated in
    ONE call of the description of ``stack(rnds)``, each row's round read from its ``fight``, and the
    distinct keys they lead to found in one pass over every walk's rows; {} when the rules refuse
    one of them (each walk then enumerates its own level, and the refused one meets its refusal
    alone)."""
    me, foe = states
    fight = np.repeat(np.arange(len(rnds)), np.diff(bounds))
    try:
        level = _level(stack(rnds), me.size, (type(me), type(foe)), states=(in_fights(me, fight), foe))
    except RulesError:
        return {}
    # every walk's keys after, distinct per walk (sorted by walk, then key): each walk's part of them
    s = level.starts
    uniq, inverse = distinct_rows(np.column_stack([np.repeat(fight, np.diff(s)), level.after]))
    first = np.searchsorted(uniq[:, 0], np.arange(len(rnds) + 1)).tolist()
    out = {}
    for j, (i, a, b) in enumerate(zip(ids, bounds, bounds[1:])):
        lo, hi = int(s[a]), int(s[b])
        distinct = (uniq[first[j] : first[j + 1], 1:], inverse[lo:hi] - first[j])
        out[i] = _Level(s[a : b + 1] - lo, level.after[lo:hi], level.damage[lo:hi], level.probability[lo:hi], distinct)
    return out


def planned_chain(
    rnd: FightRound, *, max_states: int | None = None, max_transitions: int | None = None
) -> PlannedChain:
    """Return the fight of :func:`passive_chain` with every plan legal at each key
    (``rnd.plans``), for optimal play (:func:`~workbench.state_chain.solve_keyed_policy`); a
    RulesError (field ``target``, counted level by level as the keys are found, before the solve)
    past ``max_states`` keys x HP (default MAX_STATES), MAX_KEYS keys or ``max_transitions``
    transitions (default MAX_POLICY_TRANSITIONS: the rows of every (decision, plan) x HP, counted as
    the solver counts them).

    The plan is chosen once the dice before it are rolled: a description with ``ready`` (dice its
    turn rolls before the plan) has each key's round as one :class:`~workbench.state_chain.Branch`
    per state ``ready`` leaves, and one whose side acts before the first round (``between`` with
    ``opening``) has round 1 branched the same way over those acts. Each level's keys are readied
    in ONE enumeration, and its (state, plan) pairs played in another (``plan`` one label per row)."""
    max_states = MAX_STATES if max_states is None else max_states
    max_transitions = MAX_POLICY_TRANSITIONS if max_transitions is None else max_transitions
    start, types, hp = _start(rnd)
    ready = ("ready",) if hasattr(rnd, "ready") else ()
    after = ("act", *round_steps(rnd, passive=True)[1:])  # the round once the plan is chosen
    # the plans legal at each state where a plan is chosen, each with its round
    at: dict[tuple[int, ...], dict[str, KeyedTurn]] = {}
    known: dict[tuple[int, ...], tuple[int, ...]] = {}  # each key's one tuple

    def plans_at(mids: list[tuple[int, ...]]) -> None:
        new = sorted(set(mids) - at.keys())
        if not new:
            return
        me, foe = from_key_rows(types, np.array(new, dtype=np.int64).reshape(len(new), -1))
        legal = [rnd.plans(me.take(slice(i, i + 1)), foe.take(slice(i, i + 1))) for i in range(len(new))]
        # every (state, plan) of the level in ONE enumeration; each state's plans in the order
        # rnd.plans lists them (ties go to the first)
        rows = [(k, label) for k, labels in zip(new, legal) for label in labels]
        plan = np.array([label for _, label in rows], dtype=object)
        turns = keyed_turns(rnd, [k for k, _ in rows], types, plan, steps=after, known=known) if rows else []
        for k in new:
            at[k] = {}
        for (k, label), t in zip(rows, turns):
            at[k][label] = t

    def branches(keys: list[tuple[int, ...]], steps: tuple[str, ...]) -> list[list[Branch]]:
        """Return, per key, a Branch per state ``steps`` leave (the dice before the plan)."""
        got = keyed_turns(rnd, keys, types, steps=steps, known=known)
        plans_at([cast(tuple[int, ...], m) for t in got for m in t.keys])
        out = []
        for t in got:
            one = []
            for k, d, p in zip(t.keys, t.damage.tolist(), t.probability.tolist()):
                m = cast(tuple[int, ...], k)
                mm, mf = from_key_rows(types, np.array([m], dtype=np.int64))
                one.append(Branch(float(p), int(d), at[m], {"taken_before_the_plan": int(d), **rnd.describe(mm, mf)}))
            out.append(one)
        return out

    per: dict[Hashable, dict[str, KeyedTurn] | list[Branch]] = {}
    first: Hashable = start
    frontier = [start]
    if between_of(rnd) is not None:  # round 1: the acts before it, then the dice before the plan
        first = (OPENING, *start)
        per[first] = branches([start], ("opening", *ready))[0]
        frontier = []

    def reached(rounds: list[dict[str, KeyedTurn] | list[Branch]]) -> list[tuple[int, ...]]:
        plans = [r for x in rounds for r in ([b.plans for b in x] if isinstance(x, list) else [x])]
        return sorted(cast(set[tuple[int, ...]], {n for p in plans for t in p.values() for n in t.keys} - per.keys()))

    if not frontier:
        frontier = reached([per[first]])

    def too_large(what: str) -> RulesError:
        return RulesError(
            f"the fight's state is too large for optimal play ({what}); objective='rounds' plays the best fixed plan",
            field="target",
            rule="docs/limits.md: bounded work",
        )

    def rows_of(got: dict[str, KeyedTurn] | list[Branch]) -> int:
        """The transitions of a key's round, as the solver counts them: every plan of every branch."""
        plans = [b.plans for b in got] if isinstance(got, list) else [got]
        return sum(len(t.keys) for p in plans for t in p.values())

    rows = sum(rows_of(v) for v in per.values())
    while frontier:
        if (len(per) + len(frontier)) * hp > max_states:
            raise too_large(f"over {max_states:,} states, keys x HP")
        if len(per) + len(frontier) > MAX_KEYS:
            raise too_large(f"over {MAX_KEYS:,} keys")
        if ready:
            for k, b in zip(frontier, branches(frontier, ready)):
                per[k] = b
        else:
            plans_at(frontier)
            for k in frontier:
                per[k] = at[k]
        rows += sum(rows_of(per[k]) for k in frontier)
        if rows * hp > max_transitions:
            raise too_large(f"over {max_transitions:,} transitions, rows of every plan x HP")
        frontier = reached([per[k] for k in frontier])

    def describe(key: Any) -> dict[str, Any]:
        me, foe = from_key_rows(types, np.array([_plain(key)], dtype=np.int64))
        return rnd.describe(me, foe)

    return PlannedChain(first, hp, per.__getitem__, describe)


def state_chain(
    sys: Any,
    attacker: Any,
    target: Any,
    options: Any = None,
    situation: Any = None,
    plan: Any = None,
    max_rounds: int = 10_000,
    weights: np.ndarray | None = None,
) -> StateChain | None:
    """Return the exact rounds-to-kill of ``attacker`` against ``target`` over the fight's state (a
    :class:`~workbench.state_chain.StateChain`: P(killed by round t) up to ``max_rounds`` or a
    CHAIN_TAIL survival, the exact mean, and with ``weights`` (t = 0..R_w - 1, R_w <= max_rounds + 1)
    the weighted alive mass by damage taken, a duel's winner's HP left): the chain derived from the
    system's round description (``RuleSystem.fight_round``, :func:`passive_chain`); None when the
    system describes no round or the state is past the counted bounds (the fight is then
    simulated)."""
    from ..arguments import check_round_weights

    rnd = sys.fight_round(attacker, target, options, situation, plan)
    if rnd is None:
        return None
    if weights is not None and not getattr(rnd, "whole_pool", True):
        return None  # HP left is not the damage taken (round.py: ``whole_pool``)
    W = None if weights is None else check_round_weights(weights, max_rounds)
    return passive_chain(rnd, max_rounds, weights=W)


def state_plans(
    sys: Any, attacker: Any, target: Any, options: Any = None, situation: Any = None
) -> PlannedChain | None:
    """Return rounds-to-kill's fight of ``attacker`` against ``target`` with every legal plan at each
    state (a :class:`~workbench.state_chain.PlannedChain`, :func:`planned_chain`), for optimal play
    over the state; None when the system describes no round (optimal play is then refused, naming
    the state); a RulesError (field ``target``) past the counted bound."""
    rnd = sys.fight_round(attacker, target, options, situation, None)
    if rnd is None:
        return None
    return planned_chain(rnd)
