"""The rows of ``compare`` whose pair carries state: the one simulation ``rounds_to_kill`` runs, per row.

``wb.rounds_to_kill(attacker, target, plan=...)`` simulates a pair whose
:func:`workbench.simulate.state_effects` is not empty (docs/combat.md) and runs the exact chain
otherwise. ``compare`` does the same, row by row: :func:`fight_rows` calls
:func:`workbench.simulate.simulate_rounds_to_kill` (the function ``rounds_to_kill`` calls) with
the row's plan, ``fights`` fights and the seed :func:`row_seed` derives from the pair, and turns
its P(killed by round t) into compare's kill columns, with ``method``, ``se`` and ``forced_by``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from .arguments import check_time
from .chains import _QUANTILES, CHAIN_TAIL, QUANTILE_TOLERANCE
from .errors import RulesError

__all__ = ["COMPARE_FIGHTS", "FightRow", "row_seed", "row_effects", "fight_rows", "method_line"]

#: simulated fights per compare row whose pair carries state (the s.e. of P(kill by t) is at most
#: 0.011; measured cost per row docs/compare.md)
COMPARE_FIGHTS = 2_000


@dataclass
class FightRow:
    """One compare row's fight: the attacker creature, the target, the plan (None: the best plan,
    chosen as ``rounds_to_kill`` chooses it) and the row's labels (for its seed)."""

    attacker: Any
    target: Any
    plan: Any
    attacker_label: str
    attack_label: str


def row_seed(seed: int, system: str, attacker: str, attack: str, target: str) -> int:
    """Return the seed of one compare row's simulated fights: the first 16 bytes of BLAKE2b of
    ``"seed|system|attacker|attack|target"`` as a whole number (0 <= s < 2**128, docs/limits.md).

    ``wb.rounds_to_kill(attacker, target, plan=..., fights=f, seed=row_seed(...))`` then gives
    the row's numbers exactly (the same code path and the same random stream).
    """
    text = f"{int(seed)}|{system}|{attacker}|{attack}|{target}".encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=16).digest(), "big")


def row_effects(rows: list[FightRow], options: Any, situation: Any) -> list[list[str]]:
    """Return each row's stateful effects, sorted: :func:`workbench.simulate.state_effects` of
    (attacker, target, options, situation, plan), as ``rounds_to_kill`` asks before choosing
    (docs/combat.md: "If the set is empty the method is exact, otherwise simulated"). Its work is
    counted with compare's matchups (one inspection per distinct pair)."""
    from .simulate import state_effects

    seen: dict[tuple, list[str]] = {}
    out = []
    for r in rows:
        key = (id(r.attacker), id(r.target), None if r.plan is None else tuple(id(x) for x in r.plan))
        if key not in seen:
            seen[key] = sorted(state_effects(r.attacker, r.target, options, situation, r.plan))
        out.append(seen[key])
    return out


def _stats(by: np.ndarray, fights: int) -> dict[str, float]:
    """Return the kill columns of one simulated row from P(killed by round t), t = 1..max_rounds:
    mean_rounds (null while some fights still stand at max_rounds: the mean is then unknown) and
    its standard error sqrt(sample variance / fights), p_kill_one_turn, p_unresolved, q10/q50/q90
    (the first round whose kill chance reaches q, as the exact rows)."""
    at = np.diff(by, prepend=0.0)
    t = np.arange(1, by.size + 1)
    unresolved = float(np.clip(1.0 - by[-1], 0.0, 1.0))
    out = {"p_kill_one_turn": float(by[0]), "p_unresolved": unresolved, "mean_rounds": np.nan, "se": np.nan}
    if unresolved <= 0.0:
        mean = float(t @ at)
        var = max(float((t * t) @ at) - mean * mean, 0.0) * fights / max(fights - 1, 1)
        out["mean_rounds"], out["se"] = mean, float(np.sqrt(var / fights))
    for q, name in zip(_QUANTILES, ("q10", "q50", "q90")):
        hit = by >= q - QUANTILE_TOLERANCE
        out[name] = float(hit.argmax() + 1) if hit.any() else np.nan
    return out


