"""A plan naming one attack (workbench/attack_plans.py): that attack used as often as the turn's
action economy allows, in rounds_to_kill, duel, head_to_head, turn_damage and the CLI (issue 36,
item 1: "the kill numbers ignore the attack you pick")."""

from __future__ import annotations

import numpy as np
import pytest

import workbench as wb
from tests.cli.running import run


def _mean(frame) -> float:
    r, at = frame["round"].to_numpy(), frame["p_killed_at"].to_numpy()
    return float((r * at).sum() / at.sum())


@pytest.fixture(scope="module")
def wolf_bear():
    cat = wb.system("glass_empires").catalog()
    return cat.creatures["Wolf"], cat.creatures["Bear"], cat


def test_the_issue_example_wolf_vs_bear_kill_numbers_differ_per_attack(wolf_bear):
    wolf, bear, _ = wolf_bear
    means = {n: _mean(wb.rounds_to_kill(wolf, bear, plan=n, progress=False)) for n in ("Bite", "Rock", "Heavy melee")}
    turns = {n: wb.turn_damage(wolf, bear, plan=n).mean() for n in means}
    assert turns == pytest.approx({"Bite": 3.1667, "Rock": 1.0556, "Heavy melee": 4.2222}, abs=1e-4)
    assert means == pytest.approx({"Bite": 8.046, "Rock": 23.235, "Heavy melee": 6.124}, abs=1e-3)
    # the best plan (plan=None) is the Wolf's own Bite
    assert _mean(wb.rounds_to_kill(wolf, bear, progress=False)) == pytest.approx(means["Bite"], rel=1e-12)


def test_an_attack_model_and_its_name_agree_and_names_ignore_case(wolf_bear):
    wolf, bear, cat = wolf_bear
    by_model = wb.rounds_to_kill(wolf, bear, plan=cat.attacks["Heavy melee"], progress=False)
    by_name = wb.rounds_to_kill(wolf, bear, plan="heavy MELEE", progress=False)
    assert np.allclose(by_model["p_killed_by"].to_numpy(), by_name["p_killed_by"].to_numpy(), atol=1e-15)


def test_uses_follow_the_action_economy():
    from workbench.attack_plans import attack_plan

    sys = wb.system("annulus")
    cat = sys.catalog()
    rat = next(iter(cat.creatures.values()))
    who, plan = attack_plan(rat, sys.attacks_of(rat)[0], None, sys)
    assert who is rat and len(plan) == 2  # two one-action sets a turn: "Bite + Bite", the best plan
    assert wb.turn_damage(rat, rat, plan="Bite").mean() == pytest.approx(wb.turn_damage(rat, rat).mean())


def test_an_unknown_attack_is_an_error_naming_plan(wolf_bear):
    wolf, bear, _ = wolf_bear
    with pytest.raises(wb.RulesError) as err:
        wb.rounds_to_kill(wolf, bear, plan="Spoon")
    assert err.value.field == "plan" and "Spoon" in str(err.value) and "Bite" in str(err.value)


def test_duel_and_race_play_the_named_attack(wolf_bear):
    wolf, bear, _ = wolf_bear
    best = wb.duel(wolf, bear).p_a_wins
    heavy = wb.duel(wolf, bear, plan_a="Heavy melee").p_a_wins
    assert heavy > best * 3
    row = wb.head_to_head(wolf, wolf, bear, plan_a="Rock", plan_b="Heavy melee").row(0, named=True)
    assert row["mean_rounds_a"] == pytest.approx(23.235, abs=1e-3) and row["mean_rounds_b"] == pytest.approx(
        6.124, abs=1e-3
    )


def test_cli_duel_and_race_take_attack_a(capsys):
    code, out, err = run(capsys, "duel", "glass_empires", "Wolf", "Bear", "--attack-a", "Heavy melee")
    assert code == 0 and "Wolf wins 1.79%" in out, err
    code, out, err = run(
        capsys, "race", "glass_empires", "Wolf", "Wolf", "-t", "Bear", "--attack-a", "Rock", "--attack-b", "Heavy melee"
    )
    assert code == 0, err
    assert "23.235" in out and "6.124" in out
    code, out, err = run(capsys, "duel", "glass_empires", "Wolf", "Bear", "--attack-a", "Spoon")
    assert code != 0 and "Spoon" in err


def test_an_edited_attack_takes_the_place_of_the_one_of_its_name():
    """An Annulus Bite edited in the app (Flashy added) is played by the Rat in place of its own
    Bite (two sets of one name are refused by the rules: "name them apart")."""
    from workbench.attack_plans import holding

    sys = wb.system("annulus")
    rat = sys.catalog().creature("Rat")
    bite = sys.attacks_of(rat)[0]
    flashy = bite.replace(upgrades={**bite.upgrades, "Flashy": 1})
    who = holding(rat, flashy, sys)
    assert sys.attacks_of(who) == [flashy]
    target = sys.catalog().creature("Wolf")
    frame = wb.rounds_to_kill(rat, target, plan=flashy, progress=False)
    assert frame["p_killed_by"].to_numpy()[-1] > 0.99
