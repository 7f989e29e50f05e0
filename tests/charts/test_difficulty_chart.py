"""charts.difficulty_chart: P(party wins) against the number of foe copies of wb.encounter_difficulty
(issue 39 item 3); the spec is checked, as the other chart tests do."""

from __future__ import annotations

import polars as pl
import pytest

import workbench as wb
from workbench import charts as ch
from workbench.encounters import Difficulty

GE = wb.system("glass_empires").catalog()


def _mixed() -> Difficulty:
    """Two exact points then two simulated ones (as a party past the exact chain's bound)."""
    curve = pl.DataFrame(
        {
            "copies": [1, 2, 3, 4],
            "p_party_wins": [1.0, 0.95, 0.6, 0.1],
            "p_foes_win": [0.0, 0.05, 0.4, 0.9],
            "exact": [True, True, False, False],
            "standard_error": [None, None, 0.004, 0.002],
        },
        schema_overrides={"standard_error": pl.Float64},
    )
    return Difficulty(("Young dragon",), "Dire wolf", curve, {0.5: 3, 0.9: 2})


def _layers(spec: dict) -> dict[str, dict]:
    """The layers by mark type (rule, text, line, point, errorbar)."""
    out = {}
    for layer in spec["layer"]:
        mark = layer["mark"]["type"] if isinstance(layer["mark"], dict) else layer["mark"]
        out[mark] = layer
    return out


def _rows(spec: dict, layer: dict) -> list[dict]:
    return spec["datasets"][layer["data"]["name"]]


def test_points_line_rules_and_titles_of_an_exact_curve() -> None:
    hard = wb.encounter_difficulty([GE.creature("Wolf"), GE.creature("Boar")], GE.creature("Spider Lily"), max_copies=4)
    assert hard.curve["exact"].all()
    spec = ch.difficulty_chart(hard).to_dict(validate=True)
    layers = _layers(spec)
    assert set(layers) == {"rule", "text", "line", "point"}  # no error bars: every point is exact
    points = _rows(spec, layers["point"])
    assert [r["copies"] for r in points] == hard.curve["copies"].to_list()
    assert [r["p_party_wins"] for r in points] == hard.curve["p_party_wins"].to_list()
    assert [r["p_foes_win"] for r in points] == hard.curve["p_foes_win"].to_list()
    assert layers["line"]["data"] == layers["point"]["data"]
    enc = layers["point"]["encoding"]
    assert enc["x"]["field"] == "copies" and enc["x"]["title"] == "copies of Spider Lily"
    assert enc["y"]["field"] == "p_party_wins" and enc["y"]["title"] == "P(party wins)"
    assert enc["y"]["axis"]["format"] == "%" and enc["x"]["axis"]["values"] == [1, 2, 3, 4]
    assert {t["title"] for t in enc["tooltip"]} == {"copies of Spider Lily", "P(party wins)", "P(foes win)", "computed"}
    rules = _rows(spec, layers["rule"])
    assert [r["level"] for r in rules] == [0.5, 0.9]
    # 0.5: the party still wins 4 copies more than half the time, the most tried; 0.9: 3 (4 copies: 0.88)
    assert hard.copies == {0.5: 4, 0.9: 3}
    assert [r["label"] for r in rules] == ["P ≥ 50%: 4 copies or more (the most tried)", "P ≥ 90%: up to 3 copies"]
    assert layers["text"]["encoding"]["text"]["field"] == "label"
    assert spec["title"]["text"] == "Wolf + Boar against copies of Spider Lily"
    assert "every point exact" in spec["title"]["subtitle"]


def test_error_bars_only_on_the_simulated_points() -> None:
    d = _mixed()
    spec = ch.difficulty_chart(d).to_dict(validate=True)
    layers = _layers(spec)
    bars = _rows(spec, layers["errorbar"])
    assert [r["copies"] for r in bars] == [3, 4]
    assert [r["lo"] for r in bars] == pytest.approx([0.6 - 1.96 * 0.004, 0.1 - 1.96 * 0.002])
    assert [r["hi"] for r in bars] == pytest.approx([0.6 + 1.96 * 0.004, 0.1 + 1.96 * 0.002])
    assert (
        layers["errorbar"]["encoding"]["y"]["field"] == "lo" and layers["errorbar"]["encoding"]["y2"]["field"] == "hi"
    )
    points = _rows(spec, layers["point"])
    assert [r["method"] for r in points] == ["exact", "exact", "simulated", "simulated"]
    assert [r["how"] for r in points][2] == "simulated, s.e. 0.4 %"
    assert layers["point"]["encoding"]["shape"]["field"] == "method"
    assert layers["point"]["encoding"]["fill"]["scale"] == {
        "domain": ["exact", "simulated"],
        "range": ["#4e79a7", "white"],
    }
    # the bars are drawn before the points: a simulated point is hollow, its bar shows through
    marks = [layer["mark"]["type"] for layer in spec["layer"]]
    assert marks.index("errorbar") < marks.index("point")
    assert [r["label"] for r in _rows(spec, layers["rule"])] == ["P ≥ 50%: up to 3 copies", "P ≥ 90%: up to 2 copies"]
    assert spec["title"]["text"] == "Young dragon against copies of Dire wolf"
    assert spec["title"]["subtitle"] == (
        "most beaten: 2 copies with P ≥ 90%, 3 copies with P ≥ 50% · 2 simulated: bars ±1.96 s.e."
    )


def test_bars_stay_within_0_and_1_and_a_party_beaten_by_one_copy() -> None:
    curve = pl.DataFrame(
        {"copies": [1], "p_party_wins": [0.001], "p_foes_win": [0.999], "exact": [False], "standard_error": [0.01]}
    )
    spec = ch.difficulty_chart(Difficulty(("Wolf", "Wolf #2"), "Bear", curve, {0.5: 0})).to_dict()
    layers = _layers(spec)
    assert _rows(spec, layers["errorbar"])[0]["lo"] == 0.0
    assert _rows(spec, layers["rule"])[0]["label"] == "P ≥ 50%: not even 1 copy"
    assert spec["title"]["text"] == "Wolf x2 against copies of Bear"


def test_an_all_simulated_curve_names_only_simulated_in_its_legend() -> None:
    """The legend names the methods on the chart: with no exact point, no "exact" entry."""
    curve = pl.DataFrame(
        {
            "copies": [1, 2],
            "p_party_wins": [0.9, 0.4],
            "p_foes_win": [0.1, 0.6],
            "exact": [False, False],
            "standard_error": [0.01, 0.01],
        }
    )
    spec = ch.difficulty_chart(Difficulty(("Wolf",), "Bear", curve, {0.5: 1})).to_dict()
    point = _layers(spec)["point"]["encoding"]
    assert point["shape"]["scale"] == {"domain": ["simulated"], "range": ["diamond"]}
    assert point["fill"]["scale"] == {"domain": ["simulated"], "range": ["white"]}
    assert point["shape"]["legend"] is not None


def test_refuses_anything_but_a_difficulty() -> None:
    with pytest.raises(wb.RulesError) as info:
        ch.difficulty_chart(_mixed().curve)
    assert info.value.field == "difficulty"
