"""Rounds-to-kill and duels: the one fight of a matchup, on the one chain kernel (docs/combat.md).

A turn is a :class:`workbench.turn_table.TurnTable` row: the joint pmf of one turn's damage over the
target system's pools. :func:`workbench.chains.kill_chains` runs the absorbing chain on it (HP: the
running total of damage against HP; Annulus: Endurance, then Vitality, with Vital damage straight to
Vitality). ``rounds_to_kill``, ``duel`` and ``compare`` read the same chain.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np

from .arguments import (
    bounded,
    check_confirm,
    check_fights,
    check_first,
    check_flag,
    check_hp,
    check_plan,
    check_rounds,
    check_seed,
)
from .chains import CHAIN_TAIL, kill_chains, renewal_means
from .dist import Dist
from .duel_result import DuelResult
from .errors import RulesError
from .limits import MAX_CHAIN_HP
from .turns import check_objective, side_turn, turn_of, turn_pmf_from_zero
from .work import check, fight_work

if TYPE_CHECKING:  # polars loads on first use
    import polars as pl

__all__ = ["rounds_to_kill", "fight_plan", "mean_rounds_to_kill", "duel", "duel_chains", "DuelResult", "CHAIN_TAIL"]


def _check_hp(hp: Any, name: str = "hp") -> np.ndarray:
    """Return the HP a chain of a per-turn Dist runs on: whole numbers 1..MAX_CHAIN_HP (docs/limits.md;
    a creature's own HP is bounded by MAX_HP at construction)."""
    return check_hp(hp, name, MAX_CHAIN_HP)


def _check_run(max_rounds: Any, fights: Any, seed: Any, simulate: Any, progress: Any) -> int:
    """Check the arguments every fight takes (docs/limits.md); return max_rounds as an int."""
    check_fights(fights)
    check_seed(seed)
    check_flag("simulate", simulate)
    check_flag("progress", progress)
    return check_rounds(max_rounds)


def mean_rounds_to_kill(turn: Dist, hp: int | Sequence[int]) -> float | np.ndarray:
    """Return the exact mean number of turns to deal ``hp`` damage (a number, or one per HP).

    E[T] = sum over s < HP of U(s), U(s) = sum_k P(S_k = s) the renewal measure of the turn's
    damage (:func:`workbench.chains.renewal_means`, the mean of :func:`workbench.chains.kill_chains`
    without its chain); turns that deal 0 only stretch time.
    """
    x = turn_pmf_from_zero(turn)
    p = float(x[1:].sum())
    if p <= 0:
        raise RulesError("this turn never deals damage, so the target is never killed", field="turn")
    if type(hp) is int and 1 <= hp <= MAX_CHAIN_HP:  # one plain number in range: as _check_hp returns it
        return float(renewal_means(x, np.array([hp]), p)[0])
    out = renewal_means(x, _check_hp(hp), p)
    return float(out[0]) if np.ndim(hp) == 0 else out


def _chains(pmf: np.ndarray, pools: tuple, max_rounds: int, weights: np.ndarray | None = None):
    """Return :func:`kill_chains` of one turn against one target's pools (the 1 x 1 case)."""
    channels = len(pools)
    arr = np.array([pools], dtype=np.int64) if channels > 1 else np.array([pools[0]], dtype=np.int64)
    return kill_chains(
        pmf[None, ...],
        arr,
        np.zeros(1, dtype=np.int64),
        channels=channels,
        max_rounds=max_rounds,
        weights=None if weights is None else weights[None, :],
    )


def _frame(by: np.ndarray, exact: bool, fights: int | None = None):
    import polars as pl

    at = np.diff(by, prepend=0.0)
    se = np.zeros(by.size) if exact else np.sqrt(np.clip(by * (1 - by), 0, None) / fights)
    return pl.DataFrame(
        {
            "round": np.arange(1, by.size + 1),
            "p_killed_at": at,
            "p_killed_by": by,
            "exact": np.full(by.size, exact),
            "fights": pl.Series([fights] * by.size, dtype=pl.Int64),
            "standard_error": se,
        }
    )


def _one_attack(plan: Any) -> bool:
    """Return True for a plan given as one attack model (resolved once the system is known)."""
    from .systems.base import Model

    return isinstance(plan, Model)


@bounded("rounds_to_kill")
def rounds_to_kill(
    attacker_or_turn: Any,
    target: Any = None,
    *,
    hp: int | None = None,
    max_rounds: int = 10_000,
    simulate: bool | None = None,
    fights: int = 100_000,
    seed: int = 0,
    progress: bool | None = None,
    confirm: bool = False,
    max_seconds: Any = None,
    **kwargs: Any,
) -> pl.DataFrame:
    """Return the distribution of the number of rounds to kill, as a polars frame.

    ``rounds_to_kill(turn_dist, hp=150)`` runs the exact chain on any per-turn damage Dist.
    ``rounds_to_kill(attacker, target, options=..., situation=..., plan=...)`` follows the system's
    action economy: exact (the absorbing chain over the target's pools: Annulus Endurance, then
    Vitality) when no stateful effect is involved; otherwise exact by the chain over the fight's
    state where the system has one that fits (``RuleSystem.state_chain``: Glass Empires armor
    points and jams), else a seeded simulation of ``fights`` fights
    (:func:`workbench.simulate.fight_rounds`, docs/combat.md). ``simulate``: None chooses, True forces the simulation, False the
    exact chain (ignoring state). Columns: ``round``, ``p_killed_at`` (P(T = round)),
    ``p_killed_by`` (P(T <= round)), ``exact``, ``fights`` (null when exact) and
    ``standard_error`` (of ``p_killed_by``; 0 when exact). Exact rows stop when the remaining
    survival probability is below 1e-16 (or at ``max_rounds``). Bounds (docs/limits.md): ``hp`` up
    to 100,000 (a creature's own HP up to 1000), ``max_rounds`` up to 10,000, ``fights`` up to 10,000,000; a simulation still running
    after 8 s stops with a RulesError (field ``budget``) unless ``confirm=True``. ``objective`` picks the plan when ``plan`` is None
    ("damage", "rounds", "kill_within_K": :func:`workbench.turns.turn_table`), or, with
    ``"optimal"``, a plan for every state of the target's pools, the one that makes the expected
    rounds fewest (:func:`workbench.policies.optimal_play`; over the fight's state where its system
    offers one, ``RuleSystem.state_plans``).
    """
    max_rounds = _check_run(max_rounds, fights, seed, simulate, progress)
    confirm = check_confirm(confirm)
    check(fight_work("rounds_to_kill", {"fights": fights}), confirm)  # counted before any work
    if isinstance(attacker_or_turn, Dist):
        if hp is None:
            raise RulesError("give the target's hp (rounds_to_kill(turn, hp=150))", field="hp")
        pmf, pools = turn_pmf_from_zero(attacker_or_turn), (int(_check_hp(hp)[0]),)
    else:
        if target is None:
            raise RulesError("give a target creature", field="target")
        from .simulate import fight_rounds, simulate_rounds_to_kill, state_effects
        from .systems import fight_system

        options, situation, plan = kwargs.pop("options", None), kwargs.pop("situation", None), kwargs.pop("plan", None)
        sys_ = fight_system({"attacker": attacker_or_turn, "target": target}, ..., options, situation)
        objective = kwargs.pop("objective", "damage")
        from .attack_plans import resolve_plan  # one attack named: its uses as the turn allows

        attacker_or_turn, plan = resolve_plan(attacker_or_turn, plan, options, target, situation, sys_)
        plan = check_plan(plan)
        if kwargs:
            raise RulesError(f"unknown argument(s) {sorted(kwargs)}", field=sorted(kwargs)[0])
        use_sim = _choose(simulate, lambda: state_effects(attacker_or_turn, target, options, situation, plan))
        if objective == "optimal":  # a plan per state (pools left), by dynamic programming
            return _optimal_frame(
                attacker_or_turn, target, options, situation, plan, hp, simulate is True, max_rounds, simulate is False
            )
        check_objective(objective)
        if use_sim and hp is not None:
            raise RulesError(
                "hp= applies to the exact chain only; the simulation uses the target's own pools", field="hp"
            )
        if use_sim and plan is None and objective != "damage":  # the plan whose own fight is best
            return fight_plan(
                attacker_or_turn,
                target,
                options,
                situation,
                objective,
                simulate=simulate,
                fights=fights,
                seed=seed,
                max_rounds=max_rounds,
                progress=progress,
                confirm=confirm,
            )[1]
        if use_sim:
            run = dict(plan=plan, fights=fights, seed=seed, max_rounds=max_rounds, progress=progress, confirm=confirm)
            if simulate:  # forced: the simulation, even where a chain over the state fits
                return _frame(
                    simulate_rounds_to_kill(attacker_or_turn, target, options, situation, **run), False, fights
                )
            by, _, exact = fight_rounds(attacker_or_turn, target, options, situation, **run)
            return _frame(by, exact, None if exact else fights)
        pmf, pools = turn_of(attacker_or_turn, target, options, situation, plan, objective)
        if hp is not None and int(_check_hp(hp)[0]) != sum(
            pools
        ):  # another HP: the turn's total damage against that HP
            pmf, pools = (pmf if pmf.ndim == 1 else _total(pmf)), (int(_check_hp(hp)[0]),)
    if pmf.sum() - pmf.flat[0] <= 0:
        raise RulesError("this turn never deals damage, so the target is never killed", field="turn")
    c = _chains(pmf, pools, max_rounds)
    return _frame(np.clip(np.cumsum(c.killed[0]), 0.0, 1.0), True)


def _optimal_frame(
    attacker: Any,
    target: Any,
    options: Any,
    situation: Any,
    plan: Any,
    hp: Any,
    forced: bool,
    max_rounds: int,
    ignore_state: bool,
):
    """Return rounds_to_kill's frame under optimal play (:func:`workbench.policies.optimal_play`:
    the plan of each state of the fight, the target's pools and whatever else it carries, that makes
    the expected rounds fewest), refusing what it cannot honour: a given plan, another HP, a forced
    simulation, a state its system offers no plans over."""
    from .policies import optimal_play

    if plan is not None:
        raise RulesError("objective='optimal' chooses the plan of every state; give plan=None", field="plan")
    if hp is not None:
        raise RulesError("objective='optimal' plays against the target's own pools; leave hp= out", field="hp")
    if forced:
        raise RulesError(
            "objective='optimal' is solved exactly over the fight's states; leave simulate=True out "
            "(objective='rounds' simulates the best fixed plan)",
            field="simulate",
        )
    policy, _ = optimal_play(attacker, target, options, situation, max_rounds, ignore_state)
    if not policy.by.size or float(policy.by[-1]) <= 0.0:
        raise RulesError("no plan ever deals damage here, so the target is never killed", field="turn")
    return _frame(np.clip(policy.by, 0.0, 1.0), True)


def _total(joint: np.ndarray) -> np.ndarray:
    """Return the pmf of the total damage of a joint (one axis per pool) turn pmf."""
    from .chains import totals

    return totals(joint[None, ...])[0]


def exact_mean_rounds(
    attacker: Any, target: Any, options: Any, situation: Any, plan: Any, max_rounds: int
) -> float | None:
    """Return the exact mean rounds of rounds_to_kill's fight of ``attacker`` against ``target``
    with ``plan`` (None: the damage play), not cut at ``max_rounds``: the chain over its state
    (``RuleSystem.state_chain``), else the chain on its pools; None when the state fits no chain
    (the fight is simulated)."""
    from .simulate import state_effects
    from .systems import system_of

    if state_effects(attacker, target, options, situation, plan):
        from .fight.chain import state_chain

        got = state_chain(system_of(attacker), attacker, target, options, situation, plan, max_rounds)
        return None if got is None else got.mean
    pmf, pools = turn_of(attacker, target, options, situation, plan)
    return float(_chains(pmf, pools, max_rounds).mean[0])


def frame_mean(frame: Any) -> float:
    """Return the mean rounds of a rounds_to_kill frame, sum of t P(T = t) over its rows."""
    return float(frame["round"].to_numpy() @ frame["p_killed_at"].to_numpy())


def _fight_score(frame: Any, k: int | None) -> tuple[float, ...]:
    """Return the score (higher is better) of a rounds_to_kill frame under an objective: for
    "rounds" (``k`` None) minus the mass left unresolved within the round limit, then minus the mean
    rounds; for "kill_within_K" P(killed by round K), then the same. Chances are rounded to 12
    decimals (an exact chain stops with up to 1e-16 left) and the mean to 12 significant digits,
    so two computations of one number tie (and the first candidate stands)."""
    by = frame["p_killed_by"].to_numpy()
    mean = float(f"{frame_mean(frame):.12g}")
    left = round(max(1.0 - float(by[-1]), 0.0), 12) if by.size else 1.0
    if k is None:
        return (-left, -mean)
    return (round(float(by[min(k, by.size) - 1]), 12) if by.size else 0.0, -left, -mean)


def fight_plan(
    attacker: Any,
    target: Any,
    options: Any,
    situation: Any,
    objective: Any,
    *,
    simulate: bool | None = None,
    fights: int = 100_000,
    seed: int = 0,
    max_rounds: int = 10_000,
    progress: bool | None = None,
    confirm: bool = False,
) -> tuple[str | None, Any]:
    """Return (the plan, its rounds_to_kill frame) best by ``objective`` ("rounds": fewest expected
    rounds; "kill_within_K": highest P(killed within K rounds)) in the fight as it is played, state
    and all: each candidate is fought whole by :func:`rounds_to_kill` (the one fight: exact over
    the state where its chain fits, else simulated with ``fights`` fights and one ``seed``, so the
    candidates meet the same dice) and scored on its frame (:func:`_fight_score`).

    The candidates are None (the plan of highest mean damage in every state, the ``"damage"``
    objective's play) and then every legal plan of the turn table, a label each: played in every
    state in which it is legal (where a state forbids it, e.g. a recharging set, the system's side
    plays its highest-mean legal turn there). Ties go to the first candidate. A candidate that can
    never kill (RulesError, field ``turn``) is passed over; when all are, the first one's error is
    raised. Bounded as the calls it makes (docs/limits.md): one budget for all of them."""

    from .systems import fight_system

    k = check_objective(objective)
    table = fight_system({"attacker": attacker, "target": target}, ..., options, situation).turn_tables(
        [(attacker, target)], options, situation
    )
    candidates: list[str | None] = [None, *table.label]
    best: tuple | None = None
    first_error: RulesError | None = None
    for plan in candidates:
        try:
            frame = rounds_to_kill(
                attacker,
                target,
                options=options,
                situation=situation,
                plan=plan,
                simulate=simulate,
                fights=fights,
                seed=seed,
                max_rounds=max_rounds,
                progress=progress,
                confirm=confirm,
            )
        except RulesError as exc:
            if exc.field != "turn":
                raise
            first_error = first_error or exc
            continue
        score = _fight_score(frame, k)
        if best is None or score > best[0]:
            best = (score, plan, frame)
    if best is None:
        assert first_error is not None
        raise first_error
    return best[1], best[2]


def _choose(simulate: bool | None, effects: Any) -> bool:
    if simulate is None:
        return bool(effects())
    if not isinstance(simulate, bool):
        raise RulesError(f"simulate must be None, True or False, not {simulate!r}", field="simulate")
    return simulate


# --------------------------------------------------------------------------- duels
def _never(pmf: np.ndarray) -> bool:
    return pmf.sum() - pmf.flat[0] <= 0


class _TurnChain:
    """One direction of a duel (an attacker against its foe) on the chain of one turn: the joint pmf
    ``pmf`` over the foe's ``pools`` every round (:func:`workbench.chains.kill_chains`)."""

    def __init__(self, pmf: np.ndarray, pools: tuple):
        self.pmf, self.pools, self.hp = pmf, pools, int(sum(pools))

    def killed(self, rounds: int) -> np.ndarray:
        """Return P(T = t), t = 1..``rounds``: the foe falls in the attacker's t-th turn."""
        out = np.zeros(rounds)
        if not _never(self.pmf):
            k = _chains(self.pmf, self.pools, rounds).killed[0]
            out[: k.size] = k
        return out

    def alive(self, w: np.ndarray, rounds: int) -> np.ndarray:
        """Return sum_t w[t] P(foe alive after t turns, damage taken = d), d = 0..HP - 1."""
        if _never(self.pmf):  # the attacker never hurts the foe: all mass at 0 damage taken
            out = np.zeros(self.hp)
            out[0] = w.sum()
            return out
        return _chains(self.pmf, self.pools, rounds, weights=w).weighted[0][: self.hp]


class _StateChain:
    """One direction of a duel on the attacker's rule system's chain over the fight's state
    (``RuleSystem.state_chain``: armor points, jams, MP ...): the same two quantities as
    :class:`_TurnChain`, for a direction whose state is its own (``RuleSystem.duel_couplings``)."""

    def __init__(self, sys: Any, me: Any, foe: Any, options: Any, situation: Any, plan: Any, rounds: int):
        self.args = (me, foe, options, situation, plan)
        self.sys, self.hp = sys, int(sum(_hit_pools(foe)))
        from .fight.chain import state_chain

        got = state_chain(sys, *self.args, max_rounds=rounds)
        self.by = None if got is None else np.clip(np.asarray(got.by, dtype=np.float64), 0.0, 1.0)

    def killed(self, rounds: int) -> np.ndarray:
        """Return P(T = t), t = 1..``rounds``, from the chain's P(T <= t) (0 past where it stopped:
        its survival was below CHAIN_TAIL)."""
        assert self.by is not None  # duel builds this direction only where the chain fits
        out = np.zeros(rounds)
        k = np.diff(self.by[:rounds], prepend=0.0)
        out[: k.size] = k
        return out

    def alive(self, w: np.ndarray, rounds: int) -> np.ndarray:
        """Return the chain's weighted alive mass by damage taken (``state_chain(..., weights=w)``)."""
        from .fight.chain import state_chain

        got = state_chain(self.sys, *self.args, max_rounds=rounds, weights=w)
        assert got is not None and got.weighted is not None  # this direction's chain fits (__init__)
        return np.asarray(got.weighted, dtype=np.float64)[: self.hp]


def _hit_pools(creature: Any) -> tuple:
    """Return the hit pools of ``creature`` as its rule system gives them (``RuleSystem.hit_pools``)."""
    from .systems import system_of

    return tuple(system_of(creature).hit_pools(creature))


def _duel_of(side_a: Any, side_b: Any, orders: Sequence[str], rounds: int):
    """Return (win_a, win_b, left_a, left_b) of the duel whose directions are ``side_a`` (a against b)
    and ``side_b`` (b against a), :class:`_TurnChain` or :class:`_StateChain`, averaged over the
    ``orders`` who acts first (["a"], ["b"] or both: a fair coin). The two directions are
    independent processes until one side falls, so with a first, a wins in round t when its t-th
    turn kills (T_A = t) and b's first t - 1 did not: P = P(T_A = t) P(T_B > t - 1), a's damage
    taken then b's after t - 1 turns; b wins in round t when T_B = t and T_A > t. The winner's HP
    left is the loser's chain run again, its alive mass weighted by the winner's kill chance of
    each round (linear in the weights, so the orders' weights are averaged first)."""
    ka, kb = side_a.killed(rounds), side_b.killed(rounds)
    sa = np.concatenate(([1.0], 1.0 - np.cumsum(ka)))  # P(T_A > t), t = 0..rounds
    sb = np.concatenate(([1.0], 1.0 - np.cumsum(kb)))
    win_a, win_b = np.zeros(rounds), np.zeros(rounds)
    wa, wb = np.zeros(rounds + 1), np.zeros(rounds + 1)
    for first in orders:
        # the winner's alive mass (a sub-probability: it already holds the loser surviving so far)
        # is weighted by the winner's own kill chance in that round
        if first == "a":
            win_a += ka * sb[:-1]
            win_b += kb * sa[1:]
            wa[:-1] += ka  # a kills in t: b's damage to a after t - 1 rounds
            wb[1:] += kb  # b kills in t: a's damage to b after t rounds
        else:
            win_a += ka * sb[1:]
            win_b += kb * sa[:-1]
            wa[1:] += ka
            wb[:-1] += kb
    n = len(orders)
    return win_a / n, win_b / n, side_b.alive(wa / n, rounds), side_a.alive(wb / n, rounds)


def duel_chains(
    turn_a: np.ndarray, turn_b: np.ndarray, pools_a: tuple, pools_b: tuple, first: str, rounds: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Return (win_a, win_b, left_a, left_b) of a duel of two turns (joint pmfs over the foe's pools):
    per-round win masses (rounds 1..``rounds``) and each winner's alive mass by damage taken.

    With a first, a wins in round t when its t-th turn kills (T_A = t) and b's first t-1 turns did
    not: P = P(T_A = t) P(T_B > t - 1); a's damage taken is then b's after t - 1 turns. b wins in round
    t when T_B = t and T_A > t. The winner's HP left comes from the same chain run again, its alive
    mass weighted by the winner's kill chance of each round (no rounds x HP matrix is kept;
    :func:`_duel_of`, the one combination of every exact duel).
    """
    return _duel_of(_TurnChain(turn_a, pools_b), _TurnChain(turn_b, pools_a), [first], rounds)


@bounded("duel")
def duel(
    a: Any,
    b: Any,
    options: Any = None,
    situation: Any = None,
    *,
    first: str = "a",
    max_rounds: int = 100,
    plan_a: Any = None,
    plan_b: Any = None,
    simulate: bool | None = None,
    fights: int = 100_000,
    seed: int = 0,
    tactics_a: Any = None,
    tactics_b: Any = None,
    progress: bool | None = None,
    hp_a: int | None = None,
    hp_b: int | None = None,
    objective: Any = "damage",
    confirm: bool = False,
    max_seconds: Any = None,
) -> DuelResult:
    """Return the DuelResult of ``a`` and ``b`` attacking each other until one falls.

    ``a`` and ``b`` are creatures of one system, or two per-turn damage Dists with ``hp_a`` and
    ``hp_b`` (a textbook duel, or a custom mechanic, in one line). Each round both take a turn;
    ``first`` is "a", "b" or "random" (a fair coin each fight). Exact by the absorbing chains when
    neither side's damage depends on state (docs/combat.md): P(a wins in round t) =
    P(T_A = t) P(T_B >= t) when a acts first (:func:`duel_chains`; Annulus: over Endurance and
    Vitality). With a stateful effect (docs/combat.md) the duel is still exact when no side's turns
    change the other direction's fight (``RuleSystem.duel_couplings`` empty: Glass Empires armor
    points, jams and Ray Shield, Last Odyssey MP) and each direction with state has its system's
    chain over it (``RuleSystem.state_chain``, with the weights of the winner's HP left): the same
    combination of the two directions (:func:`_duel_of`). When the sides are coupled, the system's
    duel over both sides' state derived from the system's round (``workbench.fight.duel.duel_of``).
    Otherwise a seeded simulation of ``fights`` fights is used, its ``forced_by`` naming the effects
    that needed it; ``simulate`` True / False forces one way (False ignores the state).
    ``tactics_a`` / ``tactics_b`` (the system's ``tactics_class``) set its tactics in the
    simulation; the chains play the default tactics, so a stateful duel with others is simulated
    (``forced_by`` "tactics"). Bounds as for
    :func:`rounds_to_kill` (docs/limits.md): counted, ``fights`` and the fight-rounds played, refused
    past their bounds unless ``confirm=True``; ``max_seconds`` None only, as there. ``objective`` picks each side's plan when its
    ``plan_*`` is None (:func:`workbench.turns.turn_table`: "damage", "rounds", "kill_within_K").
    """
    import polars as pl

    first = check_first(first)
    max_rounds = _check_run(max_rounds, fights, seed, simulate, progress)
    plan_a, plan_b = (p if _one_attack(p) else check_plan(p) for p in (plan_a, plan_b))
    confirm = check_confirm(confirm)
    check(fight_work("duel", {"fights": fights}), confirm)  # counted before any work
    sides: list[Any] = []  # the two directions: a against b, b against a
    joint = None  # or the duel chain over both sides' state (workbench.fight.duel.duel_of)
    if isinstance(a, Dist) or isinstance(b, Dist):
        if not (isinstance(a, Dist) and isinstance(b, Dist)):
            raise RulesError("give two creatures, or two per-turn damage Dists with hp_a= and hp_b=", field="b")
        if hp_a is None or hp_b is None:
            raise RulesError("a duel of two Dists needs hp_a= and hp_b=", field="hp_a" if hp_a is None else "hp_b")
        ta, tb = turn_pmf_from_zero(a), turn_pmf_from_zero(b)
        pa, pb = (int(_check_hp(hp_a, "hp_a")[0]),), (int(_check_hp(hp_b, "hp_b")[0]),)
        name_a, name_b = "a", "b"
    else:
        from .simulate import simulate_duel, state_effects

        if hp_a is not None or hp_b is not None:
            raise RulesError("hp_a= / hp_b= go with two per-turn Dists; creatures use their own pools", field="hp_a")
        from .systems import fight_system

        sys_a = fight_system({"a": a, "b": b}, ..., options, situation)
        from .attack_plans import resolve_plan  # one attack named: its uses as the turn allows

        a, plan_a = resolve_plan(a, plan_a, options, b, situation, sys_a)
        b, plan_b = resolve_plan(b, plan_b, options, a, situation, sys_a)
        check_objective(objective)
        if objective != "damage" and simulate is not False:
            # each side's plan, chosen by the objective in its own fight (the plan rounds_to_kill
            # plays against the other side): fixed from here, so every method below plays it
            run = dict(simulate=simulate, fights=fights, seed=seed, max_rounds=max_rounds, confirm=confirm)
            plan_a, plan_b = (
                _duel_plan(me, foe, options, situation, plan, objective, run)
                for me, foe, plan in ((a, b, plan_a), (b, a, plan_b))
            )
            objective = "damage"
        # the state effects of each direction, asked only when the method is chosen here
        eff_a, eff_b = (
            (state_effects(a, b, options, situation, plan_a), state_effects(b, a, options, situation, plan_b))
            if simulate is None
            else (set(), set())
        )
        forced: set[str] = set()
        # the chains play each system's default tactics: other tactics are the simulation's
        default = sys_a.tactics_class() if sys_a.tactics_class is not None else None
        custom = [t for t in (tactics_a, tactics_b) if t is not None and t != default]
        if simulate is None and (eff_a or eff_b) and custom:
            forced = {"tactics"}
        elif simulate is None and (eff_a or eff_b):
            sides, forced = _state_directions(a, b, options, situation, plan_a, plan_b, objective, max_rounds)
            if forced and objective == "damage":  # coupled sides: the system's chain over both sides' state
                from .fight.duel import duel_of

                joint = duel_of(sys_a, a, b, options, situation, first, max_rounds, plan_a, plan_b)
                if joint is not None:
                    forced = set()
        if simulate or forced:
            result = simulate_duel(
                a,
                b,
                options,
                situation,
                first=first,
                max_rounds=max_rounds,
                plan_a=plan_a,
                plan_b=plan_b,
                fights=fights,
                seed=seed,
                tactics_a=tactics_a,
                tactics_b=tactics_b,
                progress=progress,
                confirm=confirm,
            )
            return replace(result, forced_by=tuple(sorted(forced))) if forced else result
        if not sides and joint is None:
            sides = [
                _TurnChain(*side_turn(a, b, options, situation, plan_a, objective)),
                _TurnChain(*side_turn(b, a, options, situation, plan_b, objective)),
            ]
        name_a, name_b = a.name, b.name
        if joint is not None:
            hp_a_, hp_b_ = int(sys_a.hit_points(a)), int(sys_a.hit_points(b))
    if joint is not None:
        win_a, win_b, left_a, left_b = joint.win_a, joint.win_b, joint.left_a, joint.left_b
    else:
        if not sides:
            sides = [_TurnChain(ta, pb), _TurnChain(tb, pa)]
        orders = ["a", "b"] if first == "random" else [first]
        win_a, win_b, left_a, left_b = _duel_of(sides[0], sides[1], orders, max_rounds)
        hp_a_, hp_b_ = sides[1].hp, sides[0].hp
    rounds = pl.DataFrame({"round": np.arange(1, max_rounds + 1), "p_a_wins": win_a, "p_b_wins": win_b})
    hp_left = pl.concat(
        [
            pl.DataFrame({"side": name_a, "hp_left": hp_a_ - np.arange(hp_a_), "probability": left_a}),
            pl.DataFrame({"side": name_b, "hp_left": hp_b_ - np.arange(hp_b_), "probability": left_b}),
        ]
    ).filter(pl.col("probability") > 0)
    p_a, p_b = float(np.sum(win_a)), float(np.sum(win_b))
    return DuelResult(name_a, name_b, p_a, p_b, max(0.0, 1.0 - p_a - p_b), rounds, hp_left, first, max_rounds)


def _duel_plan(me: Any, foe: Any, options: Any, situation: Any, plan: Any, objective: Any, run: dict) -> Any:
    """Return the plan ``me`` plays in a duel under ``objective``: ``plan`` when given; in a fight
    that carries state (or a forced simulation) the plan :func:`fight_plan` finds best in ``me``'s
    own fight against ``foe`` (None: the highest mean damage in every state); otherwise the turn
    table's best label (:func:`workbench.turns.turn_table`). A side with no usable plan keeps None."""
    from .simulate import state_effects
    from .turns import turn_table

    if plan is not None:
        return plan
    try:
        if run["simulate"] or state_effects(me, foe, options, situation, None):
            return fight_plan(me, foe, options, situation, objective, **run)[0]
        return turn_table(me, foe, options, situation, None, objective)[1]
    except RulesError as exc:
        if exc.field not in ("attacks", "turn"):  # no usable attack, or never any damage: nothing to choose
            raise
        return None


def _state_directions(
    a: Any, b: Any, options: Any, situation: Any, plan_a: Any, plan_b: Any, objective: Any, max_rounds: int
) -> tuple[list[Any], set[str]]:
    """Return (the two directions of the duel of ``a`` and ``b``, a against b then b against a; the
    effects that force a simulation) for a duel whose :func:`workbench.simulate.state_effects` are not
    empty. Exact over the state when neither side's turns change the other direction's fight
    (``RuleSystem.duel_couplings`` empty) and each direction with state has its system's chain over
    it (``RuleSystem.state_chain`` not None): then the directions are :class:`_StateChain` (or
    :class:`_TurnChain` for a direction without state) and the set is empty. Otherwise the set names
    the coupling effects, or the effects of a direction whose state does not fit a chain."""
    from .simulate import state_effects
    from .systems import system_of

    sys = system_of(a)
    forced = set(sys.duel_couplings(a, b, options, situation, plan_a, plan_b))
    sides: list[Any] = []
    for me, foe, plan in ((a, b, plan_a), (b, a, plan_b)):
        if forced:
            return [], forced
        eff = state_effects(me, foe, options, situation, plan)
        if not eff:
            sides.append(_TurnChain(*side_turn(me, foe, options, situation, plan, objective)))
            continue
        chain = _StateChain(sys, me, foe, options, situation, plan, max_rounds)
        if chain.by is None:  # the state does not fit the system's chain
            forced = set(eff)
        sides.append(chain)
    return ([], forced) if forced else (sides, forced)
