"""The ``workbench variants`` command (workbench/cli.py): wb.variants' rows, --variant, --chart."""

from __future__ import annotations

import polars as pl
import pytest

import workbench as wb
from tests.cli.running import assert_one_line_error, creature, run


def test_variants_prints_and_writes_the_engines_rows(capsys, tmp_path):
    U = wb.system("unbound")
    opts = tmp_path / "nocrit.toml"
    wb.save(U.Options(confirm_crits=False), opts)
    out_file, chart = tmp_path / "v.csv", tmp_path / "v.svg"
    code, out, err = run(capsys, "variants", "unbound", "-a", "Town guard", "-t", "Veteran duelist",
                         "--variant", "confirm=default", "--variant", f"loose={opts}", "--show", "mean_damage",
                         "--out", str(out_file), "--chart", str(chart))
    assert code == 0, err
    expected = wb.variants([creature("unbound", "Town guard")], [creature("unbound", "Veteran duelist")],
                           {"confirm": U.Options(), "loose": U.Options(confirm_crits=False)})
    written = pl.read_csv(out_file)
    assert written["delta_mean_damage"].to_list() == pytest.approx(expected["delta_mean_damage"].to_list(), nan_ok=True)
    assert "loose" in out and chart.read_text().startswith("<svg")


def test_a_bad_variant_is_one_line(capsys):
    assert_one_line_error(capsys, "variants", "unbound", "-a", "Town guard", "-t", "Veteran duelist",
                          "--variant", "confirm", "--variant", "x=default", contains=["--variant", "LABEL=FILE"])
