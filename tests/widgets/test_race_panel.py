"""RacePanel (widgets/race.py; issue 18, item 3, "the app's panels use them": who downs the same
target first how often, one turn each, dominance, and the cheaper build)."""

from __future__ import annotations

import pytest

import workbench as wb
from workbench.widgets import Workbench
from workbench.widgets.race import RacePanel

U = wb.system("unbound").catalog()
GUARD, RANGER, DUELIST = U.creature("Town guard"), U.creature("Ranger"), U.creature("Veteran duelist")


def test_the_panel_is_head_to_head_with_its_curves():
    p = RacePanel("unbound", GUARD, RANGER, DUELIST)
    want = wb.head_to_head(GUARD, RANGER, DUELIST).row(0, named=True)
    got = p.value.row(0, named=True)
    for k in ("p_a_first", "p_tie", "p_b_first", "p_a_outdamages", "p_b_outdamages"):
        assert got[k] == pytest.approx(want[k], abs=1e-12)
    assert got["rounds_dominance"] == want["rounds_dominance"] and got["method"] == "exact"
    spec = p.chart.chart.to_dict()
    assert "Town guard" in str(spec) and "Ranger" in str(spec)
    assert f"{want['p_a_first']:.1%}" in p.summary.value and "exact" in p.summary.value
    assert "cheaper" not in p.summary.value  # Unbound prices no builds


def test_picking_a_rival_races_it():
    p = RacePanel("unbound", GUARD, RANGER, DUELIST)
    p.controls["b"].value = "Berserker"
    p.background.wait(30)
    assert p.b.name == "Berserker" and p.value["b"][0] == "Berserker"


def test_an_annulus_race_names_the_cheaper_build_and_says_it_is_exact():
    """The Rat's Choke and the Centipede's conditions are chained over the state (annulus/round.py)."""
    A = wb.system("annulus").catalog()
    p = RacePanel("annulus", A.creature("Rat"), A.creature("Giant Centipede"), A.creature("Wolf"), fights=5_000)
    row = p.value.row(0, named=True)
    assert row["cheaper"] == "Rat" and row["method"] == "exact"
    assert "cheaper build: Rat (3 vs 9)" in p.summary.value and "exact" in p.summary.value


def test_a_simulated_race_says_so_with_its_error(state_too_large):
    """Last Odyssey's Miasma (between rounds), its state too large for the chain here: the Zombie
    Hulk's fight is simulated and the panel says so."""
    L = wb.system("last_odyssey").catalog()
    p = RacePanel("last_odyssey", L.creature("Zombie Hulk"), L.creature("Cop"), L.creature("Troll"), fights=5_000)
    assert p.value["method"][0] == "simulated" and "simulated, s.e." in p.summary.value


def test_the_app_race_tab_follows_the_damage_selection():
    app = Workbench("unbound")
    race = app.build_tab("Race")
    assert race.a == app.damage.attacker and race.target == app.damage.target
    app.damage.target = DUELIST
    race.background.wait(30)
    assert race.target == DUELIST and race.value["target"][0] == DUELIST.name


def test_the_app_race_plays_the_damage_tabs_attack_beside_the_best_plan():
    """Issue 36, item 1: the Wolf with Rock picked races with Rock (23.24 mean rounds against the
    Bear); its best plan (Bite, 8.05) is the labelled reference line."""
    from workbench.widgets import Workbench

    app = Workbench("glass_empires")
    d = app.damage
    cat = app.system.catalog()
    d.update(attacker=cat.creature("Wolf"), target=cat.creature("Bear"), attack=cat.attacks["Rock"])
    race = app.build_tab("Race")
    race.background.wait(60)
    row = race.value.row(0, named=True)
    assert row["mean_rounds_a"] == pytest.approx(23.235, abs=1e-3)
    assert race.reference.row(0, named=True)["mean_rounds_a"] == pytest.approx(8.046, abs=1e-3)
    assert "plays <b>Rock</b>" in race.summary.value and "reference, Wolf on its best plan" in race.summary.value
    d.attack = cat.attacks["Heavy melee"]
    race.background.wait(60)
    assert race.value.row(0, named=True)["mean_rounds_a"] == pytest.approx(6.124, abs=1e-3)
