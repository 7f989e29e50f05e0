"""The dice box (widgets/dice_box.py), headless: typed expressions are overlaid on the tab's own
distribution in the three views, the table is the expression's, a bad expression shows one line
with its position and nothing changes; the app puts a box on the Damage and Build tabs, following
the Damage tab's attack.

Oracles: workbench.dice_expression.parse_dice (checked against icepool in tests/dist) and the chart's
own data rows."""

from __future__ import annotations

import re

import pytest

from widgets.dice_box import MAX_SHOWN, DiceBox
from workbench.dice_expression import parse_dice
from workbench.dist import Dist


def rows(box: DiceBox) -> list[dict]:
    assert box.chart is not None
    spec = box.chart.chart.to_dict()
    return [r for values in spec["datasets"].values() for r in values]


def test_typed_expression_is_overlaid_on_the_base():
    box = DiceBox(base=Dist.dice(2, 6), base_label="this attack")
    box.input.value = "2d20kh1+5"
    assert box.expressions == ["2d20kh1+5"] and box.error == ""
    named = box.named()
    assert list(named) == ["this attack", "2d20kh1+5"]
    assert named["2d20kh1+5"].isclose(parse_dice("2d20kh1+5"))
    builds = {r.get("build") for r in rows(box)}
    assert builds == {"this attack", "2d20kh1+5"}
    got = {r["damage"]: r["probability"] for r in rows(box) if r.get("build") == "2d20kh1+5" and "damage" in r}
    want = parse_dice("2d20kh1+5").to_dict()
    assert all(abs(got[k] - want[k]) < 1e-12 for k in want)


@pytest.mark.parametrize(
    ("view", "column"), [("at least", "at_least"), ("at most", "at_most"), ("normal", "probability")]
)
def test_views(view, column):
    box = DiceBox(["3d6+2"])
    box.view_toggle.value = view
    assert box.view == view
    data = [r for r in rows(box) if column in r]
    assert data, view
    d = parse_dice("3d6+2")
    for r in data:
        x = r["damage"]
        if d.min() <= x <= d.max():
            want = {"at_least": d.sf(x), "at_most": d.cdf(x), "probability": d.probability(x)}[column]
            assert abs(r[column] - want) < 1e-12


def test_table_is_the_last_expression_and_can_be_picked():
    box = DiceBox(base=Dist.die(4))
    box.add("4d6kh3")
    assert box.table_of.value == "4d6kh3"
    assert "mean 12.245" in box.table.value and "<td>18</td>" in box.table.value
    box.table_of.value = "this attack"
    assert "mean 2.500" in box.table.value


def test_bad_expression_one_line_with_position_and_nothing_changes():
    box = DiceBox(["d20+7 >= 16"])
    before = box.chart.chart.to_dict()
    box.input.value = "3d6 + kh"
    shown = box.errors_shown()["expression"]
    assert "at 7:" in shown and "\n" not in shown
    assert re.search(r"3d6 \+ <mark[^>]*>k</mark>h", shown)
    assert box.expressions == ["d20+7 >= 16"] and box.chart.chart.to_dict() == before
    box.input.value = "d6"
    assert box.errors_shown() == {} and box.expressions == ["d20+7 >= 16", "d6"]


def test_comparison_is_a_zero_one_distribution():
    box = DiceBox()
    d = box.add("d20+7 >= 16")
    assert d.to_dict() == pytest.approx({0: 0.4, 1: 0.6})


def test_at_most_five_shown_and_clear():
    box = DiceBox()
    for n in range(1, MAX_SHOWN + 3):
        box.add(f"{n}d6")
    assert box.expressions == [f"{n}d6" for n in range(3, MAX_SHOWN + 3)]
    box.clear_button.click()
    assert box.expressions == [] and box.named() == {}


def test_app_has_a_dice_box_on_damage_and_build_following_the_attack(app):
    assert app.dice.base is not None and app.dice.base.isclose(app.damage.value)
    assert "wb-dice-box" in app.dice._dom_classes
    build = app.build_tab("Build")
    assert build.dice.base.isclose(app.damage.value)
    attacks = app.system.attacks_of(app.damage.attacker)
    other = next((a for a in app.system.catalog().attacks.values() if a != app.damage.attack), None)
    if other is not None:
        app.damage.update(attack=other)
        assert app.dice.base.isclose(app.damage.value) and build.dice.base.isclose(app.damage.value)
    assert attacks is not None


def test_compare_tab_has_a_dice_box_following_the_clicked_matchup(app):
    cmp = app.build_tab("Compare")
    assert cmp.dice.base is not None and cmp.dice.base.isclose(cmp.detail.value)
    assert cmp.dice.base_label == "this matchup" and "wb-dice-compare" in cmp.dice._dom_classes
    cmp.dice.add("2d6")
    assert list(cmp.dice.named()) == ["this matchup", "2d6"]
