"""PNG and SVG export (workbench.charts.save_png / save_svg) need the optional vl-convert-python
(the ``export`` extra, issue 41 item 1): installed, they write the file; missing, a RulesError names
what to install."""

from __future__ import annotations

import sys

import pytest

import workbench as wb
from workbench import charts
from workbench.errors import RulesError


@pytest.fixture(scope="module")
def chart():
    return charts.damage_chart(wb.Dist.die(6), title="a d6")


def test_png_and_svg_are_written_with_vl_convert(chart, tmp_path):
    png = charts.save_png(chart, tmp_path / "a" / "d6.png")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    svg = charts.save_svg(chart, tmp_path / "d6.svg")
    assert svg.read_text().lstrip().startswith("<svg") and "a d6" in svg.read_text()


@pytest.mark.parametrize(("save", "what"), [(charts.save_png, "PNG"), (charts.save_svg, "SVG")])
def test_without_vl_convert_export_says_what_to_install(chart, tmp_path, monkeypatch, save, what):
    monkeypatch.setitem(sys.modules, "vl_convert", None)  # not installed: the import fails
    with pytest.raises(RulesError, match=f"saving a chart as {what} needs the optional package") as err:
        save(chart, tmp_path / "out")
    assert err.value.field == "vl-convert" and "pip install 'rules-workbench[export]'" in str(err.value)
    assert not (tmp_path / "out").exists()
