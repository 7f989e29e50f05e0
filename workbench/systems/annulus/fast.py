"""Damage-only pmfs of Annulus matchups, computed once per distinct set of resolved dice parameters.

``resolve.outcome_tables`` returns the full joint outcome (effects, Vitality routing, self-damage)
as a polars frame. The comparison engine and the explorer need only the damage: its pmf per use
and per turn. The damage depends on a handful of numbers that ``resolve.strike_parameters``
computes per matchup (CLARIFICATIONS.md, Annulus, "Order of resolution"): the pool, Reroll, the
automatic successes, the defense, the Bully / assassination bonus, whether the Trigger Die is
rolled twice, Critical and Flurry. Many matchups share them, so this module deduplicates the
parameter tuples and builds each damage pmf once, in closed vectorised form (binomial pmfs
shifted by automatic successes and defense, clipped at 0, then mapped through the Trigger Die),
with no polars tables. The results equal the marginals of ``outcome_tables`` to rounding (tests
check 1e-12).
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from .models import Options
from .resolve import _binomial_table, strike_parameters, trigger_class_probabilities

__all__ = ["KEY_COLUMNS", "parameter_keys", "strike_pmfs", "use_pmfs", "turn_pmfs", "damage_pmfs"]

#: the resolved numbers that decide the damage of one use (strike_parameters names)
KEY_COLUMNS = ("pool", "pool_reroll", "reroll", "auto", "defense", "bonus", "twice", "crit", "flurry")


def parameter_keys(P: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    """Return (distinct parameter tuples as an int array (u, len(KEY_COLUMNS)), each matchup's row in it)."""
    K = np.stack([np.asarray(P[c]).astype(np.int64) for c in KEY_COLUMNS], axis=1)
    if K.shape[0] == 0:
        return K, np.zeros(0, dtype=np.int64)
    lo, span = K.min(axis=0), K.max(axis=0) - K.min(axis=0) + 1
    if np.prod(span.astype(np.float64)) < 2.0**62:  # one integer per tuple (mixed radix): a 1-D unique
        code = (K - lo) @ np.concatenate(([1], np.cumprod(span[:-1]))).astype(np.int64)
        _, first, inv = np.unique(code, return_index=True, return_inverse=True)
        return K[first], inv.ravel()
    keys, inv = np.unique(K, axis=0, return_inverse=True)
    return keys, inv.ravel()


def _hist(rows: np.ndarray, values: np.ndarray, weights: np.ndarray, u: int, width: int) -> np.ndarray:
    """Return out[u, width] with out[rows[i], values[i]] += weights[i]."""
    flat = np.bincount((rows * width + values).ravel(), weights=weights.ravel(), minlength=u * width)
    return flat.reshape(u, width)


def strike_pmfs(keys: np.ndarray, options: Options, reroll: bool = True) -> np.ndarray:
    """Return S[u, r, d] = P(one strike deals d damage, with Reroll used (r = 1) or not (r = 0)).

    annulus-attacks.txt and CLARIFICATIONS, Annulus, steps 3-5: successes on the pool, plus the
    automatic successes (Reckless, Killing Spree), minus the defense, never below 0; Reroll (when
    ``reroll`` and the tuple allows it) rerolls a 0 once with one die fewer; a hit (>= 1) adds the
    Bully / assassination bonus; Critical on a Trigger Die 12 (rolled twice with Charged /
    Telegraphed) doubles the damage, the bonus too unless ``crit_doubles_bonus`` is False.
    """
    col = {c: keys[:, i] for i, c in enumerate(KEY_COLUMNS)}
    u = keys.shape[0]
    pool, pool_re = col["pool"], col["pool_reroll"]
    auto, D, bonus = col["auto"], col["defense"], col["bonus"]
    nmax = int(max(pool.max(initial=0), pool_re.max(initial=0)))
    B = _binomial_table(nmax, options.p_success)
    j = np.arange(nmax + 1)
    d = np.maximum(0, j[None, :] + auto[:, None] - D[:, None])  # step 3
    dmax = int(d.max(initial=0))
    rows = np.broadcast_to(np.arange(u)[:, None], d.shape)
    H0 = _hist(rows, d, B[pool], u, dmax + 1)
    R = np.zeros((u, 2, dmax + 1))
    R[:, 0] = H0
    rer = (col["reroll"] > 0) if reroll else np.zeros(u, dtype=bool)
    if rer.any():
        Hr = _hist(rows, d, B[pool_re], u, dmax + 1)
        zero = H0[:, 0] * rer
        R[:, 0, 0] -= zero
        R[:, 1] = zero[:, None] * Hr
    # step 5: P(Trigger Die 12), rolled once or twice keeping the higher
    p12 = np.where(col["twice"] > 0, trigger_class_probabilities(True)[-1], trigger_class_probabilities(False)[-1])
    pc = np.where(col["crit"] > 0, p12, 0.0)
    dv = np.arange(dmax + 1)[None, :]
    plain = np.where(dv >= 1, dv + bonus[:, None], 0)
    crit = np.where(dv >= 1, 2 * plain if options.crit_doubles_bonus else 2 * dv + bonus[:, None], 0)
    width = int(crit.max(initial=0)) + 1
    out = np.zeros((u, 2, width))
    rows = np.broadcast_to(np.arange(u)[:, None], plain.shape)
    for r in range(2):  # not rerolled / rerolled
        out[:, r] = (_hist(rows, plain, R[:, r] * (1.0 - pc)[:, None], u, width)
                     + _hist(rows, crit, R[:, r] * pc[:, None], u, width))
    return out


def _bconv(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Return the row-wise convolution of two stacks of pmfs (a loop over b's damage values)."""
    out = np.zeros((a.shape[0], a.shape[1] + b.shape[1] - 1))
    for j in np.flatnonzero(b.any(axis=0)):
        out[:, j : j + a.shape[1]] += a * b[:, j, None]
    return out


def _pad(x: np.ndarray, width: int) -> np.ndarray:
    """Return ``x`` with zeros appended on the last axis up to ``width``."""
    out = np.zeros(x.shape[:-1] + (width,))
    out[..., : x.shape[-1]] = x
    return out


def _groups(*stacks: np.ndarray) -> list[tuple[np.ndarray, int]]:
    """Return (rows, width) groups of rows whose pmfs (last axis) all fit in ``width``: rows
    grouped by the power of 2 of their support, so that short pmfs are not convolved at the
    width of the longest (a loop over a few widths, not rows)."""
    last = np.zeros(stacks[0].shape[0], dtype=np.int64)
    for x in stacks:
        nz = x.reshape(x.shape[0], -1, x.shape[-1]).any(axis=1)
        last = np.maximum(last, x.shape[-1] - 1 - np.argmax(nz[:, ::-1], axis=1))
    bucket = np.ceil(np.log2(last + 1)).astype(np.int64)
    out = []
    for b in np.unique(bucket):
        rows = np.flatnonzero(bucket == b)
        out.append((rows, int(last[rows].max()) + 1))
    return out


def use_pmfs(keys: np.ndarray, options: Options) -> tuple[np.ndarray, np.ndarray]:
    """Return (F[u, r, d], G[u, d]): the damage of one use with Reroll used (r = 1) or not, and the
    damage of one use once the round's Reroll is spent.

    A Flurry use is three strikes (annulus-attacks.txt: Flurry), each with its own dice and
    Trigger Die; at most one of them is rerolled ("You cannot reroll more than one attack check
    per round").
    """
    S = strike_pmfs(keys, options, reroll=True)
    S0 = strike_pmfs(keys, options, reroll=False)[:, 0]
    fl = np.flatnonzero(keys[:, KEY_COLUMNS.index("flurry")] > 0)
    if fl.size == 0:
        return S, S0
    width = max(S.shape[-1], 3 * (S.shape[-1] - 1) + 1)
    F, G = _pad(S, width), _pad(S0, width)
    for rows, w in _groups(S[fl], S0[fl]):  # three strikes, the Reroll carried from strike to strike
        idx = fl[rows]
        f0, f1, g = S[idx, 0, :w], S[idx, 1, :w], S0[idx, :w]
        s0, s1, gg = f0, f1, g
        for _ in range(2):
            s0, s1 = _bconv(s0, f0), _bconv(s0, f1) + _bconv(s1, g)
            gg = _bconv(gg, g)
        F[idx, 0] = _pad(s0, width)
        F[idx, 1] = _pad(s1, width)
        G[idx] = _pad(gg, width)
    return F, G


def turn_pmfs(F: np.ndarray, G: np.ndarray, k: np.ndarray) -> np.ndarray:
    """Return T[i, d] = P(``k[i]`` uses in one turn deal d damage): independent uses, the round's
    single Reroll carried from use to use (annulus-attacks.txt: one reroll per round); k = 0: 0."""
    k = np.asarray(k, dtype=np.int64)
    n = F.shape[0]
    kmax = int(k.max(initial=0))
    out = np.zeros((n, max(1, kmax * (F.shape[-1] - 1) + 1)))
    out[k == 0, 0] = 1.0
    one = np.flatnonzero(k == 1)
    out[one, : F.shape[-1]] = F[one].sum(axis=1)
    many = np.flatnonzero(k >= 2)
    if many.size == 0:
        return out
    rer = F[many, 1].any(axis=1)
    for part, carry in ((many[~rer], False), (many[rer], True)):  # without / with a Reroll to carry
        if part.size == 0:
            continue
        for rows, w in _groups(F[part], G[part]):
            idx = part[rows]
            f0, f1, g, kk = F[idx, 0, :w], F[idx, 1, :w], G[idx, :w], k[idx]
            s0, s1 = f0, (f1 if carry else None)
            for step in range(2, int(kk.max()) + 1):  # a loop over uses (2 by default)
                live = (kk >= step)[:, None]
                n0 = _bconv(s0, f0)
                if s1 is not None:
                    n1 = _bconv(s0, f1) + _bconv(s1, g)
                    s1 = np.where(live, n1, _pad(s1, n1.shape[1]))
                s0 = np.where(live, n0, _pad(s0, n0.shape[1]))
            tot = s0 if s1 is None else s0 + s1
            out[idx, : tot.shape[1]] = tot
    return out


def damage_pmfs(attacks: Sequence[Any], attackers: Sequence[Any], targets: Sequence[Any], options: Options,
                situation: Any) -> dict[str, np.ndarray]:
    """Return the damage pmfs of aligned matchups, one per distinct parameter tuple.

    ``use`` (u × damage from 0): one use; ``fresh`` / ``spent``: one use by rerolled flag, and once
    the Reroll is spent (for :func:`turn_pmfs`); ``param`` (n,): each matchup's tuple. Raises
    RulesError like ``outcome_tables`` when a set is not usable (step 1).
    """
    P = strike_parameters(attacks, attackers, targets, options, situation)
    keys, inv = parameter_keys(P)
    F, G = use_pmfs(keys, options)
    return {"use": F.sum(axis=1), "fresh": F, "spent": G, "param": inv, "keys": keys}
