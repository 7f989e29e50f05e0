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

from .arguments import check_rounds
from .errors import RulesError
from .state_chain import MAX_KEYS, MAX_POLICY_TRANSITIONS, KeyedTurn, PlannedChain, solve_keyed_policy

__all__ = ["Policy", "solve_policy", "optimal_play", "MAX_POLICY_STATES"]

#: states past which no policy is solved (pools left: HP, or Endurance x Vitality); far past the
#: published creatures (Annulus: at most a few hundred states), so only a hand-made target meets it
MAX_POLICY_STATES = 200_000


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


def _pools_chain(pmf: np.ndarray, pools: tuple[int, ...], labels: list[str]) -> PlannedChain:
    """Return the fight against the target's pools as a :class:`~workbench.state_chain.PlannedChain`:
    one pool, no key and the damage taken; two pools (Annulus: regular damage spends Endurance, then
    spills into Vitality; vital damage goes to Vitality), the key is the Endurance left and the
    damage dimension the Vitality taken."""
    if pmf.ndim == 2:
        cells = np.arange(pmf.shape[1])
        one = {lab: KeyedTurn([0] * cells.size, cells, row) for lab, row in zip(labels, pmf)}
        return PlannedChain(0, int(pools[0]), lambda key: one, lambda key: {})
    rg, vg = np.meshgrid(np.arange(pmf.shape[1]), np.arange(pmf.shape[2]), indexing="ij")
    r, v = rg.ravel(), vg.ravel()
    flat = pmf.reshape(pmf.shape[0], -1)

    def turn(e: Any) -> dict[str, KeyedTurn]:
        after = np.maximum(e - r, 0).tolist()
        vital = v + np.maximum(r - e, 0)
        return {lab: KeyedTurn(after, vital, row) for lab, row in zip(labels, flat)}

    return PlannedChain(int(pools[0]), int(pools[1]), turn, lambda e: {"endurance_left": e})


def solve_policy(pmf: np.ndarray, pools: tuple[int, ...], labels: list[str], max_rounds: int = 10_000) -> Policy:
    """Return the optimal :class:`Policy` of the plans ``pmf`` (one row per plan: a 1-D damage pmf
    against one pool, or a 2-D (regular, vital) pmf against (Endurance, Vitality)) against a target
    with ``pools``, solved by :func:`workbench.state_chain.solve_keyed_policy` (the module docstring);
    states in the order hp_left 1..HP, or (Endurance left, Vitality left) by their total. RulesError
    (field ``target``) past MAX_POLICY_STATES states."""
    pmf = np.asarray(pmf, dtype=np.float64)
    n_states = int(pools[0]) if pmf.ndim == 2 else (int(pools[0]) + 1) * int(pools[1])
    if n_states > MAX_POLICY_STATES:
        raise RulesError(
            f"{n_states:,} states of pools left; optimal play solves at most {MAX_POLICY_STATES:,}",
            field="target",
            rule="docs/limits.md: bounded work",
        )
    chain = _pools_chain(pmf, pools, list(labels))
    also = range(int(pools[0]) + 1) if pmf.ndim == 3 else ()
    kp = solve_keyed_policy(chain, check_rounds(max_rounds), also=also, max_transitions=2**62)
    assert kp is not None  # no transition bound: the states are bounded above
    index = np.array([list(labels).index(lab) for lab in kp.labels] + [-1], dtype=np.int64)
    hp = chain.hp
    branch = np.full(len(kp.keys), -1, dtype=np.int64)  # one decision per key: every plan at each
    branch[kp.branch_key] = np.arange(kp.branch_key.size)
    if pmf.ndim == 2:  # hp_left 1..HP: damage taken HP - 1 .. 0
        choice, m = kp.choice[branch[0]][::-1], kp.rounds_left[0][::-1]
        states = pl.DataFrame({"hp_left": np.arange(1, hp + 1)})
    else:
        endurance = int(pools[0])
        eg, wg = np.meshgrid(np.arange(endurance + 1), np.arange(1, hp + 1), indexing="ij")
        e, w = eg.ravel(), wg.ravel()
        order = np.lexsort((e, e + w))
        e, w = e[order], w[order]
        row = np.array([kp.keys.index(int(x)) for x in range(endurance + 1)])[e]
        choice, m = kp.choice[branch[row], hp - w], kp.rounds_left[row, hp - w]
        states = pl.DataFrame({"endurance_left": e, "vitality_left": w})
    return Policy(list(labels), index[choice], m, states, kp.by, kp.mean)


