"""The ``workbench`` command (workbench/cli.py), run through ``main([...])``: ``compare``: rows equal
the engine's, TOML and CSV inputs, rank, sort and heatmap, errors.
"""

from __future__ import annotations

import polars as pl
import pytest

import workbench as wb
from tests.cli.running import assert_one_line_error, creature, run


def test_compare_rows_match_the_engine(capsys, tmp_path):
    from workbench.comparison import compare

    out_file = tmp_path / "grid.csv"
    code, out, err = run(capsys, "compare", "annulus", "-a", "Wolf", "Rat", "-t", "Town Guard", "Wolf",
                         "--out", str(out_file))
    assert code == 0, err
    expected = compare(["annulus:Wolf", "annulus:Rat"], ["annulus:Town Guard", "annulus:Wolf"], system="annulus")
    written = pl.read_csv(out_file)
    assert written.height == expected.height and set(written.columns) == set(expected.columns)
    assert written["mean_rounds"].to_list() == pytest.approx(expected["mean_rounds"].to_list(), rel=1e-9)
    assert "hp_share_per_turn" in out and "Town Guard" in out


def test_compare_from_toml_and_csv_files(capsys, tmp_path):
    wolf = creature("annulus", "Wolf")
    wb.save([wolf.replace(name="Alpha Wolf")], tmp_path / "pack.toml")
    run(capsys, "catalog", "annulus", "--out", str(tmp_path / "bestiary.csv"))
    pl.read_csv(tmp_path / "bestiary.csv").filter(pl.col("name").is_in(["Rat", "Wolf"])).drop("attack_sets").write_csv(
        tmp_path / "two.csv")
    code, out, err = run(capsys, "compare", "annulus", "-a", str(tmp_path / "pack.toml"), "-t",
                         str(tmp_path / "two.csv"), "--all-columns", "--out", str(tmp_path / "g.parquet"))
    assert code == 0, err
    frame = pl.read_parquet(tmp_path / "g.parquet")
    assert set(frame["attacker"]) == {"Alpha Wolf"} and set(frame["target"]) == {"Rat", "Wolf"}
    assert "system" in out  # --all-columns prints every column


def test_compare_rank_sort_and_heatmap(capsys, tmp_path):
    chart = tmp_path / "heat.png"
    code, out, err = run(capsys, "compare", "annulus", "-a", "Wolf", "Town Guard", "-t", "Rat", "--rank",
                         "mean_rounds", "--chart", str(chart))
    assert code == 0, err
    header = next(line for line in out.splitlines() if line.startswith("│"))
    assert header.split("┆")[0].strip("│ ") == "rank"
    assert chart.read_bytes()[:4] == b"\x89PNG"
    code, out, _ = run(capsys, "compare", "annulus", "-a", "Wolf", "-t", "Rat", "--sort", "mean_damage",
                       "--ascending", "--top", "2")
    assert code == 0 and "shape: (2," in out


def test_compare_errors(capsys, tmp_path):
    assert_one_line_error(capsys, "compare", "annulus", "-a", "Wolf", "-t", "Dragon", contains=("Dragon",))
    assert_one_line_error(capsys, "compare", "annulus", "-a", "unbound:Town guard", "-t", "Rat",
                          contains=("not a annulus name",))
    assert_one_line_error(capsys, "compare", "annulus", "-a", "Wolf", "-t", "Rat", "--sort", "speed",
                          contains=("speed",))
    assert_one_line_error(capsys, "compare", "annulus", "-a", "Wolf", "-t", str(tmp_path / "none.csv"),
                          contains=("no such file",))


def test_compare_against_a_group(capsys, tmp_path):
    """``-t "3 x Skirmisher"`` is a group target: the rows equal the engine's for that group (the
    Gunner's Multi Shrapnel Bomb fells all three in one round; its Saber, two uses a turn played one
    at a time, the second going to the next Skirmisher when the first fells one, 2.352 on average:
    fewer than the three a turn played whole would need)."""
    from workbench.comparison import compare

    out_file = tmp_path / "group.csv"
    code, out, err = run(capsys, "compare", "last_odyssey", "-a", "Gunner", "-t", "3 x Skirmisher",
                         "--out", str(out_file))
    assert code == 0, err
    written = pl.read_csv(out_file)
    expected = compare(["last_odyssey:Gunner"], ["3 x last_odyssey:Skirmisher"], system="last_odyssey")
    assert written["target"].to_list() == expected["target"].to_list()
    assert set(written["target"]) == {"3 x Skirmisher"}
    assert written["mean_rounds"].to_list() == pytest.approx(expected["mean_rounds"].to_list(), rel=1e-9)
    rounds = dict(zip(written["attack"], written["mean_rounds"]))
    assert rounds["Shrapnel Bomb"] == pytest.approx(1.0) and rounds["Saber"] == pytest.approx(2.352)
    assert "3 x Skirmisher" in out
    assert_one_line_error(capsys, "compare", "last_odyssey", "-a", "Gunner", "-t", "0 x Skirmisher",
                          contains=("targets:", "-t '0 x Skirmisher': a number of copies must be 1 to 50, not 0"))
    assert_one_line_error(capsys, "compare", "last_odyssey", "-a", "Gunner", "-t", "3 x Nobody",
                          contains=("Nobody",))
