"""The exact duel derived from two round descriptions (a attacking b, b attacking a): an absorbing
chain over both combatants' state, batched over every pair of keys at once.

The chain carries, for each pair of keys (every field of a's state and of b's but their damage
taken), the joint alive mass over (damage taken by a, damage taken by b): one array of pairs x a's
HP x b's HP. A side's turn enumerates its description once for every pair of keys met that round and
not met before (one call), then moves every pair's mass at once: the cells where no outcome can fell
a side (the safe region: damage taken below HP minus the most damage of any outcome) shifted along
both axes by each outcome's damage, grouped by shift (numpy, no loop over pairs); the cells near a
fall outcome by outcome, a fall counted as a win of the side still standing (both falling at once is
a draw), kept by the winner's hit points lost (its HP left). A turn may hurt its own side too
(Reckless and the like). A fight ends after the turn a side falls.

A description whose turn can end a fight part-way (``falls_mid_turn``: a Counter or its own damage
may fell the actor, its foe may fall before the turn's later uses) reads the damage taken to stop
there: its cells near a fall are played from the full state (key and both damages taken), each such
cell enumerated once per duel (a creature that cannot fall this turn plays it alike at any damage
taken, so it is enumerated at 0).

Counted before each round: past ``max_cells`` alive cells (pairs of keys x a's HP x b's HP) the chain
gives up (None: the duel is simulated).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import sparse

from ..arguments import check_time
from ..chains import CHAIN_TAIL
from ..columns import Columns, distinct_rows, from_key_rows, key_rows, numbered
from .chain import enumerated
from .draw import Enumerator
from .round import FightRound, between_of, play

__all__ = ["MAX_CELLS", "DuelChain", "duel_chain", "duel_of"]

#: alive cells (pairs of keys x a's HP x b's HP) past which the duel is simulated
MAX_CELLS = 4_000_000
#: cells of mass one sparse product per damage shift is worth (its set-up): below rows x cells /
#: shifts the rows are shifted by a product per shift, above it all at once by windows
_PRODUCT_CELLS = 50_000


@dataclass(frozen=True)
class DuelChain:
    """The exact duel: ``win_a[t - 1]`` P(a wins in round t), ``win_b`` the same for b, ``left_a[d]``
    P(a wins having lost d hit points), ``left_b`` the same for b (d = 0..HP - 1); a draw is the rest."""

    win_a: np.ndarray
    win_b: np.ndarray
    left_a: np.ndarray
    left_b: np.ndarray


class _Pairs:
    """The pairs of keys (a's key, b's key) met in one duel, each numbered once: its key rows and, per
    creature, the hit points it has lost beyond its damage taken there (``hp_lost``; 0 without it)."""

    def __init__(self, rnd: FightRound, types: tuple[type[Columns], type[Columns]]):
        self.rnd, self.types = rnd, types
        self.width = len(types[0].key_names())
        self.ids: dict[tuple[int, ...], int] = {}
        self.rows = np.zeros((0, self.width + len(types[1].key_names())), np.int64)
        self.beyond = (np.zeros(0, np.int64), np.zeros(0, np.int64))

    def number(self, rows: np.ndarray) -> np.ndarray:
        """Return the number of each pair of ``rows`` (a's key then b's), numbering those new."""
        uniq, inverse = distinct_rows(rows)
        out = np.empty(uniq.shape[0], np.int64)
        new = []
        for u, t in enumerate(map(tuple, uniq.tolist())):
            g = self.ids.get(t)
            if g is None:
                g = self.ids[t] = len(self.ids)
                new.append(u)
            out[u] = g
        if new:
            fresh = uniq[new]
            self.rows = np.concatenate([self.rows, fresh])
            lost = getattr(self.rnd, "hp_lost", None)
            parts = (fresh[:, : self.width], fresh[:, self.width :])
            beyond = []
            for y in (0, 1):
                if lost is None:
                    got = np.zeros(len(new), np.int64)
                else:
                    (c,) = from_key_rows((self.types[y],), parts[y])
                    got = np.asarray(lost(y, c), np.int64)
                beyond.append(np.concatenate([self.beyond[y], got]))
            self.beyond = (beyond[0], beyond[1])
        return out[inverse]

    def actor_rows(self, ids: np.ndarray, x: int) -> np.ndarray:
        """Return the key rows of the pairs ``ids`` with side ``x``'s key first."""
        rows = self.rows[ids]
        return rows if x == 0 else np.concatenate([rows[:, self.width :], rows[:, : self.width]], axis=1)

    def from_actor(self, rows: np.ndarray, x: int) -> np.ndarray:
        """Return the numbers of the pairs ``rows`` given with side ``x``'s key first."""
        if x == 1:
            n = rows.shape[1] - self.width
            rows = np.concatenate([rows[:, n:], rows[:, :n]], axis=1)
        return self.number(rows)


