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
    from .combat import two_pool_alive_chain

    seen: dict[tuple[int, int, int], int] = {}
    for i in rows:
        key = (int(turn_index[i]), int(pools[i, 0]), int(pools[i, 1]))
        if key in seen:
            j = seen[key]
            for k in out:
                out[k][i] = out[k][j]
            continue
        seen[key] = i
        joint = pmf[turn_index[i]]
        if joint.sum() - joint[0, 0] <= 0:
            continue
        alive = two_pool_alive_chain(joint, key[1], key[2]).sum(axis=1)
        by = np.clip(1.0 - alive[1:], 0.0, 1.0)
        out["mean_rounds"][i] = alive.sum()
        out["p_kill_one_turn"][i] = by[0] if by.size else 1.0
        head = np.concatenate([by, np.full(max(0, max_rounds - by.size), by[-1] if by.size else 1.0)])[:max_rounds]
        for q, name in zip(_QUANTILES, ("q10", "q50", "q90")):
            hit = np.flatnonzero(head >= q - QUANTILE_TOLERANCE)
            if hit.size:
                out[name][i] = hit[0] + 1
        if chain:
            out["p_killed_by"][i] = head
    return out
