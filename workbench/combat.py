"""Rounds-to-kill by the exact absorbing chain on HP (DESIGN.md, Combat).

Damage never heals within the chain, so the running total S_t of per-turn damage only grows
and the target is dead after round t exactly when S_t >= HP: P(T > t) = P(S_t < HP). One
chain truncated at the largest HP therefore serves every HP up to it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from .dist import Dist, _convolve
from .errors import RulesError

__all__ = ["rounds_to_kill", "mean_rounds_to_kill", "kill_chain", "alive_chain", "two_pool_alive_chain", "duel",
           "DuelResult"]

#: the chain stops once the mass still alive falls below this (far under the 1e-12 tolerance)
CHAIN_TAIL = 1e-16


def _turn_pmf_from_zero(turn: Dist) -> np.ndarray:
    if not isinstance(turn, Dist):
        raise RulesError(f"expected a Dist of damage per turn, not {type(turn).__name__}", field="turn")
    if turn.min() < 0:
        raise RulesError("damage per turn cannot be negative (healing is not an HP-only chain)", field="turn")
    if turn.max() == 0:
        raise RulesError("this turn never deals damage, so the target is never killed", field="turn")
    return np.concatenate((np.zeros(turn.offset), turn.pmf))


def _check_hp(hp: Any) -> np.ndarray:
    h = np.atleast_1d(np.asarray(hp))
    if h.size == 0 or not np.issubdtype(h.dtype, np.integer) or np.any(h < 1):
        raise RulesError(f"HP must be whole numbers >= 1, not {hp!r}", field="hp")
    return h.astype(np.int64)


def mean_rounds_to_kill(turn: Dist, hp: int | Sequence[int]) -> float | np.ndarray:
    """Return the exact mean number of turns to deal ``hp`` damage (a number, or one per HP).

    E[T] = sum over s < HP of U(s), where U(s) = sum_k P(S_k = s) is the renewal measure. U solves
    U = delta + X * U, a linear recurrence that scipy's ``lfilter`` runs in C; turns that deal 0
    are folded in exactly by one division by P(damage > 0). Cumulative sums then give every HP.
    """
    from scipy.signal import lfilter

    x = _turn_pmf_from_zero(turn)
    h = _check_hp(hp)
    H = int(h.max())
    # Turns that deal 0 only stretch time: condition on damage > 0 (Y), count Y-steps, and divide
    # once by P(damage > 0). This keeps the recurrence free of a per-step division (1e-15 accuracy).
    p_pos = x[1:].sum()
    a = np.empty(min(H, x.size - 1) + 1)
    a[0] = 1.0
    a[1:] = -x[1 : a.size] / p_pos
    impulse = np.zeros(H)
    impulse[0] = 1.0
    u = lfilter([1.0], a, impulse)
    out = np.cumsum(u)[h - 1] / p_pos
    return float(out[0]) if np.ndim(hp) == 0 else out


def alive_chain(turn: Dist, hp: int, max_rounds: int = 10_000) -> np.ndarray:
    """Return the alive mass by damage taken: row t is P(S_t = s and s < hp), t = 0, 1, ...

    Row 0 is the untouched target. Rows stop once the alive mass is below ``CHAIN_TAIL``.
    """
    x = _turn_pmf_from_zero(turn)
    H = int(_check_hp(hp).max())
    x = x[: H + 1]
    alive = np.zeros(H)
    alive[0] = 1.0
    rows = [alive]
    for _ in range(max_rounds):
        alive = _convolve(alive, x)[:H]
        rows.append(alive)
        if alive.sum() < CHAIN_TAIL:
            break
    return np.array(rows)


def kill_chain(turn: Dist, hp: int | Sequence[int], max_rounds: int = 10_000) -> np.ndarray:
    """Return ``P(T <= t)`` for t = 1, 2, ... as a matrix: one row per round, one column per HP.

    One chain truncated at the largest HP serves every HP: P(T <= t) = 1 - P(S_t < hp).
    """
    h = _check_hp(hp)
    below = np.cumsum(alive_chain(turn, int(h.max()), max_rounds)[1:], axis=1)
    return np.clip(1.0 - below[:, h - 1], 0.0, 1.0)


def two_pool_alive_chain(joint: np.ndarray, endurance: int, vitality: int, max_rounds: int = 10_000) -> np.ndarray:
    """Return the alive mass by total damage taken under Endurance and Vitality (Annulus), row t = round t.

    ``joint[r, v]`` is P(one turn deals r regular and v vital damage). annulus-attacks.txt:
    "Endurance is removed first, then Vitality ... If you remove the last Vitality from a creature,
    that creature dies"; Vital strikes go "directly at Vitality". After totals R (regular) and V
    (vital) the creature has lost V + max(0, R - endurance) Vitality, so the absorbing chain runs on
    the two running totals (a 2-D random walk cut where that loss reaches ``vitality``). Column s of
    the result is P(alive with R + V = s): Endurance left + Vitality left = endurance + vitality - s.
    """
    from scipy.signal import convolve

    joint = np.asarray(joint, dtype=np.float64)
    if joint.ndim != 2 or np.any(joint < 0) or abs(joint.sum() - 1.0) > 1e-9:
        raise RulesError("joint must be a 2-D probability table of (regular, vital) damage", field="turn")
    if joint.sum() - joint[0, 0] <= 0:
        raise RulesError("this turn never deals damage, so the target is never killed", field="turn")
    E, V = int(endurance), int(vitality)
    if E < 0 or V < 1:
        raise RulesError(f"endurance must be >= 0 and vitality >= 1, not {endurance}, {vitality}", field="hp")
    H = E + V
    joint = joint[:H, :V]
    r, v = np.arange(H)[:, None], np.arange(V)[None, :]
    alive_region = (v + np.maximum(0, r - E)) < V
    total = (r + v)  # damage taken, < H inside the alive region
    alive = np.zeros((H, V))
    alive[0, 0] = 1.0
    rows = [np.bincount(total[alive_region], weights=alive[alive_region], minlength=H)]
    for _ in range(max_rounds):
        alive = convolve(alive, joint, method="direct")[:H, :V] * alive_region
        rows.append(np.bincount(total[alive_region], weights=alive[alive_region], minlength=H)[:H])
        if rows[-1].sum() < CHAIN_TAIL:
            break
    return np.array(rows)


def exact_alive_rows(attacker: Any, target: Any, options: Any = None, situation: Any = None, plan: Any = None,
                     max_rounds: int = 10_000) -> np.ndarray:
    """Return the target's alive mass by total damage taken, one row per round (row 0: untouched), exactly.

    The turn is the plan's :class:`workbench.turns.TurnTable` row, over the target system's pools:
    one pool runs the HP chain (:func:`alive_chain`), two the spill chain
    (:func:`two_pool_alive_chain`: channel 0 takes pool 0 first, channel 1 goes to pool 1 only).
    The rows stop once the alive mass is below ``CHAIN_TAIL``.
    """
    from .systems import system_of
    from .turns import turn_table

    sys = system_of(target)
    table, label = turn_table(attacker, target, options, situation, plan)
    if isinstance(label, Dist):  # a plan function returned its own Dist of total damage
        return _alive_rows(label, sys.hit_points(target), max_rounds) if label.max() == 0 else \
            alive_chain(label, sys.hit_points(target), max_rounds)
    pools = sys.hit_pools(target)
    pmf = table.pmf[0]
    if pmf.size == 1 or pmf.sum() - pmf.flat[0] <= 0:  # the turn never damages
        rows = np.zeros((max_rounds + 1, sum(pools)))
        rows[:, 0] = 1.0
        return rows
    if len(pools) == 1:
        return alive_chain(table.dist(0), pools[0], max_rounds)
    return two_pool_alive_chain(pmf, *pools, max_rounds=max_rounds)


def _frame(by: np.ndarray, exact: bool, fights: int | None = None):
    import polars as pl

    at = np.diff(by, prepend=0.0)
    se = np.zeros(by.size) if exact else np.sqrt(np.clip(by * (1 - by), 0, None) / fights)
    return pl.DataFrame({"round": np.arange(1, by.size + 1), "p_killed_at": at, "p_killed_by": by,
                         "exact": np.full(by.size, exact), "fights": pl.Series([fights] * by.size, dtype=pl.Int64),
                         "standard_error": se})


def rounds_to_kill(attacker_or_turn: Any, target: Any = None, *, hp: int | None = None,
                   max_rounds: int = 10_000, simulate: bool | None = None, fights: int = 100_000, seed: int = 0,
                   progress: bool | None = None, **kwargs: Any):
    """Return the distribution of the number of rounds to kill, as a polars frame.

    ``rounds_to_kill(turn_dist, hp=150)`` runs the exact chain on any per-turn damage Dist.
    ``rounds_to_kill(attacker, target, options=..., situation=..., plan=...)`` follows the system's
    action economy: exact (absorbing chain; the two-pool chain for Annulus) when no stateful effect
    is involved, otherwise a seeded simulation of ``fights`` fights (docs/combat.md).
    ``simulate``: None chooses, True forces the simulation, False the exact chain (ignoring state).
    Columns: ``round``, ``p_killed_at`` (P(T = round)), ``p_killed_by`` (P(T <= round)), ``exact``,
    ``fights`` (null when exact) and ``standard_error`` (of ``p_killed_by``; 0 when exact). Exact
    rows stop when the remaining survival probability is below 1e-16.
    """
    if isinstance(attacker_or_turn, Dist):
        if hp is None:
            raise RulesError("give the target's hp (rounds_to_kill(turn, hp=150))", field="hp")
        by = kill_chain(attacker_or_turn, int(hp), max_rounds=max_rounds)[:, 0]
        return _frame(by, True)
    if target is None:
        raise RulesError("give a target creature", field="target")
    from .simulate import simulate_rounds_to_kill, state_effects
    from .systems import system_of

    options, situation, plan = kwargs.pop("options", None), kwargs.pop("situation", None), kwargs.pop("plan", None)
    if kwargs:
        raise RulesError(f"unknown argument(s) {sorted(kwargs)}", field=sorted(kwargs)[0])
    use_sim = _choose(simulate, lambda: state_effects(attacker_or_turn, target, options, situation, plan))
    if use_sim:
        if hp is not None:
            raise RulesError("hp= applies to the exact chain only; the simulation uses the target's own pools",
                             field="hp")
        by = simulate_rounds_to_kill(attacker_or_turn, target, options, situation, plan=plan, fights=fights,
                                     seed=seed, max_rounds=max_rounds, progress=progress)
        return _frame(by, False, fights)
    if hp is not None and hp != system_of(target).hit_points(target):
        from .turns import turn_damage

        turn = turn_damage(attacker_or_turn, target, options, situation, plan=plan)
        return _frame(kill_chain(turn, int(hp), max_rounds=max_rounds)[:, 0], True)
    rows = exact_alive_rows(attacker_or_turn, target, options, situation, plan, max_rounds)
    if rows[-1].sum() >= 1 - 1e-15:
        raise RulesError("this turn never deals damage, so the target is never killed", field="turn")
    return _frame(np.clip(1.0 - rows.sum(axis=1)[1:], 0.0, 1.0), True)


def _choose(simulate: bool | None, effects: Any) -> bool:
    if simulate is None:
        return bool(effects())
    if not isinstance(simulate, bool):
        raise RulesError(f"simulate must be None, True or False, not {simulate!r}", field="simulate")
    return simulate


# --------------------------------------------------------------------------- duels
@dataclass(frozen=True)
class DuelResult:
    """The outcome of a duel: win chances, the rounds it ends in, the winner's HP left.

    ``rounds``: polars frame (round, p_a_wins, p_b_wins) of the round each side wins in;
    ``hp_left``: polars frame (side, hp_left, probability) of the winner's remaining HP.
    ``exact`` is True when computed by the absorbing chains (no stateful effects).
    """

    a: str
    b: str
    p_a_wins: float
    p_b_wins: float
    p_draw: float
    rounds: Any
    hp_left: Any
    first: str
    max_rounds: int
    exact: bool = True
    fights: int | None = None
    standard_error: float | None = None

    def summary(self) -> str:
        """Return a short readable summary."""
        how = "exact" if self.exact else f"simulated ({self.fights:,} fights, s.e. {self.standard_error:.4f})"
        mean_rounds = float((self.rounds["round"] * (self.rounds["p_a_wins"] + self.rounds["p_b_wins"])).sum())
        decided = self.p_a_wins + self.p_b_wins
        return (f"{self.a} vs {self.b} ({how}, {self.first} acts first, {self.max_rounds} rounds at most): "
                f"{self.a} wins {self.p_a_wins:.2%}, {self.b} wins {self.p_b_wins:.2%}, "
                f"neither {self.p_draw:.2%}; decided fights last {mean_rounds / decided if decided else float('nan'):.2f} "
                f"rounds on average")

    def __repr__(self) -> str:
        return f"DuelResult({self.summary()})"


def _alive_rows(turn: Dist, hp: int, rounds: int) -> np.ndarray:
    """Return ``rounds + 1`` rows of alive mass by damage taken (a turn that never damages keeps row 0)."""
    if turn.max() == 0:
        rows = np.zeros((rounds + 1, hp))
        rows[:, 0] = 1.0
        return rows
    chain = alive_chain(turn, hp, rounds)[: rounds + 1]
    return np.vstack([chain, np.zeros((rounds + 1 - len(chain), hp))])


def _pad_rows(rows: np.ndarray, rounds: int) -> np.ndarray:
    """Return exactly ``rounds + 1`` rows (a chain that ended early has no mass left)."""
    rows = rows[: rounds + 1]
    return np.vstack([rows, np.zeros((rounds + 1 - len(rows), rows.shape[1]))])


def _duel_rows(ca: np.ndarray, cb: np.ndarray, first: str):
    """Return (win_a, win_b, left_a, left_b) from both alive chains (rows = rounds 0..n).

    ``ca`` is b's alive mass under a's attacks, ``cb`` a's under b's. With a first, a wins in
    round t when its t-th turn kills (T_A = t) and b's first t-1 turns did not: P = P(T_A = t)
    P(S_B(t-1) < hp_a); a's HP left is hp_a minus S_B(t-1). b wins in round t when T_B = t and
    T_A > t.
    """
    ma, mb = ca.sum(axis=1), cb.sum(axis=1)
    kill_a, kill_b = ma[:-1] - ma[1:], mb[:-1] - mb[1:]  # P(T = t), t = 1..rounds
    if first == "a":
        return kill_a * mb[:-1], kill_b * ma[1:], kill_a @ cb[:-1], kill_b @ ca[1:]
    return kill_a * mb[1:], kill_b * ma[:-1], kill_a @ cb[1:], kill_b @ ca[:-1]


def _duel_exact(turn_a: Dist, turn_b: Dist, hp_a: int, hp_b: int, first: str, rounds: int):
    """Return (win_a, win_b, left_a, left_b): per-round win masses and the winner's HP-left masses
    for two per-turn damage Dists (see :func:`_duel_rows`)."""
    return _duel_rows(_alive_rows(turn_a, hp_b, rounds), _alive_rows(turn_b, hp_a, rounds), first)


def duel(a: Any, b: Any, options: Any = None, situation: Any = None, *, first: str = "a",
         max_rounds: int = 100, plan_a: Any = None, plan_b: Any = None, simulate: bool | None = None,
         fights: int = 100_000, seed: int = 0, tactics_a: Any = None, tactics_b: Any = None,
         progress: bool | None = None) -> DuelResult:
    """Return the DuelResult of ``a`` and ``b`` attacking each other until one falls.

    Each round both take a turn; ``first`` is "a", "b" or "random" (a fair coin each fight).
    Exact by the absorbing chains when neither side's damage depends on state (DESIGN.md, Combat):
    P(a wins in round t) = P(T_A = t) * P(T_B >= t) when a acts first (Annulus: the two-pool
    chain). With a stateful effect (docs/combat.md) a seeded simulation of ``fights`` fights is
    used instead; ``simulate`` True / False forces one way. ``tactics_a`` / ``tactics_b``
    (:class:`workbench.simulate.Tactics`) set recovery checks and Blood Price in the simulation.
    """
    import polars as pl

    from .simulate import simulate_duel, state_effects
    from .systems import system_of

    if first not in ("a", "b", "random"):
        raise RulesError(f"first must be 'a', 'b' or 'random', not {first!r}", field="first")
    if not isinstance(max_rounds, int) or max_rounds < 1:
        raise RulesError(f"max_rounds must be a whole number >= 1, not {max_rounds!r}", field="max_rounds")
    sys_a, sys_b = system_of(a), system_of(b)
    if sys_a.name != sys_b.name:
        raise RulesError(f"{a.name} is {sys_a.name} and {b.name} is {sys_b.name}: a duel needs one rule system", field="b")
    use_sim = _choose(simulate, lambda: state_effects(a, b, options, situation, plan_a)
                      | state_effects(b, a, options, situation, plan_b))
    if use_sim:
        return simulate_duel(a, b, options, situation, first=first, max_rounds=max_rounds, plan_a=plan_a,
                             plan_b=plan_b, fights=fights, seed=seed, tactics_a=tactics_a, tactics_b=tactics_b,
                             progress=progress)
    hp_a, hp_b = sys_a.hit_points(a), sys_b.hit_points(b)
    ca = _pad_rows(exact_alive_rows(a, b, options, situation, plan_a, max_rounds), max_rounds)
    cb = _pad_rows(exact_alive_rows(b, a, options, situation, plan_b, max_rounds), max_rounds)
    orders = ["a", "b"] if first == "random" else [first]
    parts = [_duel_rows(ca, cb, o) for o in orders]
    win_a, win_b, left_a, left_b = (sum(p[i] for p in parts) / len(parts) for i in range(4))
    n = max_rounds
    rounds = pl.DataFrame({"round": np.arange(1, n + 1), "p_a_wins": win_a, "p_b_wins": win_b})
    hp_left = pl.concat([
        pl.DataFrame({"side": a.name, "hp_left": hp_a - np.arange(hp_a), "probability": left_a}),
        pl.DataFrame({"side": b.name, "hp_left": hp_b - np.arange(hp_b), "probability": left_b}),
    ]).filter(pl.col("probability") > 0)
    pa, pb = float(win_a.sum()), float(win_b.sum())
    return DuelResult(a.name, b.name, pa, pb, max(0.0, 1.0 - pa - pb), rounds, hp_left, first, max_rounds)
