"""The ``workbench sweep`` command (workbench/cli.py): its rows are wb.sweep's, --values ranges,
--chart, one-line errors."""

from __future__ import annotations

import polars as pl
import pytest

import workbench as wb
from tests.cli.running import assert_one_line_error, creature, run
from workbench.cli import _sweep_values


def test_sweep_prints_and_writes_the_engines_rows(capsys, tmp_path):
    out_file, chart = tmp_path / "ac.csv", tmp_path / "ac.svg"
    code, out, err = run(capsys, "sweep", "unbound", "-a", "Town guard", "-t", "Veteran duelist", "-p", "ac",
                         "--values", "10:30:10", "--out", str(out_file), "--chart", str(chart))
    assert code == 0, err
    expected = wb.sweep([creature("unbound", "Town guard")], creature("unbound", "Veteran duelist"), "ac", [10, 20, 30])
    written = pl.read_csv(out_file)
    assert written.columns == expected.columns
    assert written["mean_rounds"].to_list() == pytest.approx(expected["mean_rounds"].to_list(), rel=1e-9)
    assert "parameter: target.ac; method: all exact" in out
    assert chart.read_text().startswith("<svg") and "mean rounds" in chart.read_text()


def test_values_ranges():
    assert _sweep_values("10:14") == [10, 11, 12, 13, 14]
    assert _sweep_values("0:1:0.5") == [0, 0.5, 1]
    assert _sweep_values("3, 5,8") == [3, 5, 8]


@pytest.mark.parametrize(
    "args, words",
    [
        (["-p", "ac", "--values", "1:x"], "--values"),
        (["-p", "ac", "--values", "30:10"], "--values"),
        (["-p", "armour", "--values", "1:3"], "not a number field"),
        (["-p", "hp", "--values", "0:3"], "value 0"),
    ],
)
def test_bad_sweeps_are_one_line_errors(capsys, args, words):
    assert_one_line_error(capsys, "sweep", "unbound", "-a", "Town guard", "-t", "Veteran duelist", *args,
                          contains=[words])
