"""charts.references_chart: one point per published figure, its deviation in units of the source's
rounding (issue 18 item 6); the spec is checked, as the other chart tests do."""

from __future__ import annotations

import polars as pl
import pytest

import workbench as wb
from workbench import charts as ch


def _rows(spec):
    return {r["label"]: r for r in spec["datasets"][spec["layer"][1]["data"]["name"]]}


def test_band_points_and_statuses():
    spec = ch.references_chart().to_dict()
    band, points = spec["layer"]
    assert band["mark"]["type"] == "rect" and points["mark"]["type"] == "point"
    assert points["encoding"]["x"]["scale"]["domain"] == [-ch.REFERENCE_CLIP, ch.REFERENCE_CLIP]
    rows = _rows(spec)
    assert len(rows) == wb.references().height
    anydice = rows["AnyDice (Jasper Flick): six scores: at least two of 17+"]
    # (4.2972 - 4.03) / 0.005 = 53 tolerances: drawn at the edge, as a misprint the page explains
    assert (
        anydice["x"] == ch.REFERENCE_CLIP and anydice["clipped"] and anydice["status"] == "published wrong (explained)"
    )
    elemental = rows["Elemental d6 wiki: 4d6: at least 1 of 5-6"]
    # (80.2469 - 80.3) / 0.05 = -1.06: just outside the band
    assert elemental["x"] == pytest.approx((80.24691358024691 - 80.3) / 0.05) and not elemental["clipped"]
    assert rows["Parslip's Tyranny of Dragons: DC 10, advantage"]["status"] == "within the source's rounding"
    assert "46 of 46 reproduced" in spec["title"]["subtitle"]


def test_a_figure_not_reproduced_is_red():
    frame = wb.references().with_columns(pl.Series("reproduced", [False] + [True] * 45))
    rows = _rows(ch.references_chart(frame).to_dict())
    assert rows["Parslip's Tyranny of Dragons: DC 10, straight"]["status"] == "NOT reproduced"


def test_refuses_another_frame():
    with pytest.raises(wb.RulesError) as info:
        ch.references_chart(pl.DataFrame({"a": [1]}))
    assert info.value.field == "frame"
