"""The exact kill chain: rounds to kill for many matchups at once (docs/combat.md).

One absorbing chain of "damage taken" under repeated independent turns, vectorised over matchups;
a single matchup is the 1 x 1 case. The design rule, quoted (docs/combat.md explains the chain): "an absorbing Markov chain over the state,
vectorised over matchups (for HP alone: convolve the alive mass with the turn's damage on its
non-zero window, cut at HP; one chain serves every HP)".

* HP pools (``channels=1``). Damage never heals within the chain, so the running total S_t of
  per-turn damage only grows and the target is dead after round t exactly when S_t >= HP:
  P(T > t) = P(S_t < HP). One chain cut at the largest HP of a turn serves every HP of that turn.
* Endurance and Vitality (``channels=2``, Annulus). annulus-attacks.txt: "Endurance is removed
  first, then Vitality if a target has no more Endurance. If you remove the last Vitality from a
  creature, that creature dies"; a Vital strike (Trigger Die 12) "ignores Endurance and strikes
  directly at Vitality". After totals R (regular) and V (vital) damage the creature has lost
  V + max(0, R - endurance) Vitality and is dead when that reaches its Vitality, so the chain runs
  on the two running totals.
"""

from __future__ import annotations

import math
import sys
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from .dist import convolve_full
from .errors import RulesError

__all__ = [
    "CHAIN_TAIL",
    "Chains",
    "kill_chains",
    "kill_stats",
    "totals",
    "by_round_from_steps",
    "renewal_means",
    "one_blas_thread",
    "QUANTILE_TOLERANCE",
]

#: a row leaves the chain once its alive mass is below this (far under the 1e-12 tolerance)
CHAIN_TAIL = 1e-16
#: total probability mass a row may lose to window trimming over ``max_rounds`` rounds (both edges)
TRIM_BUDGET = 1e-18
#: the windows are trimmed every this many rounds
_TRIM_EVERY = 4
#: chains of at most this many rounds take their mean from the chain (longer: the renewal measure)
_CHAIN_MEAN_ROUNDS = 64
#: windows narrower than this are not trimmed (nothing to gain)
_TRIM_MIN = 512
#: turns chained together on windows (sorted by their spread, so similar windows share a block), up
#: to this many (turns x largest HP) cells a group
_GROUP_CELLS = 1 << 16
#: rows convolve as one batched product over sliding windows up to this many multiply-adds a row
#: (window x max(support, 32)); wider, one convolution per row (its per-call cost is then small)
_BATCH_MACS = 8192
#: the pools of one two-pool turn chained together up to this many (pairs x box) region cells
_POOL_CELLS = 1 << 22
_RULE_HP = "docs/combat.md: the target is dead when the damage taken reaches its HP"
_RULE_POOLS = (
    "docs/combat.md: two pools emptied in order (the first channel's damage takes pool 1 "
    "first, then pool 2; the second channel's goes to pool 2 only); the creature dies when pool 2 is empty"
)


@dataclass(frozen=True)
class Chains:
    """The kill chains of ``n`` rows (see :func:`kill_chains`).

    ``killed[i, t - 1]`` = P(T = t), t = 1..R (R = the most rounds any row ran; a row's entries past
    its own ``rounds`` are 0). ``alive[i]``: the alive mass after the last round row i ran (below
    ``CHAIN_TAIL`` when it converged). ``rounds[i]``: rounds row i ran. ``mean[i]``: exact E[T] (inf
    when the turn can never damage; channels=2: NaN when the row did not converge). ``dropped[i]``:
    the mass discarded by window trimming (below ``TRIM_BUDGET``). For every row
    ``killed.sum() + alive + dropped == 1`` up to rounding. ``weighted``: see ``weights``, else None.
    """

    killed: np.ndarray
    alive: np.ndarray
    rounds: np.ndarray
    mean: np.ndarray
    dropped: np.ndarray
    weighted: np.ndarray | None = None


# --------------------------------------------------------------------------- BLAS threads
#: the BLAS libraries' thread controls (threadpoolctl), found on first use; False: none to control
_BLAS: Any = None
#: modules that load a BLAS library of their own (scipy's OpenBLAS beside numpy's): the controls are
#: found again once one of them has been imported since
_BLAS_MODULES = ("scipy.linalg", "scipy.sparse.linalg")
_BLAS_SEEN: tuple[bool, ...] = ()


def one_blas_thread(when: bool = True) -> AbstractContextManager[Any]:
    """Return a context in which BLAS (OpenBLAS, MKL) runs one thread, ``when`` it is true and BLAS
    runs more (else a context that does nothing).

    The engine's matrix products are small: a (rows, steps) by (steps, rounds) product, a
    (pairs, rounds) matrix times a vector. OpenBLAS splits them over its threads, which then
    spin waiting for each other; on a busy machine (a shared runner, Binder, a test run beside
    it) a thread that is not scheduled stalls the product: ``by_round_from_steps`` took 145-700 ms
    with OpenBLAS's default threads against 16-38 ms with one (issue 38). One thread costs
    nothing on a quiet machine at these sizes. Where threadpoolctl finds no BLAS (Pyodide) the
    context does nothing."""
    global _BLAS, _BLAS_SEEN
    if not when:
        return nullcontext()
    seen = tuple(m in sys.modules for m in _BLAS_MODULES)
    if _BLAS is None or seen != _BLAS_SEEN:
        _BLAS_SEEN = seen
        try:
            from threadpoolctl import ThreadpoolController

            _BLAS = ThreadpoolController().select(user_api="blas") or False
        except Exception:  # no threadpoolctl, or a platform it cannot inspect: nothing to limit
            _BLAS = False
    if _BLAS is False or all(lib.num_threads == 1 for lib in _BLAS.lib_controllers):
        return nullcontext()
    return _BLAS.limit(limits=1)


# --------------------------------------------------------------------------- input checks
def _turns_1d(turns) -> np.ndarray:
    if isinstance(turns, np.ndarray):
        X = np.asarray(turns, dtype=np.float64)
        if X.ndim == 1:
            X = X[None, :]
    else:
        rows = [np.asarray(p, dtype=np.float64) for p in turns]
        if not rows or any(p.ndim != 1 or p.size == 0 for p in rows):
            raise RulesError("turns must be a (m, W) array or a list of 1-D damage pmfs from damage 0", field="turns")
        X = np.zeros((len(rows), max(p.size for p in rows)))
        for i, p in enumerate(rows):  # a copy per distinct turn, not per row
            X[i, : p.size] = p
    if X.ndim != 2 or X.shape[0] == 0 or X.shape[1] == 0:
        raise RulesError("turns must be a (m, W) array of damage pmfs from damage 0", field="turns")
    _check_probabilities(X.reshape(X.shape[0], -1))
    return X


