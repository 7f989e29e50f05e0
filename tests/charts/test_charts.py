"""workbench.charts: specs carry the data, titles, axis labels and tooltips; export works offline."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import altair as alt
import numpy as np
import polars as pl
import pytest

from workbench import charts as ch
from workbench.combat import rounds_to_kill
from workbench.dist import Dist
from workbench.errors import RulesError


def rows(spec: dict) -> list[dict]:
    """Every data row of a chart spec (all inline datasets together)."""
    return [r for values in spec.get("datasets", {}).values() for r in values]


def encodings(spec: dict) -> list[dict]:
    layers = spec.get("layer", [spec])
    return [layer.get("encoding", {}) for layer in layers]


def tooltip_titles(spec: dict) -> set[str]:
    out = set()
    for enc in encodings(spec):
        for t in enc.get("tooltip", []) or []:
            out.add(t.get("title", t.get("field")))
    return out


def test_import_is_lazy_and_widget_free():
    """`import workbench` loads neither charts nor altair; charts.py never imports ipywidgets.

    (Altair itself loads ipywidgets through its JupyterChart, so the check is on charts.py's imports.)
    """
    code = "import sys, workbench; print('workbench.charts' in sys.modules, 'altair' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "False False", out.stderr
    tree = ast.parse(Path(ch.__file__).read_text())
    imported = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    imported |= {n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    assert "altair" in imported and not imported & {"ipywidgets", "widgets", "anywidget"}
    assert not [n for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and "widgets" in (n.module or "")]


def test_damage_chart_bars_mean_and_labels():
    """d6+1 hitting 2 in 3 (0 otherwise): bars carry the exact pmf, the rule sits at the mean 3."""
    d = Dist.mixture([Dist.constant(0), Dist.die(6) + 1], [1 / 3, 2 / 3])
    spec = ch.damage_chart(d, title="Spear").to_dict()
    assert spec["title"]["text"] == "Spear"
    assert "mean 3.00" in spec["title"]["subtitle"] and "P(any damage) 66.7%" in spec["title"]["subtitle"]
    bars = {r["damage"]: r["probability"] for r in rows(spec) if "probability" in r}
    assert bars[0] == pytest.approx(1 / 3) and bars[4] == pytest.approx(1 / 9)
    assert sum(bars.values()) == pytest.approx(1.0, abs=1e-12)
    means = [r["value"] for r in rows(spec) if "value" in r]
    assert means == [pytest.approx(3.0)]
    enc = encodings(spec)[0]
    assert enc["x"]["title"] == "Damage" and enc["y"]["title"] == "Probability"
    assert {"P(exactly)", "P(at least)", "P(at most)"} <= tooltip_titles(spec)
    assert spec["config"]["range"]["category"] == ch.PALETTE


def test_damage_chart_accepts_an_outcome_frame():
    """A frame with damage/probability rows (several rows per damage) is summed per damage."""
    frame = pl.DataFrame({"damage": [0, 2, 2, 5], "probability": [0.25, 0.25, 0.25, 0.25], "crit": [0, 0, 1, 1]})
    spec = ch.damage_chart(frame).to_dict()
    bars = {r["damage"]: r["probability"] for r in rows(spec) if "probability" in r and r["probability"] > 0}
    assert bars == {0: 0.25, 2: 0.5, 5: 0.25}


def test_dist_frame_trims_tails_and_bins_under_the_row_limit():
    """30d100 has 2,971 outcomes; forcing 500 rows bins them and keeps the total mass."""
    d = 30 @ Dist.die(100)
    f = ch.dist_frame(d, max_rows=500)
    assert f.height <= 500
    assert f["probability"].sum() == pytest.approx(1.0, abs=1e-8)
    assert (f["damage_hi"] - f["damage"]).max() > 0
    assert f["damage"].min() > 30 and f["damage_hi"].max() < 3000  # 1e-9 tails dropped
    big = ch.dist_frame(Dist.uniform(0, 20_000))
    assert big.height <= ch.MAX_ROWS
    # at_least/at_most agree with the Dist itself
    g = ch.dist_frame(Dist.die(6))
    assert g["at_least"].to_list() == pytest.approx([1, 5 / 6, 4 / 6, 3 / 6, 2 / 6, 1 / 6])
    assert g["at_most"].to_list() == pytest.approx([1 / 6, 2 / 6, 3 / 6, 4 / 6, 5 / 6, 1])


def test_at_least_chart_overlays_builds_in_given_order():
    """d6: P(at least 4) = 1/2; d8: P(at least 4) = 5/8; the curve ends at 0 after the maximum."""
    spec = ch.at_least_chart({"d6": Dist.die(6), "d8": Dist.die(8)}).to_dict()
    pts = {(r["build"], r["damage"]): r["at_least"] for r in rows(spec)}
    assert pts[("d6", 4)] == pytest.approx(0.5) and pts[("d8", 4)] == pytest.approx(5 / 8)
    assert pts[("d6", 7)] == 0.0 and pts[("d8", 9)] == 0.0
    enc = encodings(spec)[0]
    assert enc["color"]["sort"] == ["d6", "d8"]
    assert enc["y"]["title"] == "P(damage ≥ x)"


def test_at_most_chart_mirrors_at_least_and_both_name_what_is_charted():
    """d6: P(at most 3) = 1/2, and the curve opens at 0 before the minimum (0 at x = 0). A dice
    expression's curves say "value" and "Expression", a build's "damage" and "Build"."""
    spec = ch.at_most_chart({"d6": Dist.die(6), "d4": Dist.die(4)}).to_dict()
    pts = {(r["build"], r["damage"]): r["at_most"] for r in rows(spec)}
    assert pts[("d6", 3)] == pytest.approx(0.5) and pts[("d6", 0)] == 0.0 and pts[("d4", 4)] == 1.0
    enc = encodings(spec)[0]
    assert (enc["y"]["title"], enc["color"]["title"]) == ("P(value ≤ x)", "Expression")
    least = encodings(
        ch.at_least_chart({"a": Dist.die(6), "b": Dist.die(4)}, quantity="value", legend="Expression").to_dict()
    )[0]
    assert (least["y"]["title"], least["color"]["title"]) == ("P(value ≥ x)", "Expression")


def test_rounds_chart_from_the_kill_chain():
    """Always 5 damage vs 12 HP: killed in round 3 exactly; survival plots 1 - p_killed_by."""
    spec = ch.rounds_chart({"sure": rounds_to_kill(Dist.constant(5), hp=12),
                            "coin": rounds_to_kill(Dist.mixture([Dist.constant(0), Dist.constant(12)], [.5, .5]),
                                                   hp=12)}).to_dict()
    by = {(r["build"], r["round"]): r["p_killed_by"] for r in rows(spec)}
    assert by[("sure", 0)] == 0 and by[("sure", 2)] == 0 and by[("sure", 3)] == pytest.approx(1)
    assert by[("coin", 1)] == pytest.approx(0.5) and by[("coin", 2)] == pytest.approx(0.75)
    assert encodings(spec)[0]["x"]["title"] == "Round"
    surv = ch.rounds_chart(rounds_to_kill(Dist.constant(5), hp=12), survival=True).to_dict()
    assert encodings(surv)[0]["y"]["field"] == "p_alive"
    with pytest.raises(RulesError, match="frames"):
        ch.rounds_chart({"bad": pl.DataFrame({"round": [1]})})


def test_heatmap_cells_and_labels():
    f = pl.DataFrame({"build": ["a", "a", "b", "b"], "creature": ["x", "y", "x", "y"], "rounds": [1.0, 2.0, 3.0, 4.0]})
    spec = ch.heatmap(f, "creature", "build", "rounds", reverse=True).to_dict()
    assert {(r["build"], r["creature"]): r["rounds"] for r in rows(spec)} == {
        ("a", "x"): 1.0, ("a", "y"): 2.0, ("b", "x"): 3.0, ("b", "y"): 4.0}
    assert spec["title"]["text"] == "Rounds by creature and build"
    assert encodings(spec)[0]["color"]["scale"]["reverse"] is True
    assert [layer["mark"]["type"] for layer in spec["layer"]] == ["rect", "text"]
    with pytest.raises(RulesError, match="lacks"):
        ch.heatmap(f, "creature", "build", "nope")


def test_duel_chart_segments_and_bad_input():
    spec = ch.duel_chart(0.55, 0.40, 0.05, ("Ogre", "Knight")).to_dict()
    seg = {r["outcome"]: (r["start"], r["end"]) for r in rows(spec)}
    assert seg["Ogre wins"] == pytest.approx((0, .55)) and seg["draw"] == pytest.approx((.55, .60))
    assert seg["Knight wins"] == pytest.approx((.60, 1.0))
    assert "Ogre 55.0%" in spec["title"]["subtitle"]
    with pytest.raises(RulesError, match="p_a"):
        ch.duel_chart(0.7, 0.7, 0.0)


def test_compare_bars_groups_side_by_side_with_error_bars():
    f = pl.DataFrame({"creature": ["x", "x", "y", "y"], "build": ["a", "b", "a", "b"],
                      "mean": [1.0, 2.0, 3.0, 4.0], "sd": [0.5, 0.5, 1.0, 1.0]})
    spec = ch.compare_bars(f, "creature", "mean", group="build", error="sd").to_dict()
    bars = spec["layer"][0]["encoding"]
    assert bars["xOffset"]["field"] == "build" and bars["color"]["field"] == "build"
    lo = {(r["creature"], r["build"]): r["lo"] for r in rows(spec)}
    assert lo[("y", "b")] == pytest.approx(3.0)


def test_unthemed_charts_compose_and_theme_applies_after():
    a = ch.damage_chart(Dist.die(4), themed=False)
    b = ch.at_least_chart(Dist.die(4), themed=False)
    both = ch.apply_theme(alt.hconcat(a, b))
    spec = both.to_dict()
    assert spec["config"]["title"]["fontSize"] == 15 and len(spec["hconcat"]) == 2
    assert "config" not in spec["hconcat"][0]


def test_save_png_and_svg_offline(tmp_path):
    png = ch.save_png(ch.damage_chart(Dist.die(6)), tmp_path / "d.png")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 5_000
    svg = ch.save_svg(ch.duel_chart(0.5, 0.5, 0.0), tmp_path / "sub" / "d.svg")
    text = svg.read_text()
    assert text.lstrip().startswith("<svg") and "50.0%" in text


def test_bad_inputs_raise_rules_error():
    with pytest.raises(RulesError, match="dist"):
        ch.damage_chart([1, 2, 3])
    with pytest.raises(RulesError, match="dist"):
        ch.at_least_chart({})
    with pytest.raises(RulesError, match="lacks"):
        ch.compare_bars(pl.DataFrame({"a": [1]}), "a", "b")
    assert np.isclose(ch.dist_frame(Dist.constant(3))["probability"].sum(), 1.0)


def test_heatmap_null_cells_selection_and_outline():
    f = pl.DataFrame({"build": ["a", "a", "b", "b"], "creature": ["x", "y", "x", "y"],
                      "v": [1.0, None, 3.0, 4.0], "why": [None, "out of range", None, None]})
    spec = ch.heatmap(f, "creature", "build", "v", select="cell", selected=("y", "b"), extra=("why",)).to_dict()
    assert [p["name"] for p in spec["params"]] == ["cell", "cell_label"]
    fills = [layer["mark"].get("fill") for layer in spec["layer"]]
    assert "#eeeeee" in fills                                   # the null cell is drawn grey
    outline = spec["layer"][-1]
    assert outline["mark"]["strokeWidth"] == 3
    assert spec["datasets"][outline["data"]["name"]] == [{"creature": "y", "build": "b"}]
    assert "why" in tooltip_titles(spec)


def test_rounds_chart_stops_once_every_curve_is_done():
    """A coin-flip kill (1/2 a round): P(killed by t) = 1 - 2^-t first reaches 1 - 1e-4 at t = 14
    (2^-14 < 1e-4 < 2^-13), the first round where every curve is done, so the x axis ends there."""
    coin = rounds_to_kill(Dist.mixture([Dist.constant(0), Dist.constant(5)], [0.5, 0.5]), hp=5)
    spec = ch.rounds_chart(coin).to_dict()
    assert max(r["round"] for r in rows(spec)) == 14
    assert encodings(spec)[0]["x"]["scale"]["domain"] == [0, 14]
    assert encodings(ch.rounds_chart(coin, max_round=4).to_dict())[0]["x"]["scale"]["domain"] == [0, 4]


def test_heatmap_with_inf_and_nan_renders_grey(tmp_path):
    """mean_rounds is inf for a turn that never damages: vl-convert used to fail with
    'Unrecognized signal name: "inf"'. Such cells (and NaN ones) become null, drawn grey; the
    infinite one is labelled "∞", the NaN one "–", and the finite cells keep their numbers."""
    f = pl.DataFrame({"build": ["a", "a", "b", "b"], "creature": ["x", "y", "x", "y"],
                      "mean_rounds": [2.5, float("inf"), float("nan"), 4.0]})
    chart = ch.heatmap(f, "creature", "build", "mean_rounds", reverse=True)
    spec = chart.to_dict()
    name = (spec.get("data") or spec["layer"][0]["data"])["name"]
    data = {(r["build"], r["creature"]): r for r in spec["datasets"][name]}
    assert data[("a", "x")]["mean_rounds"] == 2.5 and data[("b", "y")]["mean_rounds"] == 4.0
    assert data[("a", "y")]["mean_rounds"] is None and data[("a", "y")]["_infinite"] is True
    assert data[("b", "x")]["mean_rounds"] is None and data[("b", "x")]["_infinite"] is False
    assert "#eeeeee" in [layer["mark"].get("fill") for layer in spec["layer"]]
    text = [layer for layer in spec["layer"] if layer.get("encoding", {}).get("text", {}).get("condition")]
    assert text and text[0]["encoding"]["text"]["condition"]["value"] == "∞"
    png = ch.save_png(chart, tmp_path / "inf.png")
    assert png.stat().st_size > 1000
    svg = ch.save_svg(chart, tmp_path / "inf.svg").read_text()
    assert "∞" in svg


def test_round_axis_ticks_are_whole_rounds():
    """A rounds axis over 0..2 showed ticks 0, 1, 1, 2, 2 (Vega's halves printed with "d"): the
    ticks are now every whole round up to 12, then every 2nd, 5th, 10th ..."""
    assert ch.round_ticks(2) == [0, 1, 2]
    assert ch.round_ticks(12) == list(range(13))
    assert ch.round_ticks(13) == list(range(0, 14, 2))
    assert ch.round_ticks(100) == list(range(0, 101, 10))
    assert ch.round_ticks(10**6)[:2] == [0, 100_000] and len(ch.round_ticks(10**6)) <= 13
    frame = pl.DataFrame({"round": [1, 2], "p_killed_by": [0.5, 1.0]})
    spec = ch.rounds_chart(frame, max_round=2).to_dict()
    assert spec["encoding"]["x"]["axis"]["values"] == [0, 1, 2]
