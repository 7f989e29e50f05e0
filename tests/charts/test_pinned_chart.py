"""workbench.charts for several named builds (issue 17, item 5: pinned builds overlaid): damage_chart
of several distributions, pinned_chart (damage and rounds to kill side by side), sweep_chart's
``label`` column."""

from __future__ import annotations

import polars as pl
import pytest

from workbench import charts as ch
from workbench.combat import rounds_to_kill
from workbench.dist import Dist
from workbench.errors import RulesError

D6, D8 = Dist.die(6), Dist.die(8)


def rows(spec: dict) -> list[dict]:
    return [r for values in spec.get("datasets", {}).values() for r in values]


def test_damage_chart_overlays_several_named_dists_as_lines_with_their_means():
    """d6 and d8: each PMF 1/6 and 1/8 per face, mean rules at 3.5 and 4.5, colours in the given order."""
    spec = ch.damage_chart({"d8": D8, "d6": D6}, title="Two dice").to_dict(validate=True)
    lines, rules = spec["layer"]
    assert lines["mark"]["type"] == "line" and rules["mark"]["type"] == "rule"
    assert lines["encoding"]["color"]["sort"] == ["d8", "d6"] and lines["encoding"]["color"]["title"] == "Build"
    pmf = {(r["build"], r["damage"]): r["probability"] for r in rows(spec) if "probability" in r}
    assert pmf[("d6", 3)] == pytest.approx(1 / 6, abs=1e-12) and pmf[("d8", 8)] == pytest.approx(1 / 8, abs=1e-12)
    assert ("d6", 7) not in pmf
    means = {r["build"]: r["mean"] for r in rows(spec) if "mean" in r}
    assert means == pytest.approx({"d6": 3.5, "d8": 4.5}, abs=1e-12)
    one = ch.damage_chart({"only": D6}).to_dict()  # one named dist: the usual bars
    assert one["layer"][0]["mark"]["type"] == "bar"


@pytest.mark.parametrize("view", ["distribution", "at least"])
def test_pinned_chart_puts_damage_beside_rounds_to_kill(view):
    dists = {"a": D6, "b": D8}
    frames = {k: rounds_to_kill(d, hp=12) for k, d in dists.items()}
    spec = ch.pinned_chart(dists, frames, "Pinned", view=view).to_dict(validate=True)
    left, right = spec["hconcat"]
    assert spec["title"]["text"] == "Pinned" and right["title"]["text"] == "Rounds to kill"
    left_colour = (left.get("layer") or [left])[0]["encoding"]["color"]
    assert left_colour["sort"] == ["a", "b"] and right["encoding"]["color"]["sort"] == ["a", "b"]
    by = {(r["build"], r["round"]): r["p_killed_by"] for r in rows(spec) if "p_killed_by" in r}
    for name, frame in frames.items():
        for r in frame.iter_rows(named=True):
            if (name, r["round"]) in by:
                assert by[(name, r["round"])] == pytest.approx(r["p_killed_by"], abs=1e-12)
    if view == "at least":
        assert left["encoding"]["y"]["field"] == "at_least"
    assert spec["config"]["range"]["category"] == ch.PALETTE


def test_pinned_chart_with_one_build_or_a_fight_that_cannot_end():
    """One pin is still named in the legend; a build missing from ``frames`` is drawn on the left only."""
    spec = ch.pinned_chart({"solo": D6}, {"solo": rounds_to_kill(D6, hp=12)}).to_dict(validate=True)
    assert spec["hconcat"][1]["encoding"]["color"]["sort"] == ["solo"]
    spec = ch.pinned_chart({"a": D6, "zero": Dist.constant(0)}, {"a": rounds_to_kill(D6, hp=12)}).to_dict()
    curves = {r["build"] for r in rows(spec) if "p_killed_by" in r}
    assert curves == {"a"}
    with pytest.raises(RulesError, match="view"):
        ch.pinned_chart({"a": D6}, {"a": rounds_to_kill(D6, hp=12)}, view="sideways")
    with pytest.raises(RulesError, match="frames"):
        ch.pinned_chart({"a": D6}, {"b": rounds_to_kill(D6, hp=12)})
    with pytest.raises(RulesError, match="frames"):
        ch.pinned_chart({"a": D6}, {})


def test_sweep_chart_names_lines_by_a_label_column():
    frame = pl.DataFrame(
        {
            "parameter": ["target.ac"] * 4,
            "value": [10, 12, 10, 12],
            "attacker": ["A", "A", "B", "B"],
            "attack": ["best plan"] * 4,
            "mean_rounds": [2.0, 3.0, 4.0, 5.0],
            "rounds_q10": [1, 2, 3, 4],
            "rounds_q90": [3, 4, 5, 6],
            "build": ["my pin", "my pin", "other", "other"],
        }
    )
    spec = ch.sweep_chart(frame, label="build").to_dict(validate=True)
    assert spec["layer"][-1]["encoding"]["color"]["sort"] == ["my pin", "other"]
    assert ch.sweep_chart(frame).to_dict()["layer"][-1]["encoding"]["color"]["sort"] == [
        "A · best plan",
        "B · best plan",
    ]
    with pytest.raises(RulesError, match="pin"):
        ch.sweep_chart(frame, label="pin")
