"""Optimal play over an Unbound fight's state (unbound/round.py: the planned chain derived from it): every legal plan at
each braced-weapon mask ("While braced ... the character gains advantage", unbound-d20-attacking.txt),
solved by workbench.state_chain.solve_keyed_policy; checked against the fixed-plan chain one plan at a
time, and never slower than the damage play or the best fixed plan."""

from __future__ import annotations

import pytest

import workbench as wb
from tests.state_chain.fixed_plans import assert_each_plan_is_its_fixed_chain
from workbench.combat import frame_mean
from workbench.fight.chain import state_chain, state_plans

UB = wb.system("unbound")


@pytest.mark.parametrize("pair", [("Crossbow sniper", "Town guard"), ("Musketeer", "Battle mage")])
def test_each_plan_alone_is_the_fixed_plan_chain(pair):
    c = UB.catalog()
    a, t = c.creature(pair[0]), c.creature(pair[1])
    chain = state_plans(UB, a, t)
    labels = list(chain.turn(chain.start))
    braces = [lab for lab in labels if "Brace" in lab]
    assert braces and len(labels) > len(braces)  # the fight offers a Brace and plans without one
    assert_each_plan_is_its_fixed_chain(UB, a, t, labels)


def test_optimal_play_over_the_braces():
    c = UB.catalog()
    a, t = c.creature("Crossbow sniper"), c.creature("Town guard")
    policy, frame = wb.optimal_play(a, t)
    assert policy.mean <= state_chain(UB, a, t).mean * (1 + 1e-12)
    assert policy.mean <= frame_mean(wb.rounds_to_kill(a, t, objective="rounds")) * (1 + 1e-12)
    assert frame.columns == ["braced", "hp_left", "plan", "mean_rounds_left"]
    assert set(frame["braced"]) >= {""}  # the fight starts with nothing braced
    opt = wb.rounds_to_kill(a, t, objective="optimal")
    assert frame_mean(opt) == pytest.approx(policy.mean, rel=1e-9)
