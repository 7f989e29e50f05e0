"""The notebooks' chart helpers without vl-convert-python (JupyterLite has no build of it, issue 41
item 1): the lessons' pictures become the live chart, the saved-picture renderer the live chart alone."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import workbench as wb
from workbench import charts

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"


@pytest.fixture
def helpers(monkeypatch):
    monkeypatch.syspath_prepend(str(NOTEBOOKS))
    import classroom
    import saved_charts

    monkeypatch.setitem(sys.modules, "vl_convert", None)  # not installed: the import fails
    return classroom, saved_charts


def test_a_lesson_picture_is_the_live_chart_with_its_text(helpers):
    classroom, _ = helpers
    data, meta = classroom.show(charts.damage_chart(wb.Dist.die(6)), "a d6").bundle()
    assert "image/png" not in data and "application/vnd.jupyter.widget-view+json" in data
    assert data["text/plain"] == "[chart] a d6" and meta == {}


def test_the_saved_picture_renderer_shows_the_live_chart_alone(helpers):
    _, saved_charts = helpers
    spec = charts.damage_chart(wb.Dist.die(6), title="a d6").to_dict()
    assert saved_charts.png_bundle(spec) == ({}, {})
    data, _ = saved_charts.live_with_picture(spec)
    assert "image/png" not in data and data["text/plain"] == "[chart] a d6"
