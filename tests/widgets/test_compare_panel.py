"""ComparePanel and compare_grid, headless: toy-system hand numbers, clicks, illegal cells, real systems."""

from __future__ import annotations

from importlib import import_module

import pytest

import workbench as wb
from tests.widget_toy import TOY, Situation
from workbench.widgets.compare import ComparePanel, compare_grid

registry = import_module("workbench.systems")


@pytest.fixture(autouse=True)
def toy(monkeypatch):
    """wb.compare finds a model's system in the registry: register the toy for these tests."""
    monkeypatch.setitem(registry._MODULES, "toy", "tests.widget_toy")
    monkeypatch.setitem(registry._LOADED, "toy", TOY)
    return TOY


def click(panel, build, target, name="cell"):
    """What the browser sends when a cell (or its label) is clicked: the Vega point signal."""
    panel.chart._vl_selections = {name: {"value": {"vlPoint": {"or": [{"build": build, "target": target}]}},
                                         "store": []}}


def cells(panel) -> dict[tuple[str, str], float | None]:
    spec = panel.chart.chart.to_dict()
    column = spec["layer"][0]["encoding"]["color"]["field"]
    first = spec["layer"][0]["data"]["name"]
    return {(r["build"], r["target"]): r[column] for r in spec["datasets"][first]}


def grid(panel) -> dict[tuple[str, str], dict]:
    return {(r["build"], r["target"]): r for r in panel.value.iter_rows(named=True)}


def test_grid_hand_worked_numbers():
    """Goblin (Club d6+2, Bow d8+1, hp 7, armor 1) and Ogre (Fist d6+4, hp 30, armor 3); toy turns
    are two uses of the attack.

    Club vs Ogre: d6-1 → mean 2.5, P(any) 5/6, 5.0 a turn; Bow vs Ogre: max(d8-2, 0) → mean 21/8;
    Fist vs Goblin: d6+3 → mean 6.5, and two Fists (≥ 8) always kill the 7-HP Goblin in one turn;
    Club vs Goblin: two d6+1 kill 7 HP when d6+d6 ≥ 5: 1 - 6/36 = 5/6.
    """
    p = ComparePanel(TOY)
    g = grid(p)
    assert len(g) == 6 and p.value["illegal"].null_count() == 6
    assert g[("Goblin: Club", "Ogre")]["mean_damage"] == pytest.approx(2.5)
    assert g[("Goblin: Club", "Ogre")]["p_any_damage"] == pytest.approx(5 / 6)
    assert g[("Goblin: Club", "Ogre")]["mean_turn_damage"] == pytest.approx(5.0)
    assert g[("Goblin: Bow", "Ogre")]["mean_damage"] == pytest.approx(21 / 8)
    assert g[("Ogre: Fist", "Goblin")]["mean_damage"] == pytest.approx(6.5)
    assert g[("Ogre: Fist", "Goblin")]["p_kill_one_turn"] == pytest.approx(1.0)
    assert g[("Ogre: Fist", "Goblin")]["mean_rounds"] == pytest.approx(1.0)
    assert g[("Goblin: Club", "Goblin")]["p_kill_one_turn"] == pytest.approx(5 / 6)
    assert cells(p)[("Goblin: Club", "Ogre")] == pytest.approx(2.5)
    assert p.chart.chart.to_dict()["title"]["text"] == "mean damage per use by attack and target"


def test_grid_numbers_equal_wb_compare_and_the_rounds_chain():
    """The panel shows wb.compare's numbers; mean rounds equal the absorbing chain of the turn."""
    creatures = list(TOY.catalog().creatures.values())
    frame, cells_ = compare_grid(TOY, creatures, creatures)
    ref = wb.compare(creatures, creatures, best_plan=False)
    for r in ref.iter_rows(named=True):
        row = frame.filter((frame["build"] == f"{r['attacker']}: {r['attack']}") & (frame["target"] == r["target"]))
        assert row["mean_rounds"][0] == pytest.approx(r["mean_rounds"], rel=1e-12)
        attack, attacker, target = cells_[(f"{r['attacker']}: {r['attack']}", r["target"])]
        turn = TOY.plan_damage(attacker, target, [attack, attack])
        assert row["mean_rounds"][0] == pytest.approx(wb.mean_rounds_to_kill(turn, target.hp), rel=1e-9)


