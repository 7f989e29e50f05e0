"""The joint (regular, vital) damage of Annulus turns, composed use by use: the system's turn composer.

annulus-attacks.txt: "Endurance is removed first, then Vitality"; Vital: "the attack ignores
Endurance and strikes directly at Vitality instead". A turn's damage therefore has two parts:
regular damage (Endurance first) and vital damage (Vitality only), the two damage axes of the
Annulus turn table.

A turn is a small chain over use-states (CLARIFICATIONS.md, Annulus, "State across uses"): each use
is resolved against the state the uses before it left.

- Reroll: "You cannot reroll more than one attack check per round" (branches: unused, spent).
- First Blood: "a creature that is completely undamaged (has all of their Endurance and Vitality
  intact)": the target stays undamaged only while every use so far dealt 0 (branches).
- Assassination: "Creatures that are successfully targeted by an attack ... will immediately become
  Alert": the awareness of the situation holds for the first use only, every later use meets an
  Alert target (a Petrified target still counts as an assassination, resolve step 4).
- Setup given as a situation: "The single next attack against a Setuped target gains an advantage on
  the check and removes the Setup sting": the first use only.
- Killing Spree given as a situation (``after_kill``): "+2 additional automatic successes the single
  next time you use the attack": the first use of a Killing Spree set only.

Effects inflicted by the turn's own triggers (Setup, Prone, Blind, Petrified, ...) are carried from
use to use by the simulation (simulation.py), not by this one-turn table.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = ["plan_joints"]

#: use-state bits: the Reroll is still free this round; the target is still undamaged
REROLL_FREE, UNDAMAGED = 1, 2


def plan_joints(system: Any, plans: Sequence[tuple[Any, Any, Any, list[Any]]], options: Any) -> list[np.ndarray]:
    """Return ``J[r, v]`` = P(one turn deals r regular and v vital damage) of each (attacker, target,
    situation, sets) plan, the sets used in order, each use resolved against the state the earlier
    uses left (module docstring: Reroll once per round, First Blood while undamaged, awareness,
    Setup and Killing Spree for the single next use).

    Every use a (plan, step, use-state) row can meet is resolved in ONE ``outcome_tables`` call (one
    row per distinct use and situation); per step each row is convolved with its use's joint, split
    by whether the use spent the Reroll and whether it dealt damage, and rows of a plan that reach
    the same state are merged.
    """
    out: list[np.ndarray] = [np.ones((1, 1)) for _ in plans]
    live = [j for j, p in enumerate(plans) if p[3]]
    if not live:
        return out
    flags = {}  # per distinct set: (First Blood, Reroll, Killing Spree)
    for j in live:
        for a in plans[j][3]:
            if id(a) not in flags:
                flags[id(a)] = (a.has("First Blood"), a.has("Reroll"), a.has("Killing Spree"))
    # per plan and step: the state bits the uses from this step on read (the others are merged away)
    need: dict[int, list[int]] = {}
    spree: dict[int, list[bool]] = {}  # per plan and step: the Killing Spree bonus still waits for its use
    for j in live:
        sets, sit = plans[j][3], plans[j][2]
        bits, acc = [0] * len(sets), 0
        for i in range(len(sets) - 1, -1, -1):
            fb, rr, _ = flags[id(sets[i])]
            acc |= (UNDAMAGED if fb else 0) | (REROLL_FREE if rr else 0)
            bits[i] = acc
        need[j] = bits
        left, sp = bool(sit.after_kill), []
        for a in sets:
            sp.append(left)
            left = left and not flags[id(a)][2]
        spree[j] = sp
    init = {
        j: (REROLL_FREE if plans[j][2].reroll_available else 0) | (UNDAMAGED if plans[j][2].target_undamaged else 0)
        for j in live
    }
    # every use any row can meet, resolved in ONE outcome_tables call: at step i the state is a subset of
    # the plan's initial bits (a Reroll once spent and an undamaged target once hurt never come back)
    index: dict[tuple, int] = {}
    uses: list[tuple[Any, Any, Any, Any]] = []
    sit_memo: dict[tuple, Any] = {}
    key_of_use: dict[tuple[int, int, int], int] = {}  # (plan, step, state) -> use row
    for j in live:
        attacker, target, sit, sets = plans[j]
        for step, a in enumerate(sets):
            for s in {sub & need[j][step] for sub in (_subsets(init[j]) if step else [init[j]])}:
                skey = (id(sit), s, step > 0, spree[j][step])
                use_sit = sit_memo.get(skey)
                if use_sit is None:
                    use_sit = sit_memo[skey] = _use_situation(sit, s, step, spree[j][step])
                ukey = (id(a), id(attacker), id(target), skey)
                k = index.get(ukey)
                if k is None:
                    k = index[ukey] = len(uses)
                    uses.append((a, attacker, target, use_sit))
                key_of_use[(j, step, s)] = k
    cells = _use_cells(system, uses, options)  # (use, rerolled, regular, vital, probability) per outcome
    # The plans are composed in buckets of alike reach: a use's joint has few outcomes, most plans
    # reach a few damage points and a few reach 50 or more, and one array padded to the widest made
    # every plan pay for it (a 50 x 500 grid: 1.7 s, 9,000 cells a row for a median of 8); each bucket
    # holds the uses its plans meet only (one grid of every use: 79 MB for 14,429 outcomes).
    reach_r, reach_v = np.zeros(len(uses), dtype=np.int64), np.zeros(len(uses), dtype=np.int64)
    np.maximum.at(reach_r, cells[0], cells[2])
    np.maximum.at(reach_v, cells[0], cells[3])
    uses_of: dict[int, list[list[int]]] = {}
    for (j, step, _), k in key_of_use.items():
        steps = uses_of.setdefault(j, [[] for _ in plans[j][3]])
        steps[step].append(k)
    buckets: dict[tuple[int, int], list[int]] = {}
    for j in live:
        r = sum(int(reach_r[ks].max()) for ks in uses_of[j]) + 1
        v = sum(int(reach_v[ks].max()) for ks in uses_of[j]) + 1
        buckets.setdefault((_ceil_pow2(r), _ceil_pow2(v)), []).append(j)
    for (R, V), js in buckets.items():
        ks = np.unique(np.concatenate([np.array(k, dtype=np.int64) for j in js for k in uses_of[j]]))
        local = {k: i for i, k in enumerate(ks.tolist())}
        mine = set(js)
        keys = {(j, step, st): local[k] for (j, step, st), k in key_of_use.items() if j in mine}
        for j, p in _compose(js, init, need, keys, plans, _use_grid(cells, ks, R, V)):
            total = np.clip(p, 0.0, None)
            out[j] = _trim(total / total.sum())
    return out


def _compose(
    live: list[int],
    init: dict[int, int],
    need: dict[int, list[int]],
    key_of_use: dict[tuple[int, int, int], int],
    plans: Sequence[tuple[Any, Any, Any, list[Any]]],
    grid: np.ndarray,
) -> list[tuple[int, np.ndarray]]:
    """Return (plan, unnormalised joint) of the plans ``live``, composed use by use over ``grid``
    (use, rerolled, regular, vital): per step each row is convolved with its use's joint, split by
    whether the use spent the Reroll and whether it dealt damage, and rows of a plan that reach the
    same state are merged."""
    plan_of = np.array(live, dtype=np.int64)
    state = np.array([init[j] for j in live], dtype=np.int64)
    pmf = np.ones((len(live), 1, 1))
    done: list[tuple[np.ndarray, np.ndarray]] = []
    step = 0
    while plan_of.size:
        length = np.array([len(plans[j][3]) for j in plan_of])
        fin = length <= step
        if fin.any():
            done.append((plan_of[fin], pmf[fin]))
            plan_of, state, pmf = plan_of[~fin], state[~fin], pmf[~fin]
            if not plan_of.size:
                break
        state = state & np.array([need[j][step] for j in plan_of], dtype=np.int64)
        plan_of, state, pmf = _merge(plan_of, state, pmf)
        key_of = np.array([key_of_use[(j, step, s)] for j, s in zip(plan_of.tolist(), state.tolist())], dtype=np.int64)
        parts_plan, parts_state, parts_pmf = [], [], []
        for rerolled in (0, 1):
            B = grid[key_of, rerolled]
            if not B.any():
                continue
            miss = B[:, 0, 0].copy()
            hit = B.copy()
            hit[:, 0, 0] = 0.0
            spent = state & ~REROLL_FREE if rerolled else state
            if hit.any():
                parts_plan.append(plan_of)
                parts_state.append(spent & ~UNDAMAGED)
                parts_pmf.append(_batch_convolve2(pmf, hit))
            if miss.any():
                parts_plan.append(plan_of)
                parts_state.append(spent)
                parts_pmf.append(pmf * miss[:, None, None])
        R = max(p.shape[1] for p in parts_pmf)
        V = max(p.shape[2] for p in parts_pmf)
        pmf = np.concatenate([_pad(p, R, V) for p in parts_pmf])
        plan_of, state = np.concatenate(parts_plan), np.concatenate(parts_state)
        plan_of, state, pmf = _merge(plan_of, state, pmf)
        step += 1
    summed: dict[int, np.ndarray] = {}
    for js, block in done:
        for j, p in zip(js.tolist(), block):
            summed[j] = summed[j] + p if j in summed else p.copy()
    return list(summed.items())


def _ceil_pow2(n: int) -> int:
    """Return the least power of two >= ``n`` (buckets of reach within a factor 2)."""
    return 1 << max(0, int(n - 1).bit_length())


def _subsets(bits: int) -> list[int]:
    """Return every subset of the bit set ``bits`` (itself included)."""
    return [x for x in range(bits + 1) if x & bits == x]


def _use_situation(sit: Any, state: int, step: int, spree_waits: bool) -> Any:
    """Return the Situation of one use: ``sit`` with the use-state's Reroll and undamaged bits, an
    Alert target after the first use (a Petrified target stays an assassination, resolve step 4),
    the situation's Setup on the first use only, and Killing Spree while its bonus still waits."""
    changes: dict[str, Any] = {
        "reroll_available": bool(state & REROLL_FREE),
        "target_undamaged": bool(state & UNDAMAGED),
        "after_kill": spree_waits,
    }
    if step > 0:
        changes.update(target_awareness="alert", target_setup=False)
    if all(getattr(sit, k) == v for k, v in changes.items()):
        return sit
    return sit.replace(**changes)


