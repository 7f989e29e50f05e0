"""The absorbing chain of a fight whose state is more than the damage taken: states (key, damage
taken), where a key is whatever else the fight carries (armor points left, a Shell's points, MP,
a jammed weapon) and one turn from key k is a table of rows (next key, damage to HP, probability).

Rules systems describe their state through ``RuleSystem.state_chain`` and build the turn of each
key from their own rules; this module only solves the chain (it names no system). The target is
killed when the damage taken reaches its HP; P(killed by round t) comes from iterating the
distribution over states, the mean from (I - Q) m = 1 over the transient states reached from the
start (scipy.sparse), as for any absorbing Markov chain; a reached state from which no kill can
ever follow makes the mean infinite.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

import numpy as np

from .arguments import check_time
from .chains import CHAIN_TAIL

__all__ = ["KeyedTurn", "StateChain", "MAX_KEYED_TRANSITIONS", "MAX_KEYS", "solve_keyed_chain"]

#: transitions (states x turn-table rows) past which :func:`solve_keyed_chain` gives up (returns
#: None: the caller simulates): the chain's time and memory follow them (about 0.6 s and 200 MB
#: at 4 M here)
MAX_KEYED_TRANSITIONS = 4_000_000
#: keys (the state beyond the damage taken) past which the chain gives up: each asks its system for
#: one turn (a Last Odyssey (MP, Shell) key about 0.3 ms, a new MP value a plan choice of about
#: 10 ms), so the keys bound the time spent before the chain is built; the largest published state
#: (Shells of 75, Mana of 135) stays under a few thousand
MAX_KEYS = 20_000


@dataclass(frozen=True)
class KeyedTurn:
    """One turn from one key: parallel arrays, one entry per outcome row: ``keys`` (the key after
    the turn, a hashable), ``damage`` (to HP, >= 0) and ``probability`` (summing to 1)."""

    keys: Sequence[Hashable]
    damage: np.ndarray
    probability: np.ndarray


@dataclass(frozen=True)
class StateChain:
    """The solved chain: ``by`` (P(killed by round t), t = 1.. up to ``max_rounds`` or until the
    survival is below CHAIN_TAIL, or the survival in states from which a kill can still follow is:
    the rest of the curve is flat), ``mean`` (exact mean rounds, inf when a reached state can never
    be killed), ``states`` (how many (key, damage) states), ``weighted`` (with weights: sum over t
    of weights[t] x the alive mass after t rounds by damage taken, length hp; else None)."""

    by: np.ndarray
    mean: float
    states: int
    weighted: np.ndarray | None = None


def solve_keyed_chain(
    start: Hashable,
    hp: int,
    turn: Callable[[Hashable], KeyedTurn],
    max_rounds: int,
    *,
    weights: np.ndarray | None = None,
    max_transitions: int | None = None,
) -> StateChain | None:
    """Return the :class:`StateChain` of a target with ``hp`` hit points, the fight starting at key
    ``start`` with no damage taken, each turn from key k being ``turn(k)``; None when the states
    reached times their turn rows pass ``max_transitions`` (default MAX_KEYED_TRANSITIONS) or the keys
    reached pass MAX_KEYS (the caller then simulates).

    From state (k, h) each row (k', d, p) of ``turn(k)`` leads to (k', h + d) with probability p,
    and h + d >= hp kills. The keys reached from ``start`` are found first (breadth first, each
    turn asked once). Bounded work: the caller's :func:`workbench.arguments.time_budget` is checked
    every round.
    """
    import scipy.sparse as sp
    import scipy.sparse.linalg as spl

    bound = MAX_KEYED_TRANSITIONS if max_transitions is None else max_transitions
    keys: list[Hashable] = [start]
    where: dict[Hashable, int] = {start: 0}
    turns: list[KeyedTurn] = []
    rows_total = 0
    i = 0
    while i < len(keys):
        t = turn(keys[i])
        turns.append(t)
        rows_total += len(t.keys)
        if rows_total * hp > bound:
            return None
        for k in t.keys:
            if k not in where:
                where[k] = len(keys)
                keys.append(k)
        if len(keys) > MAX_KEYS:
            return None
        i += 1
        if i % 64 == 0:
            check_time(f"the state chain, {len(keys):,} keys found")
    n = len(keys) * hp
    h = np.arange(hp)
    src_parts, dst_parts, val_parts = [], [], []
    kill = np.zeros(n)
    for i, t in enumerate(turns):
        dmg = np.asarray(t.damage, dtype=np.int64)
        p = np.asarray(t.probability, dtype=np.float64)
        dest = np.fromiter((where[k] for k in t.keys), dtype=np.int64, count=len(t.keys))
        hh = h[:, None] + dmg[None, :]  # hp x rows
        alive = hh < hp
        src_parts.append(np.broadcast_to(i * hp + h[:, None], hh.shape)[alive])
        dst_parts.append((dest[None, :] * hp + hh)[alive])
        val_parts.append(np.broadcast_to(p, hh.shape)[alive])
        kill[i * hp : (i + 1) * hp] = np.where(~alive, p[None, :], 0.0).sum(axis=1)
    Q = sp.csr_matrix((np.concatenate(val_parts), (np.concatenate(src_parts), np.concatenate(dst_parts))), shape=(n, n))
    QT = Q.T.tocsr()
    # the states reached from the start, and whether each can still be killed: a reached state that
    # cannot makes the mean infinite, and once the mass that can still be killed has left, no kill
    # chance changes any more (the iteration stops there)
    reach = np.zeros(n, dtype=bool)
    reach[0] = True
    frontier = reach.copy()
    while frontier.any():
        nxt = (QT @ frontier.astype(np.float64)) > 0
        frontier = nxt & ~reach
        reach |= nxt
    can = kill > 0
    while True:
        more = can | ((Q @ can.astype(np.float64)) > 0)
        if (more == can).all():
            break
        can = more
    stuck = not can[reach].all()
    v = np.zeros(n)
    v[0] = 1.0  # key 0 is the start, with no damage taken
    w = None if weights is None else np.asarray(weights, dtype=np.float64)
    weighted = np.zeros(hp) if w is not None else None
    by: list[float] = []
    total = 0.0
    for r in range(max_rounds):
        if weighted is not None and w is not None and r < w.size:
            weighted += w[r] * v.reshape(len(keys), hp).sum(axis=0)
        check_time(f"the state chain of {n:,} states, round {r + 1:,}")
        total += float(v @ kill)
        by.append(min(total, 1.0))
        v = QT @ v
        if v.sum() < CHAIN_TAIL:
            break
        # the mass left can never be killed: the kill chances are final (unless weights still read it)
        if stuck and (w is None or r + 1 >= w.size) and float(v[can].sum()) < CHAIN_TAIL:
            break
    else:
        if weighted is not None and w is not None and max_rounds < w.size:
            weighted += w[max_rounds] * v.reshape(len(keys), hp).sum(axis=0)
    if stuck:
        return StateChain(np.array(by), float("inf"), n, weighted)
    idx = np.flatnonzero(reach)
    sub = Q[idx][:, idx]
    m = spl.spsolve((sp.identity(idx.size, format="csc") - sub).tocsc(), np.ones(idx.size))
    return StateChain(np.array(by), float(np.atleast_1d(m)[0]), n, weighted)
