"""Axes and colour scales fitted to the bulk of the data, outliers clipped and marked (issue 36,
item 4): the damage-per-turn overlay's axis ran to 130 where the mass was below 20, one 242-round
cell flattened the Compare heatmap's colours. Asserted on the Vega-Lite spec."""

from __future__ import annotations

import numpy as np
import polars as pl

from workbench import charts
from workbench.dist import Dist


def _rows(spec: dict) -> list[dict]:
    return [r for values in spec["datasets"].values() for r in values]


def test_one_far_cell_does_not_flatten_the_heatmap_colours():
    values = [2, 3, 5, 8, 13, 4, 6, 9, 11, 242, 7, 3]
    frame = pl.DataFrame(
        {"target": [f"t{i % 4}" for i in range(12)], "build": [f"b{i // 4}" for i in range(12)], "v": values}
    )
    spec = charts.heatmap(frame, "target", "build", "v", fmt=".0f").to_dict()
    rect = spec["layer"][0]["encoding"]
    assert rect["color"]["scale"]["domain"] == [2.0, 13.0] and rect["color"]["scale"]["clamp"] is True
    assert rect["stroke"]["condition"] == {"test": "datum._clipped", "value": "#d1242f"}
    clipped = [r for r in _rows(spec) if r.get("_clipped")]
    assert [r["v"] for r in clipped] == [242.0]  # the cell keeps its number; only its colour is clamped
    assert any("1 cell above (to 242) outlined red" in s for s in spec["title"]["subtitle"])


def test_an_even_grid_keeps_its_full_colour_range():
    frame = pl.DataFrame({"target": ["a", "b", "c", "d"], "build": ["x"] * 4, "v": [1.0, 2.0, 3.0, 4.0]})
    spec = charts.heatmap(frame, "target", "build", "v").to_dict()
    assert "domain" not in spec["layer"][0]["encoding"]["color"]["scale"]
    assert "stroke" not in spec["layer"][0]["encoding"]


def test_a_long_tail_is_cut_from_the_overlay_axis_and_named():
    bulk = Dist.from_outcomes(np.arange(20), np.full(20, 1 / 20))
    tail = Dist.from_outcomes(np.r_[np.arange(20), 130], np.r_[np.full(20, 0.0499), 0.002])
    for chart in (charts.damage_chart({"A": bulk, "B": tail}), charts.at_least_chart({"A": bulk, "B": tail})):
        spec = chart.to_dict()
        assert max(r["damage"] for r in _rows(spec) if "damage" in r) <= 20
        subtitle = spec["title"]["subtitle"]
        text = subtitle if isinstance(subtitle, str) else " ".join(subtitle)
        assert "axis cut at 19 damage" in text and "B 0.2% (to 130)" in text


def test_overlays_without_a_tail_are_not_cut():
    a = Dist.from_outcomes(np.arange(10), np.full(10, 0.1))
    b = Dist.from_outcomes(np.arange(12), np.full(12, 1 / 12))
    spec = charts.damage_chart({"A": a, "B": b}).to_dict()
    assert max(r["damage"] for r in _rows(spec) if "damage" in r) == 11
    assert spec["title"]["subtitle"] == "dashed: each build's mean"