def _use_cells(system: Any, uses: list[tuple[Any, Any, Any, Any]], options: Any) -> tuple[np.ndarray, ...]:
    """Return (use, rerolled, regular, vital, probability) arrays, one entry per outcome of every use
    (P(use u deals r regular and v vital damage, spending the Reroll or not)): every use resolved in
    one ``outcome_columns`` call."""
    t = system.outcome_columns(
        [u[0] for u in uses], [u[1] for u in uses], [u[2] for u in uses], options, [u[3] for u in uses]
    )
    m = t["matchup"].astype(np.int64)
    vit = t["vitality_damage"].astype(np.int64)
    reg = t["damage"].astype(np.int64) - vit
    rer = t["rerolled"].astype(np.int64)
    prob = t["probability"].astype(np.float64)
    keep = prob > 0
    return m[keep], rer[keep], reg[keep], vit[keep], prob[keep]


def _use_grid(cells: tuple[np.ndarray, ...], ks: np.ndarray, R: int, V: int) -> np.ndarray:
    """Return ``G[i, rerolled, r, v]`` = P(use ks[i] deals r regular and v vital damage, spending the
    Reroll or not), r < R and v < V (the bucket's reach: its uses deal no more)."""
    m, rer, reg, vit, prob = cells
    pos = np.searchsorted(ks, m)
    sel = (pos < ks.size) & (ks[np.minimum(pos, ks.size - 1)] == m) & (reg < R) & (vit < V)
    shape = (ks.size, 2, R, V)
    return np.bincount(
        np.ravel_multi_index((pos[sel], rer[sel], reg[sel], vit[sel]), shape),
        weights=prob[sel],
        minlength=int(np.prod(shape)),
    ).reshape(shape)


