"""Charts take pandas frames too (issue 40, item 3): every chart drawn from ``frame.to_pandas()``
is the chart drawn from the polars frame; ``Dist.to_pandas``."""

from __future__ import annotations

import json

import pandas as pd
import pytest

import workbench as wb
from workbench import charts as ch
from workbench.combat import rounds_to_kill

U = wb.system("unbound").catalog()
GUARD, DUELIST, RANGER = U.creature("Town guard"), U.creature("Veteran duelist"), U.creature("Ranger")


def unnamed(spec: dict) -> dict:
    """Return a chart spec with its datasets' names (hashes of their JSON text, where pandas writes a
    whole number of a column with nulls as 7.0) replaced by their order."""
    names = list(spec.get("datasets", {}))
    text = json.dumps(spec, sort_keys=True)
    for i, name in enumerate(names):
        text = text.replace(name, f"data-{i}")
    return json.loads(text)


def same(draw, frame):
    """The chart of ``frame.to_pandas()`` is the chart of ``frame`` (equal values, 7 == 7.0)."""
    assert isinstance(frame.to_pandas(), pd.DataFrame)
    assert unnamed(draw(frame.to_pandas()).to_dict()) == unnamed(draw(frame).to_dict())


def test_dist_to_pandas_matches_to_polars():
    d = wb.Dist.dice(3, 6)
    got = d.to_pandas()
    assert isinstance(got, pd.DataFrame) and list(got.columns) == ["damage", "probability"]
    assert got["damage"].tolist() == list(range(3, 19)) and got["probability"].sum() == pytest.approx(1.0)
    assert got.equals(d.to_polars().to_pandas())


def test_damage_and_dist_charts_take_pandas():
    d = wb.Dist.dice(2, 6)
    same(lambda f: ch.damage_chart(f), d.to_polars())
    same(lambda f: ch.damage_chart({"a": f, "b": f}), d.to_polars())
    assert ch.dist_frame(d.to_pandas()).equals(ch.dist_frame(d))


def test_rounds_chart_takes_pandas():
    same(lambda f: ch.rounds_chart(f), rounds_to_kill(wb.Dist.die(6), hp=12))


def test_compare_bars_and_heatmap_take_pandas():
    f = wb.compare([GUARD, RANGER], [DUELIST], progress=False)
    same(lambda x: ch.compare_bars(x, "attacker", "mean_rounds", group="attack"), f)
    same(lambda x: ch.heatmap(x, "target", "attack", "mean_rounds"), f)


def test_sweep_chart_takes_pandas():
    """The issue's case: charts.sweep_chart(frame.to_pandas()) raised AttributeError."""
    same(ch.sweep_chart, wb.sweep([GUARD], DUELIST, "ac", range(10, 31, 4)))


def test_variant_heatmap_and_race_chart_take_pandas():
    opts = wb.system("unbound").Options
    f = wb.variants([GUARD], [DUELIST], {"confirm": opts(), "no confirmation": opts(confirm_crits=False)})
    same(lambda x: ch.variant_heatmap(x, "no confirmation"), f)
    same(ch.race_chart, wb.head_to_head(GUARD, RANGER, DUELIST, curves=True))
