"""charts.cost_front_chart: cost against the objective per target, the Pareto front joined
(issue 18 item 4); the spec is checked, as the other chart tests do."""

from __future__ import annotations

import polars as pl
import pytest

import workbench as wb
from workbench import charts as ch
from workbench.exploration import cost_front


def _frame():
    return pl.DataFrame(
        {
            "name": ["a", "b", "c", "d", "e"],
            "target": ["Wolf", "Wolf", "Wolf", "Rat", "Rat"],
            "cost": [1, 2, 2, 1, 3],
            "sets": [5, 4, 3, 2, 1],
            "same_as": [1, 2, 1, 1, 1],
            "mean_turn_damage": [1.0, 3.0, 2.0, 4.0, 4.0],
        }
    )


def test_points_front_line_and_tooltip():
    spec = ch.cost_front_chart(_frame()).to_dict()
    points, line = spec["layer"]
    assert points["mark"]["type"] == "circle" and line["mark"]["type"] == "line"
    assert points["encoding"]["x"]["field"] == "cost" and points["encoding"]["y"]["field"] == "mean_turn_damage"
    assert line["encoding"]["color"]["field"] == "target"
    # the legend's symbols opaque (the points are drawn at 35 %)
    assert points["mark"]["opacity"] == 0.35 and points["encoding"]["color"]["legend"] == {"symbolOpacity": 1}
    tips = [t["field"] for t in line["encoding"]["tooltip"]]
    assert {"name", "target", "cost", "mean_turn_damage", "sets", "same_as"} <= set(tips)
    rows = next(iter(spec["datasets"].values()))
    front = sorted((r["target"], r["name"]) for r in rows if r["front"])
    # Wolf: a (1, 1.0), b (2, 3.0); c is beaten by b at the same cost; Rat: d only (e costs more for the same)
    assert front == [("Rat", "d"), ("Wolf", "a"), ("Wolf", "b")]
    assert len(rows) == 5 + 3  # every row as a point, the front again as the line
    assert "Cost front" in spec["title"]["text"]


def test_front_of_an_explore_frame_is_its_pareto_rows():
    f = wb.explore("annulus", targets=["annulus:Wolf", "annulus:Ogre"], budget=3, top_k=2, progress=False)
    front = cost_front(f)
    assert sorted(zip(front["target"], front["name"])) == sorted(
        zip(f.filter("pareto")["target"], f.filter("pareto")["name"])
    )
    spec = ch.cost_front_chart(f, title="Annulus").to_dict()
    assert spec["title"]["text"] == "Annulus"


def test_bad_frames_are_refused():
    with pytest.raises(wb.RulesError) as e:
        ch.cost_front_chart(_frame().drop("cost"))
    assert e.value.field == "frame"
    with pytest.raises(wb.RulesError) as e:
        cost_front(_frame(), by="rounds")
    assert e.value.field == "by"
    # mean_rounds (a search against a group: fewest best) is a figure, but this frame has none
    with pytest.raises(wb.RulesError) as e:
        cost_front(_frame(), by="mean_rounds")
    assert e.value.field == "frame"
