"""DamagePanel and the panel base (widgets/damage.py, base.py), headless, against the toy rule system
of tests/widget_toy.py: numbers, chart, redraws, errors beside the field, traitlets links.

Each test drives a panel by setting ``.value`` on its controls and asserts on the model, on the
numbers shown and on the chart spec (``panel.chart.chart.to_dict()``). Toy rules: one die + bonus -
armor - cover, at least ``minimum`` (see tests/widget_toy.py).
"""

from __future__ import annotations


import altair as alt
import pytest
import traitlets as T

from tests.widget_toy import TOY, Attack, Situation
from workbench.widgets.base import Panel, error_html
from workbench.widgets.creature import CreatureEditor
from workbench.widgets.damage import DamagePanel
from workbench.dist import Dist
from workbench.errors import RulesError


def chart_rows(panel) -> list[dict]:
    spec = panel.chart.chart.to_dict()
    return [r for values in spec.get("datasets", {}).values() for r in values]


def bars(panel) -> dict[int, float]:
    return {r["damage"]: r["probability"] for r in chart_rows(panel) if "probability" in r and r["probability"] > 0}


def title(panel) -> str:
    return panel.chart.chart.to_dict()["title"]["text"]


def test_damage_panel_defaults_numbers_and_chart():
    """Goblin's Club (d6+2) on the Ogre (armor 3): d6-1, at least 0 → 0..5 each 1/6; mean 2.5."""
    p = DamagePanel(TOY)
    assert (p.attacker.name, p.target.name, p.attack.name) == ("Goblin", "Ogre", "Club")
    assert p.value.isclose(Dist.uniform(0, 5))
    assert bars(p) == pytest.approx({k: 1 / 6 for k in range(6)})
    assert title(p) == "Club: Goblin vs Ogre"
    assert 'class="wb-mean">2.500<' in p.stats.value
    assert 'class="wb-any">83.33%<' in p.stats.value                # P(any damage) = 5/6
    assert 'class="wb-sd">1.708<' in p.stats.value                   # sqrt(35/12)
    assert isinstance(p.chart, alt.JupyterChart) and p.chart in p.results.children  # right of the inputs, above its numbers


def test_damage_panel_redraws_when_a_control_changes():
    """Club bonus 2 → 5: d6+5-3 = 3..8; the same JupyterChart gets a new spec."""
    p = DamagePanel(TOY)
    chart_widget = p.chart
    p.editors["attack"].controls["bonus"].value = 5
    assert p.chart is chart_widget
    assert bars(p) == pytest.approx({k: 1 / 6 for k in range(3, 9)})
    assert p.value.mean() == pytest.approx(5.5) and 'class="wb-mean">5.500<' in p.stats.value
    assert p.chart.spec["title"]["text"] == "Club: Goblin vs Ogre"   # the widget's own spec follows
    p.editors["target"].picker.value = "Goblin"                      # armor 1: d6+4 = 5..10
    assert title(p) == "Club: Goblin vs Goblin" and min(bars(p)) == 5
    p.editors["options"].controls["minimum"].value = 7               # floor 7: 7,7,7,8,9,10
    assert bars(p)[7] == pytest.approx(0.5)
    p.editors["options"].controls["crit_on_max"].value = True        # top face doubles: 20
    assert bars(p)[20] == pytest.approx(1 / 6) and 10 not in bars(p)
    assert p.redraw_seconds > 0


def test_damage_panel_survives_an_unexpected_engine_error(monkeypatch):
    """A bug in the engine (not a RulesError) is shown in the panel's error line; the last valid
    distribution and chart stay, and the next good change redraws normally."""
    p = DamagePanel(TOY)
    before, value = p.chart.chart.to_dict(), p.value

    def broken(*args, **kwargs):
        raise ZeroDivisionError("simulated bug")

    monkeypatch.setattr(p.system, "damage", broken)
    p.editors["attack"].controls["bonus"].value = 5
    assert p.value is value and p.chart.chart.to_dict() == before
    assert "Unexpected error (ZeroDivisionError: simulated bug)" in p.error
    monkeypatch.undo()
    p.editors["attack"].controls["bonus"].value = 4
    assert p.value.mean() == pytest.approx(4.5) and not p.error