class _Outcomes:
    """Outcome rows kept under a whole-number code (a pair, or a cell of a pair near a fall), each
    code's rows together: the pair after (``dst``), the actor's damage (``own``), the foe's (``hit``)
    and the probability (``p``). With ``dense`` the codes are pair numbers (small): each code's rows
    are found by indexing; otherwise by a sorted list of the codes kept."""

    _COLS = {"dst": np.int64, "own": np.int64, "hit": np.int64, "p": np.float64}

    def __init__(self, dense: bool) -> None:
        self.dense = dense
        self.codes = np.zeros(0, np.int64)  # sorted (not dense); dense: the code is the index
        self.start = np.full(1 if dense else 0, -1, np.int64)  # dense: -1 for a code not kept
        self.count = np.zeros(1 if dense else 0, np.int64)
        self.size = 0
        self.cols = {k: np.zeros(1024, t) for k, t in self._COLS.items()}  # (grown by doubling)

    def _find(self, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Return (whether each code is kept, where its start and count are)."""
        if self.dense:
            inside = codes < self.start.size
            at = np.where(inside, codes, 0)
            return inside & (self.start[at] >= 0), at
        at = np.searchsorted(self.codes, codes)
        known = at < self.codes.size
        known[known] = self.codes[at[known]] == codes[known]
        return known, at

    def missing(self, codes: np.ndarray) -> np.ndarray:
        """Return the distinct codes of ``codes`` not kept yet, sorted."""
        known, _ = self._find(codes)
        return np.unique(codes[~known])

    def add(self, codes: np.ndarray, origin: np.ndarray, cols: dict[str, np.ndarray]) -> None:
        """Keep the rows ``cols`` of the new sorted codes ``codes``, row r belonging to
        ``codes[origin[r]]`` (``origin`` sorted)."""
        count = np.bincount(origin, minlength=codes.size)
        start = self.size + np.cumsum(count) - count
        n = origin.size
        if self.size + n > self.cols["p"].size:
            grown = max(2 * self.cols["p"].size, self.size + n)
            for k, v in self.cols.items():
                self.cols[k] = np.resize(v, grown)
        for k, v in self.cols.items():
            v[self.size : self.size + n] = cols[k]
        self.size += n
        if self.dense:
            top = int(codes.max()) + 1
            if top > self.start.size:
                grown = max(top, 2 * self.start.size)
                self.start = np.concatenate([self.start, np.full(grown - self.start.size, -1, np.int64)])
                self.count = np.concatenate([self.count, np.zeros(grown - self.count.size, np.int64)])
            self.start[codes], self.count[codes] = start, count
            return
        at = np.searchsorted(self.codes, codes)
        self.codes = np.insert(self.codes, at, codes)
        self.start = np.insert(self.start, at, start)
        self.count = np.insert(self.count, at, count)

    def expand(self, codes: np.ndarray) -> tuple[np.ndarray, dict[str, np.ndarray]]:
        """Return (for each row, the index in ``codes`` it belongs to; the rows) of every code of
        ``codes`` (each kept)."""
        _, q = self._find(codes)
        count = self.count[q]
        rep = np.repeat(np.arange(codes.size), count)
        pos = np.arange(rep.size) - np.repeat(np.cumsum(count) - count, count) + np.repeat(self.start[q], count)
        return rep, {k: v[pos] for k, v in self.cols.items()}


class _Duel:
    """One duel's chain (module docstring): the two descriptions, the pairs met, the outcomes
    enumerated so far and the tallies of wins and HP left."""

    def __init__(self, rounds_: tuple[FightRound, FightRound], max_rounds: int):
        self.rounds = rounds_
        a0, b0 = rounds_[0].start()
        self.types = ((type(a0), type(b0)), (type(b0), type(a0)))
        self.hps = (int(rounds_[0].hit_points(0)), int(rounds_[0].hit_points(1)))
        self.pairs = _Pairs(rounds_[0], self.types[0])
        self.start = self.pairs.number(key_rows((a0, b0)))
        self.wins = np.zeros((2, max_rounds))
        total = getattr(rounds_[0], "hp_total", rounds_[0].hit_points)
        self.left = [np.zeros(int(total(0)) + 1), np.zeros(int(total(1)) + 1)]
        self.turns: dict[tuple[int, str], _Outcomes] = {}
        self.full: dict[tuple[int, str], _Outcomes] = {}

    def _turns(self, x: int, step: str, ids: np.ndarray) -> _Outcomes:
        """Return the outcomes of side ``x``'s ``step`` from the pairs of keys, damage-free,
        enumerating the pairs of ``ids`` not met before in one call
        (:func:`~workbench.fight.chain.enumerated`)."""
        kept = self.turns.setdefault((x, step), _Outcomes(dense=True))
        new = kept.missing(ids)
        if new.size:
            uniq, weight = enumerated(
                self.rounds[x], self.pairs.actor_rows(new, x), self.types[x], own=True, steps=(step,)
            )
            dst = self.pairs.from_actor(uniq[:, 3:], x)
            kept.add(new, uniq[:, 0], {"dst": dst, "own": uniq[:, 2], "hit": uniq[:, 1], "p": weight})
        return kept

    def _full_turns(self, x: int, step: str, codes: np.ndarray, size: tuple[int, int]) -> _Outcomes:
        """Return the outcomes of side ``x``'s ``step`` from the cells ``codes`` (a pair, the actor's
        damage taken, the foe's: :meth:`act`'s code), enumerating those new with the damage taken given
        to the description (one call); a row's ``own`` and ``hit`` are the damage dealt in the step."""
        kept = self.full.setdefault((x, step), _Outcomes(dense=False))
        new = kept.missing(codes)
        if not new.size:
            return kept
        ids, rest = np.divmod(new, size[0] * size[1])
        i, j = np.divmod(rest, size[1])
        me, foe = from_key_rows(self.types[x], self.pairs.actor_rows(ids, x))
        me = me.replace(**{me.POOL: i})
        foe = foe.replace(**{foe.POOL: j})
        draw = Enumerator(new.size)
        me2, foe2 = play(self.rounds[x], me, foe, draw, (step,))
        own = np.asarray(getattr(me2, me2.POOL), np.int64) - i[draw.origin]
        hit = np.asarray(getattr(foe2, foe2.POOL), np.int64) - j[draw.origin]
        uniq, inverse = distinct_rows(np.column_stack([draw.origin, own, hit, key_rows((me2, foe2))]))
        weight = np.bincount(inverse, weights=draw.weight, minlength=uniq.shape[0])
        dst = self.pairs.from_actor(uniq[:, 3:], x)
        kept.add(new, uniq[:, 0], {"dst": dst, "own": uniq[:, 1], "hit": uniq[:, 2], "p": weight})
        return kept

    def _won(self, y: int, lost: np.ndarray, mass: np.ndarray) -> None:
        """Add ``mass`` to creature y's wins having lost ``lost`` hit points."""
        self.left[y] += np.bincount(lost, weights=mass, minlength=self.left[y].size)

    def _shift_rows(
        self,
        inside: np.ndarray,
        out: np.ndarray,
        out_ids: np.ndarray,
        rows: tuple[np.ndarray, ...],
        x: int,
        r: int,
    ) -> None:
        """Add to ``out`` every row's shift of its pair's mass ``inside`` (rows: the pair, the actor's
        damage, the foe's, probability, the pair after in ``out``), each a window of the mass padded
        above and to the left, summed per pair after; the mass shifted past a side's HP is a fall,
        read off the tail sums of the mass (a win of the side still standing, both: a draw)."""
        src, own, hit, p, loc = rows
        k, hp_me, hp_foe = inside.shape
        own, hit = np.minimum(own, hp_me), np.minimum(hit, hp_foe)
        mo, mh = int(own.max()), int(hit.max())
        pad = np.zeros((k, hp_me + mo, hp_foe + mh))
        pad[:, mo:, mh:] = inside
        win = np.lib.stride_tricks.sliding_window_view(pad, (hp_me, hp_foe), axis=(1, 2))
        order = np.argsort(loc, kind="stable")
        step_rows = max(1, _PRODUCT_CELLS * 80 // (hp_me * hp_foe))  # (bounded memory: 32 MB at a time)
        for a in range(0, order.size, step_rows):
            part = order[a : a + step_rows]
            shifted = win[src[part], mo - own[part], mh - hit[part]] * p[part, None, None]
            runs = np.flatnonzero(np.r_[True, loc[part][1:] != loc[part][:-1]])
            out[loc[part][runs]] += np.add.reduceat(shifted, runs, axis=0)
        beyond = self.pairs.beyond
        dst = out_ids[loc]
        # the foe falls where j + hit >= its HP, the actor stands where i + own < its HP
        tail = np.zeros((k, hp_me, hp_foe + 1))
        tail[:, :, :hp_foe] = np.cumsum(inside[:, :, ::-1], axis=2)[:, :, ::-1]
        fell = tail[src, :, hp_foe - hit] * p[:, None]  # (rows, the actor's damage before)
        ok = np.arange(hp_me)[None, :] < (hp_me - own)[:, None]
        self.wins[x, r] += fell[ok].sum()
        self._won(x, (np.arange(hp_me)[None, :] + own[:, None] + beyond[x][dst][:, None])[ok], fell[ok])
        # the actor falls where i + own >= its HP, the foe stands where j + hit < its HP
        tail = np.zeros((k, hp_me + 1, hp_foe))
        tail[:, :hp_me, :] = np.cumsum(inside[:, ::-1, :], axis=1)[:, ::-1, :]
        fell = tail[src, hp_me - own, :] * p[:, None]  # (rows, the foe's damage before)
        ok = np.arange(hp_foe)[None, :] < (hp_foe - hit)[:, None]
        self.wins[1 - x, r] += fell[ok].sum()
        self._won(1 - x, (np.arange(hp_foe)[None, :] + hit[:, None] + beyond[1 - x][dst][:, None])[ok], fell[ok])

    def act(self, ids: np.ndarray, mass: np.ndarray, x: int, step: str, r: int) -> tuple[np.ndarray, np.ndarray]:
        """Return the alive (pairs, mass: pairs x a's damage x b's) after side ``x``'s ``step``, its
        falls counted in round ``r`` (0-based)."""
        hp_me, hp_foe = self.hps[x], self.hps[1 - x]
        mm = mass if x == 0 else mass.transpose(0, 2, 1)  # the actor's damage first
        k = ids.size
        rep, rows = self._turns(x, step, ids).expand(ids)
        own, hit, p, dst = rows["own"], rows["hit"], rows["p"], rows["dst"]
        firsts = np.searchsorted(rep, np.arange(k))  # each pair's rows are together (every pair has one)
        # a pair whose outcome heals (a negative damage) is played from the full state everywhere
        heals = np.minimum.reduceat(np.minimum(own, hit), firsts) < 0
        if step == "turn" and bool(getattr(self.rounds[x], "falls_mid_turn", False)):
            # the rest of the turn depends on a fall part-way: only where no outcome fells a side is
            # the damage-free turn exact (the safe region)
            most_own, most_hit = np.maximum.reduceat(own, firsts), np.maximum.reduceat(hit, firsts)
            safe_i = np.where(heals, 0, np.clip(hp_me - most_own, 0, hp_me))
            safe_j = np.where(heals, 0, np.clip(hp_foe - most_hit, 0, hp_foe))
        else:  # the damage-free turn is exact everywhere; a fall is read after it
            safe_i = np.where(heals, 0, hp_me)
            safe_j = np.where(heals, 0, hp_foe)
        safe = (np.arange(hp_me)[None, :, None] < safe_i[:, None, None]) & (
            np.arange(hp_foe)[None, None, :] < safe_j[:, None, None]
        )
        inside = np.where(safe, mm, 0.0)
        # the cells played from the full state (key and both damages taken): each its own outcomes,
        # the damage below the safe line enumerated at 0 (it plays alike there)
        kk, ii, jj = np.nonzero(np.where(safe, 0.0, mm))
        ci = np.where(ii >= safe_i[kk], ii, 0)
        cj = np.where(jj >= safe_j[kk], jj, 0)
        size = (hp_me + 1, hp_foe + 1)
        codes = (ids[kk] * size[0] + ci) * size[1] + cj
        cell, near = self._full_turns(x, step, codes, size).expand(codes)
        ai, aj = ii[cell] + near["own"], jj[cell] + near["hit"]
        w = mm[kk, ii, jj][cell] * near["p"]
        stand_me, stand_foe = ai < hp_me, aj < hp_foe
        beyond = self.pairs.beyond
        mine = stand_me & ~stand_foe  # the foe fell, the actor stands: the actor wins
        self.wins[x, r] += w[mine].sum()
        self._won(x, ai[mine] + beyond[x][near["dst"][mine]], w[mine])
        theirs = ~stand_me & stand_foe  # the actor fell, the foe stands
        self.wins[1 - x, r] += w[theirs].sum()
        self._won(1 - x, aj[theirs] + beyond[1 - x][near["dst"][theirs]], w[theirs])
        # (both fall: a draw, counted by neither)
        both = stand_me & stand_foe
        # the pairs after: those the shifted mass moves to and those of the full-state cells still going
        from_safe = ((safe_i > 0) & (safe_j > 0))[rep]
        out_ids, loc = numbered(np.concatenate([dst[from_safe], near["dst"][both]]), len(self.pairs.ids))
        n_safe = int(from_safe.sum())
        flat = (loc[n_safe:] * hp_me + ai[both]) * hp_foe + aj[both]
        counted = np.bincount(flat, weights=w[both], minlength=out_ids.size * hp_me * hp_foe)
        out = counted.astype(np.float64, copy=False).reshape(out_ids.size, hp_me, hp_foe)  # (an empty count is int)
        # the rest of the mass, grouped by shift: what each pair after gets from every pair (one
        # sparse product per shift: pairs after x pairs, times every pair's mass), shifted along both
        # axes; the mass shifted past a side's HP is a fall
        srep, sown, shit, sp, sloc = rep[from_safe], own[from_safe], hit[from_safe], p[from_safe], loc[:n_safe]
        flat_inside = inside.reshape(k, hp_me * hp_foe)
        # a shift past a side's HP is a fall like any past it (clamped, so the code stays one shift)
        sown, shit = np.minimum(sown, hp_me), np.minimum(shit, hp_foe)
        code = sown * (hp_foe + 1) + shit  # (no negative damage here: a heal is played by cell)
        order = np.argsort(code, kind="stable")
        bounds = np.flatnonzero(np.r_[True, code[order][1:] != code[order][:-1], True])
        if (bounds.size - 1) * _PRODUCT_CELLS < srep.size * hp_me * hp_foe:
            shifts = zip(bounds[:-1].tolist(), bounds[1:].tolist()) if code.size else ()
            for lo, hi in shifts:  # few shifts for the rows: one sparse product each
                sel = order[lo:hi]
                di, dj = divmod(int(code[sel[0]]), hp_foe + 1)
                to, at = numbered(sloc[sel], out_ids.size)
                moved = sparse.csr_matrix((sp[sel], (at, srep[sel])), shape=(to.size, k)) @ flat_inside
                moved = moved.reshape(to.size, hp_me, hp_foe)
                out[to, di:, dj:] += moved[:, : hp_me - di, : hp_foe - dj]
                if dj and di < hp_me:  # the foe falls, the actor stands: by the actor's damage taken
                    fell = moved[:, : hp_me - di, hp_foe - dj :].sum(axis=2)
                    self.wins[x, r] += fell.sum()
                    lost = np.arange(di, hp_me)[None, :] + beyond[x][out_ids[to]][:, None]
                    self._won(x, lost.ravel(), fell.ravel())
                if di and dj < hp_foe:  # the actor falls to its own damage, the foe stands
                    fell = moved[:, hp_me - di :, : hp_foe - dj].sum(axis=1)
                    self.wins[1 - x, r] += fell.sum()
                    lost = np.arange(dj, hp_foe)[None, :] + beyond[1 - x][out_ids[to]][:, None]
                    self._won(1 - x, lost.ravel(), fell.ravel())
        elif srep.size:  # many shifts (wide damage, few pairs): every row's shifted copy at once
            self._shift_rows(inside, out, out_ids, (srep, sown, shit, sp, sloc), x, r)
        keep = out.reshape(out_ids.size, hp_me * hp_foe).any(axis=1)
        out = out[keep]
        return out_ids[keep], (out if x == 0 else out.transpose(0, 2, 1))


def _one_order(rounds_: tuple[FightRound, FightRound], order: tuple[int, int], max_rounds: int, max_cells: int) -> Any:
    """Return (wins per side and round, each winner's hit points lost) with ``order`` the acting
    order within a round (0: a, 1: b); None past ``max_cells``. A side that acts between rounds
    (``between``) does so before round 1 (counted in round 1) and after each round, a's then b's."""
    duel = _Duel(rounds_, max_rounds)
    hps = duel.hps
    ids, mass = duel.start, np.zeros((1, *hps))
    mass[0, 0, 0] = 1.0
    phased = [x for x in (0, 1) if between_of(rounds_[x]) is not None]
    for x in phased:  # before the first round: its kills count in round 1
        ids, mass = duel.act(ids, mass, x, "opening", 0)
    for r in range(max_rounds):
        for x in order:
            ids, mass = duel.act(ids, mass, x, "turn", r)
            if ids.size * hps[0] * hps[1] > max_cells:
                return None
        for x in phased:
            ids, mass = duel.act(ids, mass, x, "between", r)
        if ids.size * hps[0] * hps[1] > max_cells:
            return None
        check_time(f"the duel chain over both sides' state, round {r + 1:,}")
        if float(mass.sum()) < CHAIN_TAIL:
            break
    return duel.wins, [x[:-1] for x in duel.left]


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
    a_on_b = sys.fight_round(a, b, options, situation, plan_a)
    b_on_a = sys.fight_round(b, a, options, situation, plan_b)
    if a_on_b is None or b_on_a is None:
        return None
    return duel_chain(a_on_b, b_on_a, first, max_rounds)
