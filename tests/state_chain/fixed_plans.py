"""A check shared by the systems' optimal-play tests: RuleSystem.state_plans restricted to one plan is
the fight of RuleSystem.state_chain with that plan given."""

from __future__ import annotations

import numpy as np
import pytest

from workbench.state_chain import Branch, PlannedChain, solve_keyed_policy
from workbench.fight.chain import state_chain, state_plans


def only(chain: PlannedChain, label: str) -> PlannedChain:
    """``chain`` with the one plan ``label`` at every key (and every branch of dice before the plan)."""

    def turn(key):
        got = chain.turn(key)
        if isinstance(got, dict):
            return {label: got[label]}
        return [Branch(b.probability, b.damage, {label: b.plans[label]}, b.named) for b in got]

    return PlannedChain(chain.start, chain.hp, turn, chain.describe)


def assert_each_plan_is_its_fixed_chain(sys, attacker, target, labels) -> None:
    """For each label, the policy of ``sys.state_plans`` with only that plan has state_chain(plan=label)'s
    mean (relative 1e-12) and P(killed by t) (1e-12)."""
    chain = state_plans(sys, attacker, target)
    for label in labels:
        kp = solve_keyed_policy(only(chain, label), 10_000)
        fixed = state_chain(sys, attacker, target, plan=label)
        by, mean = fixed.by, fixed.mean
        assert kp.mean == pytest.approx(mean, rel=1e-12), label
        n = min(by.size, kp.by.size)
        np.testing.assert_allclose(kp.by[:n], by[:n], rtol=0, atol=1e-12, err_msg=label)
