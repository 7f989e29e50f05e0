"""The Annulus attack builder (widgets/annulus.py), headless: registered for Annulus only, illegal sets
explained and the last legal set kept, experience counted, catalog sets loaded.

Oracle: the rules text (annulus-attacks.txt: Flashy and Stealth cannot share a set; one alteration;
CLARIFICATIONS.md: Experience = seed 1 + one per upgrade rank).
"""

from __future__ import annotations

import workbench as wb
from workbench.widgets import AnnulusAttackBuilder, Workbench
from workbench.widgets.attack import attack_builder


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