def _turns_2d(turns) -> np.ndarray:
    if isinstance(turns, np.ndarray):
        J = np.asarray(turns, dtype=np.float64)
        if J.ndim == 2:
            J = J[None]
    else:
        rows = [np.asarray(p, dtype=np.float64) for p in turns]
        if not rows or any(p.ndim != 2 or p.size == 0 for p in rows):
            raise RulesError(
                "turns must be a (m, R, V) array or a list of 2-D (regular, vital) joint pmfs", field="turns"
            )
        J = np.zeros((len(rows), max(p.shape[0] for p in rows), max(p.shape[1] for p in rows)))
        for i, p in enumerate(rows):
            J[i, : p.shape[0], : p.shape[1]] = p
    if J.ndim != 3 or 0 in J.shape:
        raise RulesError("turns must be a (m, R, V) array of (regular, vital) joint pmfs", field="turns")
    _check_probabilities(J.reshape(J.shape[0], -1))
    return J


def _check_probabilities(flat: np.ndarray) -> None:
    # non-negative entries with finite row sums are all finite (NaN fails the minimum, inf the sums)
    sums = flat.sum(axis=1)
    low = flat.min()
    if low >= 0 and np.abs(sums - 1.0).max() <= 1e-9:
        return
    if not low >= 0 or not np.all(np.isfinite(flat)):
        raise RulesError(
            "turn probabilities must be finite and non-negative (damage never heals in the chain)", field="turns"
        )
    bad = np.flatnonzero(np.abs(sums - 1.0) > 1e-9)
    raise RulesError(f"turn {int(bad[0])}'s probabilities sum to {flat[bad[0]].sum()!r}, not 1", field="turns")


def _int_array(values, field: str, rule: str) -> np.ndarray:
    a = np.asarray(values)
    if a.dtype.kind not in "iu":  # bool is kind "b"
        raise RulesError(f"must be whole numbers, not {a.dtype}", field=field, rule=rule)
    return a.astype(np.int64, copy=False)


def _turn_index(turn_index, m: int, n: int) -> np.ndarray:
    if turn_index is None:
        if m == n:
            return np.arange(n, dtype=np.int64)
        if m == 1:
            return np.zeros(n, dtype=np.int64)
        raise RulesError(f"{m} turns for {n} rows: give turn_index (row -> turn)", field="turn_index")
    ti = _int_array(turn_index, "turn_index", "each row uses one of the given turns")
    if ti.shape != (n,) or (n and (ti.min() < 0 or ti.max() >= m)):
        raise RulesError(f"turn_index must be {n} whole numbers in 0..{m - 1}", field="turn_index")
    return ti


