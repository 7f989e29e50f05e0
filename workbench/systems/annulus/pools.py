"""The joint (regular, vital) damage of one Annulus turn, for the exact two-pool chain.

annulus-attacks.txt: "Endurance is removed first, then Vitality"; Vital: "the attack ignores
Endurance and strikes directly at Vitality instead". A turn's damage therefore has two parts:
regular damage (Endurance first) and vital damage (Vitality only). This module returns their
exact joint distribution for one turn of a plan, with the plan's Reroll used at most once
(annulus-attacks.txt: "You cannot reroll more than one attack check per round"), exactly as
``AnnulusSystem.plan_damage`` does for the total.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np
from scipy.signal import convolve

__all__ = ["plan_joint", "plan_sets", "set_grids", "compose_joint", "batch_set_totals", "compose_total"]


def plan_sets(system: Any, attacker: Any, label: str) -> list[Any]:
    """Return the attack sets of a ``turn_plans`` label ("Claw + Bite"), in order."""
    by_name = {s.name: s for s in attacker.attack_sets}
    names = label.split(" + ")
    return system._resolve_attacks(attacker, [by_name.get(n, n) for n in names])


def set_grids(system: Any, attacker: Any, target: Any, attacks: Sequence[Any], options: Any, situation: Any):
    """Return, per attack set, ``(fresh, used)`` joint (regular, vital) pmfs of one use: ``fresh[u]``
    with the round's Reroll still available, split by whether it was used (u = 1) or not; ``used``
    once the Reroll is spent. One ``outcome_tables`` call serves every set.
    """
    import polars as pl

    k = len(attacks)
    free = situation.replace(reroll_available=True)
    spent = situation.replace(reroll_available=False)
    t = system.outcome_tables(list(attacks) * 2, [attacker] * 2 * k, [target] * 2 * k, options,
                              [free] * k + [spent] * k)
    g = t.group_by(["matchup", "rerolled", "damage", "vitality_damage"]).agg(pl.col("probability").sum())
    reg = (g["damage"] - g["vitality_damage"]).to_numpy()
    vit = g["vitality_damage"].to_numpy()
    grid = np.zeros((2 * k, 2, int(reg.max()) + 1, int(vit.max()) + 1))
    np.add.at(grid, (g["matchup"].to_numpy(), g["rerolled"].to_numpy().astype(int), reg, vit),
              g["probability"].to_numpy())
    return [(grid[j], grid[k + j].sum(axis=0)) for j in range(k)]


def compose_joint(grids: Sequence[tuple[np.ndarray, np.ndarray]], reroll_available: bool) -> np.ndarray:
    """Return the joint (regular, vital) pmf of using the sets of ``grids`` in order in one turn, the
    Reroll used at most once ("You cannot reroll more than one attack check per round")."""
    one, zero = np.ones((1, 1)), np.zeros((1, 1))
    state = [one, zero] if reroll_available else [zero, one]  # reroll unused / used
    for fresh, used in grids:
        parts = [convolve(state[0], fresh[0], method="direct"), convolve(state[0], fresh[1], method="direct"),
                 convolve(state[1], used, method="direct")]
        rows = max(p.shape[0] for p in parts)
        cols = max(p.shape[1] for p in parts)
        pad = [np.pad(p, ((0, rows - p.shape[0]), (0, cols - p.shape[1]))) for p in parts]
        state = [pad[0], pad[1] + pad[2]]
    total = np.clip(state[0] + state[1], 0.0, None)
    return total / total.sum()


def plan_joint(system: Any, attacker: Any, target: Any, attacks: Sequence[Any], options: Any = None,
               situation: Any = None) -> np.ndarray:
    """Return ``J[r, v]`` = P(one turn deals r regular and v vital damage) for ``attacks`` in order.

    Regular damage is ``damage - vitality_damage`` of each strike's outcome row; the marginal of
    ``r + v`` equals ``plan_damage``.
    """
    options, situation = system._defaults(options, situation)
    attacks = system._resolve_attacks(attacker, attacks)
    system._check_plan(attacks, options)
    if not attacks:
        return np.ones((1, 1))
    return compose_joint(set_grids(system, attacker, target, attacks, options, situation),
                         situation.reroll_available)


def batch_set_totals(system: Any, uses: Sequence[tuple[Any, Any, Any, Any]], groups: Sequence[Sequence[int]],
                     options: Any):
    """Return, per use ``(attack set, attacker, target, situation)``, ``(fresh, used)`` total-damage pmfs
    (regular + vital) of one use, as :func:`set_grids` returns them summed over the vital axis:
    ``fresh`` (2, L) split by whether the round's Reroll was used, ``used`` (L,) once it is spent.
    ``groups`` lists the uses that one ``set_grids`` call would hold together; each group's pmfs have
    the length that call's grid gives (its largest regular + largest vital damage + 1), so plans
    composed from them match ``turn_plans``. One ``outcome_tables`` call serves every use.
    """
    k = len(uses)
    if k == 0:
        return []
    reps: dict[int, tuple[Any, Any]] = {}
    free, spent = [], []
    for _, _, _, sit in uses:
        if id(sit) not in reps:
            reps[id(sit)] = (sit.replace(reroll_available=True), sit.replace(reroll_available=False))
        free.append(reps[id(sit)][0])
        spent.append(reps[id(sit)][1])
    attacks = [u[0] for u in uses]
    t = system.outcome_tables(attacks * 2, [u[1] for u in uses] * 2, [u[2] for u in uses] * 2, options,
                              free + spent)
    m = t["matchup"].to_numpy().astype(np.int64)
    dmg = t["damage"].to_numpy().astype(np.int64)
    vit = t["vitality_damage"].to_numpy().astype(np.int64)
    rer = t["rerolled"].to_numpy().astype(np.int64)
    H = np.zeros((2 * k, 2, int(dmg.max()) + 1))
    np.add.at(H, (m, rer, dmg), t["probability"].to_numpy())
    reg_max = np.zeros(2 * k, dtype=np.int64)
    vit_max = np.zeros(2 * k, dtype=np.int64)
    np.maximum.at(reg_max, m, dmg - vit)
    np.maximum.at(vit_max, m, vit)
    out: list[Any] = [None] * k
    for group in groups:  # per plan group: the grid size of its set_grids call
        g = np.asarray(group, dtype=np.int64)
        if g.size == 0:
            continue
        width = int(max(reg_max[g].max(), reg_max[g + k].max()) + max(vit_max[g].max(), vit_max[g + k].max())) + 1
        for j in group:
            out[j] = (H[j, :, :width], H[k + j, :, :width].sum(axis=0))
    return out


def compose_total(pmfs: Sequence[tuple[np.ndarray, np.ndarray]], reroll_available: bool) -> np.ndarray:
    """Return the total-damage pmf of using the sets of ``pmfs`` (from :func:`batch_set_totals`) in
    order in one turn, the Reroll used at most once ("You cannot reroll more than one attack check
    per round"): :func:`compose_joint` with the vital axis summed out (the total of a sum of
    independent joint parts is the sum of their totals)."""
    state = [np.ones(1), np.zeros(1)] if reroll_available else [np.zeros(1), np.ones(1)]
    for fresh, used in pmfs:
        state = [np.convolve(state[0], fresh[0]), np.convolve(state[0], fresh[1]) + np.convolve(state[1], used)]
    total = np.clip(state[0] + state[1], 0.0, None)
    return total / total.sum()
