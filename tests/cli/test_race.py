"""The ``workbench race`` command (workbench/cli.py): wb.head_to_head's row, --out, --chart."""

from __future__ import annotations

import polars as pl
import pytest

import workbench as wb
from tests.cli.running import assert_one_line_error, creature, run


def test_race_prints_the_engines_row(capsys, tmp_path):
    out_file, chart = tmp_path / "race.csv", tmp_path / "race.svg"
    code, out, err = run(capsys, "race", "unbound", "Town guard", "Ranger", "-t", "Veteran duelist",
                         "--out", str(out_file), "--chart", str(chart))
    assert code == 0, err
    r = wb.head_to_head(creature("unbound", "Town guard"), creature("unbound", "Ranger"),
                        creature("unbound", "Veteran duelist")).row(0, named=True)
    assert f"Town guard {r['p_a_first']:.2%}" in out and "(exact)" in out
    written = pl.read_csv(out_file)
    assert written["p_a_first"][0] == pytest.approx(r["p_a_first"], rel=1e-12)
    assert "p_killed_by_a" not in written.columns and chart.read_text().startswith("<svg")


def test_race_errors_are_one_line(capsys):
    assert_one_line_error(capsys, "race", "unbound", "Town guard", "Nobody", "-t", "Veteran duelist",
                          contains=["Nobody"])
