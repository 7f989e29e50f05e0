"""Rounds-to-kill by the exact absorbing chain on HP (DESIGN.md, Combat).

Damage never heals within the chain, so the running total S_t of per-turn damage only grows
and the target is dead after round t exactly when S_t >= HP: P(T > t) = P(S_t < HP). One
chain truncated at the largest HP therefore serves every HP up to it.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from .dist import Dist, _convolve
from .errors import RulesError

__all__ = ["rounds_to_kill", "mean_rounds_to_kill", "kill_chain"]

#: the chain stops once the mass still alive falls below this (far under the 1e-12 tolerance)
CHAIN_TAIL = 1e-16


def _turn_pmf_from_zero(turn: Dist) -> np.ndarray:
    if not isinstance(turn, Dist):
        raise RulesError(f"expected a Dist of damage per turn, not {type(turn).__name__}", field="turn")
    if turn.min() < 0:
        raise RulesError("damage per turn cannot be negative (healing is not an HP-only chain)", field="turn")
    if turn.max() == 0:
        raise RulesError("this turn never deals damage, so the target is never killed", field="turn")
    return np.concatenate((np.zeros(turn.offset), turn.pmf))


def _check_hp(hp: Any) -> np.ndarray:
    h = np.atleast_1d(np.asarray(hp))
    if h.size == 0 or not np.issubdtype(h.dtype, np.integer) or np.any(h < 1):
        raise RulesError(f"HP must be whole numbers >= 1, not {hp!r}", field="hp")
    return h.astype(np.int64)


def mean_rounds_to_kill(turn: Dist, hp: int | Sequence[int]) -> float | np.ndarray:
    """Return the exact mean number of turns to deal ``hp`` damage (a number, or one per HP).

    E[T] = sum over s < HP of U(s), where U(s) = sum_k P(S_k = s) is the renewal measure. U solves
    U = delta + X * U, a linear recurrence that scipy's ``lfilter`` runs in C; turns that deal 0
    are folded in exactly by the ``1 - P(0)`` denominator. Cumulative sums then give every HP.
    """
    from scipy.signal import lfilter

    x = _turn_pmf_from_zero(turn)
    h = _check_hp(hp)
    H = int(h.max())
    a = -x[: H + 1].copy()
    a[0] += 1.0
    impulse = np.zeros(H)
    impulse[0] = 1.0
    u = lfilter([1.0], a, impulse)
    cum = np.cumsum(u)
    out = cum[h - 1]
    return float(out[0]) if np.ndim(hp) == 0 else out


def kill_chain(turn: Dist, hp: int | Sequence[int], max_rounds: int = 10_000) -> np.ndarray:
    """Return ``P(T <= t)`` for t = 1, 2, ... as a matrix: one row per round, one column per HP.

    Rounds run until the alive mass of the largest HP is below ``CHAIN_TAIL`` (or ``max_rounds``).
    """
    x = _turn_pmf_from_zero(turn)
    h = _check_hp(hp)
    H = int(h.max())
    x = x[: H + 1]
    alive = np.zeros(H)
    alive[0] = 1.0
    rows = []
    for _ in range(max_rounds):
        alive = _convolve(alive, x)[:H]
        # P(T <= t) for HP h is the mass that reached h or more: 1 - P(S_t < h).
        below = np.cumsum(alive)
        rows.append(1.0 - below[h - 1])
        if below[-1] < CHAIN_TAIL:
            break
    return np.clip(np.array(rows), 0.0, 1.0)


def rounds_to_kill(attacker_or_turn: Any, target: Any = None, *, hp: int | None = None,
                   max_rounds: int = 10_000, **kwargs: Any):
    """Return the exact distribution of the number of rounds to kill, as a polars frame.

    ``rounds_to_kill(turn_dist, hp=150)`` runs the chain on any per-turn damage Dist. Columns:
    ``round``, ``p_killed_at`` (P(T = round)) and ``p_killed_by`` (P(T <= round)). The frame's
    rows stop when the remaining survival probability is below 1e-16.
    """
    import polars as pl

    if isinstance(attacker_or_turn, Dist):
        if hp is None:
            raise RulesError("give the target's hp (rounds_to_kill(turn, hp=150))", field="hp")
        turn = attacker_or_turn
    else:
        from .turns import turn_damage  # creatures: the system's action economy builds the turn

        if target is None:
            raise RulesError("give a target creature", field="target")
        turn = turn_damage(attacker_or_turn, target, **kwargs)
        if hp is None:
            from .systems import system_of

            hp = system_of(target).hit_points(target)
    by = kill_chain(turn, int(hp), max_rounds=max_rounds)[:, 0]
    at = np.diff(by, prepend=0.0)
    return pl.DataFrame({"round": np.arange(1, by.size + 1), "p_killed_at": at, "p_killed_by": by})
