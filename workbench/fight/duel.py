"""The exact duel derived from two round descriptions (a attacking b, b attacking a): an absorbing
chain over both combatants' state, batched over every pair of keys at once.

The chain carries, for each pair of keys (every field of a's state and of b's but their damage
taken), the joint alive mass over (damage taken by a, damage taken by b): one array of pairs x a's
HP x b's HP. A side's turn enumerates its description once for every pair of keys met that round and
not met before (one call), then moves every pair's mass at once: the cells where no outcome can fell
a side (the safe region: damage taken below HP minus the most damage of any outcome) shifted along
both axes by each outcome's damage, grouped by shift (one sparse product over every shift and pair
after, no loop over pairs); the cells near a fall outcome by outcome, a fall counted as a win of the
side still standing (both falling at once is a draw), kept by the winner's hit points lost (its HP
left). A turn may hurt its own side too (Reckless and the like). A fight ends after the turn a side
falls. What a side's step does to a set of pairs whatever their mass (its plan: the outcome rows, the
safe regions, the product) is kept while the pairs alive stay the same, as they do once the duel's
keys are all met.

A description whose turn can end a fight part-way (``falls_mid_turn``: a Counter or its own damage
may fell the actor, its foe may fall before the turn's later uses) reads the damage taken to stop
there: its cells near a fall are played from the full state (key and both damages taken), each such
cell enumerated once per duel (a creature that cannot fall this turn plays it alike at any damage
taken, so it is enumerated at 0).

Counted before each round: past ``max_cells`` alive cells (pairs of keys x a's HP x b's HP) the chain
gives up (None: the duel is simulated).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy import sparse

from ..arguments import check_time
from ..chains import CHAIN_TAIL
from ..columns import Columns, distinct_columns, distinct_rows, from_key_rows, key_columns, key_rows, numbered
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
        # (row r of code c is at its start plus r's place among c's rows)
        pos = np.arange(rep.size) + (self.start[q] - (np.cumsum(count) - count))[rep]
        return rep, {k: v[pos] for k, v in self.cols.items()}


@dataclass(frozen=True)
class _ByRows:
    """A plan's safe rows shifted one by one (:meth:`_Duel._shift_rows`), whatever the mass: the
    padding (``most``: the most damage of the actor, of the foe), the rows sorted by pair after in
    ``chunks`` of bounded memory (each: the rows' pairs, the first cell of their windows along either
    axis, their probabilities, the first row of each pair after's run, those pairs after), and per
    side winning (``me_wins``: the actor, ``foe_wins``) which (row, damage taken before) of its
    tail sums fell the other side with it standing, and its hit points lost there."""

    most: tuple[int, int]
    chunks: list[tuple[np.ndarray, ...]]
    me_wins: tuple[np.ndarray, np.ndarray]
    foe_wins: tuple[np.ndarray, np.ndarray]


@dataclass
class _Plan:
    """What side x's step does to the pairs ``ids`` whatever their mass (:meth:`_Duel._plan`): each
    pair's safe region (the cells i < ``safe_i``, j < ``safe_j``), the indices in ``ids`` of the pairs
    whose safe region is not all their cells (``partial``) and their cells outside it (``unsafe``:
    partial x the actor's HP x the foe's), whether a safe region's shifted mass can fall
    (``can_fall``), the rows shifting a safe region (``rows``: the pair's index in ``ids``, the actor's
    damage and the foe's clamped to HP, probability, the pair after) and their distinct pairs after
    (``to_ids``, sorted). With few shifts for the rows they are one sparse ``product`` (rows: (shift,
    pair after), columns: ``ids``), each shift in ``shifts`` (the actor's damage, the foe's, its first
    product row, its end, the indices in ``to_ids`` of its pairs after, whether its rows are one per
    pair of ``to_ids`` rather than one per pair after it has); otherwise they are ``by_rows``."""

    ids: np.ndarray
    safe_i: np.ndarray
    safe_j: np.ndarray
    partial: np.ndarray
    unsafe: np.ndarray
    can_fall: bool
    rows: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]
    to_ids: np.ndarray
    product: sparse.csr_matrix | None = None
    shifts: list[tuple[int, int, int, int, np.ndarray, bool]] = field(default_factory=list)
    by_rows: _ByRows | None = None


class _Duel:
    """One duel's chain (module docstring): the two descriptions, the pairs met, the outcomes
    enumerated so far, the last plan of each side's step (and its cells near a fall expanded) and the
    tallies of wins and HP left."""

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
        self.plans: dict[tuple[int, str], _Plan] = {}
        self.near: dict[tuple[int, str], tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]]] = {}

    def _played(
        self, x: int, step: str, ids: np.ndarray, taken: tuple[np.ndarray, np.ndarray] | None, hit_first: bool
    ) -> tuple[np.ndarray, dict[str, np.ndarray]]:
        """Return every outcome of side ``x``'s ``step`` from the pairs ``ids`` with the damage taken
        ``taken`` (the actor's, the foe's; None: none), all in one call of the description, equal
        outcomes merged: (each row's index in ``ids``; the rows: the pair after ``dst``, the damage
        dealt in the step to the actor ``own`` and to its foe ``hit``, probability ``p``), sorted by
        that index, the damage dealt (the foe's first with ``hit_first``) and the key after."""
        me, foe = from_key_rows(self.types[x], self.pairs.actor_rows(ids, x))
        i = j = np.zeros(ids.size, np.int64)
        if taken is not None:
            i, j = taken
            me, foe = me.replace(**{me.POOL: i}), foe.replace(**{foe.POOL: j})
        draw = Enumerator(ids.size)
        me2, foe2 = play(self.rounds[x], me, foe, draw, (step,))
        own = np.asarray(getattr(me2, me2.POOL), np.int64) - i[draw.origin]
        hit = np.asarray(getattr(foe2, foe2.POOL), np.int64) - j[draw.origin]
        dealt = [hit, own] if hit_first else [own, hit]
        # (the keys after by their rank among those met: the rows' order is that of the keys)
        # (the columns numbered as they are: stacking them first cost more than the numbering)
        n = draw.origin.size
        keys, rank = distinct_columns(key_columns((me2, foe2)), n)
        uniq, inverse = distinct_columns([draw.origin, *dealt, rank], n)
        weight = np.bincount(inverse, weights=draw.weight, minlength=uniq.shape[0])
        dst = self.pairs.from_actor(keys, x)[uniq[:, 3]]
        own, hit = (uniq[:, 2], uniq[:, 1]) if hit_first else (uniq[:, 1], uniq[:, 2])
        return uniq[:, 0], {"dst": dst, "own": own, "hit": hit, "p": weight}

    def _turns(self, x: int, step: str, ids: np.ndarray) -> _Outcomes:
        """Return the outcomes of side ``x``'s ``step`` from the pairs of keys, damage-free,
        enumerating the pairs of ``ids`` not met before in one call (:meth:`_played`; each pair's
        rows by the foe's damage first, as :func:`~workbench.fight.chain.enumerated` sorts them)."""
        kept = self.turns.setdefault((x, step), _Outcomes(dense=True))
        new = kept.missing(ids)
        if new.size:
            kept.add(new, *self._played(x, step, new, None, hit_first=True))
        return kept

    def _full_turns(self, x: int, step: str, codes: np.ndarray, size: tuple[int, int]) -> _Outcomes:
        """Return the outcomes of side ``x``'s ``step`` from the cells ``codes`` (a pair, the actor's
        damage taken, the foe's: :meth:`act`'s code), enumerating those new with the damage taken given
        to the description (one call, :meth:`_played`); a row's ``own`` and ``hit`` are the damage
        dealt in the step."""
        kept = self.full.setdefault((x, step), _Outcomes(dense=False))
        new = kept.missing(codes)
        if new.size:
            ids, rest = np.divmod(new, size[0] * size[1])
            kept.add(new, *self._played(x, step, ids, np.divmod(rest, size[1]), hit_first=False))
        return kept

    def _won(self, y: int, lost: np.ndarray, mass: np.ndarray) -> None:
        """Add ``mass`` to creature y's wins having lost ``lost`` hit points."""
        self.left[y] += np.bincount(lost, weights=mass, minlength=self.left[y].size)

    def _by_rows(self, rows: tuple[np.ndarray, ...], x: int, hps: tuple[int, int]) -> _ByRows:
        """Return the :class:`_ByRows` of the safe rows ``rows`` of a :class:`_Plan` (side ``x``
        acting, ``hps`` its HP and its foe's)."""
        src, own, hit, p, dst = rows
        hp_me, hp_foe = hps
        mo, mh = int(own.max()), int(hit.max())
        order = np.argsort(dst, kind="stable")
        step_rows = max(1, _PRODUCT_CELLS * 80 // (hp_me * hp_foe))  # (bounded memory: 32 MB at a time)
        chunks: list[tuple[np.ndarray, ...]] = []
        for a in range(0, order.size, step_rows):
            part = order[a : a + step_rows]
            runs = np.flatnonzero(np.r_[True, dst[part][1:] != dst[part][:-1]])
            chunks.append((src[part], mo - own[part], mh - hit[part], p[part, None, None], runs, dst[part][runs]))
        beyond = self.pairs.beyond
        # the foe falls where j + hit >= its HP, the actor stands where i + own < its HP (by the
        # actor's damage before); the actor falls where i + own >= its HP, the foe stands where
        # j + hit < its HP (by the foe's)
        ok_me = np.arange(hp_me)[None, :] < (hp_me - own)[:, None]
        ok_foe = np.arange(hp_foe)[None, :] < (hp_foe - hit)[:, None]
        lost_me = (np.arange(hp_me)[None, :] + own[:, None] + beyond[x][dst][:, None])[ok_me]
        lost_foe = (np.arange(hp_foe)[None, :] + hit[:, None] + beyond[1 - x][dst][:, None])[ok_foe]
        return _ByRows((mo, mh), chunks, (ok_me, lost_me), (ok_foe, lost_foe))

    def _shift_rows(
        self, plan: _Plan, inside: np.ndarray, out: np.ndarray, out_ids: np.ndarray, x: int, r: int
    ) -> None:
        """Add to ``out`` (the pairs ``out_ids``) every safe row's shift of its pair's mass ``inside``
        (:class:`_ByRows`), each a window of the mass padded above and to the left, summed per pair
        after; the mass shifted past a side's HP is a fall, read off the tail sums of the mass (a win
        of the side still standing, both: a draw)."""
        assert plan.by_rows is not None
        src, own, hit, p, _ = plan.rows
        (mo, mh), chunks = plan.by_rows.most, plan.by_rows.chunks
        k, hp_me, hp_foe = inside.shape
        pad = np.zeros((k, hp_me + mo, hp_foe + mh))
        pad[:, mo:, mh:] = inside
        # (the windows of the padded mass: window (s, a, b) is pad[s, a : a + hp_me, b : b + hp_foe])
        s0, s1, s2 = pad.strides
        win = np.lib.stride_tricks.as_strided(
            pad, (k, mo + 1, mh + 1, hp_me, hp_foe), (s0, s1, s2, s1, s2), writeable=False
        )
        for at, wi, wj, wp, runs, run_ids in chunks:
            shifted = win[at, wi, wj] * wp
            out[np.searchsorted(out_ids, run_ids)] += np.add.reduceat(shifted, runs, axis=0)
        (ok, lost) = plan.by_rows.me_wins
        tail = np.zeros((k, hp_me, hp_foe + 1))
        tail[:, :, :hp_foe] = np.cumsum(inside[:, :, ::-1], axis=2)[:, :, ::-1]
        fell = (tail[src, :, hp_foe - hit] * p[:, None])[ok]  # (rows, the actor's damage before)
        self.wins[x, r] += fell.sum()
        self._won(x, lost, fell)
        (ok, lost) = plan.by_rows.foe_wins
        tail = np.zeros((k, hp_me + 1, hp_foe))
        tail[:, :hp_me, :] = np.cumsum(inside[:, ::-1, :], axis=1)[:, ::-1, :]
        fell = (tail[src, hp_me - own, :] * p[:, None])[ok]  # (rows, the foe's damage before)
        self.wins[1 - x, r] += fell.sum()
        self._won(1 - x, lost, fell)

    def _plan(self, x: int, step: str, ids: np.ndarray) -> _Plan:
        """Return the :class:`_Plan` of side ``x``'s ``step`` from the pairs ``ids`` (the last one
        again when ``ids`` are those of the last call: a duel's pairs settle after a few rounds)."""
        last = self.plans.get((x, step))
        if last is not None and np.array_equal(last.ids, ids):
            return last
        hp_me, hp_foe = self.hps[x], self.hps[1 - x]
        k = ids.size
        rep, rows = self._turns(x, step, ids).expand(ids)
        own, hit, p, dst = rows["own"], rows["hit"], rows["p"], rows["dst"]
        firsts = np.searchsorted(rep, np.arange(k))  # each pair's rows are together (every pair has one)
        # a pair whose outcome heals (a negative damage) is played from the full state everywhere
        heals = np.minimum.reduceat(np.minimum(own, hit), firsts) < 0
        mid_turn = step == "turn" and bool(getattr(self.rounds[x], "falls_mid_turn", False))
        if mid_turn:
            # the rest of the turn depends on a fall part-way: only where no outcome fells a side is
            # the damage-free turn exact (the safe region)
            most_own, most_hit = np.maximum.reduceat(own, firsts), np.maximum.reduceat(hit, firsts)
            safe_i = np.where(heals, 0, np.clip(hp_me - most_own, 0, hp_me))
            safe_j = np.where(heals, 0, np.clip(hp_foe - most_hit, 0, hp_foe))
        else:  # the damage-free turn is exact everywhere; a fall is read after it
            safe_i = np.where(heals, 0, hp_me)
            safe_j = np.where(heals, 0, hp_foe)
        partial = np.flatnonzero((safe_i < hp_me) | (safe_j < hp_foe))
        unsafe = (np.arange(hp_me)[None, :, None] >= safe_i[partial, None, None]) | (
            np.arange(hp_foe)[None, None, :] >= safe_j[partial, None, None]
        )
        # the rows shifting a safe region, grouped by shift
        from_safe = ((safe_i > 0) & (safe_j > 0))[rep]
        srep, sp, sdst = rep[from_safe], p[from_safe], dst[from_safe]
        # a shift past a side's HP is a fall like any past it (clamped, so the code stays one shift)
        sown, shit = np.minimum(own[from_safe], hp_me), np.minimum(hit[from_safe], hp_foe)
        code = sown * (hp_foe + 1) + shit  # (no negative damage here: a heal is played by cell)
        codes, shift = numbered(code, (hp_me + 1) * (hp_foe + 1))
        to_ids, to_at = numbered(sdst, len(self.pairs.ids))
        plan = _Plan(ids, safe_i, safe_j, partial, unsafe, not mid_turn, (srep, sown, shit, sp, sdst), to_ids)
        if codes.size * _PRODUCT_CELLS < srep.size * hp_me * hp_foe:
            # one product row per shift and pair after (in that order), a row's terms in the rows'
            # order (its sum is then that of one sparse product per shift); a shift to most pairs
            # after has a row for each (added to the mass after without an index)
            key = shift * to_ids.size + to_at
            bound = codes.size * to_ids.size
            keys, row = numbered(key, bound) if bound <= 32 * key.size else np.unique(key, return_inverse=True)
            first, ats = np.searchsorted(keys, np.arange(codes.size + 1) * to_ids.size), []
            for s, (lo, hi) in enumerate(zip(first[:-1].tolist(), first[1:].tolist())):
                at = keys[lo:hi] - s * to_ids.size
                ats.append((at, 2 * at.size > to_ids.size))
            starts = np.cumsum([0] + [to_ids.size if dense else at.size for at, dense in ats])
            dense_row = np.array([dense for _, dense in ats])[shift]
            row = starts[shift] + np.where(dense_row, to_at, row - first[shift])
            plan.product = sparse.csr_matrix((sp, (row, srep)), shape=(int(starts[-1]), k))
            plan.shifts = [
                (*divmod(int(c), hp_foe + 1), int(lo), int(hi), at, dense)
                for c, lo, hi, (at, dense) in zip(codes.tolist(), starts[:-1], starts[1:], ats)
            ]
        elif srep.size:
            plan.by_rows = self._by_rows(plan.rows, x, (hp_me, hp_foe))
        self.plans[(x, step)] = plan
        return plan

    def _near(
        self, x: int, step: str, codes: np.ndarray, size: tuple[int, int]
    ) -> tuple[np.ndarray, dict[str, np.ndarray]]:
        """Return :meth:`_full_turns` of ``codes`` expanded (:meth:`_Outcomes.expand`), the last
        expansion again for the codes of the last call (the cells near a fall settle with the pairs)."""
        last = self.near.get((x, step))
        if last is not None and np.array_equal(last[0], codes):
            return last[1], last[2]
        cell, near = self._full_turns(x, step, codes, size).expand(codes)
        self.near[(x, step)] = (codes, cell, near)
        return cell, near

    def act(self, ids: np.ndarray, mass: np.ndarray, x: int, step: str, r: int) -> tuple[np.ndarray, np.ndarray]:
        """Return the alive (pairs, mass: pairs x a's damage x b's) after side ``x``'s ``step``, its
        falls counted in round ``r`` (0-based)."""
        hp_me, hp_foe = self.hps[x], self.hps[1 - x]
        mm = mass if x == 0 else mass.transpose(0, 2, 1)  # the actor's damage first
        k = ids.size
        plan = self._plan(x, step, ids)
        safe_i, safe_j, part = plan.safe_i, plan.safe_j, plan.partial
        # the cells played from the full state (key and both damages taken): each its own outcomes,
        # the damage below the safe line enumerated at 0 (it plays alike there); only the pairs whose
        # safe region is not all their cells (``partial``) have any
        kk, rest = np.divmod(np.flatnonzero(plan.unsafe & (mm[part] != 0)), hp_me * hp_foe)
        kk, (ii, jj) = part[kk], np.divmod(rest, hp_foe)
        inside = mm
        if kk.size:  # the mass left to shift: the rest (the unsafe cells' mass is zero but those)
            inside = mm.copy()  # (C order)
            inside[kk, ii, jj] = 0.0
        ci = np.where(ii >= safe_i[kk], ii, 0)
        cj = np.where(jj >= safe_j[kk], jj, 0)
        size = (hp_me + 1, hp_foe + 1)
        codes = (ids[kk] * size[0] + ci) * size[1] + cj
        cell, near = self._near(x, step, codes, size)
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
        near_dst = near["dst"][both]
        out_ids, near_loc = plan.to_ids, near_dst
        if near_dst.size:
            out_ids, at = numbered(np.concatenate([plan.to_ids, near_dst]), len(self.pairs.ids))
            near_loc = at[plan.to_ids.size :]
        flat = (near_loc * hp_me + ai[both]) * hp_foe + aj[both]
        counted = np.bincount(flat, weights=w[both], minlength=out_ids.size * hp_me * hp_foe)
        out = counted.astype(np.float64, copy=False).reshape(out_ids.size, hp_me, hp_foe)  # (an empty count is int)
        # the rest of the mass, grouped by shift: what each pair after gets from every pair (one
        # sparse product: (shift, pairs after) x pairs, times every pair's mass), shifted along both
        # axes; the mass shifted past a side's HP is a fall
        flat_inside = inside.reshape(k, hp_me * hp_foe)
        if plan.product is not None:
            moved_all = plan.product @ flat_inside
            # where each pair after of the product is in ``out`` (None: the same place)
            put = None if out_ids.size == plan.to_ids.size else np.searchsorted(out_ids, plan.to_ids)
            for di, dj, lo, hi, at, dense in plan.shifts:
                moved = moved_all[lo:hi].reshape(hi - lo, hp_me, hp_foe)
                to = at if put is None else put[at]  # (the shift's pairs after in ``out``)
                rows: slice | np.ndarray = (slice(None) if put is None else put) if dense else to
                out[rows, di:, dj:] += moved[:, : hp_me - di, : hp_foe - dj]
                if not plan.can_fall:  # (a safe region's mass cannot fall: its shifts stay inside)
                    continue
                if dense:  # (the rows of the shift's pairs after)
                    moved = moved[at]
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
        elif plan.by_rows is not None:  # many shifts (wide damage, few pairs): every row's shifted copy at once
            self._shift_rows(plan, inside, out, out_ids, x, r)
        keep = out.reshape(out_ids.size, hp_me * hp_foe).any(axis=1)
        if not keep.all():
            out, out_ids = out[keep], out_ids[keep]
        return out_ids, (out if x == 0 else out.transpose(0, 2, 1))


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
