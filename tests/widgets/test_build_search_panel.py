"""The Build tab's budget search about the build on screen (widgets/budget.py), headless, in every
system: it starts from the Damage tab's attacker and attack, draws the cost front, and "Use this
build" puts the picked result into the Damage tab and pins it; an edit marks the ranking stale.

Oracles: the search frame's own numbers against the Damage tab's (the engine's) after the use."""

from __future__ import annotations

import pytest

from workbench.widgets import Workbench
from workbench.widgets.budget import BudgetSearchPanel, BuildSearchPanel

SYSTEMS = ["annulus", "unbound", "last_odyssey", "glass_empires"]


@pytest.mark.parametrize("name", SYSTEMS)
def test_use_this_build_puts_it_in_the_damage_tab_and_pins_it(name):
    app = Workbench(name)
    build = app.build_tab("Build")
    search = build.search
    assert isinstance(search, BudgetSearchPanel if name == "annulus" else BuildSearchPanel)
    assert search.value is not None and search.value.height > 1 and search.problem == ""
    spec = search.chart.chart.to_dict()
    assert any("cost" in r for values in spec["datasets"].values() for r in values)  # the cost front
    if name != "annulus":
        # it starts from the build on screen: its first row at cost 0 is the Damage tab's numbers
        base = search.value.filter(search.value["cost"] == 0)
        assert base["mean_damage"][0] == pytest.approx(app.damage.value.mean(), abs=1e-12)
        assert search.value["name"][0] != "as on screen"
    top = search.value.row(0, named=True)
    search.pick.index = 0
    search.use_button.click()
    assert search.problem == "" and app.damage.error == ""
    assert app.damage.value.mean() == pytest.approx(top["mean_damage"], abs=1e-12)
    assert len(app.pins) == 1 and app.pins[0].label == top["name"][:40].rstrip() or top["name"][:39] + "…"
    assert app.pins[0].attack == app.damage.attack and app.pins[0].attacker == app.damage.attacker
    if name != "annulus":
        assert "the build on screen changed" in search.stale_line.value
        search.search_button.click()
        search.background.wait(120)
        assert search.stale_line.value == ""


def test_build_search_lists_its_levers_and_unit_cost():
    app = Workbench("unbound")
    search = app.build_tab("Build").search
    assert "damage dice" in search.levers_line.value and "weapon" in search.levers_line.value
    assert "unit cost" in search.note.value
    search.controls["by"].value = "p_any_damage"
    search.search_button.click()
    search.background.wait(120)
    values = search.value["p_any_damage"].to_list()
    assert values == sorted(values, reverse=True)


def test_copies_search_against_a_group():
    """copies 2: the search ranks the builds by how fast both copies of the target fall (the frame of
    search_builds against the group, 200 fights where simulated), the heading says so, and copies 1
    brings back the figures of one target."""
    import workbench as wb
    from workbench.build_levers import search_builds
    from workbench.encounters import Group
    from workbench.widgets.budget import GROUP_SEARCH_FIGHTS

    app = Workbench("glass_empires")
    search = app.build_tab("Build").search
    search.controls["copies"].value = 2
    assert "the build on screen changed" in search.stale_line.value  # the ranking shown is of one target
    search.search_button.click()
    search.background.wait(180)
    assert search.problem == ""
    want, _ = search_builds(
        wb.system("glass_empires"), search.attacker, search.attack, Group(search.target, 2), budget=search.budget,
        fights=GROUP_SEARCH_FIGHTS,
    )
    assert search.value.equals(want)
    assert "mean rounds to fell every copy" in search.table.value
    rounds = search.value["mean_rounds"].to_list()
    assert rounds == sorted(rounds)
    search.controls["copies"].value = 1
    search.search_button.click()
    search.background.wait(120)
    assert "mean_damage" in search.value.columns and "mean rounds" not in search.table.value
