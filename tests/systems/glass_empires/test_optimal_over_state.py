"""Optimal play over a Glass Empires fight's state (glass_empires/state_chain.py, state_plans): every
legal plan at each (armor points left, jammed, Ray Shield up) key, solved by
workbench.state_chain.solve_keyed_policy; checked against the fixed-plan chain one plan at a time."""

from __future__ import annotations

import pytest

import workbench as wb
from tests.state_chain.fixed_plans import assert_each_plan_is_its_fixed_chain
from workbench.fight.chain import state_chain, state_plans

GE = wb.system("glass_empires")


@pytest.mark.parametrize(
    "pair",
    [("Moon Rabbit Operator", "Ant, Giant"), ("Moon Rabbit Operator", "Moon Rabbit Operator")],
)
def test_each_plan_alone_is_the_fixed_plan_chain(pair):
    """Armor points stay spent (CLARIFICATIONS.md, Glass Empires) and a broken Ray Shield stays broken:
    the policy restricted to one plan is state_chain's fight with plan=that label, to 1e-12."""
    c = GE.catalog()
    a, t = c.creature(pair[0]), c.creature(pair[1])
    chain = state_plans(GE, a, t)
    labels = list(chain.turn(chain.start))
    assert len(labels) >= 2
    assert_each_plan_is_its_fixed_chain(GE, a, t, labels)
    policy, frame = wb.optimal_play(a, t)
    assert policy.mean <= min(state_chain(GE, a, t, plan=lab).mean for lab in labels) * (1 + 1e-12)
    assert "armor_points_left" in frame.columns and frame["plan"].is_in(labels).all()
