"""The exact fight of a Glass Empires attacker against a passive target: an absorbing chain over
(armor points left, jammed weapon, damage taken).

CLARIFICATIONS.md, Glass Empires: "Armor points absorb physical damage before HP, 1 AP per 2
damage or fraction"; they stay spent from turn to turn (glass_empires/simulation.py). The "or
fraction" rounding is per Strike, so armor is not a pool that damage spills through in order (the
two-pool chain of :func:`workbench.chains.kill_stats`): with 1 AP, a 1-damage Strike is absorbed
and spends the AP (the fraction rounds up), so the next 1-damage Strike takes 1 HP, where a pool of
2 damage would absorb both. The state is small instead (armor points 0..Armor x Power, a jam bit, HP), so
the chain runs over it exactly, one turn table per (AP left, jammed): the tables and the plan
choice of :class:`~workbench.systems.glass_empires.simulation.GlassEmpiresSide` (the simulation's
own ``_build``), so chain and simulation play the same fight.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...chains import CHAIN_TAIL

__all__ = ["MAX_STATES", "state_chain"]

#: (AP left, jammed) x HP states past which the chain is not built (the fight is simulated)
MAX_STATES = 200_000


def _reachable(side: Any, start: int, jam_matters: bool) -> tuple[list[int], list[dict[str, np.ndarray]]]:
    """Return the (AP left, jammed) keys reachable from ``start`` (key = AP * 2 + jammed) and the
    turn table of each. Armor points only go down, so every key at or below the start may be met:
    their tables are built in one call (the side's Bank), and the reachable ones kept."""
    every = [k for k in range(start + (2 if jam_matters else 1)) if jam_matters or k % 2 == 0]
    built = dict(zip(every, side.bank.tables(every)))
    keys, index = [start], {start: 0}
    i = 0
    while i < len(keys):
        t = built[keys[i]]
        ap = keys[i] // 2
        nxt = np.maximum(0, ap - np.asarray(t["ap_damage"], dtype=np.int64)) * 2 + (
            np.asarray(t["jam"], dtype=bool) & jam_matters
        )
        for k in np.unique(nxt).tolist():
            if k not in index:
                index[k] = len(keys)
                keys.append(int(k))
        i += 1
    return keys, [built[k] for k in keys]


def state_chain(
    sys: Any, attacker: Any, target: Any, options: Any, situation: Any, plan: Any, max_rounds: int
) -> tuple[np.ndarray, float] | None:
    """Return (P(target killed by round t) for t = 1.. up to ``max_rounds`` or until the survival
    is below CHAIN_TAIL, the exact mean number of rounds (inf if some reachable state can never be
    killed)), or None when the states pass MAX_STATES.

    Rounds-to-kill's fight (docs/combat.md): the attacker takes its turn, the target does nothing.
    From state (key, h), each row (damage, ap_damage, jam, probability) of the key's turn table
    leads to (max(0, AP - ap_damage) * 2 + jam, h + damage), and h + damage >= HP kills. The mean
    solves (I - Q) m = 1 over the transient states (scipy.sparse), as the chain of any absorbing
    Markov chain.
    """
    import scipy.sparse as sp
    import scipy.sparse.linalg as spl

    from .simulation import GlassEmpiresSide

    side = GlassEmpiresSide(attacker, target, options, situation, plan)
    hp = int(sys.hit_points(target))
    start = int(sys.armor_points(target, side.options)) * 2
    if (start + 2) * hp > MAX_STATES:
        return None
    keys, tables = _reachable(side, start, side.jam_matters)
    where = {k: i for i, k in enumerate(keys)}
    n = len(keys) * hp
    rows, cols, vals = [], [], []
    kill = np.zeros(n)
    h = np.arange(hp)
    for i, (k, t) in enumerate(zip(keys, tables)):
        ap = k // 2
        dmg = np.asarray(t["damage"], dtype=np.int64)
        nk = np.maximum(0, ap - np.asarray(t["ap_damage"], dtype=np.int64)) * 2 + (
            np.asarray(t["jam"], dtype=bool) & side.jam_matters
        )
        dest = np.array([where[int(x)] for x in nk], dtype=np.int64)
        p = np.asarray(t["probability"], dtype=np.float64)
        hh = h[:, None] + dmg[None, :]  # hp x rows
        alive = hh < hp
        src = np.broadcast_to(i * hp + h[:, None], hh.shape)
        rows.append(src[alive])
        cols.append((dest[None, :] * hp + hh)[alive])
        vals.append(np.broadcast_to(p, hh.shape)[alive])
        kill[i * hp : (i + 1) * hp] = np.where(~alive, p[None, :], 0.0).sum(axis=1)
    Q = sp.csr_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))), shape=(n, n))
    QT = Q.T.tocsr()
    s0 = where[start] * hp
    v = np.zeros(n)
    v[s0] = 1.0
    by = []
    total = 0.0
    for _ in range(max_rounds):
        total += float(v @ kill)
        by.append(min(total, 1.0))
        v = QT @ v
        if v.sum() < CHAIN_TAIL:
            break
    # the states reached from the start, and whether each can still be killed: a reached state that
    # cannot makes the mean infinite
    reach = np.zeros(n, dtype=bool)
    reach[s0] = True
    frontier = reach.copy()
    while frontier.any():
        nxt = (QT @ frontier.astype(np.float64)) > 0
        frontier = nxt & ~reach
        reach |= nxt
    can = kill > 0
    while True:
        more = can | ((Q @ can.astype(np.float64)) > 0)
        if (more == can).all():
            break
        can = more
    if not can[reach].all():
        return np.array(by), float("inf")
    idx = np.flatnonzero(reach)
    sub = Q[idx][:, idx]
    m = spl.spsolve((sp.identity(idx.size, format="csc") - sub).tocsc(), np.ones(idx.size))
    mean = float(np.atleast_1d(m)[int(np.searchsorted(idx, s0))])
    return np.array(by), mean
