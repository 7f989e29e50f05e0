"""EncounterPanel and SideEditor (widgets/encounter.py; issue 39, item 5: "an Encounter tab in the
app (build two sides from the catalog and the Damage tab's build, see P(win), survivors and
rounds)"). Oracle: ``wb.encounter`` on the sides the panel holds."""

from __future__ import annotations

import pytest

import workbench as wb
from workbench.widgets import Workbench
from workbench.widgets.encounter import BUILD, EncounterPanel, SideEditor

GE = wb.system("glass_empires").catalog()
WOLF, BOAR, LILY = GE.creature("Wolf"), GE.creature("Boar"), GE.creature("Spider Lily")


def test_the_panel_is_wb_encounter_of_its_sides():
    p = EncounterPanel("glass_empires", [WOLF, BOAR], [LILY, LILY, LILY])
    want = wb.encounter([WOLF, BOAR], [LILY, LILY, LILY])
    got = p.value
    assert got.exact and (got.a, got.b) == (want.a, want.b)
    assert got.p_a_wins == pytest.approx(want.p_a_wins, abs=1e-12)
    assert got.creatures.equals(want.creatures)
    assert f"{want.p_a_wins:.2%}" in p.stats.value and f"{want.p_b_wins:.2%}" in p.stats.value
    assert "Spider Lily #3" in p.stats.value and ">exact<" in p.badge.value
    assert p.editors["side_a"].rows == [("Wolf", 1), ("Boar", 1)]
    assert p.editors["side_b"].rows == [("Spider Lily", 3)]
    spec = str(p.chart.chart.to_dict())
    assert "A: Wolf + Boar wins" in spec and "B: Spider Lily x3 wins" in spec


def test_editing_a_row_refights_with_the_new_side():
    p = EncounterPanel("glass_empires", [WOLF], [LILY])
    p.editors["side_b"].rows = [("Spider Lily", 2), ("Boar", 1)]
    p.background.wait(60)
    assert p.side_b == [LILY, LILY, BOAR]
    want = wb.encounter([WOLF], [LILY, LILY, BOAR])
    assert p.value.b == ("Spider Lily", "Spider Lily #2", "Boar")
    assert p.value.p_a_wins == pytest.approx(want.p_a_wins, abs=1e-12)


def test_a_side_set_from_code_shows_in_its_rows():
    p = EncounterPanel("glass_empires", [WOLF], [LILY])
    p.side_a = [BOAR, BOAR, WOLF]
    p.background.wait(60)
    assert p.editors["side_a"].rows == [("Boar", 2), ("Wolf", 1)]
    assert p.value.a == ("Boar", "Boar #2", "Wolf")


def test_each_group_rule_reaches_the_engine():
    p = EncounterPanel("glass_empires", [WOLF, BOAR], [LILY, LILY])
    for name, value in (("first", "b"), ("order", "alternate"), ("targeting", "spread"), ("refund", False)):
        setattr(p, name, value)
        p.background.wait(60)
    p.controls["max_rounds"].value = 3  # the control is linked to the trait
    p.background.wait(60)
    assert p.max_rounds == 3
    want = wb.encounter(
        [WOLF, BOAR], [LILY, LILY], first="b", order="alternate", targeting="spread", refund=False, max_rounds=3
    )
    assert p.value.p_a_wins == pytest.approx(want.p_a_wins, abs=1e-12)
    assert p.value.p_unresolved == pytest.approx(want.p_unresolved, abs=1e-12) and want.p_unresolved > 0


def test_a_side_too_large_is_refused_beside_its_rows_and_the_last_result_stays():
    p = EncounterPanel("glass_empires", [WOLF], [LILY])
    before = p.value
    p.editors["side_b"].rows = [("Spider Lily", 20), ("Boar", 20), ("Wolf", 20)]
    p.background.wait(60)
    assert p.value is before
    assert "side_b" in p.error or "50" in p.error
    p.editors["side_b"].rows = [("Spider Lily", 1)]
    p.background.wait(60)
    assert p.error == "" and p.value.b == ("Spider Lily",)


def test_a_side_keeps_one_row():
    side = SideEditor(dict(GE.creatures), [("Wolf", 2)], label="side A")
    assert side.value == [WOLF, WOLF]

    def remove_button(i: int):
        return side.box.children[i].children[2]

    remove_button(0).click()  # the last row: refused, shown, kept
    assert "at least one creature" in side.error and side.rows == [("Wolf", 2)]
    side.add_button.click()  # a row of the catalog's first creature
    first = next(iter(GE.creatures.values()))
    assert side.value == [WOLF, WOLF, first] and side.error == ""
    side.box.children[1].children[0].value = "Boar"  # the new row's picker
    assert side.value == [WOLF, WOLF, BOAR]
    remove_button(0).click()
    assert side.value == [BOAR] and side.rows == [("Boar", 1)]


