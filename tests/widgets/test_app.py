"""The Workbench app, the Annulus attack builder and the save / load / share panel, headless.

Oracles: the engine (wb.damage, wb.duel, wb.compare) on the models the app holds; the rules text
for the Annulus builder (annulus-attacks.txt: Flashy and Stealth cannot share a set; one
alteration; CLARIFICATIONS.md: Experience = seed 1 + one per upgrade rank). Button.click() swallows
handler exceptions, so every button test asserts on the resulting state.
"""

from __future__ import annotations

import json

import pytest

import workbench as wb
from widgets import AnnulusAttackBuilder, Workbench
from widgets.attack import attack_builder

SYSTEMS = ["annulus", "unbound", "last_odyssey", "glass_empires"]


@pytest.fixture(scope="module")
def app():
    return Workbench("annulus")


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
        assert (v["attacker"], v["target"]) == (first, second)              # the catalog defaults
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


# ---------------------------------------------------------------- the Annulus builder
def test_annulus_is_registered_and_others_keep_the_generic_builder():
    assert type(attack_builder("annulus")).__name__ == "AnnulusAttackBuilder"
    assert type(attack_builder("unbound")).__name__ == "AttackSetBuilder"


def test_annulus_flashy_with_stealth_is_explained_and_the_last_legal_set_kept():
    """annulus-attacks.txt: Flashy — "You cannot use this upgrade and the Stealth one at the same time"."""
    app = Workbench("annulus")
    b = app.build_tab("Build").builder
    b.controls["general"].value = ("Flashy",)
    legal, chart = b.value, app.damage.chart.chart.to_dict()
    assert legal.has("Flashy")
    b.controls["general"].value = ("Flashy", "Stealth")
    shown = b.errors_shown()
    assert list(shown) == ["upgrades"] and "Flashy" in shown["upgrades"] and "Stealth" in shown["upgrades"]
    assert b.value == legal and app.damage.attack == legal
    assert app.damage.chart.chart.to_dict() == chart
    b.controls["general"].value = ("Stealth",)
    assert b.errors_shown() == {} and b.value.has("Stealth") and not b.value.has("Flashy")


def test_annulus_two_alterations_refused_and_experience_counts_ranks():
    """annulus-attacks.txt: alterations are mutually exclusive; CLARIFICATIONS.md: Experience =
    1 for the seed + 1 per upgrade rank."""
    b = AnnulusAttackBuilder("annulus", wb.system("annulus").Attack("Test", defense="insight"))
    assert "Experience: <b>1</b>" in b.experience.value
    b.controls["rank:Precise"].value = 3
    b.controls["trigger"].value = ("Burn",)
    assert b.value.upgrades == {"Precise": 3, "Burn": 1} and "Experience: <b>5</b>" in b.experience.value
    b.controls["alteration"].value = ("Charged", "Flurry")
    assert "alteration" in b.errors_shown()["upgrades"] and b.value.upgrades == {"Precise": 3, "Burn": 1}
    b.controls["alteration"].value = ("Charged",)
    assert b.value.alteration == "Charged" and "Experience: <b>6</b>" in b.experience.value
    b.controls["defense"].value = "agility"
    assert b.value.defense == "agility"


def test_annulus_builder_picker_loads_catalog_sets():
    s = wb.system("annulus")
    b = AnnulusAttackBuilder(s)
    for name, atk in s.catalog().attacks.items():
        b.controls["picker"].value = name
        assert b.value == atk and b.read_upgrades() == dict(atk.upgrades)
        assert f"Experience: <b>{s.experience(atk)}</b>" in b.experience.value
        # A set without a Counter shows "(none)", never a blank dropdown (a None value shows blank).
        counter = b.controls["counter_type"]
        assert counter.label == ("(none)" if atk.counter_type is None else atk.counter_type.capitalize())


# ---------------------------------------------------------------- save / load / share
def test_save_and_load_round_trip_through_the_buttons(tmp_path, monkeypatch):
    monkeypatch.setenv("WORKBENCH_FILES", str(tmp_path))  # the panel's files folder
    app = Workbench("unbound")
    d = app.damage
    tough = d.target.replace(ac=d.target.ac + 3)
    d.target = tough
    saved = app.value
    path = tmp_path / "setup.toml"
    app.files.path.value = str(path)
    app.files.save_button.click()
    assert path.exists() and "saved" in app.files.status.value and app.files.error == ""
    assert wb.load(path)[1] == tough
    app.system_select.value = "annulus"                    # load switches the system back
    app.files.load_button.click()
    assert app.files.error == ""
    assert app.value == saved and app.damage.value.isclose(wb.damage(saved["attack"], saved["attacker"], tough))


def test_share_code_round_trip_through_the_buttons():
    app = Workbench("last_odyssey")
    app.files.what.value = "target"
    app.files.get_code_button.click()
    code = app.files.code.value
    assert code.startswith("wb1:") and wb.from_share_code(code) == app.value["target"]
    target = app.value["target"]
    other = Workbench("glass_empires")
    other.files.what.value = "target"
    other.files.code.value = code
    other.files.apply_code_button.click()
    assert other.files.error == "" and other.value["system"] == "last_odyssey" and other.value["target"] == target


def test_file_and_code_errors_are_shown_inline_and_change_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("WORKBENCH_FILES", str(tmp_path))  # the panel's files folder
    app = Workbench("unbound")
    before = app.value
    app.files.code.value = "wb1:not-a-real-code"
    app.files.apply_code_button.click()
    assert "corrupted" in app.files.errors_shown()["code"] and app.value == before
    app.files.path.value = str(tmp_path / "missing.toml")
    app.files.load_button.click()
    assert "no such file" in app.files.errors_shown()["path"] and app.value == before
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format_version": 1, "system": "unbound", "model_kind": "creature",
                               "name": "X", "hp": -5, "ac": 12, "touch_ac": 10}))
    app.files.path.value = str(bad)
    app.files.load_button.click()
    assert "hp" in app.files.errors_shown()["path"] and app.value == before
    app.files.what.value = "attack"                                     # a creature is not an attack
    wb.save(before["target"], tmp_path / "c.toml")
    app.files.path.value = str(tmp_path / "c.toml")
    app.files.load_button.click()
    assert "not an attack" in app.files.errors_shown()["path"] and app.value == before
    app.files.path.value = str(tmp_path / "setup.txt")
    app.files.save_button.click()
    assert ".toml or .json" in app.files.errors_shown()["path"] and not (tmp_path / "setup.txt").exists()


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
