"""Optimal play: the plan for each state of a fight that makes the expected rounds to kill fewest
(issue 15, item 4: "For fewest rounds the plan may depend on the state (HP left ...): optimal play
by dynamic programming over the chain's states").

The attacker takes its turn, the target does nothing (rounds-to-kill's fight, docs/combat.md); a
state is the target's pools left: its HP left, or (Annulus) its Endurance and Vitality left. From
state s, plan j deals damage d with probability p_j(d), and the expected rounds left satisfy

    m(s) = min over j of (1 + sum over d != 0 of p_j(d) m(s after d)) / (1 - p_j(0)),

with m = 0 once the target is down. Every damage other than 0 takes the state strictly down
(a lower total of pools left), so m is solved exactly from the smallest states up, once each: no
iteration, no tolerance. The plan that attains the minimum is the policy; a fixed plan is the case
where every state picks the same one, so the optimal mean is never above the best fixed plan's.
P(killed by round t) under the policy comes from the absorbing chain whose rows are each state's
chosen plan (scipy.sparse), as for any chain; the mean is the dynamic program's own.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl

from .arguments import check_rounds, check_time
from .chains import CHAIN_TAIL
from .errors import RulesError

__all__ = ["Policy", "solve_policy", "optimal_play", "MAX_POLICY_STATES"]

#: states past which no policy is solved (pools left: HP, or Endurance x Vitality); far past the
#: published creatures (Annulus: at most a few hundred states), so only a hand-made target meets it
MAX_POLICY_STATES = 200_000

#: two expected-rounds values closer than this (relative) are a tie: the plan listed first wins,
#: as in workbench.turns.best_plans
TIE = 1e-12


@dataclass(frozen=True)
class Policy:
    """The optimal policy of one fight: ``labels`` (the plans), ``choice`` (per state, the index of
    the chosen plan; -1 where no plan can ever kill), ``rounds_left`` (per state, the expected rounds
    to kill from it under the policy, inf where it cannot be killed), ``states`` (a polars frame
    naming each state by its pools left), ``by`` (P(killed by round t) from the start, t = 1..),
    ``mean`` (the expected rounds from the start)."""

    labels: list[str]
    choice: np.ndarray
    rounds_left: np.ndarray
    states: pl.DataFrame
    by: np.ndarray
    mean: float


def _transitions(pmf: np.ndarray, pools: tuple[int, ...]) -> tuple[pl.DataFrame, np.ndarray, np.ndarray]:
    """Return (the states named by their pools left, next[s, j, cell] = the state after plan j's
    damage cell from state s (-1: down), p[j, cell] the cell's probability), states ordered so that
    every damage other than 0 leads to an earlier state, and cell 0 is no damage."""
    k = pmf.shape[0]
    if pmf.ndim == 2:  # one pool: HP left h = 1..HP, state index h - 1
        hp = int(pools[0])
        left = np.arange(1, hp + 1)
        d = np.arange(pmf.shape[1])
        after = left[:, None] - d[None, :]  # (states, cells)
        nxt = np.where(after >= 1, after - 1, -1)
        states = pl.DataFrame({"hp_left": left})
        return states, np.broadcast_to(nxt[:, None, :], (hp, k, d.size)), pmf
    # two pools (regular damage spends Endurance, then spills into Vitality; vital damage goes to
    # Vitality): state (Endurance left e, Vitality left w), ordered by e + w
    endurance, vitality = int(pools[0]), int(pools[1])
    eg, wg = np.meshgrid(np.arange(endurance + 1), np.arange(1, vitality + 1), indexing="ij")
    e, w = eg.ravel(), wg.ravel()
    order = np.lexsort((e, e + w))
    e, w = e[order], w[order]
    index = np.full((endurance + 1, vitality + 1), -1, dtype=np.int64)
    index[e, w] = np.arange(e.size)
    rg, vg = np.meshgrid(np.arange(pmf.shape[1]), np.arange(pmf.shape[2]), indexing="ij")
    r, v = rg.ravel(), vg.ravel()
    e2 = np.maximum(e[:, None] - r[None, :], 0)
    w2 = w[:, None] - v[None, :] - np.maximum(r[None, :] - e[:, None], 0)
    nxt = np.where(w2 >= 1, index[e2, np.clip(w2, 0, vitality)], -1)
    states = pl.DataFrame({"endurance_left": e, "vitality_left": w})
    return states, np.broadcast_to(nxt[:, None, :], (e.size, k, r.size)), pmf.reshape(k, -1)


def solve_policy(pmf: np.ndarray, pools: tuple[int, ...], labels: list[str], max_rounds: int = 10_000) -> Policy:
    """Return the optimal :class:`Policy` of the plans ``pmf`` (one row per plan: a 1-D damage pmf
    against one pool, or a 2-D (regular, vital) pmf against (Endurance, Vitality)) against a target
    with ``pools`` (the module docstring). RulesError (field ``target``) past MAX_POLICY_STATES
    states."""
    import scipy.sparse as sp

    n_states = int(pools[0]) if pmf.ndim == 2 else (int(pools[0]) + 1) * int(pools[1])
    if n_states > MAX_POLICY_STATES:
        raise RulesError(
            f"{n_states:,} states of pools left; optimal play solves at most {MAX_POLICY_STATES:,}",
            field="target",
            rule="docs/limits.md: bounded work",
        )
    states, nxt, p = _transitions(np.asarray(pmf, dtype=np.float64), pools)
    n = nxt.shape[0]
    stay = p[:, 0]  # no damage: the state stays
    m = np.full(n, np.inf)
    choice = np.full(n, -1, dtype=np.int64)
    for s in range(n):
        if s % 4096 == 0:
            check_time(f"optimal play, state {s:,} of {n:,}")
        to = nxt[s]  # (k, cells): every cell but 0 leads to an earlier state, or down (-1)
        ahead = np.where(to >= 0, m[np.maximum(to, 0)], 0.0)
        ahead[:, 0] = 0.0
        reach = (p > 0) & np.isinf(ahead)
        with np.errstate(invalid="ignore"):
            future = np.where(p > 0, p * np.where(np.isinf(ahead), 0.0, ahead), 0.0).sum(axis=1)
        ok = (stay < 1.0) & ~reach.any(axis=1)
        if not ok.any():
            continue
        value = np.where(ok, (1.0 + future) / np.where(ok, 1.0 - stay, 1.0), np.inf)
        best = float(value.min())
        j = int(np.flatnonzero(value <= best * (1 + TIE))[0])  # ties: the first listed plan
        m[s], choice[s] = value[j], j
    # the chain under the policy: row s plays plan choice[s]
    live = np.flatnonzero(choice >= 0)
    rows, cols, vals = [], [], []
    kill = np.zeros(n)
    for s in live.tolist():
        j = int(choice[s])
        to, q = nxt[s, j], p[j]
        alive = (to >= 0) & (q > 0)
        rows.append(np.full(int(alive.sum()), s))
        cols.append(to[alive])
        vals.append(q[alive])
        kill[s] = q[(to < 0) & (q > 0)].sum()
    for s in np.flatnonzero(choice < 0).tolist():  # no plan kills from here: it stays alive
        rows.append(np.array([s]))
        cols.append(np.array([s]))
        vals.append(np.array([1.0]))
    Q = sp.csr_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))), shape=(n, n))
    QT = Q.T.tocsr()
    vec = np.zeros(n)
    vec[n - 1] = 1.0  # the untouched target: the last state (the most pools left)
    by, total = [], 0.0
    for r in range(check_rounds(max_rounds)):
        check_time(f"optimal play's chain, round {r + 1:,}")
        total += float(vec @ kill)
        by.append(min(total, 1.0))
        vec = QT @ vec
        if vec.sum() < CHAIN_TAIL:
            break
    return Policy(list(labels), choice, m, states, np.array(by), float(m[n - 1]))


def optimal_play(
    attacker: Any,
    target: Any,
    options: Any = None,
    situation: Any = None,
    max_rounds: int = 10_000,
    ignore_state: bool = False,
) -> tuple[Policy, pl.DataFrame]:
    """Return (the optimal :class:`Policy` of ``attacker`` against the passive ``target``, a frame of
    it: one row per state, the pools left, ``plan`` (the label played there, null where nothing can
    kill) and ``mean_rounds_left``), over every legal plan of a turn (``wb.turn_plans``).

    The fight must carry no state beyond the target's pools (``wb.rounds_to_kill`` would otherwise
    chain or simulate its state): RulesError (field ``objective``) naming the state otherwise, unless
    ``ignore_state`` (``rounds_to_kill(..., simulate=False)``: the state-free chain's turns)."""
    from .simulate import state_effects
    from .systems import system_of

    effects = set() if ignore_state else state_effects(attacker, target, options, situation)
    if effects:
        raise RulesError(
            f"optimal play is solved over the target's pools; this fight also carries {', '.join(sorted(effects))} "
            "(ignore_state=True, workbench optimal --ignore-state, solves over the pools alone)",
            field="objective",
        )
    sys = system_of(attacker)
    table = sys.turn_tables([(attacker, target)], options, situation)
    table.raise_for(0)
    policy = solve_policy(table.pmf, tuple(int(x) for x in sys.hit_pools(target)), table.label, max_rounds)
    plan = [None if j < 0 else policy.labels[j] for j in policy.choice.tolist()]
    frame = policy.states.with_columns(
        pl.Series("plan", plan, dtype=pl.Utf8), pl.Series("mean_rounds_left", policy.rounds_left)
    )
    return policy, frame
