"""Forms read their fields' declarations (workbench.fields.spec): the choices of every choice
field, its help, unit, bounds and rule; no form calls a model to find out what it accepts."""

from __future__ import annotations

import inspect
from pathlib import Path

import ipywidgets as W
import pytest

import workbench.widgets.forms as forms
from tests.systems.test_fields import MODELS, base_instance
from workbench.widgets.forms import ModelForm, field_choices
from workbench import fields
from workbench.errors import docs_page
from workbench.model import Model

ROOT = Path(__file__).resolve().parents[2]


def test_no_form_probes_a_model_for_its_choices():
    assert not hasattr(forms, "probe_choices")
    source = inspect.getsource(forms)
    assert "probe" not in source.lower() and "must be one of" not in source


@pytest.mark.parametrize(("system", "name", "cls"), MODELS, ids=[f"{s}.{n}" for s, n, _ in MODELS])
def test_the_form_of_each_model_offers_exactly_the_declared_choices(system, name, cls, monkeypatch):
    value = base_instance(system, cls)
    built: list[Model] = []
    original = Model.model_post_init

    def record(self, context):
        built.append(self)
        original(self, context)

    monkeypatch.setattr(Model, "model_post_init", record)
    form = ModelForm(cls, value)
    assert built == [], f"building the form constructed {len(built)} model(s): {built[:1]}"
    monkeypatch.undo()
    declared = fields.specs(cls)
    choice_fields = [n for n, s in declared.items() if s.kind == "choice"]
    assert field_choices(cls) == {n: list(declared[n].options()) for n in choice_fields}
    for n in choice_fields:
        ctl = form.controls[n]
        assert isinstance(ctl, W.Dropdown), n
        offered = [v for _, v in ctl.options]
        wanted = list(declared[n].options())
        if declared[n].optional:
            assert offered == [None, *wanted], n
        else:
            assert offered == wanted, n
    for n, ctl in form.controls.items():
        s = declared[n]
        # the rule cited, then the docs page that explains it (the rules files do not ship with the package)
        page = docs_page(s.rule)
        assert page is not None and page.startswith("docs/") and (ROOT / page).exists(), (n, s.rule)
        assert ctl.tooltip.startswith(s.help) and ctl.tooltip.endswith(f"[{s.rule}] (see {page})"), n
        if s.unit:
            assert f"unit: {s.unit}" in ctl.tooltip and ctl.description.endswith(f"({s.unit})"), n
        if s.kind == "int" and s.low() is not None and s.high() is not None:
            assert f"from {s.low():g} to {s.high():g}" in ctl.tooltip, n
    # every plain field of a checked kind gets a control; nested models are carried over
    for n, s in declared.items():
        if s.kind in ("int", "number", "bool", "choice", "text"):
            assert n in form.controls, n


def test_a_declared_choice_picked_in_the_form_builds_the_model():
    from workbench import system

    U = system("unbound")
    form = ModelForm(U.Situation, U.Situation())
    form.controls["high_ground"].value = "above"
    assert form.value.high_ground == "above" and form.error == ""
    G = system("glass_empires")
    f = ModelForm(G.Attack, G.Attack("Club", damage=4))
    assert [v for _, v in f.controls["category"].options] == [None, *fields.specs(G.Attack)["category"].options()]
    f.controls["category"].value = "light_melee"
    assert f.value.category == "light_melee" and f.value.damage == 4 and f.error == ""
    f.controls["category"].value = "heavy_melee"  # the table says 8, the form says 4: refused, shown
    assert f.value.category == "light_melee" and "8" in f.error


def test_bookkeeping_fields_sit_under_advanced_closed():
    """Issue 17, item 8: "raw internal fields (source, record type, windgun) beside real ones":
    fields declared advanced go into a closed "advanced" section of the form; an error in one of
    them opens it."""
    import workbench as wb
    from workbench.widgets.forms import ModelForm

    G, L = wb.system("glass_empires"), wb.system("last_odyssey")
    bear = G.catalog().creature("Bear")
    form = ModelForm(G.Creature, bear, system=G)
    assert "source" in form.advanced_fields and "hp" not in form.advanced_fields
    assert form.advanced is not None and form.advanced.selected_index is None
    inside = form.advanced.children[0].children
    assert any(form.controls["source"] in row.children for row in inside)
    assert not any(form.controls["hp"] in row.children for row in inside)
    form.controls["source"].value = "x" * 100_000
    assert "source" in form.error and form.advanced.selected_index == 0
    weapon = ModelForm(G.Attack, G.catalog().attacks[next(iter(G.catalog().attacks))], system=G)
    assert {"windgun", "source"} <= weapon.advanced_fields
    lo = ModelForm(L.Creature, next(iter(L.catalog().creatures.values())), system=L)
    assert {"record_type", "source"} <= lo.advanced_fields