def test_damage_panel_engine_error_shown_beside_field_and_last_chart_kept():
    """toy rules: melee reaches 5 — the engine's RulesError lands beside the distance control."""
    p = DamagePanel(TOY)
    before = p.chart.chart.to_dict()
    value = p.value
    p.editors["situation"].controls["distance"].value = 10.0
    assert p.situation.distance == 10.0                              # the situation itself is legal
    assert p.value is value and p.chart.chart.to_dict() == before
    shown = p.errors_shown()
    assert list(shown) == ["distance"] and "Club is melee and cannot reach 10" in shown["distance"]
    assert p.error.startswith("distance:")
    p.editors["attack"].picker.value = "Bow"                         # ranged: legal again
    assert p.error == "" and p.errors_shown() == {}
    assert title(p) == "Bow: Goblin vs Ogre" and max(bars(p)) == 6   # d8+1-3


def test_damage_panel_form_error_is_kept_while_other_inputs_change():
    p = DamagePanel(TOY)
    p.editors["attack"].controls["bonus"].value = 99
    assert "bonus" in p.errors_shown() and p.attack.bonus == 2
    p.editors["situation"].controls["cover"].value = 1               # still redraws
    assert max(bars(p)) == 4                                         # d6+2-3-1
    assert "bonus" in p.errors_shown()                               # the bad control still says why


def test_damage_panel_at_least_view():
    p = DamagePanel(TOY)
    p.view_toggle.value = "at least"
    pts = {r["damage"]: r["at_least"] for r in chart_rows(p)}
    assert pts[3] == pytest.approx(0.5) and pts[6] == 0.0
    assert p.view == "at least"


def test_panels_link_with_traitlets():
    """A CreatureEditor dlinked into a control-less DamagePanel's target drives its chart."""
    goblin = TOY.catalog().creature("Goblin")
    p = DamagePanel(TOY, attacker=goblin, target=goblin, attack=Attack("Club", bonus=2), controls=False)
    assert p.editors == {} and min(bars(p)) == 2                     # d6+2-1
    target = CreatureEditor(TOY, goblin)
    T.dlink((target, "value"), (p, "target"))
    target.controls["armor"].value = 4
    assert p.target.armor == 4 and min(bars(p)) == 0
    mirror = DamagePanel(TOY, controls=False)
    T.link((p, "attack"), (mirror, "attack"))
    p.attack = Attack("Pick", bonus=6)
    assert mirror.attack.name == "Pick" and title(mirror) == "Pick: Goblin vs Ogre"


def test_damage_panel_rejects_inputs_that_never_chart():
    with pytest.raises(RulesError, match="distance"):
        DamagePanel(TOY, situation=Situation(distance=9.0))


def test_panel_base_routes_unknown_fields_to_its_error_line():
    p = Panel()
    p.show_error(RulesError("went wrong", field="nowhere"))
    assert p.errors_shown() == {"": error_html("nowhere: went wrong")}
    assert p.error_box.layout.display is None
    p.clear_error()
    assert p.errors_shown() == {} and p.error == "" and p.error_box.layout.display == "none"


def test_damage_panel_redraw_time_is_recorded():
    """The panel records each redraw's time (``redraw_seconds``: a report for benchmarks/bench_panels.py,
    never a target: issue 34)."""
    p = DamagePanel(TOY)
    bonus = p.editors["attack"].controls["bonus"]
    for i in range(3):
        p.redraw_seconds = -1.0
        bonus.value = (i + 1) % 5
        assert p.redraw_seconds >= 0.0  # set anew by this redraw


def test_damage_panel_new_attacker_brings_its_attack():
    p = DamagePanel(TOY)
    p.editors["attacker"].picker.value = "Ogre"
    assert p.attack.name == "Fist" and title(p) == "Fist: Ogre vs Ogre"
    assert bars(p) == pytest.approx({k: 1 / 6 for k in range(2, 8)})   # d6+4-3


def test_panel_charts_skip_revalidation_but_are_valid():
    """set_chart marks charts prevalidated (JupyterChart does not re-run the schema on each redraw);
    the same spec still passes the Vega-Lite schema when validation is asked for."""
    from workbench.widgets.base import prevalidated

    p = DamagePanel(TOY)
    chart = p.chart.chart
    assert isinstance(chart, alt.LayerChart) and "__class__" not in chart._kwds
    assert chart.to_dict(validate=True) == chart.to_dict()
    assert prevalidated(chart) is chart
    bad = alt.Chart().mark_bar().encode(x="a:Q")
    bad.width = "wide"                                                 # attribute writes are not checked
    broken = prevalidated(bad)
    assert broken.to_dict()["width"] == "wide"                                                   # not validated by default ...
    with pytest.raises(Exception):
        broken.to_dict(validate=True)                                  # ... but validation still works
