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
from ..columns import Columns, distinct_rows, from_key_rows, key_rows
from .chain import enumerated
from .draw import Enumerator
from .round import FightRound, between_of, play

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


def _arrays(cache: dict, at: tuple) -> tuple[list[tuple[_Key, _Key]], np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Return the outcomes ``cache[at]`` as arrays sorted by the keys after: (those keys, each
    distinct once, the damage dealt, the actor's own damage, probability, where each key's rows
    start), computed once (kept in ``cache`` under ``("arrays", *at)``)."""
    got = cache.get(("arrays", *at))
    if got is None:
        rows = sorted(cache[at], key=lambda r: (r[0], r[1]))
        keys = [(r[0], r[1]) for r in rows]
        firsts = [i for i in range(len(keys)) if i == 0 or keys[i] != keys[i - 1]]
        got = (
            [keys[i] for i in firsts],
            np.array([r[2] for r in rows], dtype=np.int64),
            np.array([r[3] for r in rows], dtype=np.int64),
            np.array([r[4] for r in rows], dtype=np.float64),
            np.array(firsts, dtype=np.int64),
        )
        cache[("arrays", *at)] = got
    return got


def _full_turns(
    rnd: FightRound,
    cells: list[tuple[_Key, _Key, int, int]],
    types: tuple[type[Columns], type[Columns]],
) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
    """Return the outcomes of the actor's turn from each (actor key, foe key, actor's damage taken,
    foe's) of ``cells``, the damage taken given to the description (one enumeration): per cell
    (the key rows after, the actor's damage taken after, the foe's, probability)."""
    rows = np.array([a + b for a, b, _, _ in cells], dtype=np.int64).reshape(len(cells), -1)
    me, foe = from_key_rows(types, rows)
    me = me.replace(**{me.POOL: np.array([c[2] for c in cells], dtype=np.int64)})
    foe = foe.replace(**{foe.POOL: np.array([c[3] for c in cells], dtype=np.int64)})
    draw = Enumerator(len(cells))
    me2, foe2 = play(rnd, me, foe, draw, ("turn",))
    parts = [draw.origin, np.asarray(getattr(me2, me2.POOL), np.int64), np.asarray(getattr(foe2, foe2.POOL), np.int64)]
    uniq, inverse = distinct_rows(np.column_stack([*parts, key_rows((me2, foe2))]))
    weight = np.bincount(inverse, weights=draw.weight, minlength=uniq.shape[0])
    starts = np.searchsorted(uniq[:, 0], np.arange(len(cells) + 1))
    return [
        (uniq[a:b, 3:], uniq[a:b, 1], uniq[a:b, 2], weight[a:b])
        for a, b in zip(starts[:-1].tolist(), starts[1:].tolist())
    ]


def _one_order(rounds_: tuple[FightRound, FightRound], order: tuple[int, int], max_rounds: int, max_cells: int) -> Any:
    """Return (wins per side and round, each winner's damage-taken mass) with ``order`` the acting
    order within a round (0: a, 1: b); None past ``max_cells``. A side that acts between rounds
    (``between``) does so before round 1 (counted in round 1) and after each round, a's then b's.

    A description whose turn can end a fight part-way (``falls_mid_turn``: a Counter or its own
    damage may fell the actor, its foe may fall before the turn's later uses) reads the damage taken
    to stop there; its turn is played from the damage-free key where no outcome can fell a side (the
    mass shifted by the damage dealt), and from the full state (key and both damages taken) in the
    cells near a fall (:func:`_full_turns`), each such cell enumerated once."""
    a0, b0 = rounds_[0].start()
    types = ((type(a0), type(b0)), (type(b0), type(a0)))
    hps = (int(rounds_[0].hit_points(0)), int(rounds_[0].hit_points(1)))
    start = (tuple(key_rows((a0,))[0].tolist()), tuple(key_rows((b0,))[0].tolist()))
    alive: dict[tuple[_Key, _Key], np.ndarray] = {start: np.zeros(hps)}
    alive[start][0, 0] = 1.0
    wins = np.zeros((2, max_rounds))
    # each winner's hit points lost: its damage taken and what its key holds beyond it (hp_lost)
    total = getattr(rounds_[0], "hp_total", rounds_[0].hit_points)
    left = [np.zeros(int(total(0)) + 1), np.zeros(int(total(1)) + 1)]
    beyond_memo: dict[tuple[int, _Key], int] = {}

    def beyond(y: int, key: _Key) -> int:
        """Return the hit points creature y (0: a, 1: b) has lost beyond its damage taken at ``key``."""
        got = beyond_memo.get((y, key))
        if got is None:
            lost = getattr(rounds_[0], "hp_lost", None)
            got = 0
            if lost is not None:
                (c,) = from_key_rows((types[0][y],), np.array([key], dtype=np.int64))
                got = int(np.asarray(lost(y, c))[0])
            beyond_memo[(y, key)] = got
        return got

    def won(y: int, key: _Key, at: int | np.ndarray, mass: Any) -> None:
        """Add ``mass`` to creature y's wins with ``at`` damage taken (an int, or one per entry of mass)
        at ``key``."""
        off = beyond(y, key)
        if isinstance(at, (int, np.integer)):
            left[y][off + int(at) : off + int(at) + np.size(mass)] += mass
        else:
            np.add.at(left[y], off + at, mass)

    cache: dict[tuple[int, str, _Key, _Key], list[_Row]] = {}
    full: dict[tuple[int, _Key, _Key, int, int], tuple[Any, ...]] = {}  # a cell near a fall: its outcomes
    phased = [x for x in (0, 1) if between_of(rounds_[x]) is not None]
    n_key = (len(types[0][0].key_names()), len(types[0][1].key_names()))

    def act(
        alive: dict[tuple[_Key, _Key], np.ndarray], x: int, step: str, r: int
    ) -> dict[tuple[_Key, _Key], np.ndarray]:
        """Return the alive mass after side ``x``'s ``step``, its kills counted in round ``r`` (0-based)."""
        hp_me, hp_foe = hps[x], hps[1 - x]
        new_pairs = list(dict.fromkeys((k[x], k[1 - x]) for k in alive if (x, step, k[x], k[1 - x]) not in cache))
        for pair, got in zip(new_pairs, _turns(rounds_[x], new_pairs, types[x], step) if new_pairs else []):
            cache[(x, step, *pair)] = got
        near = step == "turn" and bool(getattr(rounds_[x], "falls_mid_turn", False))
        acc: dict[tuple[_Key, _Key], np.ndarray] = {}  # (the actor's damage taken, the foe's)
        # the cells near a fall, by the cell their turn is enumerated from: a creature that cannot
        # fall this turn plays it alike at any damage taken (enumerated at 0), one that can at each
        band: dict[tuple[_Key, _Key, int, int], list[tuple[int, int, float]]] = {}

        def into_(k2: tuple[_Key, _Key], shape: tuple[int, int]) -> np.ndarray:
            got = acc.get(k2)
            if got is None:
                got = acc[k2] = np.zeros(shape)
            return got

        for key, m in alive.items():
            mm = m if x == 0 else m.T
            rows = cache[(x, step, key[x], key[1 - x])]
            if near:
                # no outcome fells a side from (i, j) when i + the most own damage < hp_me and j + the
                # most damage dealt < hp_foe: there the damage-free turn is exact
                k2s, d_, own_, p_, starts = _arrays(cache, (x, step, key[x], key[1 - x]))
                most_d, most_own = int(d_.max()), int(own_.max())
                safe_i, safe_j = max(hp_me - max(most_own, 0), 0), max(hp_foe - max(most_d, 0), 0)
                outside = mm.copy()
                outside[:safe_i, :safe_j] = 0.0
                for i, j in zip(*(v.tolist() for v in np.nonzero(outside))):
                    cell = (key[x], key[1 - x], i if i >= safe_i else 0, j if j >= safe_j else 0)
                    band.setdefault(cell, []).append((i, j, float(outside[i, j])))
                inside = mm[:safe_i, :safe_j]
                if own_.min() >= 0 and d_.min() >= 0 and inside.any():
                    # every outcome's shift of the safe mass at once: S[q, i, j] = mm[i - own_q, j - d_q]
                    # (a window of the mass padded above and to the left), summed per key after
                    pad = np.zeros((hp_me + most_own, hp_foe + most_d))
                    pad[most_own : most_own + safe_i, most_d : most_d + safe_j] = inside
                    win = np.lib.stride_tricks.sliding_window_view(pad, (hp_me, hp_foe))
                    group = np.searchsorted(starts, np.arange(d_.size), side="right") - 1
                    for lo in range(0, d_.size, 256):  # (bounded memory: 256 shifted grids at a time)
                        g = group[lo : lo + 256]
                        breaks = np.flatnonzero(np.r_[True, g[1:] != g[:-1]])
                        part = slice(lo, lo + 256)
                        shifted = win[most_own - own_[part], most_d - d_[part]] * p_[part, None, None]
                        for gi, total in zip(g[breaks].tolist(), np.add.reduceat(shifted, breaks, axis=0)):
                            me2, foe2 = k2s[gi]
                            into_((me2, foe2) if x == 0 else (foe2, me2), mm.shape)[...] += total
                    continue
                mm = mm.copy()
                mm[safe_i:, :] = 0.0
                mm[:, safe_j:] = 0.0
            # tail[:, j]: the mass at foe damage j or more, per actor damage (the kills of a hit)
            tail = np.cumsum(mm[:, ::-1], axis=1)[:, ::-1]
            for me2, foe2, d, own, p in rows:
                k2 = (me2, foe2) if x == 0 else (foe2, me2)
                into = into_(k2, mm.shape)
                standing = hp_me - own  # the actor's rows that survive its own damage
                if d < hp_foe and standing > 0:
                    into[own:, d:] += p * mm[:standing, : hp_foe - d]
                if near:
                    continue  # (the damage-free part is where no side falls)
                if d > 0 and standing > 0:  # the foe falls, the actor stands: the actor wins
                    killed = p * tail[:standing, max(hp_foe - d, 0)]
                    wins[x, r] += killed.sum()
                    won(x, me2, own, killed)
                if own > 0 and d < hp_foe:  # the actor falls to its own damage, the foe stands
                    fallen = p * mm[max(standing, 0) :, : hp_foe - d].sum(axis=0)
                    wins[1 - x, r] += fallen.sum()
                    won(1 - x, foe2, d, fallen)
                # (both fall: a draw, counted by neither)
        if band:
            todo = [c for c in band if (x, *c) not in full]
            for cell, outs in zip(todo, _full_turns(rounds_[x], todo, types[x]) if todo else []):
                keys, own_after, d_after, prob = outs
                uniq, inverse = distinct_rows(keys)
                pairs = [(tuple(u[: n_key[x]]), tuple(u[n_key[x] :])) for u in uniq.tolist()]
                off_me = np.array([beyond(x, pairs[u][0]) for u in inverse.tolist()], dtype=np.int64)
                off_foe = np.array([beyond(1 - x, pairs[u][1]) for u in inverse.tolist()], dtype=np.int64)
                full[(x, *cell)] = (pairs, inverse, own_after - cell[2], d_after - cell[3], prob, off_me, off_foe)
            for cell, at in band.items():
                pairs, inverse, di, dj, prob, off_me, off_foe = full[(x, *cell)]
                ci, cj, cm = (np.array(v) for v in zip(*at))
                ai, aj = ci[:, None] + di[None, :], cj[:, None] + dj[None, :]  # cells x outcomes
                w = cm[:, None] * prob[None, :]
                stand_me, stand_foe = ai < hp_me, aj < hp_foe
                mine = stand_me & ~stand_foe  # the foe fell, the actor stands: the actor wins
                if mine.any():
                    wins[x, r] += w[mine].sum()
                    np.add.at(left[x], (ai + off_me[None, :])[mine], w[mine])
                theirs = ~stand_me & stand_foe  # the actor fell, the foe stands
                if theirs.any():
                    wins[1 - x, r] += w[theirs].sum()
                    np.add.at(left[1 - x], (aj + off_foe[None, :])[theirs], w[theirs])
                both = stand_me & stand_foe
                for u in np.unique(inverse[both.any(axis=0)]).tolist():
                    sel = both & (inverse == u)[None, :]
                    me2, foe2 = pairs[u]
                    k2 = (me2, foe2) if x == 0 else (foe2, me2)
                    np.add.at(into_(k2, (hp_me, hp_foe)), (ai[sel], aj[sel]), w[sel])
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
    return wins, [x[:-1] for x in left]


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
    total_w, total_l = np.zeros((2, max_rounds)), [np.zeros(0), np.zeros(0)]
    for order in orders:
        got = _one_order((a_on_b, b_on_a), order, max_rounds, bound)
        if got is None:
            return None
        w, left = got
        total_w += w
        total_l = [t + x if t.size else x.copy() for t, x in zip(total_l, left)]
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
