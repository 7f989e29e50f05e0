"""Seeded, vectorised simulation of fights whose effects carry state (docs/combat.md).

``wb.duel`` and ``wb.rounds_to_kill`` call :func:`state_effects` to choose: the exact absorbing
chain when no stateful effect is involved, the system's chain over the state where it fits
(``RuleSystem.state_chain``; for a duel, with ``RuleSystem.duel_couplings`` empty), this
simulation otherwise. The engine here (``Bank``,
``Side``, ``run_fights``) is generic; each rule system registers its own side and its stateful
effects through the protocol (``RuleSystem.simulation_side``, ``RuleSystem.state_effects``,
``RuleSystem.tactics_class``), in its package's ``simulation.py``. See docs/combat.md for what
each rule system's simulation models.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import RulesError
from .engine import MEMO, Bank, Fights, Side, run_fights

__all__ = [
    "can_damage",
    "state_effects",
    "simulate_duel",
    "simulate_rounds_to_kill",
    "fight_rounds",
    "make_side",
    "Bank",
    "Side",
    "Fights",
    "run_fights",
]


def make_side(
    me: Any,
    foe: Any,
    options: Any = None,
    situation: Any = None,
    plan: Any = None,
    tactics: Any = None,
    foe_tactics: Any = None,
) -> Side:
    """Return the simulation side of ``me`` attacking ``foe``, built by ``me``'s rule system
    (``simulation_side``). ``tactics`` (``me``'s) and ``foe_tactics`` (its foe's: both sides of a
    fight read both) must be instances of the system's ``tactics_class``; a system without one takes
    no tactics (RulesError, field ``tactics``)."""
    from ..systems import system_of

    sys = system_of(me)
    from ..fight.simulation import simulation_side

    return simulation_side(sys, me, foe, options, situation, plan, tactics, foe_tactics)


def state_effects(attacker: Any, target: Any, options: Any = None, situation: Any = None, plan: Any = None) -> set[str]:
    """Return the names of the stateful effects of ``attacker`` fighting ``target`` (empty: HP-only),
    as ``attacker``'s rule system names them (``RuleSystem.state_effects``; docs/combat.md lists
    them per system). An effect named here makes ``duel`` / ``rounds_to_kill`` leave the HP-only
    chain: for the system's chain over the state where it fits (``RuleSystem.state_chain``; a duel
    also needs ``RuleSystem.duel_couplings`` empty), else this simulation."""
    from ..systems import system_of

    return set(system_of(attacker).state_effects(attacker, target, options, situation, plan))


def can_damage(me: Any, foe: Any, options: Any = None, situation: Any = None) -> bool:
    """Return False only when no attack of ``me`` can ever deal damage to ``foe`` here: every one
    the rules allow has no outcome with damage above 0 to any pool of the foe or to its armor, nor a
    non-zero value in a column of the system's ``progress_columns`` (a change of the fight's state
    that lets later damage through). An attack the rules refuse now counts as
    able (the fight's state may allow it later: a Swansong at low Vitality). Memoised by value
    (:data:`workbench.simulate.engine.MEMO`): the rows of one compare pair ask once."""
    return MEMO.get(_memo_key(me, foe, options, situation), lambda: _can_damage(me, foe, options, situation))


def _memo_key(me: Any, foe: Any, options: Any, situation: Any) -> tuple[Any, ...]:
    """Return the memo key of :func:`can_damage`'s answer."""
    return ("can_damage", me, foe, options, situation)


def can_damage_many(pairs: list[tuple[Any, Any]], options: Any = None, situation: Any = None) -> list[bool]:
    """Return :func:`can_damage` of each (me, foe) of ``pairs`` (a compare's rows): those not
    memoised yet asked together, one ``usability`` and one ``outcome_tables`` call per system for
    all their attacks (:func:`_can_damage_all`), each answer memoised as :func:`can_damage` keeps
    it. Where the rules refuse the batch, each pair is asked alone (and raises as it would)."""
    from ..systems import system_of

    out: list[Any] = [MEMO.lookup(_memo_key(me, foe, options, situation)) for me, foe in pairs]
    todo: dict[Any, list[int]] = {}
    for i, ((me, _), got) in enumerate(zip(pairs, out)):
        if got is None:
            todo.setdefault(system_of(me), []).append(i)
    for sys, idx in todo.items():
        try:
            got = _can_damage_all(sys, [pairs[i] for i in idx], options, situation)
        except RulesError:
            got = [can_damage(*pairs[i], options, situation) for i in idx]
        for i, answer in zip(idx, got):
            out[i] = answer
            MEMO.put(_memo_key(*pairs[i], options, situation), answer)
    return [bool(x) for x in out]


def _can_damage(me: Any, foe: Any, options: Any, situation: Any) -> bool:
    from ..systems import system_of

    return _can_damage_all(system_of(me), [(me, foe)], options, situation)[0]


def _can_damage_all(sys: Any, pairs: list[tuple[Any, Any]], options: Any, situation: Any) -> list[bool]:
    """Return :func:`can_damage` of each pair of ``sys``'s creatures, every attack of every pair in
    one ``usability`` and one ``outcome_tables`` call."""
    out: list[bool | None] = [None] * len(pairs)
    asked: list[tuple[int, list[Any]]] = []  # (pair, its attacks)
    for j, (me, foe) in enumerate(pairs):
        attacks = list(sys.attacks_of(me))
        if sys.hurts_between_rounds(me, foe, options, situation):
            out[j] = True
        elif not attacks:
            out[j] = False
        else:
            asked.append((j, attacks))
    if asked:

        def grid(rows: list[tuple[int, list[Any]]]) -> tuple[list[Any], list[Any], list[Any]]:
            return (
                [a for _, atk in rows for a in atk],
                [pairs[j][0] for j, atk in rows for _ in atk],
                [pairs[j][1] for j, atk in rows for _ in atk],
            )

        refused = sys.usability(*grid(asked), options, situation)
        rest, at = [], 0
        for j, atk in asked:
            # an attack the rules refuse now counts as able (the fight's state may allow it later)
            if any(r is not None for r in refused[at : at + len(atk)]):
                out[j] = True
            else:
                rest.append((j, atk))
            at += len(atk)
        if rest:
            table = sys.outcome_tables(*grid(rest), options, situation)
            # damage to any of the foe's pools or its armor ("damage", "vitality_damage", "ap_damage":
            # armor points spent now let later damage through); a "self_" column is the attacker's own
            hurt = [c for c in table.columns if c == "damage" or (c.endswith("_damage") and not c.startswith("self_"))]
            # the system's declared progress columns: state changes without damage (RuleSystem.progress_columns)
            hurt += [c for c in sys.progress_columns if c in table.columns and c not in hurt]
            # each pair's matchups are a run of the grid: its answer is whether any hurt column is > 0 there
            pair_of = np.repeat(np.arange(len(rest)), [len(atk) for _, atk in rest])
            any_hurt = np.zeros(len(rest), dtype=bool)
            m = table["matchup"].to_numpy()
            for c in hurt:
                np.logical_or.at(any_hurt, pair_of[m], table[c].to_numpy().astype(np.int64) > 0)
            for (j, _), answer in zip(rest, any_hurt.tolist()):
                out[j] = answer
    return [bool(x) for x in out]


def __getattr__(name: str) -> Any:
    """``workbench.simulate.Tactics``: the tactics model of the one rule system that has one, kept for
    old imports (DeprecationWarning); use ``wb.system(name).tactics_class`` or import it from the
    system's package."""
    if name != "Tactics":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import warnings

    from ..systems import system, systems

    found = [c for c in (system(n).tactics_class for n in systems()) if c is not None]
    if len(found) != 1:
        raise AttributeError(f"{len(found)} rule systems have a tactics model; use wb.system(name).tactics_class")
    cls = found[0]
    warnings.warn(
        f"workbench.simulate.Tactics moved: import {cls.__name__} from {cls.__module__} "
        "(or use wb.system(name).tactics_class)",
        DeprecationWarning,
        stacklevel=2,
    )
    return cls


def _summary_frames(sim: Fights, a: Side, b: Side, max_rounds: int):
    import polars as pl

    assert sim.winner is not None and sim.end_round is not None  # run_fights filled in the results
    n = sim.winner.size
    rounds = np.arange(1, max_rounds + 1)
    won_a = np.bincount(sim.end_round[sim.winner == 1], minlength=max_rounds + 1)[1:] / n
    won_b = np.bincount(sim.end_round[sim.winner == 2], minlength=max_rounds + 1)[1:] / n
    frames = []
    for side, code in ((a, 1), (b, 2)):
        left = side.hp_left()[sim.winner == code]
        if left.size:
            values, counts = np.unique(left, return_counts=True)
            frames.append(
                pl.DataFrame({"side": side.name, "hp_left": values.astype(np.int64), "probability": counts / n})
            )
    hp_left = (
        pl.concat(frames)
        if frames
        else pl.DataFrame(
            {"side": [], "hp_left": [], "probability": []},
            schema={"side": pl.String, "hp_left": pl.Int64, "probability": pl.Float64},
        )
    )
    return pl.DataFrame({"round": rounds, "p_a_wins": won_a, "p_b_wins": won_b}), hp_left


def simulate_duel(
    a: Any,
    b: Any,
    options: Any = None,
    situation: Any = None,
    *,
    first: str = "a",
    max_rounds: int = 100,
    plan_a: Any = None,
    plan_b: Any = None,
    fights: int = 100_000,
    seed: int = 0,
    tactics_a: Any = None,
    tactics_b: Any = None,
    progress: bool | None = None,
    confirm: bool = False,
):
    """Return the DuelResult of ``fights`` seeded simulated fights (``exact`` False, with the standard
    error of ``p_a_wins``). Fights still going after ``max_rounds`` and fights where both fall in
    the same turn count as neither side winning."""
    from ..duel_result import DuelResult

    if not can_damage(a, b, options, situation) and not can_damage(b, a, options, situation):
        import polars as pl

        # neither side can ever hurt the other: nobody wins, exactly, and nothing needs playing
        rounds = pl.DataFrame(
            {"round": np.arange(1, max_rounds + 1), "p_a_wins": np.zeros(max_rounds), "p_b_wins": np.zeros(max_rounds)}
        )
        hp_left = pl.DataFrame(
            {"side": [], "hp_left": [], "probability": []},
            schema={"side": pl.String, "hp_left": pl.Int64, "probability": pl.Float64},
        )
        return DuelResult(a.name, b.name, 0.0, 0.0, 1.0, rounds, hp_left, first, max_rounds)
    side_a = make_side(a, b, options, situation, plan_a, tactics_a, tactics_b)
    side_b = make_side(b, a, options, situation, plan_b, tactics_b, tactics_a)
    sim = run_fights(
        side_a, side_b, fights, first=first, max_rounds=max_rounds, seed=seed, progress=progress, confirm=confirm
    )
    rounds, hp_left = _summary_frames(sim, side_a, side_b, max_rounds)
    pa, pb = float(np.mean(sim.winner == 1)), float(np.mean(sim.winner == 2))
    se = float(np.sqrt(pa * (1 - pa) / fights))
    return DuelResult(
        a.name,
        b.name,
        pa,
        pb,
        max(0.0, 1.0 - pa - pb),
        rounds,
        hp_left,
        first,
        max_rounds,
        exact=False,
        fights=fights,
        standard_error=se,
    )


def simulate_rounds_to_kill(
    attacker: Any,
    target: Any,
    options: Any = None,
    situation: Any = None,
    *,
    plan: Any = None,
    fights: int = 100_000,
    seed: int = 0,
    max_rounds: int = 10_000,
    progress: bool | None = None,
    tactics: Any = None,
    confirm: bool = False,
) -> np.ndarray:
    """Return P(target killed by round t), t = 1.. (the last round any fight ended), by simulation.

    The attacker takes its turn, then the target takes a passive turn (recovery checks, its
    conditions' damage; it does not attack); the attacker never falls (its self-damage counts for
    Swansong but does not stop it).
    """
    if not can_damage(attacker, target, options, situation):
        raise RulesError(
            f"{attacker.name} can never deal damage to {target.name} here, so it is never killed", field="turn"
        )
    side_a = make_side(attacker, target, options, situation, plan, None, tactics)
    side_a.immortal = True
    side_b = make_side(target, attacker, options, situation, None, tactics, None)
    sim = run_fights(
        side_a,
        side_b,
        fights,
        first="a",
        max_rounds=max_rounds,
        seed=seed,
        passive_b=True,
        progress=progress,
        confirm=confirm,
    )
    assert sim.end_round is not None  # run_fights filled in the results
    killed = sim.end_round[sim.winner == 1]
    if killed.size == 0:
        raise RulesError(f"no simulated fight killed {target.name} within {max_rounds} rounds", field="turn")
    last = int(killed.max())
    return np.cumsum(np.bincount(killed, minlength=last + 1)[1:]) / fights


def fight_rounds(
    attacker: Any,
    target: Any,
    options: Any = None,
    situation: Any = None,
    *,
    plan: Any = None,
    fights: int = 100_000,
    seed: int = 0,
    max_rounds: int = 10_000,
    progress: bool | None = None,
    confirm: bool = False,
    can_hurt: bool | None = None,
) -> tuple[np.ndarray, float | None, bool]:
    """Return (P(target killed by round t) for t = 1.., the mean rounds or None, exact) of the fight
    of a pair whose :func:`state_effects` are not empty: the exact chain over its state when the
    attacker's rule system has one that fits (``RuleSystem.state_chain``: the mean is then exact,
    whatever ``max_rounds``), else :func:`simulate_rounds_to_kill` (mean None: the caller reads it
    from the fights). ``wb.rounds_to_kill`` and ``wb.compare`` both call this, so they run one fight.
    ``can_hurt``: :func:`can_damage` of the pair when the caller has it (None: asked here).
    """
    from ..systems import system_of

    if not (can_damage(attacker, target, options, situation) if can_hurt is None else can_hurt):
        raise RulesError(
            f"{attacker.name} can never deal damage to {target.name} here, so it is never killed", field="turn"
        )
    from ..fight.chain import state_chain

    got = state_chain(system_of(attacker), attacker, target, options, situation, plan, max_rounds)
    if got is not None:
        by = got.by if got.by.size else np.zeros(1)
        return np.clip(np.asarray(by, dtype=np.float64), 0.0, 1.0), float(got.mean), True
    by = simulate_rounds_to_kill(
        attacker,
        target,
        options,
        situation,
        plan=plan,
        fights=fights,
        seed=seed,
        max_rounds=max_rounds,
        progress=progress,
        confirm=confirm,
    )
    return by, None, False