def test_click_selects_a_cell_and_shows_its_distribution():
    p = ComparePanel(TOY)
    # issue 36, item 5: the detail opens on an attacker against another creature, not Goblin vs Goblin
    assert p.selected == ("Goblin: Club", "Ogre") and p.detail.title_text() == "Club: Goblin vs Ogre"
    assert "best plan (Bow + Bow)" in p.detail_stats.value  # the reference beside the cell's attack
    click(p, "Goblin: Bow", "Ogre")
    assert p.selected == ("Goblin: Bow", "Ogre") and p.detail.title_text() == "Bow: Goblin vs Ogre"
    assert p.detail.value.mean() == pytest.approx(21 / 8)
    outline = p.chart.chart.to_dict()["layer"][-1]
    assert outline["mark"]["strokeWidth"] == 3
    click(p, "Ogre: Fist", "Goblin", name="cell_label")                # clicking the number works too
    assert p.detail.title_text() == "Fist: Ogre vs Goblin" and p.detail.value.min() == 4
    click(p, "nobody", "Ogre")                                         # a stale click changes nothing
    assert p.selected == ("Ogre: Fist", "Goblin")


def test_metric_picker_recolours_without_recomputing(monkeypatch):
    p = ComparePanel(TOY)
    calls = []
    monkeypatch.setattr(wb, "compare", lambda *a, **k: calls.append(1))
    p.metric_picker.value = "P(any damage)"
    assert cells(p)[("Goblin: Club", "Ogre")] == pytest.approx(5 / 6)
    assert p.chart.chart.to_dict()["title"]["text"] == "P(any damage) by attack and target"
    p.metric_picker.value = "mean rounds to kill"
    assert cells(p)[("Ogre: Fist", "Goblin")] == pytest.approx(1.0)
    p.metric_picker.value = "P(kill in one turn)"
    assert cells(p)[("Goblin: Club", "Goblin")] == pytest.approx(5 / 6)
    assert calls == []


def test_illegal_matchups_are_grey_with_the_engines_message():
    """toy rules: melee reaches 5 — at distance 10 only the Bow can attack."""
    p = ComparePanel(TOY, situation=Situation(distance=10.0))
    g = grid(p)
    assert g[("Goblin: Club", "Ogre")]["mean_damage"] is None
    assert "melee reaches 5" in g[("Goblin: Club", "Ogre")]["illegal"]
    assert g[("Goblin: Bow", "Ogre")]["mean_damage"] == pytest.approx(21 / 8)
    assert p.selected == ("Goblin: Bow", "Ogre")  # a legal cell of two creatures
    spec = p.chart.chart.to_dict()
    assert "4 illegal matchups shown grey" in spec["title"]["subtitle"]
    assert any(layer["mark"].get("fill") == "#eeeeee" for layer in spec["layer"] if isinstance(layer["mark"], dict))
    click(p, "Goblin: Club", "Ogre")                                   # an illegal cell cannot be picked
    assert p.selected == ("Goblin: Bow", "Ogre")


def test_everything_illegal_keeps_the_last_grid():
    p = ComparePanel(TOY, attackers=[TOY.catalog().creature("Ogre")])
    before = p.value
    p.situation = Situation(distance=10.0)                              # the Ogre has only its Fist
    assert p.value is before and "every matchup is illegal" in p.error


@pytest.mark.parametrize("name", ["glass_empires", "last_odyssey", "unbound", "annulus"])
def test_compare_panel_on_a_real_system(name):
    s = wb.system(name)
    p = ComparePanel(s)
    row = p.value.filter(p.value["illegal"].is_null()).row(-1, named=True)
    click(p, row["build"], row["target"])
    assert p.selected == (row["build"], row["target"])
    assert p.detail.value.mean() == pytest.approx(row["mean_damage"], abs=1e-12)
    assert f"{row['mean_turn_damage']:.2f}" in p.detail_stats.value


