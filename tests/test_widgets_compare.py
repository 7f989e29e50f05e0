"""ComparePanel and damage_grid, headless: toy-system hand numbers, clicks, illegal cells, real systems."""

from __future__ import annotations

import pytest

import workbench as wb
from tests.widget_toy import TOY, Situation
from widgets.compare import ComparePanel, damage_grid


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
    """Goblin (Club d6+2, Bow d8+1) and Ogre (Fist d6+4) against Goblin (armor 1) and Ogre (armor 3).

    Club vs Ogre: d6-1 → mean 2.5, P(any) 5/6; Bow vs Ogre: max(d8-2, 0) → mean 21/8, P(any) 6/8;
    Fist vs Goblin: d6+3 → mean 6.5, P(any) 1.
    """
    p = ComparePanel(TOY)
    g = grid(p)
    assert len(g) == 6 and p.value["illegal"].null_count() == 6
    assert g[("Goblin: Club", "Ogre")]["mean"] == pytest.approx(2.5)
    assert g[("Goblin: Club", "Ogre")]["p_any"] == pytest.approx(5 / 6)
    assert g[("Goblin: Bow", "Ogre")]["mean"] == pytest.approx(21 / 8)
    assert g[("Goblin: Bow", "Ogre")]["p_any"] == pytest.approx(6 / 8)
    assert g[("Ogre: Fist", "Goblin")]["mean"] == pytest.approx(6.5)
    assert cells(p)[("Goblin: Club", "Ogre")] == pytest.approx(2.5)
    assert p.chart.chart.to_dict()["title"]["text"] == "mean damage per attack"


def test_one_vectorised_call_when_all_matchups_are_legal(monkeypatch):
    calls = []
    real = TOY.damage_dists

    def counting(attacks, *args, **kwargs):
        calls.append(len(attacks))
        return real(attacks, *args, **kwargs)

    monkeypatch.setattr(TOY, "damage_dists", counting)
    frame, matchups = damage_grid(TOY, list(TOY.catalog().creatures.values()), list(TOY.catalog().creatures.values()))
    assert calls == [6] and frame.height == len(matchups) == 6


def test_click_selects_a_cell_and_shows_its_distribution():
    p = ComparePanel(TOY)
    assert p.selected == ("Goblin: Club", "Goblin") and p.detail.title_text() == "Club: Goblin vs Goblin"
    click(p, "Goblin: Bow", "Ogre")
    assert p.selected == ("Goblin: Bow", "Ogre") and p.detail.title_text() == "Bow: Goblin vs Ogre"
    assert p.detail.value.mean() == pytest.approx(21 / 8)
    outline = p.chart.chart.to_dict()["layer"][-1]
    assert outline["mark"]["strokeWidth"] == 3
    click(p, "Ogre: Fist", "Goblin", name="cell_label")                # clicking the number works too
    assert p.detail.title_text() == "Fist: Ogre vs Goblin" and p.detail.value.min() == 4
    click(p, "nobody", "Ogre")                                         # a stale click changes nothing
    assert p.selected == ("Ogre: Fist", "Goblin")


def test_metric_picker_recolours():
    p = ComparePanel(TOY)
    p.metric_picker.value = "P(any damage)"
    assert cells(p)[("Goblin: Club", "Ogre")] == pytest.approx(5 / 6)
    assert p.chart.chart.to_dict()["title"]["text"] == "P(any damage) per attack"


def test_illegal_matchups_are_grey_with_the_engines_message():
    """toy rules: melee reaches 5 — at distance 10 only the Bow can attack."""
    p = ComparePanel(TOY, situation=Situation(distance=10.0))
    g = grid(p)
    assert g[("Goblin: Club", "Ogre")]["mean"] is None
    assert "melee reaches 5" in g[("Goblin: Club", "Ogre")]["illegal"]
    assert g[("Goblin: Bow", "Ogre")]["mean"] == pytest.approx(21 / 8)
    assert p.selected == ("Goblin: Bow", "Goblin")                     # the first legal cell
    spec = p.chart.chart.to_dict()
    assert "4 illegal matchups shown grey" in spec["title"]["subtitle"]
    assert any(layer["mark"].get("fill") == "#eeeeee" for layer in spec["layer"] if isinstance(layer["mark"], dict))
    click(p, "Goblin: Club", "Ogre")                                   # an illegal cell cannot be picked
    assert p.selected == ("Goblin: Bow", "Goblin")


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
    assert p.detail.value.mean() == pytest.approx(row["mean"], abs=1e-12)
