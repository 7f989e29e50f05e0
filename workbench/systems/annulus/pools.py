"""The joint (regular, vital) damage of Annulus turns, batched: the system's turn composer.

annulus-attacks.txt: "Endurance is removed first, then Vitality"; Vital: "the attack ignores
Endurance and strikes directly at Vitality instead". A turn's damage therefore has two parts:
regular damage (Endurance first) and vital damage (Vitality only), the two damage axes of the
Annulus turn table. Each plan's Reroll is used at most once (annulus-attacks.txt: "You cannot
reroll more than one attack check per round").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = ["plan_joints"]


def plan_joints(system: Any, plans: Sequence[tuple[Any, Any, Any, list[Any]]], options: Any) -> list[np.ndarray]:
    """Return ``J[r, v]`` = P(one turn deals r regular and v vital damage) of each (attacker, target,
    situation, sets) plan, the sets used in order and the Reroll at most once per round.

    Every distinct use is resolved in ONE ``outcome_tables`` call, twice: with the round's Reroll
    still available (split by whether this use spent it) and once it is spent. A plan's state is
    (Reroll unused, used); each use convolves both parts with that use's joint, for every plan of
    the same length at once.
    """
    index: dict[tuple, int] = {}
    uses: list[tuple[Any, Any, Any, Any]] = []
    for attacker, target, sit, sets in plans:
        for a in sets:
            key = (id(a), id(attacker), id(target), id(sit))
            if key not in index:
                index[key] = len(uses)
                uses.append((a, attacker, target, sit))
    k = len(uses)
    if k == 0:
        return [np.ones((1, 1)) for _ in plans]
    sits: dict[int, tuple[Any, Any]] = {}
    for *_, s in uses:
        if id(s) not in sits:
            sits[id(s)] = (s.replace(reroll_available=True), s.replace(reroll_available=False))
    t = system.outcome_tables(
        [u[0] for u in uses] * 2,
        [u[1] for u in uses] * 2,
        [u[2] for u in uses] * 2,
        options,
        [sits[id(u[3])][0] for u in uses] + [sits[id(u[3])][1] for u in uses],
    )
    m = t["matchup"].to_numpy().astype(np.int64)
    vit = t["vitality_damage"].to_numpy().astype(np.int64)
    reg = t["damage"].to_numpy().astype(np.int64) - vit
    rer = t["rerolled"].to_numpy().astype(np.int64)
    shape = (2 * k, 2, int(reg.max()) + 1, int(vit.max()) + 1)
    grid = np.bincount(
        np.ravel_multi_index((m, rer, reg, vit), shape),
        weights=t["probability"].to_numpy(),
        minlength=int(np.prod(shape)),
    ).reshape(shape)
    out: list[np.ndarray] = [np.ones((1, 1))] * len(plans)
    # per use: its largest regular and vital damage (with the Reroll free or spent), to cut the grid
    reach = np.argwhere(grid.any(axis=1))  # (use, regular, vital) cells holding mass
    reg_top = np.zeros(2 * k, dtype=np.int64)
    vit_top = np.zeros(2 * k, dtype=np.int64)
    np.maximum.at(reg_top, reach[:, 0], reach[:, 1])
    np.maximum.at(vit_top, reach[:, 0], reach[:, 2])
    uses_of = [[index[(id(a), id(att), id(tgt), id(sit))] for a in sets] for att, tgt, sit, sets in plans]
    by_len: dict[tuple[int, bool], list[int]] = {}
    for j, us in enumerate(uses_of):
        if us:  # plans with as many uses, and with or without Vital damage, are composed together
            vital = bool(vit_top[us].any() or vit_top[[k + u for u in us]].any())
            by_len.setdefault((len(us), vital), []).append(j)
    for (k_sets, _), js in by_len.items():
        free_of = np.array([plans[j][2].reroll_available for j in js])
        s0 = np.zeros((len(js), 1, 1))
        s1 = np.zeros((len(js), 1, 1))
        s0[free_of, 0, 0] = 1.0  # Reroll unused
        s1[~free_of, 0, 0] = 1.0  # Reroll already spent this round
        for step in range(k_sets):
            u = np.array([uses_of[j][step] for j in js])
            r_cut = int(max(reg_top[u].max(), reg_top[k + u].max())) + 1
            v_cut = int(max(vit_top[u].max(), vit_top[k + u].max())) + 1
            fresh, used = grid[u, :, :r_cut, :v_cut], grid[k + u, :, :r_cut, :v_cut].sum(axis=1)
            s0, s1 = _batch_convolve2(s0, fresh[:, 0]), _batch_convolve2(s0, fresh[:, 1]) + _batch_convolve2(s1, used)
        total = np.clip(s0 + s1, 0.0, None)
        total /= total.sum(axis=(1, 2), keepdims=True)
        out_rows = list(total)  # views of one block: the turn table pads to one shape anyway
        for j, row in zip(js, out_rows):
            out[j] = row
    return out


def _batch_convolve2(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Return the 2-D convolution of each plan's joint ``a[p]`` with ``b[p]`` (a shifted add per
    offset at which some ``b[p]`` is non-zero)."""
    P, R, V = a.shape
    out = np.zeros((P, R + b.shape[1] - 1, V + b.shape[2] - 1))
    for i, j in np.argwhere(b.any(axis=0)):
        out[:, i : i + R, j : j + V] += a * b[:, i, j, None, None]
    return out
