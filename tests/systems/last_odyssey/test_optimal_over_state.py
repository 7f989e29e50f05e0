"""Optimal play over a Last Odyssey fight's state (the planned chain derived from last_odyssey/round.py):
every plan the MP left pays for at each (MP left, Shell left) state, solved by
workbench.state_chain.solve_keyed_policy.
Checked against the fixed-plan chain (state_chain) one plan at a time, and never slower than it."""

from __future__ import annotations

import numpy as np
import pytest

import workbench as wb
from tests.state_chain.fixed_plans import assert_each_plan_is_its_fixed_chain
from workbench.combat import frame_mean
from workbench.fight.chain import state_chain, state_plans

LO = wb.system("last_odyssey")


@pytest.mark.parametrize("pair", [("Grub", "Goon"), ("Boar Rider", "Skirmisher"), ("Ghost", "Skirmisher"), ("Paladin", "Walker")])
def test_each_free_plan_alone_is_the_fixed_plan_chain(pair):
    """A plan that costs no MP is legal at every key: the policy restricted to it is state_chain's fight
    with plan=that label (the Shell absorbing first, CLARIFICATIONS.md, Last Odyssey: Shell), to 1e-12."""
    c = LO.catalog()
    a, t = c.creature(pair[0]), c.creature(pair[1])
    chain = state_plans(LO, a, t)
    assert chain is not None and chain.describe(chain.start) == {"mp_left": a.mp, "shell_left": LO.shell_points(t)}
    free = [
        lab for lab in chain.turn(chain.start) if all(LO.attack_named(a, x).mp_cost == 0 for x in lab.split(" + "))
    ]
    assert free
    assert_each_plan_is_its_fixed_chain(LO, a, t, free)


@pytest.mark.parametrize("pair", [("Grub", "Goon"), ("Boar Rider", "Skirmisher"), ("Ghost", "Skirmisher")])
def test_optimal_play_is_never_slower_than_the_damage_play_or_the_best_fixed_plan(pair):
    c = LO.catalog()
    a, t = c.creature(pair[0]), c.creature(pair[1])
    policy, frame = wb.optimal_play(a, t)
    damage_play = state_chain(LO, a, t).mean
    best_fixed = frame_mean(wb.rounds_to_kill(a, t, objective="rounds"))
    assert policy.mean <= damage_play * (1 + 1e-12) and policy.mean <= best_fixed * (1 + 1e-12)
    opt = wb.rounds_to_kill(a, t, objective="optimal")
    assert opt["exact"].all() and frame_mean(opt) == pytest.approx(policy.mean, rel=1e-9)
    assert frame.columns == ["mp_left", "shell_left", "hp_left", "plan", "mean_rounds_left"]
    start = frame.filter(
        (frame["mp_left"] == a.mp) & (frame["shell_left"] == LO.shell_points(t)) & (frame["hp_left"] == LO.hit_points(t))
    )
    assert start["mean_rounds_left"][0] == policy.mean


@pytest.mark.parametrize("pair", [("Prophet", "Walker"), ("Zombie Hulk", "Destroyer")])
def test_phase_abilities_where_the_damage_play_is_optimal_agree_with_the_phase_chain(pair):
    """Foretell Doom (played once after the third Effect Phase) and Miasma (Poisoned lands in the
    Effect Phase and then lasts): the state is the MP, the Shell, Poisoned, the anima, the Effect
    Phases passed and full HP (last_odyssey/round.py, Combatant). Where the damage play is optimal at every decision, optimal play is phase_chain's own fight:
    mean and P(killed by t) agree to 1e-12."""
    c = LO.catalog()
    a, t = c.creature(pair[0]), c.creature(pair[1])
    policy, frame = wb.optimal_play(a, t)
    fixed = state_chain(LO, a, t)
    by, mean = fixed.by, fixed.mean
    assert policy.mean == pytest.approx(mean, rel=1e-12)
    n = min(by.size, policy.by.size)
    np.testing.assert_allclose(policy.by[:n], by[:n], rtol=0, atol=1e-12)
    assert {"poisoned", "anima_left", "effect_phases"} <= set(frame.columns)


def test_phase_abilities_optimal_play_is_never_slower():
    """The Prophet against the Warrior: optimal play over MP, Shell and the round of Foretell Doom is
    faster than the damage play (phase_chain's own choice), and than the best fixed plan; the Ser
    Tarbh's Dragonslayer is a paradigm action, so round 1 opens with a Paradigm Phase whose damage
    comes before the plan (a Branch per state then, its damage in the frame)."""
    c = LO.catalog()
    a, t = c.creature("Prophet"), c.creature("Warrior")
    policy, _ = wb.optimal_play(a, t)
    assert policy.mean < state_chain(LO, a, t).mean * (1 - 0.1)
    assert policy.mean < frame_mean(wb.rounds_to_kill(a, t, objective="rounds")) * (1 - 1e-9)
    tarbh = c.creature("Ser Tarbh of Greenhill, Form 1: War Leader")
    policy, frame = wb.optimal_play(tarbh, c.creature("Troll"))
    assert policy.mean <= state_chain(LO, tarbh, c.creature("Troll")).mean * (1 + 1e-12)
    assert "taken_before_the_plan" in frame.columns


def test_past_the_solver_bounds_it_is_refused():
    """The Destroyer (105 MP) against the Walker (a Shell of 52): 3,248 (MP, Shell) keys times the Walker's
    HP, past the 200,000 states optimal play's chain takes (counted before it is built): refused (field
    target, bounded work); the fixed-plan chain of the same fight still fits."""
    c = LO.catalog()
    a, t = c.creature("Destroyer"), c.creature("Walker")
    with pytest.raises(wb.RulesError) as err:
        wb.optimal_play(a, t)
    assert err.value.field == "target" and "too large for optimal play" in err.value.message
    assert state_chain(LO, a, t) is not None
