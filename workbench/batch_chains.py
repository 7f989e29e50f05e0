"""Rounds-to-kill for many (turn, HP) rows at once, in numpy (DESIGN.md, Combat; used by compare).

The same exact quantities as :mod:`workbench.combat` (renewal mean, kill chain), batched: each
distinct turn is chained once up to the largest HP it meets, as one matrix product per round.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from .combat import CHAIN_TAIL
from .errors import RulesError

__all__ = ["rounds_batch", "QUANTILE_TOLERANCE"]

#: a round counts as reaching quantile q when P(killed by then) >= q - this (float ties)
QUANTILE_TOLERANCE = 1e-12

def _dedupe(combo: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """Return (first index of each distinct value of ``combo`` (ints in 0..size-1), in value
    order; each element's distinct id): np.unique(return_index, return_inverse) in O(n)."""
    flat = combo.ravel()
    if size > 4 * flat.size + 1024:
        _, first, inv = np.unique(flat, return_index=True, return_inverse=True)
        return first, inv.ravel()
    first_of = np.full(size, flat.size, dtype=np.int64)
    np.minimum.at(first_of, flat, np.arange(flat.size))
    present = first_of < flat.size
    ids = np.cumsum(present) - 1
    return first_of[present], ids[flat]


def _dense(pmfs: Sequence[np.ndarray]) -> np.ndarray:
    w = max(p.size for p in pmfs)
    out = np.zeros((len(pmfs), w))
    for i, p in enumerate(pmfs):  # a copy per distinct turn, not per row
        out[i, : p.size] = p
    return out


def rounds_batch(turns: Sequence[np.ndarray] | np.ndarray, turn_index: np.ndarray, hp: np.ndarray,
                 max_rounds: int = 100, chain: bool = False) -> dict[str, np.ndarray]:
    """Return rounds-to-kill statistics for many (turn, HP) rows at once (DESIGN.md, Combat).

    ``turns``: per-turn damage pmfs from 0 (a list, or a 2-D array); row i uses ``turns[turn_index[i]]``
    against ``hp[i]``. Returns arrays: ``mean_rounds`` (exact renewal mean, inf if a turn never
    damages), ``q10``/``q50``/``q90`` (first round whose kill chance reaches q within
    ``QUANTILE_TOLERANCE``; NaN past ``max_rounds``), ``p_kill_one_turn`` and, with ``chain``,
    ``p_killed_by`` (rows × max_rounds). Identical (turn, HP) pairs are computed once; each turn's
    chain runs once up to the largest HP it meets (turns batched by HP scale): the renewal
    recurrence U = delta + Y * U for the mean, and the alive mass by damage taken (one batched
    matrix product per round, a turn leaving the chain once its alive mass is below ``CHAIN_TAIL``)
    for the kill chances.
    """
    X = turns if isinstance(turns, np.ndarray) else _dense(list(turns))
    X = np.asarray(X, dtype=np.float64)
    turn_index = np.asarray(turn_index, dtype=np.int64)
    hp = np.asarray(hp, dtype=np.int64)
    if hp.size and hp.min() < 1:
        raise RulesError("HP must be whole numbers >= 1", field="hp")
    top = int(hp.max(initial=0)) + 1
    first, inv = _dedupe(turn_index * top + hp, max(1, X.shape[0] * top))
    pt, ph = turn_index[first], hp[first]
    n_pairs = first.size
    mean = np.full(n_pairs, np.inf)
    qs = np.full((3, n_pairs), np.nan)
    kb_all = np.full((n_pairs, max_rounds), np.nan) if chain else None
    tail = np.cumsum(X[:, ::-1], axis=1)[:, ::-1]  # P(turn damage >= d), exactly 0 past the support
    p_one = np.clip(np.where(ph < X.shape[1], tail[pt, np.minimum(ph, X.shape[1] - 1)], 0.0), 0.0, 1.0)
    p_pos = X[:, 1:].sum(axis=1)
    used = np.unique(pt)
    used = used[p_pos[used] > 0]
    if used.size:
        h_turn = np.zeros(X.shape[0], dtype=np.int64)
        np.maximum.at(h_turn, pt, ph)
        buckets = np.ceil(np.log2(h_turn[used])).astype(np.int64)
        for b in np.unique(buckets):  # a loop over HP scales (powers of 2), not rows
            tb = used[buckets == b]
            _rounds_bucket(X, tb, int(h_turn[tb].max()), p_pos, pt, ph, mean, qs, kb_all, max_rounds)
    if chain:
        never = p_pos[pt] == 0
        kb_all[never] = 0.0
    out = {"mean_rounds": mean[inv], "q10": qs[0][inv], "q50": qs[1][inv], "q90": qs[2][inv],
           "p_kill_one_turn": p_one[inv]}
    if chain:
        out["p_killed_by"] = kb_all[inv]
    return out


#: the kill chain uses one H x H transition matrix per turn up to this HP (above: a loop over damage)
_MATRIX_HP = 256
#: at most this many matrix entries per block of turns (bounded memory)
_MATRIX_BLOCK = 1 << 22


def _rounds_bucket(X, tb, H, p_pos, pt, ph, mean, qs, kb_all, max_rounds):
    """Fill the statistics of the pairs whose turn is in ``tb`` (one HP scale, chain up to ``H``)."""
    if H <= _MATRIX_HP and tb.size * H * H > _MATRIX_BLOCK:
        step = max(1, _MATRIX_BLOCK // (H * H))
        for i in range(0, tb.size, step):  # blocks of turns: bounded memory
            _rounds_bucket(X, tb[i : i + step], H, p_pos, pt, ph, mean, qs, kb_all, max_rounds)
        return
    n = tb.size
    local = np.full(X.shape[0], -1)
    local[tb] = np.arange(n)
    sel = np.flatnonzero(local[pt] >= 0)
    row, col = local[pt[sel]], ph[sel] - 1
    x = X[tb][:, : H + 1]
    S = x.shape[1]
    # --- exact mean: renewal measure of the positive part, U(s) = delta(s) + sum_j y_j U(s - j)
    y = x / p_pos[tb][:, None]
    U = np.zeros((n, H))
    U[:, 0] = 1.0
    for s in range(1, H):
        m = min(s, S - 1)
        U[:, s] = np.einsum("ij,ij->i", y[:, 1 : m + 1], U[:, s - 1 :: -1][:, :m])
    mean[sel] = np.cumsum(U, axis=1)[row, col] / p_pos[tb][row]
    # --- kill chain: alive mass by damage taken, cut at H; P(T <= t) = 1 - P(S_t < hp)
    xs = np.zeros((n, H))
    xs[:, : min(S, H)] = x[:, :H]
    matrix = H <= _MATRIX_HP
    if matrix:  # Tm[i, j, k] = P(turn i deals k - j): alive @ Tm is one round
        j = np.arange(H)
        lag = j[None, :] - j[:, None]
        Tm = np.zeros((n, H, H))
        Tm[:, lag >= 0] = xs[:, lag[lag >= 0]]
    else:
        nz = np.flatnonzero(xs.any(axis=0))
    alive = np.zeros((n, H))
    alive[:, 0] = 1.0
    active = np.arange(n)  # turns still in the chain; ``alive`` / ``Tm`` rows follow ``active``
    pos = np.arange(n)  # turn -> its row in ``alive`` (frozen turns keep their last kill chances)
    kb = np.zeros(sel.size)
    done = np.zeros((3, sel.size), dtype=bool)
    frozen = np.zeros(n, dtype=bool)
    for t in range(1, max_rounds + 1):
        if matrix:
            alive = np.matmul(alive[:, None, :], Tm)[:, 0, :]
        else:
            new = np.zeros_like(alive)
            xa = xs[active]
            for s in nz:
                new[:, s:] += xa[:, s, None] * alive[:, : H - s]
            alive = new
        c = np.cumsum(alive, axis=1)
        live = ~frozen[row]
        kb[live] = np.clip(1.0 - c[pos[row[live]], col[live]], 0.0, 1.0)
        if kb_all is not None:
            kb_all[sel, t - 1] = kb
        for qi, q in enumerate((0.1, 0.5, 0.9)):
            hit = ~done[qi] & (kb >= q - QUANTILE_TOLERANCE)
            qs[qi, sel[hit]] = t
            done[qi] |= hit
        keep = c[:, -1] >= CHAIN_TAIL
        if kb_all is None:
            need = np.bincount(row, weights=~done[2], minlength=n) > 0
            keep &= need[active]
        if not keep.all():
            frozen[active[~keep]] = True
            if not keep.any():
                if kb_all is not None and t < max_rounds:
                    kb_all[sel, t:] = kb[:, None]
                break
            if keep.sum() * 2 <= keep.size or not matrix:  # compact when half the rows left
                active, alive = active[keep], alive[keep]
                if matrix:
                    Tm = Tm[keep]
                pos[active] = np.arange(active.size)
