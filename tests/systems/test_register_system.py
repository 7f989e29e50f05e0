"""A fifth rule system is new files plus ``wb.register_system``: the toy system of tests/widget_toy.py
(it implements only what docs/adding-a-system.md asks) passes every public call.

Toy rules (tests/widget_toy.py): one die of ``sides`` + the attack's bonus - the target's armor -
cover, never below the option's minimum; two actions a turn, one attack each ("X + X").
Hand-worked: a Club (d6, bonus 2) against armor 1 deals face + 1, uniform on 2..7: mean 4.5. A turn
"Club + Club" deals the sum of two: mean 9; against 7 HP it kills in one turn unless the sum is
below 7: (2,2), (2,3), (2,4), (3,2), (3,3), (4,2), so P = 30/36 = 5/6.
"""

from __future__ import annotations

import warnings

import numpy as np
import polars as pl
import pytest

import workbench as wb
from tests.widget_toy import TOY, Attack, Creature, Options, Situation

CLUB = Attack("Club", bonus=2)
GOBLIN = Creature("Goblin", hp=7, armor=1, attacks=(CLUB,))
OGRE = Creature("Ogre", hp=12, armor=1, attacks=(Attack("Fist", bonus=3),))


@pytest.fixture
def toy():
    sys = wb.register_system(TOY)
    yield sys
    wb.unregister_system("toy")


def test_registered_system_is_listed_and_found(toy):
    assert "toy" in wb.systems() and wb.system("toy") is TOY and wb.system_of(GOBLIN) is TOY
    with pytest.raises(wb.RulesError) as err:
        wb.register_system(type(TOY)())  # another instance under a taken name
    assert err.value.field == "name"
    assert wb.register_system(type(TOY)(), replace=True).name == "toy"
    wb.register_system(TOY, replace=True)


def test_register_checks_what_every_call_needs():
    class Nameless(type(TOY)):
        name = "Not A Name"

    with pytest.raises(wb.RulesError) as err:
        wb.register_system(Nameless())
    assert err.value.field == "name"
    with pytest.raises(wb.RulesError) as err:
        wb.register_system(object())  # type: ignore[arg-type]
    assert err.value.field == "system"
    with pytest.raises(wb.RulesError) as err:
        wb.register_system("no.such.module")
    assert err.value.field == "system"
    with pytest.raises(wb.RulesError):
        wb.unregister_system("annulus")


def test_one_use_hand_worked(toy):
    d = wb.damage(CLUB, GOBLIN, GOBLIN)
    assert d.offset == 2 and np.allclose(d.pmf, 1 / 6, atol=1e-15) and abs(d.mean() - 4.5) < 1e-15
    table = wb.outcomes(CLUB, GOBLIN, GOBLIN)
    assert abs(table["probability"].sum() - 1) < 1e-15


def test_turn_and_fight_hand_worked(toy):
    assert list(wb.turn_plans(GOBLIN, GOBLIN)) == ["Club + Club"]
    turn = wb.turn_damage(GOBLIN, GOBLIN)
    assert abs(turn.mean() - 9) < 1e-12
    rounds = wb.rounds_to_kill(GOBLIN, GOBLIN)
    assert rounds["exact"][0] and abs(rounds["p_killed_by"][0] - 5 / 6) < 1e-12
    assert abs(float((rounds["round"] * rounds["p_killed_at"]).sum()) - wb.mean_rounds_to_kill(turn, 7)) < 1e-12
    sim = wb.rounds_to_kill(GOBLIN, GOBLIN, simulate=True, fights=20_000, seed=1)
    assert not sim["exact"][0]
    assert abs(sim["p_killed_by"][0] - 5 / 6) < 4 * sim["standard_error"][0]


def test_duel_exact_and_simulated(toy):
    exact = wb.duel(GOBLIN, OGRE)
    assert exact.exact and abs(exact.p_a_wins + exact.p_b_wins + exact.p_draw - 1) < 1e-12
    # the same duel from the two turns' Dists: the one-line textbook form
    same = wb.duel(wb.turn_damage(GOBLIN, OGRE), wb.turn_damage(OGRE, GOBLIN), hp_a=7, hp_b=12)
    assert abs(same.p_a_wins - exact.p_a_wins) < 1e-12
    sim = wb.duel(GOBLIN, OGRE, simulate=True, fights=40_000, seed=2)
    assert not sim.exact and abs(sim.p_a_wins - exact.p_a_wins) < 4 * sim.standard_error


def test_compare_creatures_bare_attacks_pairs_and_frames(toy):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        f = wb.compare([GOBLIN, CLUB, (OGRE, "Fist")], [GOBLIN, OGRE], progress=False)
    club_row = f.filter((pl.col("attacker") == "Goblin") & (pl.col("attack") == "Club")
                        & (pl.col("target") == "Goblin")).row(0, named=True)
    assert abs(club_row["mean_damage"] - 4.5) < 1e-12 and club_row["uses_per_turn"] == 2
    assert abs(club_row["p_kill_one_turn"] - 5 / 6) < 1e-12
    assert set(f["attack"]) >= {"Club", "Fist", "best plan"}
    bestiary = pl.DataFrame({"system": ["toy"], "name": ["Tough"], "hp": [20], "armor": [2]})
    g = wb.compare([GOBLIN], bestiary, progress=False)
    assert set(g["target"]) == {"Tough"} and (g["target_hp"] == 20).all()


def test_situation_options_and_refusals(toy):
    far = Situation(distance=9)  # toy rules: melee reaches 5
    with pytest.raises(wb.RulesError) as err:
        wb.turn_damage(GOBLIN, GOBLIN, situation=far)
    assert err.value.field == "distance"
    floor = wb.turn_damage(GOBLIN, OGRE, Options(minimum=3))
    assert floor.min() == 6


def test_explore_and_io(toy, tmp_path):
    f = wb.explore(TOY, targets=[OGRE], base=GOBLIN, attack=CLUB, vary={"attack.bonus": [0, 2, 4]}, top_k=3,
                   progress=False)
    assert f.height == 3 and f["mean_turn_damage"].to_list() == sorted(f["mean_turn_damage"].to_list(),
                                                                        reverse=True)
    path = wb.save(GOBLIN, tmp_path / "goblin.toml")
    assert wb.load(path) == GOBLIN
    assert wb.from_share_code(wb.share_code(GOBLIN)) == GOBLIN


def test_panels_on_the_registered_system(toy):
    from workbench.widgets import ComparePanel, DamagePanel, DuelPanel

    dmg = DamagePanel(TOY, GOBLIN, GOBLIN, CLUB)
    assert not dmg.error and "4.5" in dmg.stats.value
    duel = DuelPanel(TOY, GOBLIN, OGRE)
    assert not duel.error
    cmp = ComparePanel(TOY, [GOBLIN], [GOBLIN, OGRE])
    assert not cmp.error
