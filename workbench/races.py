"""Who wins how often (issue 18, item 3: "P(A kills before B) and P(A out-damages B in one turn)
for two builds against the same target ... stochastic dominance between two damage or rounds
distributions, shown as such").

Two builds race to down the same target, each against its own copy of it: their rounds to kill
T_A and T_B come from ``wb.rounds_to_kill`` (the one fight: exact where the state fits a chain,
else simulated) and are independent, so

    P(A first) = sum over t of P(T_A = t) P(T_B > t),  P(tie) = sum over t of P(T_A = t) P(T_B = t),

and P(B first) likewise; what neither finishes within ``max_rounds`` is ``p_undecided``. One turn:
X_A and X_B are the two builds' turn damage (``wb.turn_damage``), P(X_A > X_B) = sum over x of
P(X_A = x) P(X_B < x). Dominance is first-order stochastic dominance, read off the two
distributions: A's turn damage dominates B's when P(X_A >= x) >= P(X_B >= x) for every x; A is
faster when P(T_A <= t) >= P(T_B <= t) for every t.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import polars as pl

from .dist import Dist
from .errors import RulesError

__all__ = ["head_to_head", "dominance", "TOLERANCE"]

_COLUMNS = [
    "p_a_first",
    "p_tie",
    "p_b_first",
    "p_undecided",
    "mean_rounds_a",
    "mean_rounds_b",
    "p_a_outdamages",
    "p_equal_turn",
    "p_b_outdamages",
    "turn_dominance",
    "rounds_dominance",
    "method",
    "se",
    "cost_a",
    "cost_b",
    "cheaper",
    "p_cheaper_first",
    "p_cheaper_outdamages",
]

#: two curves closer than this everywhere are "equal" (exact sums are good to about 1e-15)
TOLERANCE = 1e-12


def dominance(first: np.ndarray, second: np.ndarray, names: tuple[str, str] = ("a", "b")) -> str:
    """Return which of two curves lies above the other everywhere (first-order stochastic dominance
    when the curves are P(X >= x) or P(T <= t) over one grid): ``names[0]``, ``names[1]``, "equal"
    (within :data:`TOLERANCE` everywhere) or "neither" (they cross)."""
    n = max(first.size, second.size)
    f = np.pad(first, (0, n - first.size), mode="edge") if first.size else np.zeros(n)
    s = np.pad(second, (0, n - second.size), mode="edge") if second.size else np.zeros(n)
    above, below = bool((f > s + TOLERANCE).any()), bool((s > f + TOLERANCE).any())
    if above and below:
        return "neither"
    if above:
        return names[0]
    if below:
        return names[1]
    return "equal"


def _pmf(turn: Dist) -> np.ndarray:
    """Return the pmf of a damage Dist from damage 0."""
    return np.concatenate((np.zeros(max(turn.offset, 0)), turn.pmf))


def _turn_race(xa: np.ndarray, xb: np.ndarray) -> tuple[float, float, float]:
    """Return P(X_A > X_B), P(X_A = X_B), P(X_A < X_B) of two independent pmfs from 0."""
    n = max(xa.size, xb.size)
    a, b = np.pad(xa, (0, n - xa.size)), np.pad(xb, (0, n - xb.size))
    cb = np.cumsum(b)
    below_b = np.concatenate(([0.0], cb[:-1]))  # P(X_B < x)
    greater = float(a @ below_b)
    equal = float(a @ b)
    return greater, equal, max(0.0, 1.0 - greater - equal)


def _curve(frame: pl.DataFrame, rounds: int) -> np.ndarray:
    """Return P(T <= t) for t = 1..rounds from a rounds_to_kill frame (constant past its end)."""
    by = frame["p_killed_by"].to_numpy()[:rounds]
    if by.size < rounds:
        by = np.concatenate((by, np.full(rounds - by.size, by[-1] if by.size else 0.0)))
    return by


def head_to_head(
    a: Any,
    b: Any,
    target: Any = None,
    *,
    hp: int | None = None,
    options: Any = None,
    situation: Any = None,
    plan_a: Any = None,
    plan_b: Any = None,
    max_rounds: int = 100,
    fights: int = 100_000,
    seed: int = 0,
    progress: bool | None = None,
    curves: bool = False,
) -> pl.DataFrame:
    """Return one row saying how often build ``a`` beats build ``b`` against the same ``target``.

        ``a`` and ``b`` are creatures of the target's system (each playing ``plan_a`` / ``plan_b``, or
        its best plan), or two per-turn damage Dists with ``hp`` (a textbook race). Columns: ``a``,
        ``b``, ``target``; ``p_a_first``, ``p_tie``, ``p_b_first`` (who downs its copy of the target
        in fewer rounds; a tie is the same round) and ``p_undecided`` (either still fighting after
        ``max_rounds``); ``mean_rounds_a`` / ``_b`` (inf when it never kills); ``p_a_outdamages``,
        ``p_equal_turn``, ``p_b_outdamages`` (one turn each); ``turn_dominance`` and
        ``rounds_dominance`` (the name of the dominating build, or "a" / "b" when both have one name;
    "equal" or "neither", see :func:`dominance`); ``method``
        ("exact" when both fights are, else "simulated") and ``se``, for a simulated race an
        approximate standard error of ``p_a_first`` from the two curves' largest standard errors
        (null when exact); ``cost_a`` / ``cost_b`` (each build's cost in the system's budget unit,
        ``RuleSystem.build_cost``: Annulus Experience; null where the system prices no builds),
        ``cheaper`` (the cheaper build's name, null when the costs are equal or unknown), and the
        probability that the cheaper build does better: ``p_cheaper_first`` (it downs the target in
        fewer rounds) and ``p_cheaper_outdamages`` (its one turn deals more). ``curves=True`` adds ``p_killed_by_a`` and ``p_killed_by_b``, P(T <= t) for
        t = 1..max_rounds as list columns (what :func:`workbench.charts.race_chart` draws).
    """
    from .arguments import check_rounds
    from .combat import rounds_to_kill
    from .systems import system_of
    from .turns import turn_damage

    max_rounds = check_rounds(max_rounds)
    if isinstance(a, Dist) or isinstance(b, Dist):
        if not (isinstance(a, Dist) and isinstance(b, Dist)):
            raise RulesError("give two creatures, or two per-turn damage Dists with hp=", field="b")
        if hp is None:
            raise RulesError("a race of two Dists needs the target's hp=", field="hp")
        turns: list[Dist] = [a, b]
        frames = [rounds_to_kill(t, hp=hp, max_rounds=max_rounds) for t in turns]
        names, target_name = ("a", "b"), f"{hp} HP"
        costs: list[int | None] = [None, None]
    else:
        if target is None:
            raise RulesError("give the target both builds attack", field="target")
        if hp is not None:
            raise RulesError("hp= goes with two per-turn Dists; creatures fight the target's own pools", field="hp")
        from .systems import fight_system

        sys_ = fight_system({"a": a, "b": b, "target": target}, ..., options, situation)  # one system, at the entry
        from .attack_plans import resolve_plan  # one attack named: its uses as the turn allows

        a, plan_a = resolve_plan(a, plan_a, options, target, situation, sys_)
        b, plan_b = resolve_plan(b, plan_b, options, target, situation, sys_)
        run = dict(options=options, situation=situation, max_rounds=max_rounds, fights=fights, seed=seed)
        frames, turns = [], []
        for who, plan in ((a, plan_a), (b, plan_b)):
            try:
                frames.append(rounds_to_kill(who, target, plan=plan, progress=progress, **run))
            except RulesError as err:
                if err.field != "turn":  # "never deals damage": a build that never kills, not an error
                    raise
                frames.append(
                    pl.DataFrame(
                        {
                            "round": [1],
                            "p_killed_at": [0.0],
                            "p_killed_by": [0.0],
                            "exact": [True],
                            "fights": [None],
                            "standard_error": [0.0],
                        }
                    )
                )
            turns.append(turn_damage(who, target, options, situation, plan))
        names, target_name = (a.name, b.name), target.name
        costs = [system_of(who).build_cost(who, options) for who in (a, b)]
    fa, fb = (_curve(f, max_rounds) for f in frames)
    pa, pb = np.diff(fa, prepend=0.0), np.diff(fb, prepend=0.0)
    p_a_first = float(pa @ (1.0 - fb))
    p_b_first = float(pb @ (1.0 - fa))
    p_tie = float(pa @ pb)
    means = []
    for f in frames:
        at, by = f["p_killed_at"].to_numpy(), f["p_killed_by"].to_numpy()
        means.append(float((f["round"].to_numpy() * at).sum() / by[-1]) if by[-1] >= 1 - 1e-9 else math.inf)
    greater, equal, less = _turn_race(_pmf(turns[0]), _pmf(turns[1]))
    xa, xb = _pmf(turns[0]), _pmf(turns[1])
    sf_a, sf_b = (np.cumsum(x[::-1])[::-1] for x in (xa, xb))  # P(X >= x) for x = 0..
    n = max(sf_a.size, sf_b.size)
    sf_a, sf_b = np.pad(sf_a, (0, n - sf_a.size)), np.pad(sf_b, (0, n - sf_b.size))
    exact = all(bool(f["exact"][0]) for f in frames)
    labels = names if names[0] != names[1] else ("a", "b")
    se = None if exact else float(math.hypot(*(float(f["standard_error"].max()) for f in frames)))
    extra = {"p_killed_by_a": [fa.tolist()], "p_killed_by_b": [fb.tolist()]} if curves else {}
    # the cheaper build, when the system prices builds (RuleSystem.build_cost) and they differ
    cheaper = None
    if None not in costs and costs[0] != costs[1]:
        cheaper = 0 if costs[0] < costs[1] else 1  # type: ignore[operator]
    p_cheaper_first = None if cheaper is None else (p_a_first, p_b_first)[cheaper]
    p_cheaper_out = None if cheaper is None else (greater, less)[cheaper]
    out = pl.DataFrame(
        {
            **extra,
            "a": [names[0]],
            "b": [names[1]],
            "target": [target_name],
            "p_a_first": [p_a_first],
            "p_tie": [p_tie],
            "p_b_first": [p_b_first],
            # below 1e-12 is the rounding of the three sums, not a chance
            "p_undecided": [0.0 if (u := 1.0 - p_a_first - p_b_first - p_tie) < 1e-12 else u],
            "mean_rounds_a": [means[0]],
            "mean_rounds_b": [means[1]],
            "p_a_outdamages": [greater],
            "p_equal_turn": [equal],
            "p_b_outdamages": [less],
            "turn_dominance": [dominance(sf_a, sf_b, labels)],
            "rounds_dominance": [dominance(fa, fb, labels)],
            "method": ["exact" if exact else "simulated"],
            "se": [se],
            "cost_a": [costs[0]],
            "cost_b": [costs[1]],
            "cheaper": [None if cheaper is None else labels[cheaper]],
            "p_cheaper_first": [p_cheaper_first],
            "p_cheaper_outdamages": [p_cheaper_out],
        },
        schema_overrides={
            "se": pl.Float64,
            "cost_a": pl.Int64,
            "cost_b": pl.Int64,
            "cheaper": pl.Utf8,
            "p_cheaper_first": pl.Float64,
            "p_cheaper_outdamages": pl.Float64,
        },
    ).select(["a", "b", "target", *[c for c in ("p_killed_by_a", "p_killed_by_b") if curves], *_COLUMNS])
    from .comparison import _clip_probabilities

    return _clip_probabilities(out)  # sums of chances never cross 0 or 1 by float noise