def test_never_damaging_turn_shows_infinite_rounds_grey():
    """A turn that can never damage (armor above the best roll) has mean_rounds = inf: the heatmap
    draws it grey with "∞" (no NaN/inf reaches Vega), and the PNG renders."""
    from tests.widget_toy import Creature

    wall = Creature("Wall", hp=10, armor=20)
    p = ComparePanel(TOY, targets=[wall, TOY.catalog().creature("Goblin")], metric="mean rounds to kill")
    g = grid(p)
    assert g[("Goblin: Club", "Wall")]["mean_rounds"] == float("inf")
    assert cells(p)[("Goblin: Club", "Wall")] is None
    assert "∞ = never kills" in p.chart.chart.to_dict()["title"]["subtitle"]
    from workbench import charts
    import tempfile, pathlib
    with tempfile.TemporaryDirectory() as d:
        assert charts.save_png(p.chart.chart, pathlib.Path(d) / "g.png").stat().st_size > 1000


def test_attacker_and_target_pickers_choose_the_grid():
    """Picking creatures by name recomputes the grid for them; an empty pick is explained beside
    the picker and the last grid stays."""
    cat = wb.system("glass_empires").catalog()
    p = ComparePanel("glass_empires")
    assert sorted(p.value["target"].unique()) == sorted(list(cat.creatures)[:6])
    p.target_picker.value = ("Bear", "Wolf")
    assert sorted(p.value["target"].unique()) == ["Bear", "Wolf"]
    p.attacker_picker.value = ("Bear",)
    assert p.value["attacker"].unique().to_list() == ["Bear"]
    expected = wb.compare([cat.creature("Bear")], [cat.creature("Wolf")], progress=False, best_plan=False)
    row = p.value.filter(p.value["target"] == "Wolf").row(0, named=True)
    assert abs(row["mean_damage"] - expected["mean_damage"][0]) < 1e-12
    before = p.value
    p.attacker_picker.value = ()
    assert p.value is before
    assert "pick at least one creature" in p.errors_shown()["attackers"]


def test_the_selected_cell_comes_with_python_that_reproduces_it():
    """Issue 18, item 5 (the panels' numbers, how computed): the snippet under the detail gives the
    selected cell's mean rounds to kill again with wb.* calls."""
    from workbench.widgets.compare import ComparePanel

    for system in ("unbound", "annulus", "glass_empires", "last_odyssey"):
        p = ComparePanel(system)
        r = p._row_of(p.selected, p.value)
        row = p.value.row(r, named=True)
        ns: dict = {}
        exec(p.python.value, ns)  # noqa: S102 - the panel's own snippet
        if row["mean_rounds"] is None or row["mean_rounds"] == float("inf"):
            continue
        assert abs(ns["mean_rounds"] - row["mean_rounds"]) < 1e-9, (system, p.selected)


def test_your_own_builds_go_into_the_grid():
    """Issue 17, item 5: "a designer cannot compare the build they just made". The app's Compare
    tab adds the Damage tab's attacker (a changed catalog creature is listed as "NAME (yours)")
    and its rows are compare's for that creature."""
    import workbench as wb
    from workbench.widgets import Workbench

    app = Workbench("unbound")
    d = app.damage
    cmp = app.build_tab("Compare")
    mine = d.attacker.replace(str_mod=d.attacker.str_mod + 3)
    d.attacker = mine
    cmp.add_buttons[0].click()
    cmp.background.wait(60)
    listed = f"{mine.name} (yours)"
    assert listed in cmp.attacker_picker.value and cmp.error == ""
    rows = cmp.value.filter(cmp.value["attacker"] == listed)
    assert rows.height > 0
    target = cmp.targets[0]
    want = wb.compare([mine.replace(name=listed)], [target], best_plan=False)
    got = rows.filter(rows["target"] == target.name).sort("attack")["mean_damage"].to_list()
    assert got == pytest.approx(want.sort("attack")["mean_damage"].to_list(), abs=1e-12)
    assert cmp.add(mine, "attackers") == listed  # the same build again: selected, not listed twice
    assert list(cmp.attacker_picker.options).count(listed) == 1
    cmp.add_buttons[1].click()  # the target too
    assert d.target.name in cmp.target_picker.value


