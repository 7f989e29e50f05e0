"""Widget panels, headless, against the toy rule system of tests/widget_toy.py.

Each test drives a panel by setting ``.value`` on its controls and asserts on the model, on the
numbers shown and on the chart spec (``panel.chart.chart.to_dict()``). Toy rules: one die + bonus
- armor - cover, at least ``minimum`` (see widget_toy.py).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import ClassVar

import altair as alt
import ipywidgets as W
import pytest
import traitlets as T
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.widget_toy import TOY, Attack, Creature, Options, Situation
from widgets.attack import BUILDERS, AttackSetBuilder, attack_builder
from widgets.base import Panel, error_html
from widgets.creature import CreatureEditor
from widgets.damage import DamagePanel
from widgets.forms import ModelForm, field_choices
from widgets.situation import OptionsPanel, SituationPanel
from workbench.dist import Dist
from workbench.errors import RulesError
from workbench.fields import spec
from workbench.systems.base import Model


def chart_rows(panel) -> list[dict]:
    spec = panel.chart.chart.to_dict()
    return [r for values in spec.get("datasets", {}).values() for r in values]


def bars(panel) -> dict[int, float]:
    return {r["damage"]: r["probability"] for r in chart_rows(panel) if "probability" in r and r["probability"] > 0}


def title(panel) -> str:
    return panel.chart.chart.to_dict()["title"]["text"]


# --------------------------------------------------------------------------- forms
def test_form_controls_follow_field_types_and_choices():
    """int → IntText, float → FloatText, bool → Checkbox, str → Text, choices/Literal → Dropdown."""
    form = ModelForm(Situation, system=TOY)
    kinds = {k: type(w) for k, w in form.controls.items()}
    assert kinds == {"cover": W.IntText, "distance": W.FloatText, "light": W.Dropdown, "note": W.Text}
    assert [v for _, v in form.controls["light"].options] == [None, "bright", "dim"]
    attack = ModelForm(Attack, system=TOY)
    assert isinstance(attack.controls["sides"], W.Dropdown)          # from TOY.field_choices
    assert isinstance(attack.controls["reach"], W.Dropdown)          # from Attack.choices ClassVar
    assert [v for _, v in attack.controls["sides"].options] == [4, 6, 8]
    creature = ModelForm(Creature, Creature("Rat", hp=3, attacks=[Attack("Bite")]), system=TOY)
    assert isinstance(creature.controls["big"], W.Checkbox) and isinstance(creature.controls["hp"], W.IntText)
    assert "attacks" not in creature.controls                        # nested models: carried over
    assert field_choices(Attack, TOY) == {"reach": ["melee", "ranged"], "sides": [4, 6, 8]}


def test_form_builds_the_model_on_each_change_and_keeps_other_fields():
    bite = Attack("Bite", bonus=1)
    form = ModelForm(Creature, Creature("Rat", hp=3, attacks=[bite]), system=TOY)
    form.controls["hp"].value = 5
    form.controls["big"].value = True
    form.controls["name"].value = "Big rat"
    assert form.value == Creature("Big rat", hp=5, big=True, attacks=(bite,))
    assert form.error == "" and form.errors_shown() == {}


def test_form_shows_rules_error_beside_the_field_and_keeps_last_valid_value():
    """toy rules: a creature has at least 1 HP; the message names the field and cites the rule."""
    form = ModelForm(Creature, Creature("Rat", hp=3), system=TOY)
    form.controls["hp"].value = 0
    assert form.value.hp == 3
    shown = form.errors_shown()
    assert list(shown) == ["hp"] and "hp: must be at least 1" in shown["hp"] and "toy rules" in shown["hp"]
    assert form.error.startswith("hp:")
    form.controls["armor"].value = -1                                # a second bad field: its own message
    assert form.value == Creature("Rat", hp=3)
    form.controls["armor"].value = 2
    form.controls["hp"].value = 4                                    # both fixed: errors gone
    assert form.value == Creature("Rat", hp=4, armor=2) and form.errors_shown() == {}


def test_form_optional_and_text_fields_parse_and_reject():
    form = ModelForm(Situation, system=TOY)
    form.controls["light"].value = "dim"
    form.controls["note"].value = "foggy"
    assert form.value == Situation(light="dim", note="foggy")
    form.controls["note"].value = "  "
    assert form.value.note is None                                   # optional str: blank means None
    form.controls["distance"].value = -2.5
    assert "distance" in form.errors_shown() and form.value.distance == 0.0


def test_form_value_set_from_outside_rewrites_controls():
    form = ModelForm(Attack, system=TOY)
    form.value = Attack("Axe", bonus=4, sides=8, reach="melee")
    assert form.controls["name"].value == "Axe" and form.controls["bonus"].value == 4
    assert form.controls["sides"].value == 8
    with pytest.raises(T.TraitError):
        form.value = Creature()


def test_form_requires_a_value_when_the_model_has_required_fields():
    @dataclass(frozen=True)
    class Needy(Model):
        model_kind: ClassVar[str] = "creature"
        hp: int

    with pytest.raises(RulesError, match="value"):
        ModelForm(Needy)
    assert ModelForm(Needy, Needy(3)).controls["hp"].value == 3


# --------------------------------------------------------------------------- editors
def test_creature_editor_picks_from_catalog_and_goes_custom_on_edit():
    ed = CreatureEditor(TOY)
    goblin = TOY.catalog().creature("Goblin")
    assert ed.value == goblin and ed.picker.value == "Goblin"
    ed.picker.value = "Ogre"
    assert ed.value.name == "Ogre" and ed.controls["armor"].value == 3
    ed.controls["hp"].value = 31
    assert ed.value.hp == 31 and ed.value.attacks == TOY.catalog().creature("Ogre").attacks
    assert ed.picker.value == ed.CUSTOM
    ed.value = goblin                                                # set from outside
    assert ed.picker.value == "Goblin" and ed.controls["hp"].value == 7


def test_creature_editor_error_keeps_value():
    ed = CreatureEditor(TOY, Creature("Rat", hp=2))
    assert ed.picker.value == ed.CUSTOM
    ed.controls["hp"].value = -4
    assert ed.value == Creature("Rat", hp=2)
    assert "hp" in ed.errors_shown() and "at least 1" in ed.errors_shown()["hp"]


def test_attack_builder_lists_the_attackers_attacks_first():
    ogre = TOY.catalog().creature("Ogre")
    b = AttackSetBuilder(TOY, attacker=ogre)
    assert list(b.picker.options) == ["(custom)", "Fist", "Club", "Bow", "Dagger"]
    assert b.value.name == "Fist"
    b.attacker = TOY.catalog().creature("Goblin")
    assert list(b.picker.options) == ["(custom)", "Club", "Bow", "Dagger"]
    b.picker.value = "Dagger"
    assert b.value == Attack("Dagger", bonus=3, sides=4)
    b.controls["sides"].value = 8
    assert b.value.sides == 8 and b.picker.value == "(custom)"
    b.controls["bonus"].value = 11                                   # toy rules: bonus -5..+10
    assert b.value.bonus == 3 and "bonus" in b.errors_shown()


def test_attack_builder_registry_prefers_a_system_builder():
    class Rich(AttackSetBuilder):
        pass

    assert type(attack_builder(TOY)) is AttackSetBuilder
    BUILDERS["toy"] = Rich
    try:
        assert type(attack_builder(TOY)) is Rich
    finally:
        del BUILDERS["toy"]


def test_situation_and_options_panels():
    s = SituationPanel(TOY)
    assert s.value == Situation()
    s.controls["cover"].value = 3                                    # toy rules: cover is 0, 1 or 2
    assert s.value == Situation() and "cover" in s.errors_shown()
    s.controls["cover"].value = 2
    assert s.value == Situation(cover=2) and s.errors_shown() == {}
    o = OptionsPanel(TOY)
    o.controls["crit_on_max"].value = True
    assert o.value == Options(crit_on_max=True)


# --------------------------------------------------------------------------- damage panel
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
    assert isinstance(p.chart, alt.JupyterChart) and p.chart in p.children[-1].children


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
    """Time from setting a control's value to the new spec being assigned (a report, not a target)."""
    p = DamagePanel(TOY)
    bonus = p.editors["attack"].controls["bonus"]
    times = []
    for i in range(10):
        start = time.perf_counter()
        bonus.value = i % 5
        times.append(time.perf_counter() - start)
    times.sort()
    print(f"DamagePanel redraw median {1000 * times[len(times) // 2]:.1f} ms")
    assert times[len(times) // 2] < 2.0


@dataclass(frozen=True)
class Mood(Model):
    """A model whose choices are declared (workbench.fields.spec), and one text field checked by hand."""

    model_kind: ClassVar[str] = "situation"
    mood: str = spec("calm", kind="choice", choices=("calm", "angry"), help="the mood", rule="toy: moods")
    weather: str | None = spec(
        None, kind="choice", choices=("rain", "sun"), optional=True, help="the weather", rule="toy: weather"
    )
    label: str = "x"

    def validate(self) -> None:
        from workbench.systems.base import check_choice

        check_choice("label", self.label, ("x", "y"))  # undeclared: a form does not probe it


def test_declared_choice_fields_become_dropdowns():
    form = ModelForm(Mood)
    assert isinstance(form.controls["mood"], W.Dropdown) and isinstance(form.controls["label"], W.Text)
    assert [v for _, v in form.controls["mood"].options] == ["calm", "angry"]
    assert [v for _, v in form.controls["weather"].options] == [None, "rain", "sun"]
    assert form.controls["mood"].tooltip == "the mood [toy: moods]"
    form.controls["weather"].value = "rain"
    form.controls["mood"].value = "angry"
    assert form.value == Mood("angry", "rain")


def test_attack_builder_follows_a_new_attacker():
    """An attack of the old attacker's own is swapped for the new attacker's first; a catalog pick stays."""
    goblin, ogre = TOY.catalog().creature("Goblin"), TOY.catalog().creature("Ogre")
    b = AttackSetBuilder(TOY, attacker=goblin)
    assert b.value.name == "Club"
    b.attacker = ogre
    assert b.value.name == "Fist" and b.picker.value == "Fist"
    b.picker.value = "Dagger"
    b.attacker = goblin
    assert b.value.name == "Dagger"


def test_damage_panel_new_attacker_brings_its_attack():
    p = DamagePanel(TOY)
    p.editors["attacker"].picker.value = "Ogre"
    assert p.attack.name == "Fist" and title(p) == "Fist: Ogre vs Ogre"
    assert bars(p) == pytest.approx({k: 1 / 6 for k in range(2, 8)})   # d6+4-3


def test_panel_charts_skip_revalidation_but_are_valid():
    """set_chart marks charts prevalidated (JupyterChart does not re-run the schema on each redraw);
    the same spec still passes the Vega-Lite schema when validation is asked for."""
    from widgets.base import prevalidated

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


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-20, 20), min_size=1, max_size=8))
def test_form_value_is_always_the_last_legal_entry(entries):
    """Whatever sequence is typed into bonus, value holds the last entry within -5..+10 (toy rules)
    and an error is on screen exactly when the latest entry is outside it."""
    form = ModelForm(Attack, system=TOY)
    for v in entries:
        form.controls["bonus"].value = v
    legal = [v for v in entries if -5 <= v <= 10]
    assert form.value.bonus == (legal[-1] if legal else 0)
    assert ("bonus" in form.errors_shown()) == (not -5 <= entries[-1] <= 10)
