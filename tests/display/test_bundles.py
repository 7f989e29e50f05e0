"""Rich display (workbench/display.py): Dist, DuelResult and explain's result render in Jupyter as a
compact Vega-Lite chart plus the key numbers (``_repr_mimebundle_``), as text elsewhere."""

from __future__ import annotations

import json

import pytest

import workbench as wb
from workbench.display import MAX_POINTS, VEGALITE_MIME

KEYS = {"text/plain", "text/html", VEGALITE_MIME, "image/svg+xml"}  # the SVG: vl-convert is a test tool


def valid_svg(spec: dict) -> str:
    """Return the SVG vl-convert (Vega-Lite v5, bundled: no network) draws from ``spec``; fails on a bad spec."""
    vl_convert = pytest.importorskip("vl_convert")
    fives = [v for v in vl_convert.get_vegalite_versions() if v.startswith("5.")]
    version = max(fives, key=lambda v: tuple(map(int, v.split("."))))
    return vl_convert.vegalite_to_svg(json.loads(json.dumps(spec)), vl_version=version)


def test_dist_bundle_has_the_chart_and_the_numbers():
    d = wb.Dist.dice(2, 6)
    b = d._repr_mimebundle_()
    assert set(b) == KEYS
    assert b["text/plain"] == repr(d)
    assert "mean" in b["text/html"] and ">7<" in b["text/html"] and "2..12" in b["text/html"]
    assert "P(&gt; 0)" in b["text/html"] and "100.00%" in b["text/html"]
    spec = b[VEGALITE_MIME]
    assert spec["$schema"].endswith("/v5.json")
    values = spec["data"]["values"]
    assert [r["value"] for r in values] == list(range(2, 13))
    assert values[5]["probability"] == pytest.approx(6 / 36)
    assert "mean 7, sd 2.415" in spec["title"]["text"]
    assert "<svg" in valid_svg(spec)
    assert b["image/svg+xml"] == valid_svg(spec) and "mean 7, sd 2.415" in b["image/svg+xml"]


def test_a_wide_dist_is_binned_keeping_its_mass():
    d = wb.Dist.dice(40, 100)  # support 40..4000
    values = d._repr_mimebundle_()[VEGALITE_MIME]["data"]["values"]
    assert len(values) <= MAX_POINTS
    assert sum(r["probability"] for r in values) == pytest.approx(1.0)
    xs = [r["value"] for r in values]
    steps = {b - a for a, b in zip(xs, xs[1:])}
    assert xs == sorted(xs) and xs[0] >= 40 and min(steps) > 1  # bins wider than one outcome
    assert all(step % min(steps) == 0 for step in steps)  # equal-width bins (a bin of no mass is left out)


def test_include_and_exclude_follow_ipython():
    d = wb.Dist.die(4)
    assert set(d._repr_mimebundle_(exclude={VEGALITE_MIME})) == {"text/plain", "text/html", "image/svg+xml"}
    assert set(d._repr_mimebundle_(exclude={"image/svg+xml"})) == {"text/plain", "text/html", VEGALITE_MIME}
    assert set(d._repr_mimebundle_(include={"text/html"})) == {"text/plain", "text/html"}


def test_ipython_formatter_uses_the_bundle():
    IPython = pytest.importorskip("IPython")
    from IPython.core.formatters import DisplayFormatter

    data, _ = DisplayFormatter().format(wb.Dist.die(6))
    assert VEGALITE_MIME in data and "text/html" in data
    del IPython


def test_duel_bundle_has_win_chances_and_the_rounds_chart():
    cat = wb.system("glass_empires").catalog()
    r = wb.duel(cat.creature("Bear"), cat.creature("Wolf"))
    b = r._repr_mimebundle_()
    assert set(b) == KEYS
    assert b["text/plain"] == repr(r)
    assert f"{r.p_a_wins:.2%}" in b["text/html"] and "Bear wins" in b["text/html"]
    spec = b[VEGALITE_MIME]
    values = spec["data"]["values"]
    assert {v["winner"] for v in values} <= {"Bear", "Wolf"}
    bear = sum(v["probability"] for v in values if v["winner"] == "Bear")
    assert bear == pytest.approx(r.p_a_wins, abs=1e-9)
    assert f"Bear {r.p_a_wins:.1%}" in spec["title"]["text"]
    assert "<svg" in valid_svg(spec)


def test_explanation_is_still_a_dict_and_renders_markdown_numbers_and_rounds():
    from workbench.explanations import explanation_markdown

    u = wb.system("unbound").catalog()
    g, d = u.creature("Town guard"), u.creature("Veteran duelist")
    info = wb.explain(g, d, g.weapons[0])
    assert isinstance(info, dict) and info["method"] == "exact"
    b = info._repr_mimebundle_()
    assert set(b) == KEYS | {"text/markdown"}
    assert b["text/markdown"] == explanation_markdown(info)
    assert "mean rounds" in b["text/html"] and f"{info['row']['mean_rounds']:.4g}" in b["text/html"]
    rounds = {v["statistic"]: v["rounds"] for v in b[VEGALITE_MIME]["data"]["values"]}
    assert rounds["mean"] == pytest.approx(info["row"]["mean_rounds"])
    assert rounds["10 %"] <= rounds["median"] <= rounds["90 %"]
    assert "<svg" in valid_svg(b[VEGALITE_MIME])


def test_without_vl_convert_there_is_no_picture(monkeypatch):
    from workbench import display

    monkeypatch.setattr(display, "_vl_version", lambda: None)
    assert set(wb.Dist.die(6)._repr_mimebundle_()) == {"text/plain", "text/html", VEGALITE_MIME}
