"""The generic panels on the four real rule systems (headless).

The oracle is the engine itself: whatever the panel shows must equal ``system.damage(...)`` of the
models the panel holds, and a change made through a control must equal the same change made with
``Model.replace`` on the catalog creature.
"""

from __future__ import annotations

import numpy as np
import pytest

import workbench as wb
from workbench.widgets.creature import CreatureEditor
from workbench.widgets.damage import DamagePanel

# system, a target field and a legal new value, a target field and an illegal value
CASES = [
    ("glass_empires", "armor", 2, "armor", -1),
    ("last_odyssey", "physical_defense", 3, "hp", 0),
    ("unbound", "ac", 16, "ac", -1),
    ("annulus", "toughness", 0, "toughness", -1),
]


def chart_pmf(panel) -> dict[int, float]:
    spec = panel.chart.chart.to_dict()
    rows = [r for values in spec["datasets"].values() for r in values if "probability" in r]
    return {r["damage"]: r["probability"] for r in rows if r["probability"] > 0}


@pytest.mark.parametrize("name, field, legal, bad_field, illegal", CASES)
def test_damage_panel_on_a_real_system(name, field, legal, bad_field, illegal):
    s = wb.system(name)
    p = DamagePanel(s)
    creatures = list(s.catalog().creatures.values())
    assert p.attacker == creatures[0] and p.target == creatures[1]
    assert p.value.isclose(s.damage(p.attack, p.attacker, p.target, p.options, p.situation))
    assert chart_pmf(p) == pytest.approx(p.value.to_dict(), abs=1e-12)
    assert f"{p.value.mean():.3f}" in p.stats.value

    before = p.value
    p.editors["target"].controls[field].value = legal
    expected = s.damage(p.attack, creatures[0], creatures[1].replace(**{field: legal}))
    assert p.target == creatures[1].replace(**{field: legal})
    assert p.value.isclose(expected) and not p.value.isclose(before)
    assert chart_pmf(p) == pytest.approx(expected.to_dict(), abs=1e-12)
    assert p.editors["target"].picker.value == "(custom)"

    good_chart = p.chart.chart.to_dict()
    good_target = p.target
    p.editors["target"].controls[bad_field].value = illegal
    shown = p.errors_shown()
    assert list(shown) == [bad_field] and f"{bad_field}:" in shown[bad_field]
    assert p.target == good_target and p.chart.chart.to_dict() == good_chart


def test_glass_empires_cross_field_error_lands_on_the_named_control():
    """characters.mdx: Power = HD + Level; changing Power alone is reported beside HD."""
    s = wb.system("glass_empires")
    ed = CreatureEditor(s)
    power = ed.value.power
    ed.controls["power"].value = power + 2
    assert ed.value.power == power
    assert list(ed.errors_shown()) == ["hd"] and "Power" in ed.errors_shown()["hd"]


def test_optional_number_text_control_rejects_words():
    """Glass Empires hp is optional (None → 4 × Power): a Text control; words are refused."""
    s = wb.system("glass_empires")
    ed = CreatureEditor(s)
    old = ed.value
    ed.controls["hp"].value = "lots"
    assert ed.value == old and "whole number" in ed.errors_shown()["hp"]
    ed.controls["hp"].value = "9"
    assert ed.value.hp == 9


@pytest.mark.parametrize("name", ["glass_empires", "last_odyssey", "unbound", "annulus"])
def test_every_catalog_creature_loads_into_the_editor(name):
    s = wb.system(name)
    ed = CreatureEditor(s)
    for creature_name, creature in s.catalog().creatures.items():
        ed.picker.value = creature_name
        assert ed.value == creature and ed.errors_shown() == {}
    assert np.all([isinstance(w.description, str) for w in ed.controls.values()])


def test_choices_found_in_the_systems_validation_become_dropdowns():
    ub = CreatureEditor(wb.system("unbound"))
    assert [v for _, v in ub.controls["rank"].options] == ["untrained", "professional", "grandmaster"]
    an = CreatureEditor(wb.system("annulus"))
    an.controls["awareness"].value = "clueless"
    assert an.value.awareness == "clueless" and an.errors_shown() == {}


def test_annulus_illegal_upgrade_set_is_explained_beside_upgrades():
    """annulus-attacks.txt: Flashy cannot be used with Stealth — shown beside the upgrades box,
    the last legal set kept; an unknown upgrade name is refused the same way."""
    from workbench.widgets.attack import AttackSetBuilder

    s = wb.system("annulus")
    b = AttackSetBuilder(s)
    legal = b.value
    b.controls["upgrades"].value = "Flashy=1, Stealth=1"
    assert b.value == legal
    assert list(b.errors_shown()) == ["upgrades"] and "Stealth" in b.errors_shown()["upgrades"]
    b.controls["upgrades"].value = "Nonsense=1"
    assert "unknown upgrade" in b.errors_shown()["upgrades"] and b.value == legal
    b.controls["upgrades"].value = "Flashy=1"
    assert b.value.upgrades == {"Flashy": 1} and b.errors_shown() == {}
