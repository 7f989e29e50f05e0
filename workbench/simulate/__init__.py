"""Seeded, vectorised simulation of fights whose effects carry state (DESIGN.md, Combat).

``wb.duel`` and ``wb.rounds_to_kill`` call :func:`state_effects` to choose: the exact absorbing
chain when no stateful effect is involved, this simulation otherwise. See docs/combat.md for what
each rule system's simulation models.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import RulesError
from .annulus import STATEFUL_TRIGGERS, AnnulusSide, Tactics
from .engine import Bank, Fights, Side, run_fights
from .hp_sides import GlassEmpiresSide, LastOdysseySide, UnboundSide
from .plans import choose_label, is_sequence_plan

__all__ = ["state_effects", "simulate_duel", "simulate_rounds_to_kill", "make_side", "Tactics", "Bank", "Side",
           "Fights", "run_fights"]


def make_side(me: Any, foe: Any, options: Any = None, situation: Any = None, plan: Any = None,
              tactics: Tactics | None = None) -> Side:
    """Return the simulation side of ``me`` attacking ``foe`` under its rule system."""
    from ..systems import system_of

    name = system_of(me).name
    if tactics is not None and name != "annulus":
        raise RulesError(f"tactics apply to Annulus creatures only, not {name}", field="tactics")
    if name == "annulus":
        return AnnulusSide(me, foe, options, situation, plan, tactics)
    cls = {"unbound": UnboundSide, "glass_empires": GlassEmpiresSide, "last_odyssey": LastOdysseySide}.get(name)
    if cls is None:
        raise RulesError(f"no simulation for the {name} rule system", field="attacker")
    return cls(me, foe, options, situation, plan)


def _can_damage(sys: Any, attack: Any, attacker: Any, target: Any, options: Any, situation: Any) -> bool:
    """Return False only when ``attack`` is usable here and can never deal damage to ``target``.

    A set unusable now (e.g. Swansong above half Vitality) may become usable as the fight goes on,
    so it counts as able to damage.
    """
    try:
        return sys.damage(attack, attacker, target, options, situation).max() > 0
    except RulesError:
        return True


def state_effects(attacker: Any, target: Any, options: Any = None, situation: Any = None,
                  plan: Any = None) -> set[str]:
    """Return the names of the stateful effects of ``attacker`` fighting ``target`` (empty: HP-only).

    Annulus: stateful triggers (Burn, Daze, ...), Reckless self-damage, area recharge, Swansong,
    Telegraphed, Counter, First Blood, a target not yet Alert. Glass Empires: armor points of the
    target, jams when a turn has two Attacks. Last Odyssey: a Shell on the target. Unbound: Wild
    Attack in the attacker's plan. An effect named here makes ``duel`` / ``rounds_to_kill`` simulate.
    """
    from ..systems import system_of

    sys = system_of(attacker)
    out: set[str] = set()
    if sys.name == "annulus":
        opts, sit = sys.defaults(options, situation)
        for s in attacker.attack_sets:
            if _can_damage(sys, s, attacker, target, opts, sit):  # triggers need >= 1 damage
                out |= {t.lower() for t in s.triggers if t in STATEFUL_TRIGGERS}
            if s.has("Reckless"):
                out.add("reckless")
            if s.area:
                out.add("recharge")
            if s.alteration in ("Swansong", "Telegraphed"):
                out.add(s.alteration.lower())
            if s.alteration == "Counter" and any(t.defense == s.counter_type for t in target.attack_sets):
                out.add("counter")
            if s.has("First Blood"):
                out.add("first_blood")
        if (sit.target_awareness or target.awareness) != "alert":
            out.add("awareness")
    elif sys.name == "glass_empires":
        opts = sys.options_of(options)
        physical = any("physical" in w.types for w in attacker.weapons)
        if sys.armor_points(target, opts) > 0 and physical:
            out.add("armor points")
        if sys.attacks_per_turn(attacker, opts) > 1 and any(w.jams for w in attacker.weapons):
            out.add("jams")
    elif sys.name == "last_odyssey":
        if sys.shell_points(target) > 0:
            out.add("shell")
    elif sys.name == "unbound":
        from ..systems.unbound.actions import as_actions

        opts, sit = sys.defaults(options, situation)
        if is_sequence_plan(plan):
            actions = as_actions(list(plan))
        else:
            label = choose_label(sys.turn_plans(attacker, target, opts, sit), plan)
            actions = sys.turn_actions(attacker, opts, sit).get(label, []) if isinstance(label, str) else []
        if any(getattr(a, "wild", False) for a in actions):
            out.add("wild attack")
    return out


def _summary_frames(sim: Fights, a: Side, b: Side, max_rounds: int):
    import polars as pl

    n = sim.winner.size
    rounds = np.arange(1, max_rounds + 1)
    won_a = np.bincount(sim.end_round[sim.winner == 1], minlength=max_rounds + 1)[1:] / n
    won_b = np.bincount(sim.end_round[sim.winner == 2], minlength=max_rounds + 1)[1:] / n
    frames = []
    for side, code in ((a, 1), (b, 2)):
        left = side.hp_left()[sim.winner == code]
        if left.size:
            values, counts = np.unique(left, return_counts=True)
            frames.append(pl.DataFrame({"side": side.name, "hp_left": values.astype(np.int64),
                                        "probability": counts / n}))
    hp_left = pl.concat(frames) if frames else pl.DataFrame(
        {"side": [], "hp_left": [], "probability": []}, schema={"side": pl.String, "hp_left": pl.Int64,
                                                                 "probability": pl.Float64})
    return pl.DataFrame({"round": rounds, "p_a_wins": won_a, "p_b_wins": won_b}), hp_left


def simulate_duel(a: Any, b: Any, options: Any = None, situation: Any = None, *, first: str = "a",
                  max_rounds: int = 100, plan_a: Any = None, plan_b: Any = None, fights: int = 100_000,
                  seed: int = 0, tactics_a: Tactics | None = None, tactics_b: Tactics | None = None,
                  progress: bool | None = None):
    """Return the DuelResult of ``fights`` seeded simulated fights (``exact`` False, with the standard
    error of ``p_a_wins``). Fights still going after ``max_rounds`` and fights where both fall in
    the same turn count as neither side winning."""
    from ..combat import DuelResult

    side_a = make_side(a, b, options, situation, plan_a, tactics_a)
    side_b = make_side(b, a, options, situation, plan_b, tactics_b)
    sim = run_fights(side_a, side_b, fights, first=first, max_rounds=max_rounds, seed=seed, progress=progress)
    rounds, hp_left = _summary_frames(sim, side_a, side_b, max_rounds)
    pa, pb = float(np.mean(sim.winner == 1)), float(np.mean(sim.winner == 2))
    se = float(np.sqrt(pa * (1 - pa) / fights))
    return DuelResult(a.name, b.name, pa, pb, max(0.0, 1.0 - pa - pb), rounds, hp_left, first, max_rounds,
                      exact=False, fights=fights, standard_error=se)


def simulate_rounds_to_kill(attacker: Any, target: Any, options: Any = None, situation: Any = None, *,
                            plan: Any = None, fights: int = 100_000, seed: int = 0, max_rounds: int = 10_000,
                            progress: bool | None = None, tactics: Tactics | None = None) -> np.ndarray:
    """Return P(target killed by round t), t = 1.. (the last round any fight ended), by simulation.

    The attacker takes its turn, then the target takes a passive turn (recovery checks, its
    conditions' damage; it does not attack); the attacker never falls (its self-damage counts for
    Swansong but does not stop it).
    """
    side_a = make_side(attacker, target, options, situation, plan)
    side_a.immortal = True
    side_b = make_side(target, attacker, options, situation, None, tactics)
    sim = run_fights(side_a, side_b, fights, first="a", max_rounds=max_rounds, seed=seed, passive_b=True,
                     progress=progress)
    killed = sim.end_round[sim.winner == 1]
    if killed.size == 0:
        raise RulesError(f"no simulated fight killed {target.name} within {max_rounds} rounds", field="turn")
    last = int(killed.max())
    return np.cumsum(np.bincount(killed, minlength=last + 1)[1:]) / fights
