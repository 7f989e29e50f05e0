"""One full turn of attacks under a system's action economy (docs/combat.md).

Each system lists the legal ways to spend a turn attacking and composes their damage
(:meth:`RuleSystem.turn_tables`, batched over (attacker, target) pairs: a single pair is the 1 x 1
case). A :class:`TurnTable` holds every plan of every pair as one array; :func:`best_plans` is the
one plan chooser. A plan is replaceable: pass a label, a list of attacks, or a function of the
candidate plans.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .dist import Dist
from .errors import RulesError
from .limits import MAX_CHAIN_HP
from .turn_table import TurnTable

__all__ = [
    "turn_plans",
    "turn_damage",
    "best_plan",
    "best_plans",
    "first_best",
    "turn_table",
    "OBJECTIVES",
    "objective_score",
    "turn_of",
    "side_turn",
    "turn_pmf_from_zero",
]

Plan = str | Sequence[Any] | Callable[[dict[str, Dist]], "str | Dist"] | None


def _same_system(attacker: Any, target: Any, options: Any = None, situation: Any = None):
    """Return the one rule system of a turn's models (:func:`workbench.systems.fight_system`)."""
    from .systems import fight_system

    return fight_system({"attacker": attacker, "target": target}, ..., options, situation)


#: the named objectives a best plan is chosen by (``"kill_within_K"`` for any whole K >= 1)
OBJECTIVES = ("damage", "rounds", "kill_within_K")


def check_objective(objective: Any) -> int | None:
    """Return K of ``"kill_within_K"`` (None for "damage" and "rounds"), or raise RulesError
    naming ``objective`` for anything else."""
    if isinstance(objective, str) and objective in ("damage", "rounds"):
        return None
    if isinstance(objective, str) and objective.startswith("kill_within_"):
        tail = objective[len("kill_within_") :]
        if tail.isdigit() and 1 <= int(tail) <= 1000:
            return int(tail)
        raise RulesError(f"kill_within_K takes a whole K from 1 to 1000, not {objective!r}", field="objective")
    raise RulesError(
        f"objective must be one of damage, rounds, kill_within_K (e.g. kill_within_3), not {objective!r}"
        + (
            " (optimal play, a plan for every state, is wb.rounds_to_kill(..., objective='optimal') and wb.optimal_play)"
            if objective == "optimal"
            else ""
        ),
        field="objective",
    )


def objective_score(objective: Any, table: TurnTable, pools: np.ndarray | None) -> np.ndarray:
    """Return, per plan row, the score to maximise under ``objective``:

    - ``"damage"``: the mean damage of the turn (highest mean damage);
    - ``"rounds"``: minus the exact mean rounds to kill the pair's target (fewest expected rounds);
    - ``"kill_within_K"``: P(the target is killed within K rounds).

    ``pools`` (n_pairs x the system's pools) is each pair's target; the kill objectives read the
    same chain as :func:`workbench.rounds_to_kill` (:func:`workbench.chains.kill_stats`).
    """
    k = check_objective(objective)
    if objective == "damage":
        return table.means()
    if pools is None:
        raise RulesError("the kill objectives need the target's pools", field="objective")
    from .chains import kill_stats

    rows = np.arange(table.pair.size)
    st = kill_stats(table.pmf, rows, np.asarray(pools)[table.pair], max_rounds=k or 1, chain=k is not None)
    return -st["mean_rounds"] if k is None else st["p_killed_by"][:, k - 1]


#: scores within this much of a pair's best (relative to it) tie, and then the first listed plan
#: wins: two exact computations of one number (a table's mean and a Dist's) differ in the last bits
TIE_TOLERANCE = 1e-12


def first_best(score: np.ndarray, group: np.ndarray, n_groups: int) -> np.ndarray:
    """Return, per group, the index of its best score: the first listed (lowest index) of the scores
    within :data:`TIE_TOLERANCE` of the group's highest; -1 for a group with no score. NaN counts as
    -inf. The one tie rule of the engine's plan choice (:func:`best_plans`, :func:`best_plan`)."""
    score = np.where(np.isnan(score), -np.inf, np.asarray(score, dtype=np.float64))
    top = np.full(n_groups, -np.inf)
    np.maximum.at(top, group, score)
    finite = np.isfinite(top)
    slack = np.where(finite, TIE_TOLERANCE * np.abs(np.where(finite, top, 0.0)), 0.0)
    tied = score >= (top - slack)[group]
    best = np.full(n_groups, score.size, dtype=np.int64)
    rows = np.flatnonzero(tied)
    np.minimum.at(best, group[rows], rows)
    return np.where(best == score.size, -1, best)


def best_plans(table: TurnTable, objective: Any = "damage", pools: np.ndarray | None = None) -> np.ndarray:
    """Return, per pair, the row of its best plan under ``objective`` (:func:`objective_score`;
    default: the highest expected damage), ties (:func:`first_best`) to the first listed; -1 for a
    pair with no plan. The one plan chooser of the engine."""
    score = objective_score(objective, table, pools) if table.pair.size else np.zeros(0)
    return first_best(score, np.asarray(table.pair, dtype=np.int64), table.n_pairs)


def turn_plans(attacker: Any, target: Any, options: Any = None, situation: Any = None) -> dict[str, Dist]:
    """Return every legal way for ``attacker`` to spend one turn attacking ``target``: label -> damage Dist."""
    plans = _same_system(attacker, target, options, situation).turn_plans(attacker, target, options, situation)
    if not plans:
        raise RulesError(f"{attacker.name} has no attack it can use against {target.name}", field="attacks")
    return plans


