"""Issue 17, items 1 and 2: an error on a hidden sub-tab is marked on every tab that leads to it
and named in a banner over the last valid result; the Duel and Compare tabs follow the Damage
tab's selection (traitlets links) and say when they are stale."""

from __future__ import annotations

import pytest

import workbench as wb
from widgets import Workbench
from widgets.damage import DamagePanel

WARN = "\u26a0"


def titles(tabs) -> list[str]:
    return [tabs.get_title(i) for i in range(len(tabs.children))]


@pytest.fixture(scope="module")
def lo_app():
    return Workbench("last_odyssey")


def test_an_engine_error_on_a_sub_tab_is_marked_and_named_over_the_result(lo_app):
    """last-odyssey-attacks.txt, Melee: a melee ability cannot be used from the back row. The
    message sits on the situation sub-tab; the tab titles and a banner over the chart lead to it."""
    p = lo_app.damage
    before = p.value
    p.editors["situation"].controls["attacker_row"].value = "back"
    p.background.wait()
    assert "melee" in p.error and p.value is before  # the last valid result stays
    assert titles(p.tabs) == ["attack", "attacker", "target", f"{WARN} situation", "options"]
    assert titles(lo_app.tabs)[0] == f"{WARN} Damage"
    banner = p.stale_banner.value
    assert p.stale_banner.layout.display is None
    assert "last valid one" in banner and "<b>attacker row</b>" in banner and "<b>situation</b> tab" in banner
    p.editors["situation"].controls["attacker_row"].value = "front"
    p.background.wait()
    assert p.error == "" and WARN not in "".join(titles(p.tabs) + titles(lo_app.tabs))
    assert p.stale_banner.value == "" and p.stale_banner.layout.display == "none"
    p.view_toggle.value = "at least"  # edits work again after the fix
    p.background.wait()
    assert p.view == "at least" and p.value is not None
    p.view_toggle.value = "distribution"


def test_a_form_error_is_marked_on_its_own_tab_not_the_first_with_that_field():
    """Attacker and target both have an hp field: the banner names the target tab, where it is."""
    p = DamagePanel("last_odyssey")
    p.editors["target"].controls["hp"].value = -5
    assert titles(p.tabs)[2] == f"{WARN} target" and WARN not in titles(p.tabs)[1]
    assert "<b>target</b> tab" in p.stale_banner.value and "<b>hp</b>" in p.stale_banner.value
    p.editors["target"].controls["hp"].value = 20
    p.background.wait()
    assert p.target.hp == 20 and WARN not in "".join(titles(p.tabs)) and p.stale_banner.value == ""


def test_the_duel_follows_the_damage_selection_and_says_when_it_is_stale():
    app = Workbench("glass_empires")
    duel = app.build_tab("Duel")
    d = app.damage
    assert (duel.a, duel.b) == (d.attacker, d.target)
    boar = wb.system("glass_empires").catalog().creature("Boar")  # the app opens on the Wolf
    d.attacker = boar
    assert duel.a == boar and duel.editors["a"].value == boar
    assert "press Run duel" in duel.stale.value  # duel_auto=False: marked stale, not recomputed
    assert "side A: Wolf \u2192 Boar" in duel.stale.value  # what changed, in words
    duel.run_button.click()
    duel.background.wait()
    assert duel.value.a == "Boar" and duel.stale.value == ""
    # side A plays the Damage tab's attack (issue 36, item 1)
    assert duel.value.p_a_wins == pytest.approx(wb.duel(boar, d.target, plan_a=d.attack).p_a_wins, abs=1e-12)


def test_compare_follows_the_damage_options_and_situation():
    app = Workbench("unbound")
    cmp = app.build_tab("Compare")
    d = app.damage
    new = d.situation.__class__(**{**d.situation.__dict__, "flanking": not d.situation.flanking})
    d.situation = new
    assert cmp.situation == new


def test_a_duel_editor_error_marks_its_tab():
    app = Workbench("glass_empires")
    duel = app.build_tab("Duel")
    duel.editors["a"].controls["hp"].value = "-1"
    assert titles(duel.tabs)[0] == f"{WARN} side A"
    assert titles(app.tabs)[1] == f"{WARN} Duel"
    assert "<b>side A</b> tab" in duel.stale_banner.value
