"""The ``workbench references`` command (workbench/cli.py): wb.references()'s table, --section,
--out, --chart, and its exit code."""

from __future__ import annotations

import polars as pl

import workbench as wb
from tests.cli.running import assert_one_line_error, run


def test_references_prints_and_writes_every_figure(capsys, tmp_path):
    out_file, chart = tmp_path / "refs.csv", tmp_path / "refs.svg"
    code, out, err = run(capsys, "references", "--out", str(out_file), "--chart", str(chart))
    assert code == 0, err
    refs = wb.references()
    assert f"{refs.height} of {refs.height} published figures reproduced: 44 within" in out
    assert "4.03%" in out and "4.2971744%" in out  # the AnyDice misprint beside the exact value
    written = pl.read_csv(out_file)
    assert written.height == refs.height and written["engine"].to_list() == refs["engine"].to_list()
    assert chart.read_text().startswith("<svg")


def test_references_one_section(capsys):
    code, out, _ = run(capsys, "references", "--section", "duels")
    assert code == 0 and "2 of 2 published figures reproduced" in out and "0.23076923" in out


def test_references_exit_1_when_a_figure_is_not_reproduced(capsys, monkeypatch):
    import workbench.published as published

    real = published.references

    def drifted(section=None):
        frame = real(section)
        return frame.with_columns(pl.Series("reproduced", [False] + [True] * (frame.height - 1)))

    monkeypatch.setattr(published, "references", drifted)
    code, out, _ = run(capsys, "references")
    assert code == 1 and "NOT reproduced: Parslip's Tyranny of Dragons" in out


def test_references_bad_section_is_one_line(capsys):
    assert_one_line_error(capsys, "references", "--section", "nope", contains=["section", "duels"])
