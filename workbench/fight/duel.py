"""The exact duel derived from two round descriptions (a attacking b, b attacking a): an absorbing
chain over both combatants' state, batched.

The chain carries, for each pair of keys (every field of a's state and of b's but their damage
taken), the joint alive mass over (damage taken by a, damage taken by b). A side's turn enumerates
its description once for every pair of keys met that round and not met before (one call), then
moves each pair's mass to the pair after each outcome, shifted along the foe's axis by the damage
dealt; the mass that reaches the foe's HP is that side's win in that round, kept by the winner's
damage taken (its HP left). A turn may hurt its own side too (Reckless and the like): the mass moves
along both axes, the actor falling to its own damage is a win of the foe, and both falling at once is
a draw. A fight ends after the turn a side falls. Counted before
each round: past ``max_cells`` alive cells (pairs of keys x a's HP x b's HP) the chain gives up
(None: the duel is simulated).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..arguments import check_time
from ..chains import CHAIN_TAIL
from ..columns import Columns, key_rows
from .chain import enumerated
from .round import FightRound, between_of

__all__ = ["MAX_CELLS", "DuelChain", "duel_chain", "duel_of"]

#: alive cells (pairs of keys x a's HP x b's HP) past which the duel is simulated
MAX_CELLS = 4_000_000


@dataclass(frozen=True)
class DuelChain:
    """The exact duel: ``win_a[t - 1]`` P(a wins in round t), ``win_b`` the same for b, ``left_a[d]``
    P(a wins having taken damage d), ``left_b`` the same for b (d = 0..HP - 1); a draw is the rest."""

    win_a: np.ndarray
    win_b: np.ndarray
    left_a: np.ndarray
    left_b: np.ndarray


_Key = tuple[int, ...]
#: one outcome of a turn from a pair of keys: (the actor's key after, the foe's key after, the damage
#: the foe takes, the damage the actor takes (Reckless and the like), probability)
_Row = tuple[_Key, _Key, int, int, float]


def _turns(
    rnd: FightRound, pairs: list[tuple[_Key, _Key]], types: tuple[type[Columns], type[Columns]], step: str
) -> list[list[_Row]]:
    """Return the outcomes of the actor's ``step`` ("turn", "between", "opening":
    :func:`~workbench.fight.round.play`) from each (actor key, foe key) of ``pairs``
    (:func:`~workbench.fight.chain.enumerated`, one call)."""
    n_me = len(types[0].key_names())
    rows = np.array([a + b for a, b in pairs], dtype=np.int64).reshape(len(pairs), -1)
    uniq, weight = enumerated(rnd, rows, types, own=True, steps=(step,))
    out: list[list[_Row]] = [[] for _ in pairs]
    for r, w in zip(uniq.tolist(), weight.tolist()):
        keys = r[3:]
        out[r[0]].append((tuple(keys[:n_me]), tuple(keys[n_me:]), r[1], r[2], w))
    return out


def _one_order(rounds_: tuple[FightRound, FightRound], order: tuple[int, int], max_rounds: int, max_cells: int) -> Any:
    """Return (wins per side and round, each winner's damage-taken mass) with ``order`` the acting
    order within a round (0: a, 1: b); None past ``max_cells``. A side that acts between rounds
    (``between``) does so before round 1 (counted in round 1) and after each round, a's then b's."""
    a0, b0 = rounds_[0].start()
    types = ((type(a0), type(b0)), (type(b0), type(a0)))
    hps = (int(rounds_[0].hit_points(0)), int(rounds_[0].hit_points(1)))
    start = (tuple(key_rows((a0,))[0].tolist()), tuple(key_rows((b0,))[0].tolist()))
    alive: dict[tuple[_Key, _Key], np.ndarray] = {start: np.zeros(hps)}
    alive[start][0, 0] = 1.0
    wins = np.zeros((2, max_rounds))
    left = [np.zeros(hps[0]), np.zeros(hps[1])]
    cache: dict[tuple[int, str, _Key, _Key], list[_Row]] = {}
    phased = [x for x in (0, 1) if between_of(rounds_[x]) is not None]

    def act(
        alive: dict[tuple[_Key, _Key], np.ndarray], x: int, step: str, r: int
    ) -> dict[tuple[_Key, _Key], np.ndarray]:
        """Return the alive mass after side ``x``'s ``step``, its kills counted in round ``r`` (0-based)."""
        hp_me, hp_foe = hps[x], hps[1 - x]
        new_pairs = list(dict.fromkeys((k[x], k[1 - x]) for k in alive if (x, step, k[x], k[1 - x]) not in cache))
        for pair, got in zip(new_pairs, _turns(rounds_[x], new_pairs, types[x], step) if new_pairs else []):
            cache[(x, step, *pair)] = got
        acc: dict[tuple[_Key, _Key], np.ndarray] = {}  # (the actor's damage taken, the foe's)
        for key, m in alive.items():
            mm = m if x == 0 else m.T
            # tail[:, j]: the mass at foe damage j or more, per actor damage (the kills of a hit)
            tail = np.cumsum(mm[:, ::-1], axis=1)[:, ::-1]
            for me2, foe2, d, own, p in cache[(x, step, key[x], key[1 - x])]:
                k2 = (me2, foe2) if x == 0 else (foe2, me2)
                into = acc.get(k2)
                if into is None:
                    into = acc[k2] = np.zeros_like(mm)
                standing = hp_me - own  # the actor's rows that survive its own damage
                if d < hp_foe and standing > 0:
                    into[own:, d:] += p * mm[:standing, : hp_foe - d]
                if d > 0 and standing > 0:  # the foe falls, the actor stands: the actor wins
                    killed = p * tail[:standing, max(hp_foe - d, 0)]
                    wins[x, r] += killed.sum()
                    left[x][own:] += killed
                if own > 0 and d < hp_foe:  # the actor falls to its own damage, the foe stands
                    fallen = p * mm[max(standing, 0) :, : hp_foe - d].sum(axis=0)
                    wins[1 - x, r] += fallen.sum()
                    left[1 - x][d:] += fallen
                # (both fall: a draw, counted by neither)
        return acc if x == 0 else {k: v.T for k, v in acc.items()}

    for x in phased:  # before the first round: its kills count in round 1
        alive = act(alive, x, "opening", 0)
    for r in range(max_rounds):
        for x in order:
            alive = act(alive, x, "turn", r)
            if len(alive) * hps[0] * hps[1] > max_cells:
                return None
        for x in phased:
            alive = act(alive, x, "between", r)
        if len(alive) * hps[0] * hps[1] > max_cells:
            return None
        check_time(f"the duel chain over both sides' state, round {r + 1:,}")
        if sum(float(m.sum()) for m in alive.values()) < CHAIN_TAIL:
            break
    return wins, left


def duel_chain(
    a_on_b: FightRound, b_on_a: FightRound, first: str, max_rounds: int, *, max_cells: int | None = None
) -> DuelChain | None:
    """Return the :class:`DuelChain` of the duel whose sides' turns are ``a_on_b`` and ``b_on_a``,
    ``first`` "a", "b" or "random" (the two orders averaged); None past ``max_cells`` (default
    MAX_CELLS)."""
    bound = MAX_CELLS if max_cells is None else max_cells
    hps = (int(a_on_b.hit_points(0)), int(a_on_b.hit_points(1)))
    if hps[0] * hps[1] > bound:
        return None
    orders = [(0, 1), (1, 0)] if first == "random" else [(0, 1) if first == "a" else (1, 0)]
    total_w, total_l = np.zeros((2, max_rounds)), [np.zeros(hps[0]), np.zeros(hps[1])]
    for order in orders:
        got = _one_order((a_on_b, b_on_a), order, max_rounds, bound)
        if got is None:
            return None
        w, left = got
        total_w += w
        total_l[0] += left[0]
        total_l[1] += left[1]
    n = len(orders)
    return DuelChain(total_w[0] / n, total_w[1] / n, total_l[0] / n, total_l[1] / n)


def duel_of(
    sys: Any,
    a: Any,
    b: Any,
    options: Any = None,
    situation: Any = None,
    first: str = "a",
    max_rounds: int = 100,
    plan_a: Any = None,
    plan_b: Any = None,
) -> DuelChain | None:
    """Return the exact duel of ``a`` and ``b`` over both sides' state (:func:`duel_chain` of the two
    round descriptions ``RuleSystem.fight_round`` gives), for a duel whose sides couple
    (``RuleSystem.duel_couplings``); None when the system describes no round or the joint state is
    past the counted bound (the duel is then simulated)."""
    legacy = getattr(sys, "duel_chain", None)  # a system still enacting its own duel (Annulus)
    if legacy is not None:
        got = legacy(a, b, options, situation, first, max_rounds, plan_a, plan_b)
        return None if got is None else DuelChain(*got)
    a_on_b = sys.fight_round(a, b, options, situation, plan_a)
    b_on_a = sys.fight_round(b, a, options, situation, plan_b)
    if a_on_b is None or b_on_a is None:
        return None
    return duel_chain(a_on_b, b_on_a, first, max_rounds)
