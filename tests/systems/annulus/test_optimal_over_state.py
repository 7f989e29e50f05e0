"""Optimal play over an Annulus fight's state (annulus/round.py, the planned chain of workbench/fight/chain.py): each round's plan
chosen after the area sets' recharge dice and a Telegraphed strike (Fight.planned_turn: one Branch per
state then), every legal plan there, solved by workbench.state_chain.solve_keyed_policy. Checked
against the fixed-plan chain (state_chain), by a rule worked out by hand, and never slower."""

from __future__ import annotations

import numpy as np
import pytest

import workbench as wb
from tests.state_chain.fixed_plans import assert_each_plan_is_its_fixed_chain
from workbench.combat import frame_mean
from workbench.fight.chain import state_chain, state_plans

AN = wb.system("annulus")


def _pair(a: str, t: str):
    return AN.catalog().creature(a), AN.catalog().creature(t)


def test_each_plan_alone_is_the_fixed_plan_chain():
    """The Ogre's two plans (Crushing Blow; Punch + Punch) are legal in every state: each alone is
    state_chain's fight with plan=that label, to 1e-12 (knockdown and Daze carried in the key)."""
    a, t = _pair("Ogre", "Drake")
    chain = state_plans(AN, a, t)
    assert [list(b.plans) for b in chain.turn(chain.start)] == [["Punch + Punch", "Crushing Blow"]]
    assert_each_plan_is_its_fixed_chain(AN, a, t, ["Punch + Punch", "Crushing Blow"])


def test_knock_it_down_then_punch():
    """annulus-attacks.txt: a Trigger Die of 11+ leaves the target Prone "until they successfully recover
    from it", and "Attackers within 5 meters or less of a prone target gain an advantage on attack rolls
    against them". So against a Prone Drake the Ogre's two Punches, each with advantage, beat another
    Crushing Blow (the Drake is already down) at every HP left: the policy punches in every Prone state,
    and knocking the Drake down first makes the fight shorter than any single plan played throughout."""
    a, t = _pair("Ogre", "Drake")
    policy, frame = wb.optimal_play(a, t)
    prone = frame.filter(frame["conditions"].str.contains("prone"))
    assert prone.height > 0 and (prone["plan"] == "Punch + Punch").all()
    standing = frame.filter(~frame["conditions"].str.contains("prone"))
    start = standing.filter(standing["hp_left"] == standing["hp_left"].max())
    assert "Crushing Blow" in start["plan"].to_list()
    best_fixed = frame_mean(wb.rounds_to_kill(a, t, objective="rounds"))
    assert policy.mean < best_fixed * (1 - 0.1)  # more than 10% fewer rounds than the best single plan
    opt = wb.rounds_to_kill(a, t, objective="optimal")
    assert opt["exact"].all() and frame_mean(opt) == pytest.approx(policy.mean, rel=1e-9)


@pytest.mark.parametrize("pair", [("Drake", "Ogre"), ("Storm Priest", "Ogre"), ("Storm Priest", "Berserker")])
def test_decisions_after_the_recharge_dice_and_a_telegraphed_strike(pair):
    """The Drake's Fire Breath and Tail Sweep are area sets ("If the result is a 5 or a 6, the set is
    recharged"), the Storm Priest's Thunderclap is Telegraphed (it strikes at the start of the next turn):
    the plan is chosen after those dice, one Branch per state they leave. In these fights the damage
    play's plan is the optimal one at every decision, so optimal play is state_chain's own fight: its mean
    and P(killed by t) agree to 1e-12, which they would not if a branch's dice or damage were wrong."""
    a, t = _pair(*pair)
    policy, frame = wb.optimal_play(a, t)
    got = state_chain(AN, a, t)
    by, mean = got.by, got.mean
    assert policy.mean == pytest.approx(mean, rel=1e-12)
    n = min(by.size, policy.by.size)
    np.testing.assert_allclose(policy.by[:n], by[:n], rtol=0, atol=1e-12)
    assert "area_sets_charged" in frame.columns
    chain = state_plans(AN, a, t)
    branches = [b for k in (chain.start,) for b in chain.turn(k)]
    assert sum(b.probability for b in branches) == pytest.approx(1.0, abs=1e-15)


def test_never_slower_than_the_damage_play_over_the_catalog():
    """Every catalog pair whose fight carries state and chains exactly: optimal play's mean is at most the
    damage play's (state_chain), and in some pairs below it."""
    cr = list(AN.catalog().creatures.values())
    gains = 0
    for a in cr:
        for t in cr:
            if not AN.state_effects(a, t):
                continue
            got = state_chain(AN, a, t)
            if got is None or not np.isfinite(got.mean):
                continue
            policy, _ = wb.optimal_play(a, t)
            assert policy.mean <= got.mean * (1 + 1e-12), (a.name, t.name)
            gains += policy.mean < got.mean * (1 - 1e-9)
    assert gains >= 10
