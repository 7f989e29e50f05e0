"""The Workbench app (widgets/app.py), headless: each system's tabs show the engine's numbers, the duel
tab, switching systems, CSS classes, the build tab, serialising every tab for Voila.

Oracles: the engine (wb.damage, wb.duel, wb.compare) on the models the app holds. Button.click()
swallows handler exceptions, so every button test asserts on the resulting state.
"""

from __future__ import annotations

import pytest

import workbench as wb
from widgets import AnnulusAttackBuilder, Workbench
from widgets.app import OPENING

SYSTEMS = ["annulus", "unbound", "last_odyssey", "glass_empires"]


def pmf_of(chart) -> dict[int, float]:
    spec = chart.to_dict()
    rows = [r for values in spec["datasets"].values() for r in values if "probability" in r]
    return {r["damage"]: r["probability"] for r in rows if r["probability"] > 0}


def test_each_system_builds_and_its_tabs_show_the_engines_numbers(app):
    for name in SYSTEMS:
        app.system_select.value = name
        s = wb.system(name)
        v = app.value
        assert v["system"] == name and type(v["attacker"]).system == name
        first, second = list(s.catalog().creatures.values())[:2]
        # a system whose first two creatures show little opens on another matchup (issue 36, item 5)
        opening = [s.catalog().creature(n) for n in OPENING[name]] if name in OPENING else [first, second]
        assert [v["attacker"], v["target"]] == opening                      # the catalog defaults
        expected = wb.damage(v["attack"], v["attacker"], v["target"])
        assert app.damage.value.isclose(expected)
        assert pmf_of(app.damage.chart.chart) == pytest.approx(expected.to_dict(), abs=1e-12)
        assert f"{expected.mean():.3f}" in app.damage.stats.value
        assert list(app.panels) == ["Damage"]                               # other tabs are lazy
        app.tabs.selected_index = 2                                          # Compare
        cmp = app.panels["Compare"]
        ref = wb.compare([first], list(s.catalog().creatures.values())[:6], best_plan=False)
        r = ref.row(0, named=True)
        row = cmp.value.filter((cmp.value["build"] == f"{r['attacker']}: {r['attack']}")
                               & (cmp.value["target"] == r["target"])).row(0, named=True)
        assert row["mean_turn_damage"] == pytest.approx(r["mean_turn_damage"], abs=1e-12)
        assert row["mean_rounds"] == pytest.approx(r["mean_rounds"], rel=1e-12)
        app.tabs.selected_index = 3                                          # Build
        assert app.panels["Build"].value == app.value["attack"]
    app.system_select.value = "annulus"


def test_duel_tab_equals_wb_duel():
    app = Workbench("glass_empires")
    duel = app.build_tab("Duel")
    expected = wb.duel(app.value["attacker"], app.value["target"])
    assert duel.value.p_a_wins == pytest.approx(expected.p_a_wins, abs=1e-12)
    assert duel.value.exact and ">exact<" in duel.badge.value
    assert "wb-duel-run" in duel.run_button._dom_classes


def test_switching_system_rebuilds_tabs_with_that_catalog(app):
    app.system_select.value = "unbound"
    app.tabs.selected_index = 1
    duel_before = app.panels["Duel"]
    app.system_select.value = "glass_empires"
    assert list(app.panels) == ["Damage"] and app.tabs.selected_index == 0
    assert type(app.value["attacker"]).system == "glass_empires"
    app.tabs.selected_index = 1
    assert app.panels["Duel"] is not duel_before and type(app.panels["Duel"].a).system == "glass_empires"
    app.system_select.value = "annulus"


def test_css_classes_for_browser_tests(app):
    assert "wb-system-select" in app.system_select._dom_classes
    assert "wb-damage-chart" in app.damage.chart._dom_classes
    assert "wb-damage-stats" in app.damage.stats._dom_classes
    assert "wb-save" in app.files.save_button._dom_classes and "wb-share-code" in app.files.code._dom_classes
    app.tabs.selected_index = 3
    assert isinstance(app.panels["Build"].builder, AnnulusAttackBuilder)
    assert "wb-upgrades" in app.panels["Build"].builder.upgrades_box._dom_classes
    assert all(w.description for w in (app.system_select, app.files.path, app.files.code))


def test_build_tab_edits_the_damage_tabs_attack(app):
    app.system_select.value = "annulus"
    b = app.build_tab("Build").builder
    b.controls["rank:Precise"].value = b.controls["rank:Precise"].value + 1
    assert app.damage.attack == b.value and app.value["attack"] == b.value
    assert app.damage.value.isclose(wb.damage(b.value, app.damage.attacker, app.damage.target))