def fight_rows(
    rows: list[FightRow],
    system: str,
    options: Any,
    situation: Any,
    *,
    fights: int,
    seed: int,
    max_rounds: int,
    confirm: bool,
    chain: bool,
    state_chains: bool = True,
    objective: Any = "damage",
    tick: Callable[[int], Any] | None = None,
) -> dict[str, Any]:
    """Return the kill columns of rows whose fight is simulated (``mean_rounds``, ``se``,
    ``p_kill_one_turn``, ``p_unresolved``, ``q10``/``q50``/``q90`` and with ``chain`` the
    ``p_killed_by`` rows x max_rounds, and ``exact``), each from ONE call of
    :func:`workbench.simulate.fight_rounds`, the fight ``rounds_to_kill`` runs for a pair with
    state (docs/combat.md): the exact chain over the state where the system has one that fits
    (``exact`` True; ``state_chains=False``, compare's ``simulate=True``, skips it), else the
    simulation (``simulate_rounds_to_kill``) with ``fights`` fights and :func:`row_seed`. A row whose attacker can never deal damage to its target
    (:func:`workbench.simulate.can_damage`) is never killed (mean inf, nothing simulated: flagged
    in ``never``); a row in which no simulated fight ends within ``max_rounds`` has P(unresolved)
    1 and no mean. A best-plan row (plan None) under an ``objective`` other than "damage" fights
    the plan :func:`workbench.combat.fight_plan` finds best in its fight (``plan``: that label, or
    None for the highest mean damage in every state; "" where no plan was chosen). Bounded work (docs/limits.md): compare counted these rows x ``fights`` before any ran
    (``comparison.state_work``); ``confirm`` goes on to each row's simulation (its fight-rounds
    played, ``workbench.work.played``). Each row reports to the :func:`workbench.arguments.reporting`
    listener (a panel's progress and Cancel), and to ``tick(1)`` when given (compare's bar).
    """
    from .combat import exact_mean_rounds, fight_plan, frame_mean
    from .simulate import can_damage, fight_rounds, simulate_rounds_to_kill

    n = len(rows)
    plans: list[str | None] = [""] * n
    out: dict[str, Any] = {
        k: np.full(n, np.nan) for k in ("mean_rounds", "se", "p_kill_one_turn", "p_unresolved", "q10", "q50", "q90")
    }
    out["never"] = np.zeros(n, dtype=bool)
    out["exact"] = np.zeros(n, dtype=bool)
    by_all = np.zeros((n, max_rounds)) if chain else None
    for i, r in enumerate(rows):
        if state_chains and i % SOLVED_TOGETHER == 0:
            _solve_together(rows[i : i + SOLVED_TOGETHER], options, situation, objective, max_rounds)
        check_time(f"compare, row {i + 1:,} of {n:,} with state", i, n, "rows with state")
        if not can_damage(r.attacker, r.target, options, situation):
            out["never"][i] = True
            out["mean_rounds"][i], out["p_kill_one_turn"][i], out["p_unresolved"][i] = np.inf, 0.0, 1.0
            if tick is not None:
                tick(1)
            continue
        s = row_seed(seed, system, r.attacker_label, r.attack_label, r.target.name)
        by = np.zeros(max_rounds)
        mean: float | None = None
        run = dict(plan=r.plan, fights=fights, seed=s, max_rounds=max_rounds, progress=False, confirm=confirm)
        try:
            if r.plan is None and objective != "damage":  # the plan best by the objective in this fight
                plans[i], frame = fight_plan(
                    r.attacker,
                    r.target,
                    options,
                    situation,
                    objective,
                    simulate=None if state_chains else True,
                    **{k: v for k, v in run.items() if k != "plan"},
                )
                got, out["exact"][i] = frame["p_killed_by"].to_numpy(), bool(frame["exact"][0])
                mean = frame_mean(frame)
                if out["exact"][i] and got[-1] < 1.0 - CHAIN_TAIL:
                    # cut at max_rounds: the chain's own mean, not the frame's truncated sum
                    exact = exact_mean_rounds(r.attacker, r.target, options, situation, plans[i], max_rounds)
                    mean = mean if exact is None else exact
            elif state_chains:
                got, mean, out["exact"][i] = fight_rounds(
                    r.attacker, r.target, options, situation, can_hurt=True, **run
                )
            else:
                got = simulate_rounds_to_kill(r.attacker, r.target, options, situation, **run)
            by[: got.size] = got
            by[got.size :] = got[-1]
        except RulesError as exc:
            if exc.field != "turn":  # "no simulated fight killed ... within max_rounds": all unresolved
                raise
        for k, v in _stats(by, fights).items():
            out[k][i] = v
        if out["exact"][i]:  # the chain's own mean (the whole distribution, not cut at max_rounds)
            out["mean_rounds"][i], out["se"][i] = mean, np.nan
        if by_all is not None:
            by_all[i] = by
        if tick is not None:
            tick(1)
    if by_all is not None:
        out["p_killed_by"] = by_all
    out["plan"] = plans
    return out


#: rows whose exact chains are solved together (:func:`_solve_together`) before they are read
SOLVED_TOGETHER = 128


def _solve_together(rows: list[FightRow], options: Any, situation: Any, objective: Any, max_rounds: int) -> None:
    """Solve the exact chains of ``rows`` together (:func:`workbench.fight.chain.passive_chains`:
    one sparse product a round for all of them), each kept in the memo under its round's key,
    where the row's own fight (:func:`workbench.simulate.fight_rounds`) then finds it: the rows'
    numbers are those of their own fights, only solved at once. A row this cannot serve (no round
    description, no key, a plan chosen by its fight, a refusal) is left to its own fight, which
    says why."""
    from .fight.chain import passive_chains
    from .simulate import can_damage, can_damage_many
    from .systems import system_of

    rows = [r for r in rows if not (r.plan is None and objective != "damage")]
    pairs = list(dict.fromkeys((r.attacker, r.target) for r in rows))
    try:  # (every pair asked at once)
        able = dict(zip(pairs, can_damage_many(pairs, options, situation)))
    except RulesError:  # (a pair the rules refuse: each row asks alone, below)
        able = {}
    rnds = []
    for r in rows:
        try:
            pair = (r.attacker, r.target)
            if not (able[pair] if able else can_damage(*pair, options, situation)):
                continue
            rnd = system_of(r.attacker).fight_round(r.attacker, r.target, options, situation, r.plan)
        except RulesError:
            continue
        if rnd is not None and rnd.key is not None:
            rnds.append(rnd)
    try:
        passive_chains(rnds, max_rounds)
    except RulesError:
        pass  # (each row's own fight meets it again, and raises or simulates as it would alone)


def method_line(frame: Any) -> str:
    """Return how the numbers of a compare frame (polars) were computed: "all exact (absorbing
    chain)", or how many rows were simulated and which state effects forced it."""
    import polars as _pl

    sim = frame.filter(_pl.col("method") == "simulated")
    if sim.height == 0:
        return "all exact (absorbing chain)"
    forced = (
        sorted({e for v in sim["forced_by"].to_list() if v for e in v.split("; ")})
        if "forced_by" in sim.columns
        else []
    )
    why = f"; state: {', '.join(forced)}" if forced else ""
    return f"{sim.height:,} of {frame.height:,} simulated (seeded fights; se: the s.e. of mean_rounds), the rest exact{why}"