def best_plan(plans: dict[str, Dist], more: dict[str, float] | None = None) -> str:
    """Return the label of the plan with the highest expected damage, ties (:func:`first_best`) to the
    first listed: the choice :func:`best_plans` makes on the same plans. ``more``: damage a plan
    deals besides its Dist's, by label (in an encounter, an area set's to the other foes in its
    area: CLARIFICATIONS.md, Encounters, "a plan's damage counts every foe it strikes")."""
    labels = list(plans)
    means = np.array([plans[k].mean() + (more or {}).get(k, 0.0) for k in labels], dtype=np.float64)
    return labels[int(first_best(means, np.zeros(len(labels), dtype=np.int64), 1)[0])]


def turn_table(
    attacker: Any, target: Any, options: Any = None, situation: Any = None, plan: Plan = None, objective: Any = "damage"
) -> tuple[TurnTable, str | Dist]:
    """Return the one-row TurnTable of the turn ``plan`` picks for ``attacker`` against ``target``,
    and its label (or, when a plan function returns a Dist, that Dist and an empty table).

    ``plan``: None (the best legal plan under ``objective``: "damage", the highest expected damage,
    by default; "rounds", the fewest expected rounds; "kill_within_K", the highest P(kill within K
    rounds)), a plan label, a list of attacks (objects or names) used in order, or a function
    taking the plans dict and returning a label or a Dist.
    """
    from .arguments import check_plan

    sys = _same_system(attacker, target, options, situation)
    plan = check_plan(plan)
    if plan is not None and not isinstance(plan, str) and not callable(plan):
        table = sys.turn_tables([(attacker, target)], options, situation, plans=[plan])
        table.raise_for(0)
        return table, table.label[0]
    table = sys.turn_tables([(attacker, target)], options, situation)
    table.raise_for(0)
    if plan is None:
        j = int(best_plans(table, objective, np.array([sys.hit_pools(target)]))[0])
    elif isinstance(plan, str):
        if plan not in table.label:
            raise RulesError(f"no plan {plan!r}; legal plans: {', '.join(table.label)}", field="plan")
        j = table.label.index(plan)
    else:
        from .arguments import call_plan

        chosen = call_plan(plan, {table.label[k]: table.dist(k) for k in range(len(table.label))})
        if isinstance(chosen, Dist):
            return table.take(np.zeros(0, dtype=np.int64)), chosen
        j = table.label.index(chosen)
    return table.take(np.array([j])), table.label[j]


def turn_damage(
    attacker: Any, target: Any, options: Any = None, situation: Any = None, plan: Plan = None, objective: Any = "damage"
) -> Dist:
    """Return the total damage Dist of one full turn of ``attacker`` against ``target`` (see
    :func:`turn_table` for ``plan`` and ``objective``; ``plan`` may also name one attack, used as
    often as the turn allows: :mod:`workbench.attack_plans`)."""
    from .attack_plans import resolve_plan

    attacker, plan = resolve_plan(
        attacker, plan, options, target, situation, _same_system(attacker, target, options, situation)
    )
    table, label = turn_table(attacker, target, options, situation, plan, objective)
    return label if isinstance(label, Dist) else table.dist(0)


# --------------------------------------------------------------------------- a side's turn in a fight
def turn_pmf_from_zero(turn: Dist) -> np.ndarray:
    if not isinstance(turn, Dist):
        raise RulesError(f"expected a Dist of damage per turn, not {type(turn).__name__}", field="turn")
    if turn.min() < 0:
        raise RulesError("damage per turn cannot be negative (healing is not an HP-only chain)", field="turn")
    if turn.max() > MAX_CHAIN_HP:  # no chain runs past MAX_CHAIN_HP: damage past it kills as surely (exact)
        x = np.zeros(MAX_CHAIN_HP + 1)
        lo = turn.min()
        keep = turn.pmf[: max(0, MAX_CHAIN_HP - lo)]
        x[lo : lo + keep.size] = keep
        x[MAX_CHAIN_HP] = turn.pmf[keep.size :].sum()
        return x
    return np.concatenate((np.zeros(turn.offset), turn.pmf))


def turn_of(
    attacker: Any, target: Any, options: Any, situation: Any, plan: Any, objective: Any = "damage"
) -> tuple[np.ndarray, tuple]:
    """Return the joint pmf of the turn ``plan`` picks (one damage axis per pool of the target's
    system) and the target's pools; a plan function's own Dist of total damage runs on the summed
    pools as HP."""
    from .systems import system_of

    sys = system_of(target)
    table, label = turn_table(attacker, target, options, situation, plan, objective)
    pools = sys.hit_pools(target)
    if isinstance(label, Dist):
        return turn_pmf_from_zero(label), (sum(pools),)
    return table.pmf[0], tuple(pools)


def side_turn(
    me: Any, foe: Any, options: Any, situation: Any, plan: Any, objective: Any = "damage"
) -> tuple[np.ndarray, tuple]:
    """Return ``me``'s turn against ``foe`` and ``foe``'s pools; a side with no usable plan (no
    weapon, nothing in reach) deals nothing each turn."""
    from .systems import system_of

    try:
        return turn_of(me, foe, options, situation, plan, objective)
    except RulesError as exc:
        if plan is not None or exc.field != "attacks":
            raise
        pools = tuple(system_of(foe).hit_pools(foe))
        return np.ones((1,) * len(pools)), pools