def test_every_tab_serialises_for_voila(tmp_path):
    """Voilà sends each widget's state to the browser: the whole app (all tabs built) must embed,
    and the CSS classes a browser test looks for must be in the page."""
    from ipywidgets.embed import embed_minimal_html

    app = Workbench("annulus")
    for tab in ("Duel", "Compare", "Build"):
        app.build_tab(tab)
    page = tmp_path / "app.html"
    embed_minimal_html(page, views=[app], title="workbench")
    text = page.read_text()
    for cls in ("wb-system-select", "wb-damage-chart", "wb-damage-stats", "wb-duel-run", "wb-duel-result",
                "wb-upgrades", "wb-save", "wb-share-code", "wb-compare-chart"):
        assert cls in text, cls


def test_duel_tab_plays_the_damage_tabs_attack_beside_the_best_plan():
    """Issue 36, item 1: Glass Empires, the Wolf against the Bear with Heavy melee picked: the Duel
    plays Heavy melee for side A (wb.duel(plan_a=attack)), the best plan (Bite) as a reference column."""
    app = Workbench("glass_empires")
    d = app.damage
    cat = app.system.catalog()
    d.update(attacker=cat.creature("Wolf"), target=cat.creature("Bear"), attack=cat.attacks["Heavy melee"])
    duel = app.build_tab("Duel")
    duel.background.wait(60)
    want = wb.duel(d.attacker, d.target, plan_a=cat.attacks["Heavy melee"])
    best = wb.duel(d.attacker, d.target)
    assert duel.value.p_a_wins == pytest.approx(want.p_a_wins, abs=1e-12)
    assert duel.reference.p_a_wins == pytest.approx(best.p_a_wins, abs=1e-12)
    assert duel.value.p_a_wins != pytest.approx(best.p_a_wins)
    assert "A plays Heavy melee" in duel.stats.value and "best plan (reference)" in duel.stats.value


def test_compare_tab_holds_the_damage_matchup_and_opens_its_detail_on_it():
    """Issue 36, item 5: the Compare tab opened on the catalog's first four (Glass Empires: 0.44 and
    1.06 everywhere) with its detail on Rat against Rat; now the Damage tab's attacker and target are
    in the grid and the detail is their matchup, with the best plan as a reference line."""
    app = Workbench("glass_empires")
    cmp = app.build_tab("Compare")
    assert cmp.attackers[0].name == "Wolf" and cmp.targets[0].name == "Bear"
    assert cmp.selected == ("Wolf: Bite", "Bear") and "reference, Wolf's best plan (Bite)" in cmp.detail_stats.value


def test_compare_detail_falls_back_to_the_attackers_own_attack_and_the_fight_legend_is_whole():
    """A catalog attack picked for the Wolf is not in the grid (it lists each attacker's own attacks):
    the detail opens on the Wolf's Bite against the Bear. The fight chart's legend sits below the
    chart, its labels whole (they were cut at the panel's edge: "Heav", "best p")."""
    app = Workbench("glass_empires")
    d = app.damage
    d.attack = app.system.catalog().attacks["Heavy melee"]
    d.background.wait(30)
    d.fight_background.wait(30)
    legend = d.fight_chart.chart.to_dict()["config"]["legend"]
    assert legend["orient"] == "bottom" and legend["labelLimit"] >= 300
    cmp = app.build_tab("Compare")
    assert cmp.selected == ("Wolf: Bite", "Bear")


def test_a_side_a_picked_on_the_duel_tab_plays_its_best_plan():
    """The Damage tab's attack belongs to the Damage tab's attacker: a side A picked on the Duel
    tab itself (the Boar) plays its best plan, not the Wolf's Heavy melee."""
    app = Workbench("glass_empires")
    d = app.damage
    cat = app.system.catalog()
    d.attack = cat.attacks["Heavy melee"]
    duel = app.build_tab("Duel")
    duel.background.wait(60)
    assert duel.playing() == cat.attacks["Heavy melee"]
    boar = cat.creature("Boar")
    duel.editors["a"].value = boar
    duel.run_button.click()
    duel.background.wait(60)
    assert duel.playing() is None and duel.reference is None
    assert duel.value.p_a_wins == pytest.approx(wb.duel(boar, d.target).p_a_wins, abs=1e-12)
    assert "A plays" not in duel.stats.value