def optimal_play(
    attacker: Any,
    target: Any,
    options: Any = None,
    situation: Any = None,
    max_rounds: int = 10_000,
    ignore_state: bool = False,
) -> tuple[Policy, pl.DataFrame]:
    """Return (the optimal :class:`Policy` of ``attacker`` against the passive ``target``, a frame of
    it: one row per state, what names the state, ``plan`` (the label played there, null where
    nothing can kill) and ``mean_rounds_left``), over every legal plan of a turn.

    A fight without state beyond the target's pools: a state is the pools left (``hp_left``, or
    ``endurance_left`` and ``vitality_left``), the plans those of ``wb.turn_plans``. A fight that
    carries state (``wb.rounds_to_kill`` would chain or simulate it): a state is the system's key
    (armor points left, a jam, a Shell's points, MP ...) and ``hp_left``, the plans those legal at
    each key (``RuleSystem.state_plans``); RulesError (field ``objective``) naming the state where the
    system offers no such chain, or (field ``target``) where it is past the solver's bounds.
    ``ignore_state``: the state-free turns (``rounds_to_kill(..., simulate=False)``)."""
    from .simulate import state_effects
    from .systems import fight_system

    sys = fight_system({"attacker": attacker, "target": target}, ..., options, situation)
    effects = set() if ignore_state else state_effects(attacker, target, options, situation)
    if effects:
        return _over_state(sys, attacker, target, options, situation, max_rounds, effects)
    table = sys.turn_tables([(attacker, target)], options, situation)
    table.raise_for(0)
    policy = solve_policy(table.pmf, tuple(int(x) for x in sys.hit_pools(target)), table.label, max_rounds)
    plan = [None if j < 0 else policy.labels[j] for j in policy.choice.tolist()]
    frame = policy.states.with_columns(
        pl.Series("plan", plan, dtype=pl.Utf8), pl.Series("mean_rounds_left", policy.rounds_left)
    )
    return policy, frame


def _over_state(
    sys: Any, attacker: Any, target: Any, options: Any, situation: Any, max_rounds: int, effects: set[str]
) -> tuple[Policy, pl.DataFrame]:
    """optimal_play of a fight that carries ``effects``: the system's PlannedChain solved by
    :func:`workbench.state_chain.solve_keyed_policy`, its states (key, damage taken) named by the
    key's parts and ``hp_left``."""
    from .fight.chain import state_plans

    chain = state_plans(sys, attacker, target, options, situation)
    shown = ", ".join(sorted(effects))
    if chain is None:
        raise RulesError(
            f"optimal play over this fight's state ({shown}) is not offered by the {sys.title} rules here; "
            "objective='rounds' plays the best fixed plan of the fight with its state, and "
            "ignore_state=True (simulate=False in rounds_to_kill, workbench optimal --ignore-state) solves "
            "over the pools alone",
            field="objective",
        )
    kp = solve_keyed_policy(chain, check_rounds(max_rounds))
    if kp is None:
        raise RulesError(
            f"the fight's state ({shown}) is too large for optimal play (over {MAX_KEYS:,} keys or "
            f"{MAX_POLICY_TRANSITIONS:,} transitions); objective='rounds' plays the best fixed plan",
            field="target",
            rule="docs/limits.md: bounded work",
        )
    hp = chain.hp
    left = np.arange(hp, 0, -1)  # hp_left of damage taken 0..HP - 1
    # one row per decision (a key, or a key's branch of dice before the plan) and HP left; a key with
    # no plan, one row per HP left with no plan
    bare = sorted(set(range(len(kp.keys))) - set(kp.branch_key.tolist()))
    rows = [(int(k), kp.branch_named[b], kp.choice[b]) for b, k in enumerate(kp.branch_key.tolist())]
    rows += [(k, {}, np.full(hp, -1)) for k in bare]
    named = [{**chain.describe(kp.keys[k]), **extra} for k, extra, _ in rows]
    cols = list(dict.fromkeys(c for d in named for c in d))
    states = pl.DataFrame(
        {**{c: [d.get(c) for d in named for _ in range(hp)] for c in cols}, "hp_left": np.tile(left, len(rows))}
    )
    choice = np.concatenate([c for _, _, c in rows]) if rows else np.zeros(0, np.int64)
    m = np.concatenate([kp.rounds_left[k] for k, _, _ in rows]) if rows else np.zeros(0)
    policy = Policy(kp.labels, choice, m, states, kp.by, kp.mean)
    plan = [None if j < 0 else kp.labels[j] for j in choice.tolist()]
    frame = states.with_columns(pl.Series("plan", plan, dtype=pl.Utf8), pl.Series("mean_rounds_left", m))
    return policy, frame
