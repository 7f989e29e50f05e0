"""Optimal play over a Last Odyssey fight's state (last_odyssey/state_chain.py, state_plans): every plan
the MP left pays for at each (MP left, Shell left) key, solved by workbench.state_chain.solve_keyed_policy.
Checked against the fixed-plan chain (state_chain) one plan at a time, and never slower than it."""

from __future__ import annotations

import pytest

import workbench as wb
from tests.state_chain.fixed_plans import assert_each_plan_is_its_fixed_chain
from workbench.combat import frame_mean

LO = wb.system("last_odyssey")


@pytest.mark.parametrize("pair", [("Grub", "Goon"), ("Boar Rider", "Skirmisher"), ("Ghost", "Skirmisher"), ("Paladin", "Walker")])
def test_each_free_plan_alone_is_the_fixed_plan_chain(pair):
    """A plan that costs no MP is legal at every key: the policy restricted to it is state_chain's fight
    with plan=that label (the Shell absorbing first, CLARIFICATIONS.md, Last Odyssey: Shell), to 1e-12."""
    c = LO.catalog()
    a, t = c.creature(pair[0]), c.creature(pair[1])
    chain = LO.state_plans(a, t)
    assert chain is not None and chain.start == (a.mp, LO.shell_points(t))
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
    damage_play = LO.state_chain(a, t)[1]
    best_fixed = frame_mean(wb.rounds_to_kill(a, t, objective="rounds"))
    assert policy.mean <= damage_play * (1 + 1e-12) and policy.mean <= best_fixed * (1 + 1e-12)
    opt = wb.rounds_to_kill(a, t, objective="optimal")
    assert opt["exact"].all() and frame_mean(opt) == pytest.approx(policy.mean, rel=1e-9)
    assert frame.columns == ["mp_left", "shell_left", "hp_left", "plan", "mean_rounds_left"]
    start = frame.filter(
        (frame["mp_left"] == a.mp) & (frame["shell_left"] == LO.shell_points(t)) & (frame["hp_left"] == LO.hit_points(t))
    )
    assert start["mean_rounds_left"][0] == policy.mean


def test_phase_abilities_are_not_offered_per_plan():
    """Miasma's Poisoned and the other phase abilities carry state that state_plans does not enumerate:
    optimal play over it is refused, naming the state and the way round."""
    c = LO.catalog()
    names = c.names()["creatures"]
    a = next(c.creature(n) for n in names if c.creature(n).phase_abilities)
    t = next(
        c.creature(n)
        for n in names
        if LO.state_effects(a, c.creature(n)) - {"mp", "shell"} and LO.state_plans(a, c.creature(n)) is None
    )
    with pytest.raises(wb.RulesError) as err:
        wb.optimal_play(a, t)
    assert err.value.field == "objective" and "ignore_state=True" in err.value.message
