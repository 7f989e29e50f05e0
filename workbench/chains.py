"""Rounds-to-kill statistics of many (turn, pools) rows from the absorbing chain (DESIGN.md, Combat).

A turn is a joint pmf of one turn's damage over the target system's pools (one axis per pool,
damage from 0; channel i enters at pool i and spills onward). The kill statistics of every row of
``compare`` and ``explore`` and of ``rounds_to_kill`` come from here.
"""

from __future__ import annotations

import numpy as np

from .errors import RulesError

__all__ = ["kill_stats", "QUANTILE_TOLERANCE", "CHAIN_TAIL", "totals"]

#: a round counts as reaching quantile q when P(killed by then) >= q - this (float ties)
QUANTILE_TOLERANCE = 1e-12
#: the chain stops once the mass still alive falls below this (far under the 1e-12 tolerance)
CHAIN_TAIL = 1e-16
_QUANTILES = (0.1, 0.5, 0.9)


def totals(pmf: np.ndarray) -> np.ndarray:
    """Return P(row, total damage) of joint turn pmfs (rows × one axis per pool)."""
    if pmf.ndim == 2:
        return pmf
    n, r, v = pmf.shape
    out = np.zeros((n, r + v - 1))
    for j in range(v):
        out[:, j : j + r] += pmf[:, :, j]
    return out


def kill_stats(pmf: np.ndarray, turn_index: np.ndarray, pools: np.ndarray, *, max_rounds: int = 100,
               chain: bool = False) -> dict[str, np.ndarray]:
    """Return per row: ``mean_turn_damage``, ``sd_turn_damage``, ``p_kill_one_turn``, ``mean_rounds``
    (exact; inf when the turn never damages), ``q10``/``q50``/``q90`` (first round whose kill chance
    reaches q within QUANTILE_TOLERANCE; NaN past ``max_rounds``) and, with ``chain``,
    ``p_killed_by`` (rows × max_rounds).

    Row i uses turn ``pmf[turn_index[i]]`` (-1: no usable turn, never kills) against ``pools[i]``.
    """
    from .batch_chains import rounds_batch

    turn_index = np.asarray(turn_index, dtype=np.int64)
    pools = np.asarray(pools, dtype=np.int64).reshape(turn_index.size, -1)
    n = turn_index.size
    T = totals(pmf) if pmf.size else np.ones((0, 1))
    v = np.arange(T.shape[1])
    tm = T @ v
    tsd = np.sqrt(np.maximum(T @ (v * v) - tm * tm, 0.0))
    none = turn_index < 0
    safe = np.where(none, 0, turn_index)
    out = {"mean_turn_damage": np.where(none, 0.0, tm[safe] if tm.size else 0.0),
           "sd_turn_damage": np.where(none, 0.0, tsd[safe] if tsd.size else 0.0),
           "p_kill_one_turn": np.zeros(n), "mean_rounds": np.full(n, np.inf),
           "q10": np.full(n, np.nan), "q50": np.full(n, np.nan), "q90": np.full(n, np.nan)}
    if chain:
        out["p_killed_by"] = np.zeros((n, max_rounds))
    rows = np.flatnonzero(~none)
    if rows.size == 0:
        return out
    if pools.shape[1] == 1:
        st = rounds_batch(T, turn_index[rows], pools[rows, 0], max_rounds=max_rounds, chain=chain)
        for k_out, k_in in (("p_kill_one_turn", "p_kill_one_turn"), ("mean_rounds", "mean_rounds"),
                            ("q10", "q10"), ("q50", "q50"), ("q90", "q90")):
            out[k_out][rows] = st[k_in]
        if chain:
            out["p_killed_by"][rows] = st["p_killed_by"]
        return out
    if pools.shape[1] != 2:
        raise RulesError("the chain runs on one or two pools", field="pools")
    st = _two_pool_stats(pmf, turn_index[rows], pools[rows], max_rounds)
    for k in ("p_kill_one_turn", "mean_rounds", "q10", "q50", "q90"):
        out[k][rows] = st[k]
    if chain:
        out["p_killed_by"][rows] = st["p_killed_by"]
    return out


def _spill_step(mass: np.ndarray, J: np.ndarray, offsets: np.ndarray, alive: np.ndarray) -> np.ndarray:
    """Return one round of the two-pool chain: ``mass`` (rows × regular total × vital total)
    convolved with each row's turn ``J`` on its non-zero offsets, cut to the alive region."""
    new = np.zeros_like(mass)
    R, V = mass.shape[1:]
    for dr, dv in offsets:
        w = J[:, dr, dv]
        if not w.any():
            continue
        new[:, dr:, dv:] += w[:, None, None] * mass[:, : R - dr, : V - dv]
    return new * alive


