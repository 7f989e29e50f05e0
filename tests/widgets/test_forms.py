"""ModelForm (widgets/forms.py), headless, against the toy rule system of tests/widget_toy.py: controls
follow the field types and choices, errors beside the field, the last legal value kept.

Each test drives a panel by setting ``.value`` on its controls and asserts on the model, on the
numbers shown and on the chart spec (``panel.chart.chart.to_dict()``). Toy rules: one die + bonus -
armor - cover, at least ``minimum`` (see tests/widget_toy.py).
"""

from __future__ import annotations

from typing import ClassVar

import ipywidgets as W
import pytest
import traitlets as T
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.widget_toy import TOY, Attack, Creature, Situation
from workbench.widgets.forms import ModelForm, field_choices
from workbench.errors import RulesError
from workbench.fields import spec
from workbench.model import Model


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
    class Needy(Model):
        model_kind: ClassVar[str] = "creature"
        hp: int

    with pytest.raises(RulesError, match="value"):
        ModelForm(Needy)
    assert ModelForm(Needy, Needy(3)).controls["hp"].value == 3


class Mood(Model):
    """A model whose choices are declared (workbench.fields.spec), and one text field checked by hand."""

    model_kind: ClassVar[str] = "situation"
    mood: str = spec("calm", kind="choice", choices=("calm", "angry"), help="the mood", rule="toy: moods")
    weather: str | None = spec(
        None, kind="choice", choices=("rain", "sun"), optional=True, help="the weather", rule="toy: weather"
    )
    label: str = "x"

    def check_rules(self) -> None:
        from workbench.checks import check_choice

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


def test_an_error_beside_its_control_names_the_docs_page_of_its_rule():
    """Issue 17, item 8: the rules files do not ship with the package, so an error shown in a panel (and a
    field's help) also names the docs page that explains its rule (workbench.errors.docs_page)."""
    import workbench as wb
    from workbench.errors import docs_page

    assert docs_page("annulus-attacks.txt: one alteration per set") == "docs/systems/annulus.md"
    assert docs_page("CLARIFICATIONS.md, Glass Empires: HP = 4 x Power; docs/limits.md: sizes") == (
        "docs/systems/glass_empires.md"
    )
    assert docs_page("docs/limits.md: bounded work") == "docs/limits.md" and docs_page(None) is None
    U = wb.system("unbound")
    form = ModelForm(U.Creature, U.catalog().creature("Town guard"), system=U)
    form.controls["hp"].value = 10**6  # past the bound no rule needs (docs/limits.md)
    assert "hp" in form.errors_shown() and "(see docs/" in form.errors_shown()["hp"], form.errors_shown()
