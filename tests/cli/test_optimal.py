"""The ``workbench optimal`` command (workbench/cli.py): wb.optimal_play's policy and its saving over
the best single plan, --out, one-line errors."""

from __future__ import annotations

import polars as pl
import pytest

import workbench as wb
from tests.cli.running import assert_one_line_error, creature, run


def test_optimal_prints_the_policy_and_its_saving(capsys, tmp_path):
    out_file = tmp_path / "policy.csv"
    code, out, err = run(capsys, "optimal", "unbound", "Minotaur", "-t", "Shieldbearer", "--out", str(out_file))
    assert code == 0, err
    policy, frame = wb.optimal_play(creature("unbound", "Minotaur"), creature("unbound", "Shieldbearer"))
    fixed = wb.rounds_to_kill(creature("unbound", "Minotaur"), creature("unbound", "Shieldbearer"), objective="rounds")
    best = float((fixed["round"] * fixed["p_killed_at"]).sum())
    assert f"mean rounds {policy.mean:.4f}; the best single plan {best:.4f}" in out
    assert policy.mean < best  # this pair gains from switching plans
    written = pl.read_csv(out_file)
    assert written["plan"].to_list() == frame["plan"].to_list() and written.height == 40


def test_a_fight_past_the_bounds_is_refused_unless_ignored(capsys):
    """The Destroyer against the Walker: optimal play over its MP and Shell is past the solver's bounds
    (a one-line error naming them); --ignore-state solves over the Walker's HP alone."""
    line = assert_one_line_error(capsys, "optimal", "last_odyssey", "Destroyer", "-t", "Walker")
    assert "target" in line and "too large for optimal play" in line
    code, out, err = run(capsys, "optimal", "last_odyssey", "Destroyer", "-t", "Walker", "--ignore-state")
    assert code == 0, err
    assert "mean rounds" in out


def test_two_pools_list_the_states_of_each_plan(capsys):
    code, out, err = run(capsys, "optimal", "annulus", "Hill Giant", "-t", "Drake", "--ignore-state")
    assert code == 0, err
    assert "(endurance_left, vitality_left)" in out and "every other state" in out
    assert pytest.approx(27.7277, abs=5e-5) == float(out.split("mean rounds ")[1].split(";")[0])


def test_a_fight_with_state_its_system_offers_is_solved_over_it(capsys):
    """Last Odyssey's MP and Shell (state_plans): the policy over (MP left, Shell left, HP left), its
    mean that of wb.optimal_play and below the best single plan of the same fight with its state; the
    runs of HP left per (MP, Shell) are listed, the first 40 of them."""
    code, out, err = run(capsys, "optimal", "last_odyssey", "Elder", "-t", "Prophet")
    assert code == 0, err
    policy, frame = wb.optimal_play(creature("last_odyssey", "Elder"), creature("last_odyssey", "Prophet"))
    fixed = wb.rounds_to_kill(creature("last_odyssey", "Elder"), creature("last_odyssey", "Prophet"), objective="rounds")
    best = float((fixed["round"] * fixed["p_killed_at"]).sum())
    assert "each state of the fight" in out and f"mean rounds {policy.mean:.4f}; the best single plan {best:.4f}" in out
    assert policy.mean < best
    header = next(line for line in out.splitlines() if "hp_left from" in line)
    assert "mp_left" in header and "shell_left" in header
    assert "runs of states; the first 40 (--out writes every state)" in out
