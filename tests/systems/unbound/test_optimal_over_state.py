"""Optimal play over an Unbound fight's state (unbound/simulation.py, state_plans): every legal plan at
each braced-weapon mask ("While braced ... the character gains advantage", unbound-d20-attacking.txt),
solved by workbench.state_chain.solve_keyed_policy; checked against the fixed-plan chain one plan at a
time, and never slower than the damage play or the best fixed plan."""

from __future__ import annotations

import numpy as np
import pytest

import workbench as wb
from workbench.combat import frame_mean
from workbench.state_chain import PlannedChain, solve_keyed_policy

UB = wb.system("unbound")


@pytest.mark.parametrize("pair", [("Crossbow sniper", "Town guard"), ("Musketeer", "Battle mage")])
def test_each_plan_alone_is_the_fixed_plan_chain(pair):
    c = UB.catalog()
    a, t = c.creature(pair[0]), c.creature(pair[1])
    chain = UB.state_plans(a, t)
    labels = list(chain.turn(chain.start))
    braces = [lab for lab in labels if "Brace" in lab]
    assert braces and len(labels) > len(braces)  # the fight offers a Brace and plans without one
    for label in labels:
        only = PlannedChain(chain.start, chain.hp, lambda k, lab=label: {lab: chain.turn(k)[lab]}, chain.describe)
        kp = solve_keyed_policy(only, 10_000)
        by, mean = UB.state_chain(a, t, plan=label)[:2]
        assert kp.mean == pytest.approx(mean, rel=1e-12)
        n = min(by.size, kp.by.size)
        np.testing.assert_allclose(kp.by[:n], by[:n], rtol=0, atol=1e-12)


def test_optimal_play_over_the_braces():
    c = UB.catalog()
    a, t = c.creature("Crossbow sniper"), c.creature("Town guard")
    policy, frame = wb.optimal_play(a, t)
    assert policy.mean <= UB.state_chain(a, t)[1] * (1 + 1e-12)
    assert policy.mean <= frame_mean(wb.rounds_to_kill(a, t, objective="rounds")) * (1 + 1e-12)
    assert frame.columns == ["braced", "hp_left", "plan", "mean_rounds_left"]
    assert set(frame["braced"]) >= {""}  # the fight starts with nothing braced
    opt = wb.rounds_to_kill(a, t, objective="optimal")
    assert frame_mean(opt) == pytest.approx(policy.mean, rel=1e-9)