def test_an_annulus_encounter_is_exact_with_allies_in_the_area_too():
    A = wb.system("annulus").catalog()
    p = EncounterPanel("annulus", [A.creature("Wolf")] * 2, [A.creature("Berserker")], fights=4_000)
    assert p.value.exact and "exact" in p.badge.value
    q = EncounterPanel("annulus", [A.creature("Drake"), A.creature("Wolf")], [A.creature("Rat")], fights=4_000)
    before = q.value.p_a_wins
    q.controls["allies_in_area"].value = 1
    q.background.wait(60)
    assert q.value.exact and "exact" in q.badge.value
    assert q.value.p_a_wins != before  # (the Drake's area sets now strike its Wolf)


def test_allies_in_area_is_a_control_where_the_system_has_area_sets():
    """Annulus: "allies in an area" (``allies_in_area``, CLARIFICATIONS.md Encounters) is linked to the
    trait and reaches ``wb.encounter``; a system with no area sets shows no such control."""
    A = wb.system("annulus").catalog()
    drake, wolf = A.creature("Drake"), A.creature("Wolf")
    p = EncounterPanel("annulus", [drake, wolf, wolf], [wolf] * 3, fights=2_000)
    assert list(p.controls)[-2:] == ["allies_in_area", "max_rounds"]
    p.controls["allies_in_area"].value = 2
    p.background.wait(60)
    assert p.allies_in_area == 2
    want = wb.encounter([drake, wolf, wolf], [wolf] * 3, allies_in_area=2, fights=2_000)
    assert p.value.creatures.equals(want.creatures)
    assert "allies_in_area" not in EncounterPanel("glass_empires").controls


def test_the_app_tab_fights_two_of_the_damage_build_and_follows_it():
    app = Workbench("glass_empires")
    enc = app.build_tab("Encounter")
    d = app.damage
    assert enc.side_a == [d.attacker, d.attacker] and enc.side_b == [d.target]
    assert enc.editors["side_a"].rows == [(BUILD, 2)]
    assert enc.editors["side_a"].choices()[0] == (f"your build: {d.attacker.name}", BUILD)
    d.attacker = BOAR
    enc.background.wait(60)
    assert enc.side_a == [BOAR, BOAR] and enc.value.a == ("Boar", "Boar #2")
    # your build plays the Damage tab's attack
    want = wb.encounter([(BOAR, d.attack), (BOAR, d.attack)], [d.target])
    assert enc.value.p_a_wins == pytest.approx(want.p_a_wins, abs=1e-12)


def test_your_build_plays_the_attack_on_screen():
    """The Damage tab's attack is what your build plays in the Encounter tab (as often as a turn
    allows), not its best plan: the Town guard's Javelin against the Blademaster; the note says so."""
    un = wb.system("unbound").catalog()
    app = Workbench("unbound")
    enc = app.build_tab("Encounter")
    d = app.damage
    d.attacker, d.target = un.creature("Town guard"), un.creature("Blademaster")
    javelin = next(a for a in wb.system("unbound").attacks_of(d.attacker) if a.name == "Javelin")
    d.attack = javelin
    enc.background.wait(120)
    assert enc.build_attack == javelin and "Javelin" in enc.note.value
    guard = d.attacker
    want = wb.encounter([(guard, javelin), (guard, javelin)], [enc.side_b[0]])
    best = wb.encounter([guard, guard], [enc.side_b[0]])
    assert enc.value.p_a_wins == pytest.approx(want.p_a_wins, abs=1e-12)
    assert abs(want.p_a_wins - best.p_a_wins) > 0.01  # the pick matters here


def test_how_many_foes_is_wb_encounter_difficulty_of_side_a():
    p = EncounterPanel("glass_empires", [WOLF, BOAR], [LILY])
    assert p.difficulty_controls["foe"].value == "Spider Lily"  # side B's first creature
    p.difficulty_controls["max_copies"].value = 4
    p.difficulty_button.click()
    p.difficulty_background.wait(120)
    want = wb.encounter_difficulty([WOLF, BOAR], LILY, max_copies=4)
    assert p.difficulty.copies == want.copies
    assert p.difficulty.curve["p_party_wins"].to_list() == pytest.approx(want.curve["p_party_wins"].to_list(), abs=1e-12)
    assert p.difficulty_summary.value == want.summary()
    spec = str(p.difficulty_chart.chart.to_dict())
    assert "copies of Spider Lily" in spec and "Wolf + Boar against copies of Spider Lily" in spec


@pytest.mark.parametrize(
    "system, shown",
    [
        ("glass_empires", {"refund"}),
        ("unbound", {"flanking"}),
        ("annulus", {"allies_in_area"}),
        ("last_odyssey", set()),
    ],
)
def test_a_rule_control_shows_only_where_the_system_has_the_rule(system: str, shown: set[str]) -> None:
    """Unbound flanking, the Glass Empires refund and the allies an Annulus area set strikes change
    nothing in another system, so no control for them is on screen there."""
    first = next(iter(wb.system(system).catalog().creatures.values()))
    p = EncounterPanel(system, [first], [first])
    p.background.wait(120)
    assert set(p.controls) & {"flanking", "refund", "allies_in_area"} == shown
    assert {"first", "order", "targeting", "max_rounds"} <= set(p.controls)
    assert p.value is not None and p.error == ""