def _dedupe(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return (index of the first row of each distinct key, in key order; each row's distinct id)."""
    if keys.size == 1:
        return np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64)
    _, first, inv = np.unique(keys, return_index=True, return_inverse=True)
    return first, inv.ravel()


# --------------------------------------------------------------------------- the kernel
def kill_chains(turns, pools, turn_index=None, *, channels: int = 1, max_rounds: int = 10_000, weights=None) -> Chains:
    """Return the exact kill chains (:class:`Chains`) of many (turn, pool) rows at once.

    ``channels=1`` (HP): ``turns`` is a (m, W) float64 array of per-turn damage pmfs from damage 0
    (or a list of 1-D pmfs), ``pools`` an int array (n,) of HP (>= 1). Row i uses turn
    ``turn_index[i]`` (default: row i uses turn i when m == n, turn 0 when m == 1). The target is
    dead after round t exactly when S_t >= hp: P(T > t) = P(S_t < hp). Identical (turn, hp) rows are
    computed once, and one chain per turn, cut at its largest HP, serves all its HPs.
    ``channels=2`` (Annulus Endurance and Vitality): each turn is a joint pmf J[r, v] = P(one turn
    deals r regular and v vital damage) ((m, R, V) array or a list of 2-D arrays), ``pools`` an int
    array (n, 2) of (endurance >= 0, vitality >= 1). After totals R, V the creature has lost
    V + max(0, R - endurance) Vitality and is dead when that reaches its Vitality.

    A row leaves the chain once its alive mass is below ``CHAIN_TAIL``; a row still alive after
    ``max_rounds`` reports the mass left in ``alive``. Rows whose turn never damages: killed 0,
    alive 1, rounds 0, mean inf.

    ``mean``: exact E[T], not truncated at ``max_rounds``. channels=1: E[T] = sum over s < hp of the
    renewal measure U(s) = sum_k P(S_k = s), U = delta + Y * U for the positive part Y of the turn,
    divided once by P(damage > 0) (turns that deal 0 only stretch time). channels=2: sum of
    t P(T = t), NaN when the row did not converge within ``max_rounds``.

    ``weights`` (optional, (n, R_w) with R_w <= max_rounds + 1): ``weighted[i] = sum_t
    weights[i, t] * alive_i(t)``, t = 0..R_w-1 (t = 0: the untouched target), ``alive_i(t)`` the
    alive mass of row i after t rounds as a dense vector over damage taken: channels=1 indexed by
    damage s = 0..hp-1, channels=2 by total damage s = r + v = 0..endurance+vitality-1 (Endurance
    left + Vitality left = endurance + vitality - s); a (n, max pool) array, 0 past each row's
    pool. Rounds after a row converged (alive mass < ``CHAIN_TAIL``) add nothing. A duel's
    winner's HP-left distribution is ``kill_a @ alive_b(t - 1)``: weights = kill_a.

    channels=1 speed: each turn's alive mass is convolved with the turn's damage only on the
    window where it is non-zero (from [0, 0], growing by the turn's support each round, cut at
    HP); on windows of ``_TRIM_MIN`` or more, leading and trailing runs of the window holding less
    than TRIM_BUDGET / (2 max_rounds) each round are dropped, and that mass is reported in
    ``dropped``. Turns run together (one group while they fit ``_GROUP_CELLS``, else by similar
    spread) with the bookkeeping batched: narrow windows as one product over sliding windows per
    band of support widths a round, wide ones one correlation per row; a single row is a group of
    one.
    """
    if not isinstance(max_rounds, (int, np.integer)) or isinstance(max_rounds, bool) or max_rounds < 1:
        raise RulesError(f"must be a whole number >= 1, not {max_rounds!r}", field="max_rounds")
    max_rounds = int(max_rounds)
    if channels not in (1, 2):
        raise RulesError(f"channels must be 1 (HP) or 2 (Endurance, Vitality), not {channels!r}", field="channels")
    if channels == 1:
        X = _turns_1d(turns)
        hp = _int_array(pools, "hp", _RULE_HP)
        if hp.ndim != 1:
            raise RulesError("hp must be a 1-D array, one HP per row", field="hp", rule=_RULE_HP)
        if hp.size and hp.min() < 1:
            raise RulesError("HP must be >= 1", field="hp", rule=_RULE_HP)
        size = hp
    else:
        J = _turns_2d(turns)
        pools = _int_array(pools, "pools", _RULE_POOLS)
        if pools.ndim != 2 or pools.shape[1] != 2:
            raise RulesError("pools must be a (n, 2) array of (endurance, vitality)", field="pools", rule=_RULE_POOLS)
        if pools.size and (pools[:, 0].min() < 0 or pools[:, 1].min() < 1):
            raise RulesError("endurance must be >= 0 and vitality >= 1", field="pools", rule=_RULE_POOLS)
        size = pools.sum(axis=1)
    n = size.shape[0]
    m = X.shape[0] if channels == 1 else J.shape[0]
    ti = _turn_index(turn_index, m, n)
    W = None
    if weights is not None:
        W = np.asarray(weights, dtype=np.float64)
        if W.ndim != 2 or W.shape[0] != n or W.shape[1] > max_rounds + 1 or not np.all(np.isfinite(W)):
            raise RulesError(
                f"weights must be a finite (n={n}, R_w <= max_rounds + 1) array, one weight per round t = 0..R_w-1",
                field="weights",
            )
    with one_blas_thread(n > 1):  # the means and the turns' spread are BLAS products over the rows
        if channels == 1:
            return _hp_chains(X, hp, ti, max_rounds, W)
        return _pool_chains(J, pools, ti, max_rounds, W)


class _Recorder:
    """Collects the per-pair results round by round (kill chances in a growing (pairs, rounds) array)."""

    def __init__(self, n_pairs: int, max_rounds: int):
        self.max_rounds = max_rounds
        # room for 64 to 1,024 rounds, up to 4 M cells (grown by doubling past that)
        self.killed = np.zeros((n_pairs, min(max_rounds, max(64, min(1024, (1 << 22) // max(n_pairs, 1))))))
        self.rounds = np.zeros(n_pairs, dtype=np.int64)
        self.alive = np.ones(n_pairs)
        self.dropped = np.zeros(n_pairs)
        self.R = 0

    def grow(self, t: int) -> None:
        """Make room for round ``t``."""
        if t > self.killed.shape[1]:
            grown = np.zeros((self.killed.shape[0], min(self.max_rounds, 2 * t)))
            grown[:, : self.killed.shape[1]] = self.killed
            self.killed = grown

    def put(self, t: int, pairs: np.ndarray, values: np.ndarray) -> None:
        """Store P(T = t) of ``pairs``."""
        self.grow(t)
        self.killed[pairs, t - 1] = np.maximum(values, 0.0)  # an exact 0 may round to -2e-16
        self.R = max(self.R, t)

    def clip(self) -> None:
        """Clip the stored kill chances at 0 (an exact 0 may round to -2e-16)."""
        np.maximum(self.killed, 0.0, out=self.killed)

    def finish(self, pairs: np.ndarray, t: int, alive: np.ndarray) -> None:
        """Pairs leaving the chain after round ``t`` with ``alive`` mass left."""
        self.rounds[pairs] = t
        self.alive[pairs] = alive

    def means(self) -> np.ndarray:
        """Return sum_t t P(T = t) + (rounds + 1) alive of every pair (E[T] when it converged)."""
        return self.killed[:, : self.R] @ np.arange(1, self.R + 1, dtype=np.float64) + (self.rounds + 1) * self.alive

    def killed_rows(self, inv: np.ndarray) -> np.ndarray:
        """Return the (rows, R) kill chances of the rows (row -> pair ``inv``)."""
        return np.take(self.killed[:, : self.R], inv, axis=0)


class _Weights:
    """The ``weights`` bookkeeping: rows, their pair, their pool, the (n, max pool) output."""

    def __init__(self, W: np.ndarray, inv: np.ndarray, size: np.ndarray, width: int):
        self.W, self.inv, self.size = W, inv, size
        self.out = np.zeros((inv.size, width))
        self.out[:, 0] = W[:, 0]  # t = 0: the untouched target has taken no damage

    def rows_of(self, pairs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Return (rows served by ``pairs``, each row's position in ``pairs``)."""
        where = np.full(int(self.inv.max()) + 1, -1)
        where[pairs] = np.arange(pairs.size)
        rows = np.flatnonzero(where[self.inv] >= 0)
        return rows, where[self.inv[rows]]


def _hp_chains(X: np.ndarray, hp: np.ndarray, ti: np.ndarray, max_rounds: int, W: np.ndarray | None) -> Chains:
    top = int(hp.max(initial=0)) + 1
    first, inv = _dedupe(ti * top + hp)
    pt, ph = ti[first], hp[first]  # the distinct (turn, hp) pairs
    rec = _Recorder(first.size, max_rounds)
    mean = np.full(first.size, np.inf)
    p_pos = X[:, 1:].sum(axis=1)
    wts = None
    if W is not None:
        wts = _Weights(W, inv, hp, top - 1)
        never = p_pos[ti] == 0
        wts.out[never, 0] = W[never].sum(axis=1)  # never damaged: damage 0 every round
    # the pairs come sorted by (turn, hp): each turn's pairs are one run, its largest HP last
    if pt.size == 1:
        starts, ends = np.zeros(1, dtype=np.int64), np.ones(1, dtype=np.int64)
    else:
        cuts = np.flatnonzero(pt[1:] != pt[:-1]) + 1
        starts, ends = np.concatenate(([0], cuts)), np.concatenate((cuts, [pt.size]))
    m = X.shape[0]
    h_turn = np.zeros(m, dtype=np.int64)
    h_turn[pt[starts]] = ph[ends - 1]
    keep = p_pos[pt[starts]] > 0
    damaging = pt[starts[keep]]
    if damaging.size:
        sw = np.ones(m, dtype=np.int64)  # each turn's support width below its largest HP (_support_widths)
        sw[damaging] = _support_widths(X[damaging], h_turn[damaging])
        dmg = p_pos[pt] > 0  # the pairs whose turn can damage
        if damaging.size == 1 or int(h_turn[damaging].max()) * damaging.size <= _GROUP_CELLS:
            _window_chains(X, damaging, h_turn, sw, np.flatnonzero(dmg), pt, ph, rec, max_rounds, wts)
        else:
            wide = damaging[np.argsort(_spread(X[damaging]), kind="stable")]
            in_group = np.zeros(m, dtype=bool)
            i = 0
            while i < wide.size:  # similar windows together, up to _GROUP_CELLS cells a group
                run = np.maximum.accumulate(h_turn[wide[i:]]) * np.arange(1, wide.size - i + 1)
                j = i + max(1, int(np.searchsorted(run, _GROUP_CELLS, side="right")))
                grp = wide[i:j]
                in_group[:] = False
                in_group[grp] = True
                _window_chains(X, grp, h_turn, sw, np.flatnonzero(in_group[pt]), pt, ph, rec, max_rounds, wts)
                i = j
        rec.clip()
        # E[T] = sum_t t P(T = t) + E[T; T > R]; with alive_R < CHAIN_TAIL the second term is
        # (R + 1) alive_R up to alive_R E[T] < CHAIN_TAIL E[T] (the time left from any state is at
        # most the time from 0), under float rounding. Rows stopped by max_rounds, and long chains
        # (whose rounding grows with the rounds), take the renewal measure instead.
        mean = np.where(dmg, rec.means(), np.inf)
        long = (rec.alive >= CHAIN_TAIL) & dmg
        if rec.R > _CHAIN_MEAN_ROUNDS:
            long |= rec.rounds > _CHAIN_MEAN_ROUNDS
        if long.any():
            flag = np.zeros(m, dtype=bool)
            flag[pt[long]] = True
            open_ = damaging[flag[damaging]]
            pair_lo, pair_hi = np.zeros(m, dtype=np.int64), np.zeros(m, dtype=np.int64)
            pair_lo[pt[starts]], pair_hi[pt[starts]] = starts, ends
            _renewal_means(X, open_, h_turn, sw, p_pos, ph, pair_lo, pair_hi, mean)
    if inv.size == 1:  # one row: its pair's arrays as they are
        return Chains(
            rec.killed[:, : rec.R].copy(), rec.alive, rec.rounds, mean, rec.dropped, None if wts is None else wts.out
        )
    return Chains(
        rec.killed_rows(inv),
        rec.alive[inv],
        rec.rounds[inv],
        mean[inv],
        rec.dropped[inv],
        None if wts is None else wts.out,
    )


def _spread(X: np.ndarray) -> np.ndarray:
    """The standard deviation of each turn's damage (how fast its window widens)."""
    v = np.arange(X.shape[1])
    m = X @ v
    return np.sqrt(np.maximum(X @ (v * v) - m * m, 0.0))


def _support_widths(X: np.ndarray, H: np.ndarray) -> np.ndarray:
    """Each turn's support width below its ``H``: one past its largest damage under H (damage >= H lands
    past every HP), at least 1."""
    if X.shape[0] == 1:
        nz = np.flatnonzero(X[0, : int(H[0])])
        return np.array([nz[-1] + 1 if nz.size else 1])
    nz = X[:, : int(H.max())] != 0
    if int(H.min()) < nz.shape[1]:
        nz &= np.arange(nz.shape[1]) < H[:, None]
    return np.where(nz.any(axis=1), nz.shape[1] - np.argmax(nz[:, ::-1], axis=1), 1)


#: the renewal measure's first entries are built by its recurrence directly (batched over turns)
_RENEWAL_HEAD = 256
#: :func:`renewal_means` below this HP runs the recurrence as scipy's IIR filter (one C loop); from
#: it on by doubling (O(log HP) convolutions, faster there)
_LFILTER_HP = 512


def _renewal_measure(y: np.ndarray, H: int, head: np.ndarray) -> np.ndarray:
    """Return U(0..H-1) of one turn from its first entries ``head``: ``y`` the turn's damage given
    damage > 0 (y[0] = 0), cut below H.

    U = delta + Y * U. Given U on [0, n), the block [n, n + m) (m <= n)
    is c + Y * block, c the reach of [0, n) into it (from its last W - 1 values), and the inverse of
    the lower-triangular Toeplitz I - Y is the Toeplitz of U itself, so block = (U[:m] * c)[:m]:
    O(H W) work in O(log H) convolutions. Every term is a sum of non-negative products (no
    cancellation)."""
    if H <= head.size:
        return head[:H]
    u = np.empty(H)
    filled = head.size
    u[:filled] = head
    if y.size <= 1:  # every damage > 0 is at least H: the first hit kills, U is 1 at 0 only
        u[filled:] = 0.0
        return u
    reach_w = y.size - 1
    while filled < H:
        m = min(filled, H - filled)
        lo = max(0, filled - reach_w)
        reach = convolve_full(u[lo:filled], y)[filled - lo : filled - lo + min(m, reach_w)]
        u[filled : filled + m] = convolve_full(u[:m], reach)[:m]
        filled += m
    return u


def renewal_means(turn: np.ndarray, hp: np.ndarray, p: float | None = None) -> np.ndarray:
    """Return the exact E[T] of one turn (a damage pmf from damage 0 that can damage) against each
    HP of ``hp`` (ints >= 1): sum_{s < hp} U(s) / P(damage > 0), the renewal measure of
    :func:`kill_chains`' mean without its chain (``mean_rounds_to_kill``). Below ``_LFILTER_HP``
    the recurrence U(s) = delta(s) + sum_j Y(j) U(s - j) runs as ``scipy.signal.lfilter`` (direct
    form II transposed: with the denominator -Y every update adds non-negative products); from it
    on by doubling (:func:`_renewal_measure`). ``p``: P(damage > 0) when the caller has it."""
    from scipy.signal import lfilter  # imported on first use: the kernel itself never loads scipy.signal

    H = int(hp.max())
    if p is None:
        p = float(turn[1:].sum())
    w = min(turn.size, H)
    a = turn[:w] / -p  # the filter's denominator: 1, then -Y(j)
    a[0] = 1.0
    head = H if H < _LFILTER_HP else _RENEWAL_HEAD
    impulse = np.zeros(head)
    impulse[0] = 1.0
    u = lfilter(_ONE, a[:head], impulse)
    if head < H:
        y = -a
        y[0] = 0.0
        nz = np.flatnonzero(y)
        u = _renewal_measure(y[: nz[-1] + 1] if nz.size else y[:1], H, u)
    if hp.size == 1:  # one sum (correctly rounded where it is short)
        total = math.fsum(u.tolist()) if H < _LFILTER_HP else float(np.sum(u, dtype=np.longdouble))
        return np.array([total / p])
    return np.cumsum(u, dtype=np.longdouble)[hp - 1].astype(np.float64) / p


_ONE = np.ones(1)


def _renewal_means(X, turns, h_turn, sw, p_pos, ph, pair_lo, pair_hi, mean) -> None:
    """Fill ``mean`` for the pairs of ``turns``: E[T] = sum_{s < hp} U(s) / P(damage > 0).

    U(s) = sum_k P(S_k = s) solves U = delta + Y * U (Y: the turn's damage given damage > 0, so
    Y(0) = 0; turns that deal 0 only stretch time, hence the one division). U(0..255) comes from
    the recurrence U(s) = sum_j Y(j) U(s - j), batched over turns; longer chains double from there
    (:func:`_renewal_measure`).
    """
    head = min(_RENEWAL_HEAD, int(h_turn[turns].max()))
    w = int(sw[turns].max())
    Y = X[turns, :w] * (np.arange(w) < sw[turns][:, None]) / p_pos[turns][:, None]
    Y[:, 0] = 0.0
    U = np.zeros((turns.size, head))
    U[:, 0] = 1.0
    for s in range(1, head):
        q = min(s, w - 1)
        U[:, s] = np.einsum("ij,ij->i", Y[:, 1 : q + 1], U[:, s - 1 :: -1][:, :q])
    for i, k in enumerate(turns.tolist()):
        u = _renewal_measure(Y[i, : sw[k]], int(h_turn[k]), U[i])
        pairs = np.arange(pair_lo[k], pair_hi[k])
        mean[pairs] = np.cumsum(u, dtype=np.longdouble)[ph[pairs] - 1].astype(np.float64) / p_pos[k]


def _window_chains(X, tb, h_turn, sw, pairs, pt, ph, rec: _Recorder, max_rounds: int, wts: _Weights | None) -> None:
    """Run the turns ``tb`` together, each on the window where its alive mass is non-zero.

    Row i of ``A`` holds P(S_t = lo_i + c, alive) for c = 0.. (zeros past its content). Each round:
    convolve every row with its turn, cut at the turns' largest HP, read P(S_t < hp) for each HP
    from the row's cumulative sums; every ``_TRIM_EVERY`` rounds (windows of ``_TRIM_MIN`` or more)
    drop from both ends of each row the runs holding less than TRIM_BUDGET / (2 max_rounds) and
    shift the rows to their new start. Trimmed mass below a pair's HP is that pair's ``dropped``.
    (A pair whose HP falls inside a trimmed run has less than that alive, so it already left.) The
    rows' convolution is one batched product over sliding windows per band of support widths when
    the windows are narrow (``_BATCH_MACS``), else one convolution with the turn per row.
    ``sw``: each turn's support width (:func:`_support_widths`).
    """
    k = tb.size
    if k > 1:
        tb = tb[np.argsort(sw[tb], kind="stable")]  # rows by support width (the bands)
    eps = TRIM_BUDGET / (2 * max_rounds)
    wk = sw[tb]
    wx = int(wk.max())
    Xr = np.zeros((k, wx))  # the reversed supports, right-aligned
    for i, (r, w) in enumerate(zip(tb.tolist(), wk.tolist())):
        Xr[i, wx - w :] = X[r, w - 1 :: -1] if w > 1 else X[r, :1]
    xr = [Xr[i, wx - w :] for i, w in enumerate(wk.tolist())]
    xf = [x[::-1] for x in xr]  # the supports in order, for convolve_full (np.convolve without its wrapper)
    bands = None
    if k == 1:
        prow = np.zeros(pairs.size, dtype=np.int64)
    else:
        local = np.full(X.shape[0], -1)
        local[tb] = np.arange(k)
        prow = local[pt[pairs]]
    A = np.ones((k, 1))
    lo = np.zeros(k, dtype=np.int64)
    rows = np.arange(k)  # turn rows still in the chain (``A`` follows them)
    pos = np.arange(k)  # turn row -> its row in ``A``
    cap = h_turn[tb]  # per row of ``A``: the window's end (largest HP - lo)
    capmax = int(cap.max())
    act = np.arange(pairs.size)  # the pairs still in the chain: positions, pair ids, last survival
    pa, pv = pairs, np.ones(pairs.size)
    pr = prow  # each pair's row in ``A``
    idx = ph[pairs] - 1  # each pair's last alive column in its row
    flat, flat_w = idx, -1  # each pair's cell in the (rows, width) cumulative sums, for width flat_w
    dropped = np.zeros(pairs.size)
    killed = rec.killed
    if wts is not None:
        wr, wp = wts.rows_of(pairs)
        wlive = np.ones(pairs.size, dtype=bool)
        whp = wts.size[wr]
    t = 0
    while t < max_rounds:
        t += 1
        aw = A.shape[1]
        width = min(aw + wx - 1, capmax)
        n_rows = rows.size
        if n_rows == 1:
            A = convolve_full(A[0], xf[int(rows[0])])[None, :width]
        elif width * max(wx, 32) <= _BATCH_MACS:
            if bands is None:
                bands = _bands(wk[rows], Xr[rows])
            new = np.empty((n_rows, width))
            for a, b, w, Xb in bands:
                P = np.zeros((b - a, width + w - 1))
                P[:, w - 1 : w - 1 + min(aw, width)] = A[a:b, :width]
                np.einsum("ijd,id->ij", sliding_window_view(P, w, axis=1), Xb, out=new[a:b])
            A = new
        else:
            new = np.zeros((n_rows, aw + wx - 1))
            for i, r in enumerate(rows.tolist()):
                new[i, : aw + xr[r].size - 1] = convolve_full(A[i], xf[r])
            A = new[:, :width]
        # a row whose largest HP is below ``width`` carries dead mass past it (damage >= its largest HP):
        # no survival reads it, and it moves only to higher damage
        c = np.add.accumulate(A, axis=1)  # A.cumsum(axis=1) without its wrapper (a call a round)
        if flat_w != width:
            flat, flat_w = pr * width + (np.minimum(idx, width - 1) if width < capmax else idx), width
        surv = c.take(flat)
        if t > killed.shape[1]:
            rec.grow(t)
            killed = rec.killed
        killed[pa, t - 1] = pv - surv
        pv = surv
        if wts is not None and t < wts.W.shape[1]:
            sel = wlive[wp] & (wts.W[wr, t] != 0)
            if sel.any():
                r, p = wr[sel], wp[sel]
                i = prow[p]
                cols = lo[i][:, None] + np.arange(width)[None, :]
                ok = cols < whp[sel][:, None]
                vals = A[pos[i]] * wts.W[r, t][:, None]
                rr = np.broadcast_to(r[:, None], cols.shape)
                wts.out[rr[ok], cols[ok]] += vals[ok]
        if np.minimum.reduce(surv) < CHAIN_TAIL:  # surv.min(), likewise
            done = surv < CHAIN_TAIL
            rec.finish(pa[done], t, surv[done])
            rec.dropped[pa[done]] = dropped[act[done]]
            if wts is not None:
                wlive[act[done]] = False
            live = ~done
            act, pa, pv, pr, idx, flat = act[live], pa[live], pv[live], pr[live], idx[live], flat[live]
            if act.size == 0:
                break
            need = np.zeros(n_rows, dtype=bool)
            need[pr] = True
            if need.sum() * 8 <= n_rows * 7:  # compact when an eighth of the turns left
                rows, A, c, cap = rows[need], A[need], c[need], cap[need]
                pos[rows] = np.arange(rows.size)
                pr = pos[prow[act]]
                capmax, flat_w, bands = int(cap.max()), -1, None
                wx = int(wk[rows].max())  # the widest support left (a row's correlation is aw + its support - 1 long)
        if t % _TRIM_EVERY or width < _TRIM_MIN:
            continue
        # trim: leading entries while their cumulative mass < eps, trailing likewise
        kl = (c < eps).sum(axis=1)
        rc = np.cumsum(A[:, ::-1], axis=1)  # mass from the top end (c[-1] - eps would round to c[-1])
        kr = (rc < eps).sum(axis=1)
        if not ((kl > 0) | (kr > 0)).any():
            continue
        keep_w = width - kl - kr
        cut = np.where(kl[pr] > 0, c[pr, np.maximum(kl[pr] - 1, 0)], 0.0)  # below every pair left
        jr = width - kr[pr]  # the trailing run starts here; its mass below hp is dropped
        top = np.where(kr[pr] > 0, rc[pr, np.maximum(kr[pr] - 1, 0)], 0.0)
        above = np.clip(width - 1 - np.maximum(idx + 1, jr), -1, width - 1)  # mass at >= max(hp, jr)
        cut += top - np.where(above >= 0, rc[pr, np.maximum(above, 0)], 0.0)
        pv = pv - cut
        dropped[act] += cut
        nw = max(1, int(keep_w.max()))
        take = np.minimum(kl[:, None] + np.arange(nw)[None, :], width - 1)
        A = np.take_along_axis(A, take, axis=1)
        A[np.arange(nw)[None, :] >= keep_w[:, None]] = 0.0
        lo[rows] += kl
        cap = cap - kl
        capmax, flat_w = int(cap.max()), -1
        idx = idx - kl[pr]
    else:
        rec.finish(pa, max_rounds, pv)
        rec.dropped[pa] = dropped[act]
    rec.R = max(rec.R, t)


#: support-width bands of the batched product (each band is padded to its widest support)
_BAND_EDGES = np.array([4, 8, 16, 32, 64, 128])


def _bands(widths: np.ndarray, Xr: np.ndarray) -> list[tuple[int, int, int, np.ndarray]]:
    """Split rows sorted by support width into bands: (first row, end row, band width, its supports)."""
    ends = np.unique(np.concatenate((np.searchsorted(widths, _BAND_EDGES, side="right"), [widths.size])))
    out = []
    a = 0
    for b in ends.tolist():
        if b > a:
            w = int(widths[b - 1])
            out.append((a, b, w, Xr[a:b, Xr.shape[1] - w :]))
            a = b
    return out


def _pool_chains(J: np.ndarray, pools: np.ndarray, ti: np.ndarray, max_rounds: int, W: np.ndarray | None) -> Chains:
    E_top = int(pools[:, 0].max(initial=0)) + 1
    V_top = int(pools[:, 1].max(initial=0)) + 1
    first, inv = _dedupe((ti * E_top + pools[:, 0]) * V_top + pools[:, 1])
    rec = _Recorder(first.size, max_rounds)
    mean = np.full(first.size, np.inf)
    wts = None
    if W is not None:
        size = pools.sum(axis=1)
        wts = _Weights(W, inv, size, int(size.max(initial=1)))
    turn_of = ti[first]
    order = np.argsort(turn_of, kind="stable")
    cuts = np.flatnonzero(np.diff(turn_of[order])) + 1
    for group in np.split(order, cuts):  # the pairs of one turn: one chain serves all their pools
        if group.size:
            _pool_chain(J[int(turn_of[group[0]])], pools[first[group]], group, rec, mean, max_rounds, wts)
    return Chains(
        rec.killed_rows(inv),
        rec.alive[inv],
        rec.rounds[inv],
        mean[inv],
        rec.dropped[inv],
        None if wts is None else wts.out,
    )


def _pool_chain(joint, pools, pairs, rec: _Recorder, mean, max_rounds, wts) -> None:
    """Run the chain of one joint turn for the pairs ``pairs`` of (endurance, vitality) ``pools``,
    storing each pair's kill chances and mean.

    The totals (R_t, V_t) after t turns have the pmf J^{*t}, the t-th convolution power of the
    joint; a pair (E, V) is alive while V_t + max(0, R_t - E) < V. The totals never decrease and
    that region is a down-set, so mass that leaves it never returns: P(alive after t) is the sum of
    J^{*t} over the pair's region, and one power sequence (on the box r < max(E + V), v < max(V),
    past which every pair is dead) serves every pool of the turn. Each round is one 1-D
    convolution of the box and the joint laid out row-major at one row stride for every round,
    max(V) + the joint's vital reach - 1 (columns padded so that no row wraps into the next); the powers of up to 64 rounds are summed over the
    pairs' regions in one product, and the iteration stops once the mass in the union of the regions
    (which bounds every pair's) is below CHAIN_TAIL. A pair leaves after the first round its alive
    mass is below CHAIN_TAIL.
    """
    E, V = pools[:, 0], pools[:, 1]
    H, Vb = int((E + V).max()), int(V.max())
    if pairs.size > 1 and pairs.size * H * Vb > _POOL_CELLS:  # the region masks in parts
        half = pairs.size // 2
        for part in (slice(0, half), slice(half, None)):
            _pool_chain(joint, pools[part], pairs[part], rec, mean, max_rounds, wts)
        return
    if joint.sum() - joint[0, 0] <= 0:  # never damages: killed 0, alive 1, rounds 0, mean inf
        if wts is not None:
            rows, _ = wts.rows_of(pairs)
            wts.out[rows, 0] = wts.W[rows].sum(axis=1)
        return
    j = joint[:H, :Vb]  # more regular or vital damage than this kills every pair in any state
    nzr, nzc = np.flatnonzero(j.any(axis=1)), np.flatnonzero(j.any(axis=0))
    j = j[: nzr[-1] + 1, : nzc[-1] + 1] if nzr.size else j[:1, :1]
    jr, jv = j.shape
    rr, vv = np.arange(H)[:, None], np.arange(Vb)[None, :]
    # region[i, r, v]: pair i alive after regular total r and vital total v
    region = ((vv + np.maximum(0, rr - E[:, None, None])) < V[:, None, None]).astype(np.float64)
    rows = pos = np.zeros(0, dtype=np.int64)
    total = np.zeros((0, 0), dtype=np.int64)
    if wts is not None:
        rows, pos = wts.rows_of(pairs)
        total = rr + vv  # damage taken (Endurance + Vitality lost); in a region it is below E + V
    union = region.max(axis=0)  # alive for some pair: its mass bounds every pair's
    n = pairs.size
    masses: list[np.ndarray] = []  # (pairs, rounds) of each chunk of rounds
    chunk = max(1, min(64, _POOL_CELLS // (H * Vb)))
    buf = np.zeros((chunk, H, Vb))  # the powers of the chunk's rounds on the box
    c = 0
    # the powers laid out row-major at one row stride L for all rounds: a column v < Vb meets the
    # joint's columns below jv, so the sum stays below L and no row wraps into the next; the
    # columns from Vb on (every pair dead) are cleared each round
    L = Vb + jv - 1
    Jf = np.zeros((jr, L))
    Jf[:, :jv] = j
    jflat = Jf.ravel()[: (jr - 1) * L + jv]  # without the last row's trailing zeros
    a = np.zeros(L)  # round 0: no damage taken (one row)
    a[0] = 1.0
    nr = 1
    t = 0
    for t in range(1, max_rounds + 1):
        f: np.ndarray = convolve_full(a, jflat)  # (nr + jr - 1) L - 1 + jv long: every row of the sum fits
        nr = min(nr + jr - 1, H)
        a = f[: nr * L]
        P = a.reshape(nr, L)
        if L > Vb:
            P[:, Vb:] = 0.0
        now = buf[c, :nr]
        now[:] = P[:, :Vb]
        c += 1
        over = float(np.vdot(union[:nr], now)) < CHAIN_TAIL  # every pair has left
        if c == chunk or over or t == max_rounds:
            masses.append(np.einsum("ijk,tjk->it", region, buf[:c]))
            if wts is not None:
                _weigh(wts, rows, pos, region, buf[:c], total, t - c + 1, np.concatenate(masses, axis=1))
            buf[:c] = 0.0
            c = 0
        if over:
            break
    M = np.concatenate(masses, axis=1)  # P(alive after round t) of each pair, t = 1..T
    T = M.shape[1]
    below = M < CHAIN_TAIL
    stop = np.where(below.any(axis=1), below.argmax(axis=1) + 1, T)  # the round each pair leaves after
    prev = np.concatenate((np.ones((n, 1)), M[:, :-1]), axis=1)
    killed = np.where(np.arange(1, T + 1)[None, :] <= stop[:, None], prev - M, 0.0)
    acc = killed @ np.arange(1, T + 1, dtype=np.float64)  # sum_t t P(T = t)
    converged = below.any(axis=1)
    # every pair at once: its kill chances past its own last round are 0 already
    R = int(stop.max())
    rec.grow(R)
    rec.killed[pairs, :R] = np.maximum(killed[:, :R], 0.0)  # an exact 0 may round to -2e-16
    rec.R = max(rec.R, R)
    rec.finish(pairs, stop, M[np.arange(n), stop - 1])
    mean[pairs] = np.where(converged, acc, np.nan)


def _weigh(
    wts: _Weights,
    rows: np.ndarray,
    pos: np.ndarray,
    region: np.ndarray,
    powers: np.ndarray,
    total: np.ndarray,
    t0: int,
    M: np.ndarray,
) -> None:
    """Add to ``wts.out`` the weighted alive mass by damage taken of rounds t0 .. t0 + len(powers) - 1
    (``powers``: J^{*t} on the box) for the rows of the pairs still in the chain at each round (a
    pair leaves after the first round its alive mass ``M`` is below CHAIN_TAIL)."""
    width = wts.out.shape[1]
    n = region.shape[0]
    cells = (np.arange(n)[:, None, None] * width + np.minimum(total, width - 1)).ravel()
    below = M < CHAIN_TAIL
    for k, pw in enumerate(powers):
        t = t0 + k
        if t >= wts.W.shape[1]:
            return
        # in the chain at round t: no round before t left its mass below the tail
        inside: np.ndarray = ~np.any(below[:, : t - 1], axis=1)
        s = np.bincount(cells, weights=(region * pw).ravel(), minlength=n * width).reshape(n, width)
        sel = inside[pos]
        wts.out[rows[sel]] += wts.W[rows[sel], t, None] * s[pos[sel]]


# --------------------------------------------------------------------------- statistics of many rows
#: a round counts as reaching quantile q when P(killed by then) >= q - this (float ties)
QUANTILE_TOLERANCE = 1e-12
_QUANTILES = (0.1, 0.5, 0.9)


def totals(pmf: np.ndarray) -> np.ndarray:
    """Return P(row, total damage) of joint turn pmfs (rows x one damage axis per pool)."""
    if pmf.ndim == 2:
        return pmf
    n, r, v = pmf.shape
    out = np.zeros((n, r + v - 1))
    for j in range(v):
        out[:, j : j + r] += pmf[:, :, j]
    return out


#: (distinct chances x rounds x steps) cells of the Binomial table built at once
_BINOMIAL_CELLS = 1 << 22


def by_round_from_steps(steps: np.ndarray, p_pos: np.ndarray, max_rounds: int) -> np.ndarray:
    """Return P(T <= t), t = 1..max_rounds, from the damaging-step chain: ``steps[i, k-1]`` =
    P(the kill takes k damaging turns), each turn damaging with probability ``p_pos[i]``.

    A turn that deals nothing only waits, so T is the round of the k-th damaging turn:
    P(T <= t) = sum_k P(K = k) P(Binomial(t, p) >= k), summed as sum_j P(Bin(t, p) = j) P(K <= j),
    j = 1..K (the Binomial pmf's last cell holds ">= K"). The Binomial pmfs depend on p alone, so
    they are stepped round by round once per distinct p (a chunk of rounds at a time, at most
    ``_BINOMIAL_CELLS`` cells) and each row takes one product with its p's table: rows of one turn
    against many pools share it (one product per p and chunk; when most p are a row's own, one
    gathered product per block of rows instead: a Python loop over thousands of p costs more).
    """
    n, K = steps.shape
    out = np.zeros((n, max_rounds))
    if n == 0 or max_rounds == 0:
        return out
    with one_blas_thread():  # many small products (see one_blas_thread)
        return _by_round_from_steps(steps, p_pos, max_rounds, out)


def _by_round_from_steps(steps: np.ndarray, p_pos: np.ndarray, max_rounds: int, out: np.ndarray) -> np.ndarray:
    n, K = steps.shape
    ps, u = np.unique(p_pos, return_inverse=True)
    u = u.ravel()
    order = np.argsort(u, kind="stable")
    cuts = np.flatnonzero(np.diff(u[order])) + 1
    groups = np.split(order, cuts)  # group g: the rows whose chance is ps[g]
    upto = np.cumsum(steps, axis=1)  # P(K <= j), j = 1..K
    U = ps.size
    pmf = np.zeros((U, K + 1))
    pmf[:, 0] = 1.0
    p, q = ps[:, None], (1.0 - ps)[:, None]
    moved = np.empty_like(pmf)
    chunk = max(1, min(max_rounds, _BINOMIAL_CELLS // (U * (K + 1))))
    B = np.empty((chunk, U, K))  # B[t, g, j - 1] = P(Bin(t0 + t + 1, ps[g]) = j), j = 1..K
    for t0 in range(0, max_rounds, chunk):
        c = min(chunk, max_rounds - t0)
        for t in range(c):
            np.multiply(pmf, p, out=moved)
            pmf *= q
            pmf[:, 1:] += moved[:, :-1]
            pmf[:, -1] += moved[:, -1]
            B[t] = pmf[:, 1:]
        if n >= 8 * U:
            for g, rows in enumerate(groups):
                out[rows, t0 : t0 + c] = upto[rows] @ B[:c, g].T
            continue
        block = max(1, _BINOMIAL_CELLS // max(1, K * c))  # K = 0: no steps, all rows 0
        for r0 in range(0, n, block):
            rs = slice(r0, r0 + block)
            out[rs, t0 : t0 + c] = np.einsum("rj,trj->rt", upto[rs], B[:c, u[rs]])
    return np.clip(out, 0.0, 1.0)


def kill_stats(
    pmf: np.ndarray,
    turn_index: np.ndarray,
    pools: np.ndarray,
    *,
    max_rounds: int = 100,
    chain: bool = False,
    chained: np.ndarray | None = None,
) -> dict[str, np.ndarray]:
    """Return per row: ``mean_turn_damage``, ``sd_turn_damage``, ``p_kill_one_turn``, ``mean_rounds``
    (exact; inf when the turn never damages), ``q10``/``q50``/``q90`` (first round whose kill chance
    reaches q within QUANTILE_TOLERANCE; NaN past ``max_rounds``), ``p_unresolved`` (P(still alive
    after ``max_rounds``)) and, with ``chain``, ``p_killed_by`` (rows x max_rounds).

    Row i uses turn ``pmf[turn_index[i]]`` (-1: no usable turn, never kills) against ``pools[i]``
    (one column per pool). Everything comes from :func:`kill_chains`. Against two pools the chain
    runs on the damaging turns only (Y = the turn given damage > 0: each step deals some, so at
    most E + V steps) and the turns that deal nothing are waits (:func:`by_round_from_steps`):
    E[T] = E[steps] / P(damage > 0). BLAS runs one thread (:func:`one_blas_thread`).

    ``chained``: None (every row) or a boolean per row; a row marked False gets its turn's damage
    columns but no chain (the kill columns as for a turn that never kills): compare's rows whose
    fight carries state take those columns from their own fight, so the state-free chain would be
    thrown away.
    """
    from .memo import MEMO, digest

    turn_index = np.asarray(turn_index, dtype=np.int64)
    pmf, pools = np.asarray(pmf, dtype=np.float64), np.asarray(pools, dtype=np.int64)

    def solve() -> dict[str, np.ndarray]:
        with one_blas_thread(turn_index.size > 1):
            return _kill_stats(pmf, turn_index, pools, max_rounds, chain, chained)

    if turn_index.size * (10 + (max_rounds if chain else 0)) * 8 > MEMO.max_bytes // 16:
        return solve()  # a whole explore chunk: not kept, it would push every other entry out
    # a pure function of its arrays: kept by their contents, so a repeated compare or explore reads
    # its chains back (copies: callers fill the rows with state in place)
    mask = None if chained is None else digest(np.asarray(chained, dtype=bool))
    key = ("kill stats", digest(pmf), digest(turn_index), digest(pools), max_rounds, chain, mask)
    return {k: v.copy() for k, v in MEMO.get(key, solve).items()}


def _kill_stats(
    pmf: np.ndarray, turn_index: np.ndarray, pools: Any, max_rounds: int, chain: bool, chained: Any = None
) -> dict[str, np.ndarray]:
    pools = np.asarray(pools, dtype=np.int64)
    pools = pools.reshape(turn_index.size, pools.shape[-1] if pools.ndim > 1 else 1)
    n = turn_index.size
    T = totals(pmf) if pmf.size and pmf.shape[0] else np.ones((1, 1))
    v = np.arange(T.shape[1])
    tm = T @ v
    tsd = np.sqrt(np.maximum(T @ (v * v) - tm * tm, 0.0))
    none = turn_index < 0
    safe = np.where(none, 0, turn_index)
    out = {
        "mean_turn_damage": np.where(none, 0.0, tm[safe]),
        "sd_turn_damage": np.where(none, 0.0, tsd[safe]),
        "p_kill_one_turn": np.zeros(n),
        "mean_rounds": np.full(n, np.inf),
        "q10": np.full(n, np.nan),
        "q50": np.full(n, np.nan),
        "q90": np.full(n, np.nan),
    }
    by = np.zeros((n, max_rounds))
    rows = np.flatnonzero(~none if chained is None else ~none & np.asarray(chained, dtype=bool))
    if pools.shape[1] == 2 and rows.size:
        if pmf.ndim != 3:
            raise RulesError("a turn against two pools has two damage axes", field="pools")
        # a turn that never sends damage to the second pool directly spills through the pools in
        # order: against (E, V) it is the one-pool chain against E + V, exactly
        spill = pmf[:, :, 1:].sum(axis=(1, 2)) == 0  # (summed in place: a reshape of the slice copies it)
        one = rows[spill[turn_index[rows]]]
        two = rows[~spill[turn_index[rows]]]
    else:
        one, two = rows, rows[:0]
    if one.size:
        c = kill_chains(T, pools[one].sum(axis=1), turn_index[one], max_rounds=max_rounds)
        k = np.cumsum(c.killed, axis=1)
        by[one, : k.shape[1]] = k
        if k.shape[1] < max_rounds:  # rows that converged keep their last kill chance
            by[one, k.shape[1] :] = k[:, -1:] if k.shape[1] else 0.0
        out["mean_rounds"][one] = c.mean
    if two.size:
        if pools.shape[1] != 2:
            raise RulesError("the chain runs on one pool (HP) or two (Endurance, Vitality)", field="pools")
        p_pos = 1.0 - pmf[:, 0, 0]
        dmg = two[p_pos[turn_index[two]] > 0]
        if dmg.size:
            used, local = np.unique(turn_index[dmg], return_inverse=True)
            Y = pmf[used] / p_pos[used, None, None]
            Y[:, 0, 0] = 0.0
            steps_max = int(pools[dmg].sum(axis=1).max())
            c = kill_chains(Y, pools[dmg], local.ravel(), channels=2, max_rounds=steps_max)
            steps = np.ascontiguousarray(c.killed)
            pp = p_pos[turn_index[dmg]]
            out["mean_rounds"][dmg] = c.mean / pp
            by[dmg] = by_round_from_steps(steps, pp, max_rounds)
    out["p_kill_one_turn"] = by[:, 0].copy() if max_rounds else np.zeros(n)
    out["p_unresolved"] = np.clip(1.0 - by[:, -1], 0.0, 1.0) if max_rounds else np.ones(n)
    for q, name in zip(_QUANTILES, ("q10", "q50", "q90")):
        hit = by >= q - QUANTILE_TOLERANCE
        out[name] = np.where(hit.any(axis=1), hit.argmax(axis=1) + 1.0, np.nan)
    if chain:
        out["p_killed_by"] = by
    return out