def _merge(plan_of: np.ndarray, state: np.ndarray, pmf: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return the rows with equal (plan, state) summed into one (order: by plan, then state)."""
    code = plan_of * 8 + state
    uniq, inv = np.unique(code, return_inverse=True)
    if uniq.size == code.size:
        order = np.argsort(code, kind="stable")
        return plan_of[order], state[order], pmf[order]
    merged = np.zeros((uniq.size, *pmf.shape[1:]))
    np.add.at(merged, inv.ravel(), pmf)
    return uniq // 8, uniq % 8, merged


def _pad(p: np.ndarray, R: int, V: int) -> np.ndarray:
    if p.shape[1] == R and p.shape[2] == V:
        return p
    out = np.zeros((p.shape[0], R, V))
    out[:, : p.shape[1], : p.shape[2]] = p
    return out


def _trim(p: np.ndarray) -> np.ndarray:
    """Return ``p`` without trailing all-zero regular rows and vital columns (at least 1 x 1)."""
    rows = np.flatnonzero(p.any(axis=1))
    cols = np.flatnonzero(p.any(axis=0))
    return p[: (int(rows[-1]) + 1 if rows.size else 1), : (int(cols[-1]) + 1 if cols.size else 1)]


def _batch_convolve2(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Return the 2-D convolution of each plan's joint ``a[p]`` with ``b[p]``: per offset (i, j) at
    which some ``b[p]`` is non-zero, a shifted add of the plans non-zero there only. A use's joint
    has few outcomes spread over a wide (regular, vital) box (a 50 x 500 grid: 6.5 non-zero cells of
    55 x 43 on average), so adding every plan at every offset any plan has did 100x the work."""
    P, R, V = a.shape
    out = np.zeros((P, R + b.shape[1] - 1, V + b.shape[2] - 1))
    p, i, j = np.nonzero(b)
    if p.size == 0:
        return out
    order = np.lexsort((p, j, i))
    p, i, j = p[order], i[order], j[order]
    cut = np.flatnonzero((np.diff(i) != 0) | (np.diff(j) != 0)) + 1
    for ps, (oi, oj) in zip(np.split(p, cut), zip(i[np.r_[0, cut]], j[np.r_[0, cut]])):
        # the plans of one offset are distinct, so the fancy-indexed add loses nothing
        out[ps, oi : oi + R, oj : oj + V] += a[ps] * b[ps, oi, oj, None, None]
    return out
