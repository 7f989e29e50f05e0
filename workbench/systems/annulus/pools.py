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

__all__ = ["plan_joints", "convolve2"]


def convolve2(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Return the full 2-D convolution of two small joint pmfs (a shifted add per non-zero of ``b``)."""
    out = np.zeros((a.shape[0] + b.shape[0] - 1, a.shape[1] + b.shape[1] - 1))
    for i, j in zip(*np.nonzero(b)):
        out[i : i + a.shape[0], j : j + a.shape[1]] += a * b[i, j]
    return out


def _pad_to(x: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    return np.pad(x, ((0, shape[0] - x.shape[0]), (0, shape[1] - x.shape[1])))


def plan_joints(system: Any, plans: Sequence[tuple[Any, Any, Any, list[Any]]], options: Any) -> list[np.ndarray]:
    """Return ``J[r, v]`` = P(one turn deals r regular and v vital damage) of each (attacker, target,
    situation, sets) plan, the sets used in order and the Reroll at most once per round.

    Every distinct use is resolved in ONE ``outcome_tables`` call, twice: with the round's Reroll
    still available (split by whether this use spent it) and once it is spent. A plan's state is
    (Reroll unused, used); each use convolves both parts with that use's joint.
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
    t = system.outcome_tables([u[0] for u in uses] * 2, [u[1] for u in uses] * 2, [u[2] for u in uses] * 2,
                              options, [sits[id(u[3])][0] for u in uses] + [sits[id(u[3])][1] for u in uses])
    m = t["matchup"].to_numpy().astype(np.int64)
    vit = t["vitality_damage"].to_numpy().astype(np.int64)
    reg = t["damage"].to_numpy().astype(np.int64) - vit
    rer = t["rerolled"].to_numpy().astype(np.int64)
    grid = np.zeros((2 * k, 2, int(reg.max()) + 1, int(vit.max()) + 1))
    np.add.at(grid, (m, rer, reg, vit), t["probability"].to_numpy())
    out = []
    for attacker, target, sit, sets in plans:
        one, zero = np.ones((1, 1)), np.zeros((1, 1))
        state = [one, zero] if sit.reroll_available else [zero, one]  # Reroll unused / used
        for a in sets:
            u = index[(id(a), id(attacker), id(target), id(sit))]
            fresh, used = grid[u], grid[k + u].sum(axis=0)
            parts = [convolve2(state[0], fresh[0]), convolve2(state[0], fresh[1]), convolve2(state[1], used)]
            shape = (max(p.shape[0] for p in parts), max(p.shape[1] for p in parts))
            parts = [_pad_to(p, shape) for p in parts]
            state = [parts[0], parts[1] + parts[2]]
        shape = (max(state[0].shape[0], state[1].shape[0]), max(state[0].shape[1], state[1].shape[1]))
        total = np.clip(_pad_to(state[0], shape) + _pad_to(state[1], shape), 0.0, None)
        r, v = np.nonzero(total)  # drop the zero padding of the shared grid
        total = total[: r.max() + 1, : v.max() + 1]
        out.append(total / total.sum())
    return out