def by_round_from_steps(steps: np.ndarray, p_pos: np.ndarray, max_rounds: int) -> np.ndarray:
    """Return P(T <= t), t = 1..max_rounds, from the damaging-step chain: ``steps[i, k-1]`` =
    P(the kill takes k damaging turns), each turn damaging with probability ``p_pos[i]``.

    A turn that deals nothing only waits, so T is the round of the k-th damaging turn:
    P(T <= t) = sum_k P(K = k) P(Binomial(t, p) >= k) (the Binomial pmf is stepped round by round,
    its last cell holding ">= K").
    """
    n, K = steps.shape
    pmf = np.zeros((n, K + 1))
    pmf[:, 0] = 1.0
    q = (1.0 - p_pos)[:, None]
    out = np.zeros((n, max_rounds))
    for t in range(max_rounds):
        moved = pmf * p_pos[:, None]
        pmf = pmf * q
        pmf[:, 1:] += moved[:, :-1]
        pmf[:, -1] += moved[:, -1]
        sf = np.cumsum(pmf[:, ::-1], axis=1)[:, ::-1][:, 1:]  # P(Bin >= k), k = 1..K
        out[:, t] = np.einsum("ik,ik->i", steps, sf)
    return np.clip(out, 0.0, 1.0)


def _two_pool_stats(pmf: np.ndarray, turn_index: np.ndarray, pools: np.ndarray, max_rounds: int) -> dict:
    """Return the kill statistics of rows against (Endurance, Vitality), batched over distinct rows.

    annulus-attacks.txt: "Endurance is removed first, then Vitality ... If you remove the last
    Vitality from a creature, that creature dies"; Vital damage goes "directly at Vitality". After
    regular total r and vital total v a creature has lost v + max(0, r - E) Vitality: alive while
    that is below V. The chain runs on Y = the turn given that it deals damage (each step deals
    some, so at most E + V steps); turns that deal nothing only wait
    (:func:`by_round_from_steps`), and E[T] = E[steps] / P(damage > 0).
    """
    key = turn_index * (1 << 40) + pools[:, 0] * (1 << 20) + pools[:, 1]
    _, first, inv = np.unique(key, return_index=True, return_inverse=True)
    t, E, Vt = turn_index[first], pools[first, 0], pools[first, 1]
    n = first.size
    R, V = int((E + Vt).max()), int(Vt.max())
    J = np.zeros((n, R, V))
    a, b = min(R, pmf.shape[1]), min(V, pmf.shape[2])
    J[:, :a, :b] = pmf[t][:, :a, :b]
    # damage past the grid kills outright: it stays in the turn's mass but leaves the alive region
    p_pos = 1.0 - pmf[t][:, 0, 0]
    r, v = np.arange(R)[None, :, None], np.arange(V)[None, None, :]
    alive = ((v + np.maximum(0, r - E[:, None, None]) < Vt[:, None, None])
             & (r < (E + Vt)[:, None, None])).astype(np.float64)
    out = {"p_kill_one_turn": np.zeros(n), "mean_rounds": np.full(n, np.inf),
           "p_killed_by": np.zeros((n, max_rounds))}
    pos = np.flatnonzero(p_pos > 0)
    if pos.size:
        Y = J[pos] / p_pos[pos, None, None]
        Y[:, 0, 0] = 0.0
        mass = np.zeros((pos.size, R, V))
        mass[:, 0, 0] = 1.0
        offsets = np.argwhere(Y.any(axis=0))
        left_prev = np.ones(pos.size)
        steps = np.zeros((pos.size, R + V))
        for k in range(R + V):
            mass = _spill_step(mass, Y, offsets, alive[pos])
            left = mass.sum(axis=(1, 2))
            steps[:, k] = np.maximum(left_prev - left, 0.0)
            left_prev = left
            if left.max() < CHAIN_TAIL:
                break
        mean_steps = 1.0 + (1.0 - np.cumsum(steps, axis=1)).clip(0.0).sum(axis=1)  # sum_k>=0 P(K > k)
        out["mean_rounds"][pos] = mean_steps / p_pos[pos]
        out["p_killed_by"][pos] = by_round_from_steps(steps, p_pos[pos], max_rounds)
        out["p_kill_one_turn"][pos] = out["p_killed_by"][pos, 0]
    by = out["p_killed_by"]
    for q, name in zip(_QUANTILES, ("q10", "q50", "q90")):
        hit = by >= q - QUANTILE_TOLERANCE
        out[name] = np.where(hit.any(axis=1), hit.argmax(axis=1) + 1.0, np.nan)
    return {k: val[inv] for k, val in out.items()}
