"""Objectives over state (issue 15 item 4): with state, ``objective="rounds"`` / ``"kill_within_K"`` plays the plan
whose own fight is best (``workbench.combat.fight_plan``), and every view of the pair plays the same one.

The hand-worked case is in tests/combat/test_duels_over_state.py (a toy whose chain over its state is the HP
chain). Here the catalog: Annulus's Basilisk against the Cutpurse carries state (its fight is chained over it), and
the highest-mean play is not the fastest.
"""

from __future__ import annotations

import polars as pl
import pytest

import workbench as wb
from workbench.combat import fight_plan
from workbench.simulate import state_effects
from workbench.fight.chain import state_chain

A = wb.system("annulus")


def _mean(frame) -> float:
    return float((frame["round"] * frame["p_killed_at"]).sum())


@pytest.mark.parametrize("objective", ["rounds", "kill_within_1"])
def test_the_chosen_plan_is_the_best_of_every_candidates_own_fight(objective):
    """The plan chosen is, of the damage play (None) and every legal plan fought whole by rounds_to_kill, the one
    with the fewest mean rounds (or the highest P(kill in round 1)), and it beats the damage play here."""
    basilisk, cutpurse = A.catalog().creature("Basilisk"), A.catalog().creature("Cutpurse")
    assert state_effects(basilisk, cutpurse)
    plan, frame = fight_plan(basilisk, cutpurse, None, None, objective)
    assert frame["exact"].all()
    labels = A.turn_tables([(basilisk, cutpurse)], None, None).label
    fights = {p: wb.rounds_to_kill(basilisk, cutpurse, plan=p) for p in [None, *labels]}
    assert all(f["exact"].all() for f in fights.values())
    if objective == "rounds":
        best = min(_mean(f) for f in fights.values())
        assert abs(_mean(frame) - best) < 1e-12 and _mean(frame) < _mean(fights[None]) - 0.1
    else:
        best = max(float(f["p_killed_by"][0]) for f in fights.values())
        assert abs(frame["p_killed_by"][0] - best) < 1e-12 and frame["p_killed_by"][0] > fights[None]["p_killed_by"][0]
    assert plan is not None and fights[plan].equals(frame)


def test_compare_rounds_to_kill_and_duel_play_the_same_plan():
    """compare's best-plan row (plan, mean_rounds, P(kill in 1), turn columns) is rounds_to_kill's fight under the
    objective, to 1e-9; the duel plays that plan for the Basilisk (the same duel as with plan_a given)."""
    basilisk, cutpurse = A.catalog().creature("Basilisk"), A.catalog().creature("Cutpurse")
    plan, frame = fight_plan(basilisk, cutpurse, None, None, "rounds")
    row = wb.compare([basilisk], [cutpurse], objective="rounds", progress=False).filter(
        pl.col("attack") == "best plan"
    )
    assert row["plan"].to_list() == [plan] and row["method"].to_list() == ["exact"]
    assert abs(row["mean_rounds"][0] - _mean(wb.rounds_to_kill(basilisk, cutpurse, objective="rounds"))) < 1e-9
    assert abs(row["p_kill_one_turn"][0] - frame["p_killed_by"][0]) < 1e-9
    assert abs(row["mean_turn_damage"][0] - wb.turn_damage(basilisk, cutpurse, plan=plan).mean()) < 1e-9
    d = wb.duel(basilisk, cutpurse, objective="rounds")
    foe = fight_plan(cutpurse, basilisk, None, None, "rounds")[0]
    given = wb.duel(basilisk, cutpurse, plan_a=plan, plan_b=foe)
    assert d.exact and abs(d.p_a_wins - given.p_a_wins) < 1e-12 and abs(d.p_b_wins - given.p_b_wins) < 1e-12


def test_a_best_plan_row_cut_at_max_rounds_reports_the_chains_own_mean():
    """Glass Empires' Commoner against the Moon Rabbit Operator: the Ray Shield ("immune to all damage"
    until an effect of 6 or more breaks it) makes the fight long, so compare's frame (its default
    max_rounds) leaves mass unresolved. The best-plan row under objective="rounds" reports the exact
    mean of the chain over the state, as rounds_to_kill does, not the truncated sum of its rounds."""
    ge = wb.system("glass_empires").catalog()
    commoner, operator = ge.creature("Commoner"), ge.creature("Moon Rabbit Operator")
    row = wb.compare([commoner], [operator], progress=False, objective="rounds").filter(
        pl.col("attack") == "best plan"
    )
    exact = state_chain(wb.system("glass_empires"), commoner, operator).mean
    assert row["p_unresolved"][0] > 0.01  # the frame is cut: its truncated mean would be far below
    assert row["method"][0] == "exact" and row["mean_rounds"][0] == pytest.approx(exact, rel=1e-9)
