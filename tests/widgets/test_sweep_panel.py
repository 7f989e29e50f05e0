"""SweepPanel (widgets/sweep.py; issue 17, item 6: "a sweep view: damage or rounds-to-kill (median
with a 10-90 % band) against one target parameter over a range")."""

from __future__ import annotations

import pytest

import workbench as wb
from workbench.widgets import Workbench
from workbench.widgets.sweep import SweepPanel

U = wb.system("unbound")
GUARD, DUELIST = U.catalog().creature("Town guard"), U.catalog().creature("Veteran duelist")


def test_the_panel_is_wb_sweep_over_its_range():
    p = SweepPanel("unbound", [GUARD], DUELIST, parameter="ac", low=10, high=30, step=5)
    assert p.values() == [10, 15, 20, 25, 30]
    want = wb.sweep([GUARD], DUELIST, "ac", [10, 15, 20, 25, 30])
    assert p.value["mean_rounds"].to_list() == pytest.approx(want["mean_rounds"].to_list(), abs=1e-12)
    spec = p.chart.chart.to_dict()
    assert [layer["mark"]["type"] for layer in spec["layer"]] == ["area", "line"]  # the rounds band and line
    p.controls["show"].value = "mean_damage"
    p.background.wait(30)
    assert [layer["mark"]["type"] for layer in p.chart.chart.to_dict()["layer"]] == ["line"]


def test_a_bad_range_is_explained_beside_its_control():
    p = SweepPanel("unbound", [GUARD], DUELIST, parameter="ac", low=10, high=20, step=5)
    before = p.value
    p.controls["step"].value = 0
    assert "step" in p.error and p.value is before
    p.controls["step"].value = 0.01
    assert "at most 200" in p.error
    p.controls["step"].value = 5
    p.background.wait(30)
    assert p.error == ""
    p.controls["high"].value = 5
    # issue 36, item 4: in the words on screen, the box labelled "to" (not the code's "high:")
    assert p.error.startswith("to: must be at least from (10)") and "high" not in p.error


def test_a_new_parameter_starts_at_the_targets_value():
    p = SweepPanel("unbound", [GUARD], DUELIST, parameter="ac", low=10, high=20, step=2)
    p.controls["parameter"].value = "hp"
    p.background.wait(30)
    assert p.low == DUELIST.hp and p.high == DUELIST.hp + 20
    assert set(p.value["parameter"]) == {"target.hp"}


def test_the_app_sweep_tab_follows_the_damage_selection():
    app = Workbench("unbound")
    sweep = app.build_tab("Sweep")
    assert sweep.attackers == [app.damage.attacker] and sweep.target == app.damage.target
    app.damage.target = DUELIST
    sweep.background.wait(30)
    assert sweep.target == DUELIST and set(sweep.value["target"]) == {DUELIST.name}


def test_a_parameter_with_no_effect_says_so():
    """Issue 36, item 5: the target's strength changes nothing in the Town guard's fight against
    the Veteran duelist (the target's attacks do not matter to a passive target): the sweep says
    "no effect" instead of drawing flat lines with no note; a parameter with an effect has no note."""
    from workbench.widgets.sweep import SweepPanel

    U = wb.system("unbound").catalog()
    guard, duelist = U.creature("Town guard"), U.creature("Veteran duelist")
    p = SweepPanel("unbound", [guard], duelist, parameter="str_mod")
    assert "no effect: str_mod" in p.note.value and "Town guard" in p.note.value
    p.controls["parameter"].value = "ac"
    p.background.wait(60)
    assert p.note.value == "" and p.value["mean_rounds"].n_unique() > 1


def test_the_sweep_opens_on_a_parameter_with_an_effect():
    """With no parameter given, the first defense-like field whose change shows is swept."""
    from workbench.widgets.sweep import SweepPanel, flat_builds

    for system in ("unbound", "annulus", "glass_empires", "last_odyssey"):
        p = SweepPanel(system)
        assert not flat_builds(p.value, "mean_rounds"), (system, p.parameter)
        assert p.note.value == "", system


def test_the_app_sweep_plays_the_attack_on_screen_beside_the_best_plan():
    """The user's question: the Sweep tab's line is the Damage tab's attack, as edited, used as
    often as each turn allows (``wb.sweep`` of the pair (attacker, attack)), with the attacker's
    best plan as a reference line. Annulus: the Rat's Bite given Reckless 2 (+2 automatic successes,
    annulus-attacks.txt) against the Giant Centipede swept over its Toughness is the unedited Bite
    two Toughness lower (damage = successes - defense): its mean rounds at Toughness t + 2 equal
    the reference's at t; at Toughness 4 and 5 only the edited Bite downs it."""
    import math

    import polars as pl

    app = Workbench("annulus")
    sweep = app.build_tab("Sweep")
    d = app.damage
    assert sweep.attack == d.attack and sweep.parameter == "toughness"
    # the Rat's one attack is its best plan: one line, said so (two would lie on each other)
    legend = sweep.chart.chart.to_dict()["layer"][-1]["encoding"]["color"]["sort"]
    assert legend == ["Rat · Bite (its best plan too)"]
    assert set(sweep.value["build"]) == {"Rat · Bite", "Rat · best plan (reference)"}
    d.attack = d.attack.replace(upgrades={**d.attack.upgrades, "Reckless": 2})
    sweep.background.wait(60)
    assert sweep.attack == d.attack
    f = sweep.value
    mine = f.filter(pl.col("build") == "Rat · Bite").sort("value")
    ref = f.filter(pl.col("build") == "Rat · best plan (reference)").sort("value")
    want = wb.sweep([(d.attacker, d.attack)], d.target, "toughness", mine["value"].to_list())
    assert mine["mean_rounds"].to_list() == pytest.approx(want["mean_rounds"].to_list(), abs=1e-12)
    by_t = dict(zip(ref["value"].to_list(), ref["mean_rounds"].to_list()))
    for t, m in zip(mine["value"].to_list(), mine["mean_rounds"].to_list()):
        if t - 2 in by_t:
            assert m == pytest.approx(by_t[t - 2], abs=1e-12) or (math.isinf(m) and math.isinf(by_t[t - 2]))
    assert math.isinf(by_t[4]) and math.isfinite(dict(zip(mine["value"], mine["mean_rounds"]))[4])
    legend = sweep.chart.chart.to_dict()["layer"][-1]["encoding"]["color"]["sort"]
    assert legend == ["Rat · Bite", "Rat · best plan (reference)"]


def test_with_an_attack_the_other_attackers_keep_their_best_plan_lines():
    """With ``attack`` only the first attacker plays it; every other attacker keeps its best-plan
    line, as without an attack (it was left out)."""
    import polars as pl

    p = SweepPanel("unbound", [GUARD, DUELIST], DUELIST, parameter="ac", low=10, high=20, step=5, attack=GUARD.weapons[1])
    f = p.value
    assert set(f["build"]) == {
        f"Town guard · {GUARD.weapons[1].name}",
        "Town guard · best plan (reference)",
        "Veteran duelist · best plan",
    }
    want = wb.sweep([DUELIST], DUELIST, "ac", [10, 15, 20]).filter(pl.col("attack") == "best plan")
    got = f.filter(pl.col("build") == "Veteran duelist · best plan")
    assert got["mean_rounds"].to_list() == pytest.approx(want["mean_rounds"].to_list(), abs=1e-12)