def test_my_attacker_goes_into_the_grid_with_its_attack_as_edited():
    """The user's question: "add my attacker" adds the Damage tab's attacker carrying the attack on
    screen as edited (in place of its attack of the same name), listed as "NAME (yours)"; its row of
    that attack is compare's of the pair (attacker, attack). Annulus: the Rat's Bite given Reckless 2
    (+2 automatic successes, annulus-attacks.txt) downs the Town Guard, which the Bite of the
    catalog's Rat never does (mean rounds inf)."""
    import math

    import workbench as wb
    from workbench.widgets import Workbench

    app = Workbench("annulus")
    d = app.damage
    cmp = app.build_tab("Compare")
    guard = wb.system("annulus").catalog().creature("Town Guard")
    d.attack = d.attack.replace(upgrades={**d.attack.upgrades, "Reckless": 2})
    cmp.add_buttons[0].click()
    cmp.background.wait(60)
    listed = f"{d.attacker.name} (yours)"
    assert listed in cmp.attacker_picker.value and cmp.error == ""
    row = lambda who: cmp.value.filter(  # noqa: E731
        (cmp.value["attacker"] == who) & (cmp.value["attack"] == "Bite") & (cmp.value["target"] == guard.name)
    )
    assert math.isinf(row(d.attacker.name)["mean_rounds"][0])
    want = wb.compare([(d.attacker, d.attack)], [guard])
    assert math.isfinite(row(listed)["mean_rounds"][0])
    assert row(listed)["mean_rounds"][0] == pytest.approx(want["mean_rounds"][0], abs=1e-12)


def test_copies_make_each_target_a_group():
    """copies = 3: each target is "3 x Skirmisher", a group of passive copies (compare's group rows,
    docs/compare.md, Against a group): the grid's numbers are wb.compare's against the group, the
    detail says the rounds are until every copy is down, and its Python reproduces the group row.
    Back to 1, the grid is the creature's again."""
    cat = wb.system("last_odyssey").catalog()
    gunner, skirmisher = cat.creature("Gunner"), cat.creature("Skirmisher")
    p = ComparePanel("last_odyssey", [gunner], [skirmisher])
    one = grid(p)
    p.copies = 3
    p.background.wait()
    got = grid(p)
    want = wb.compare([gunner], ["3 x Skirmisher"], system="last_odyssey", best_plan=False, fights=500)
    assert {k[1] for k in got} == {"3 x Skirmisher"} and len(got) == want.height
    for r in want.iter_rows(named=True):
        row = got[(f"Gunner: {r['attack']}", "3 x Skirmisher")]
        assert row["mean_rounds"] == pytest.approx(r["mean_rounds"], abs=1e-12)
        assert row["target_hp"] == 3 * wb.system("last_odyssey").hit_points(skirmisher)
        # a group takes at least as long as one copy
        assert row["mean_rounds"] >= one[(f"Gunner: {r['attack']}", "Skirmisher")]["mean_rounds"] - 1e-12
    assert p.selected is not None and p.selected[1] == "3 x Skirmisher"
    assert "until every copy is down" in p.detail_stats.value and "3 x Skirmisher" in p.detail_stats.value
    assert "wb.encounters.Group(target, 3)" in p.python.value
    assert "against one copy" in str(p.chart.chart.to_dict()["title"])  # colour by damage per use
    p.metric = "mean rounds to kill"
    assert "until every copy is down" in str(p.chart.chart.to_dict()["title"])
    assert p.copies_box.value == 3
    p.copies_box.value = 1  # the box, as a designer types
    p.background.wait()
    assert {k[1] for k in grid(p)} == {"Skirmisher"}


def test_copies_outside_one_to_fifty_are_refused():
    cat = wb.system("last_odyssey").catalog()
    with pytest.raises(wb.RulesError) as err:
        compare_grid(wb.system("last_odyssey"), [cat.creature("Gunner")], [cat.creature("Skirmisher")], copies=0)
    assert err.value.field == "copies"
