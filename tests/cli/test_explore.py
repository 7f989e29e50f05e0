"""The ``workbench explore`` command (workbench/cli.py): its rows are the engine's, with how they
were computed (``forced_by``, ``state_ignored``, a closing ``method:`` line), and ``--chart``."""

from __future__ import annotations

import polars as pl

from tests.cli.running import run
from workbench.exploration import explore, method_line


def test_explore_prints_how_its_rows_were_computed(capsys, tmp_path):
    out_file = tmp_path / "best.csv"
    code, out, err = run(capsys, "explore", "annulus", "-t", "Wolf", "Town Guard", "--budget", "3", "--top-k", "3",
                         "--out", str(out_file))
    assert code == 0, err
    expected = explore("annulus", targets=["annulus:Wolf", "annulus:Town Guard"], budget=3, top_k=3, progress=False)
    written = pl.read_csv(out_file)
    assert written.columns == expected.columns
    assert written["forced_by"].fill_null("").to_list() == expected["forced_by"].to_list()
    assert written["state_ignored"].to_list() == expected["state_ignored"].to_list()
    assert f"method: {method_line(expected)}" in out.splitlines()
    assert "forced_by" in out and "state_ignored" in out and "reckless" in out
    assert "p_unresolved" not in out  # null on every row: only in --out


def test_explore_chart_is_a_heatmap_of_builds(capsys, tmp_path):
    chart = tmp_path / "best.svg"
    code, out, err = run(capsys, "explore", "annulus", "-t", "Wolf", "Town Guard", "--budget", "2", "--top-k", "2",
                         "--chart", str(chart))
    assert code == 0, err
    text = chart.read_text()
    assert text.startswith("<svg") and "Town Guard" in text and "one-turn statistics, exact" in text


def test_explore_front_prints_the_cost_front_and_charts_it(capsys, tmp_path):
    chart = tmp_path / "front.svg"
    code, out, err = run(capsys, "explore", "annulus", "-t", "Wolf", "Hill Giant", "--budget", "3", "--top-k", "2",
                         "--front", "--by", "p_any_damage", "--chart", str(chart), "--dataset", str(tmp_path / "rows"))
    assert code == 0, err
    from workbench.exploration import cost_front

    f = explore("annulus", targets=["annulus:Wolf", "annulus:Hill Giant"], budget=3, top_k=2, by="p_any_damage",
                progress=False)
    front = cost_front(f, "p_any_damage")
    text = out.split("cost front (p_any_damage per cost")[1]
    for name in front["name"].to_list():
        assert name in text
    assert chart.read_text().startswith("<svg") and "cost front" in chart.read_text()
    assert pl.read_parquet(tmp_path / "rows" / "*.parquet").height > f.height
    code, out, err = run(capsys, "explore", "annulus", "-t", "Wolf", "Hill Giant", "--budget", "3", "--top-k", "2",
                         "--by", "p_any_damage", "--dataset", str(tmp_path / "rows"))
    assert code != 0 and "resume" in (out + err)


def test_explore_runs_a_declared_choice_space(capsys, tmp_path):
    """Glass Empires has no build economy: its budget counts modifications of catalog weapons
    (GlassEmpiresSystem.build_choices). The command says the choice combinations it walks (321 at
    budget 1: tests/systems/glass_empires/test_build_space.py), prints the engine's rows, and its
    cost front shows the build space's own columns (base, changes; Annulus's sets is absent)."""
    code, out, err = run(capsys, "explore", "glass_empires", "-t", "Creeping Cap", "--budget", "1", "--top-k", "2",
                         "--front", "--out", str(tmp_path / "best.csv"))
    assert code == 0, err
    assert "budget 1 walks 321 choice combinations of the glass_empires build space" in err
    expected = explore("glass_empires", targets=["glass_empires:Creeping Cap"], budget=1, top_k=2, progress=False)
    written = pl.read_csv(tmp_path / "best.csv")
    assert written["name"].to_list() == expected["name"].to_list()
    assert written["mean_turn_damage"].to_list() == expected["mean_turn_damage"].to_list()
    front = out.split("cost front (mean_turn_damage per cost")[1]
    assert "Weapon (unspecified): damage_type fire" in front and "changes" in front and "sets" not in front
    code, out, err = run(capsys, "explore", "glass_empires", "-t", "Creeping Cap", "--budget", "-1")
    assert code == 2 and "budget" in err


def test_explore_against_a_group(capsys, tmp_path):
    """``-t "2 x Town guard"``: the rows are explore's against the group (ranked by mean rounds, the
    same fights with the same seed), the method line says how the group fights ran, --front prints the
    cost front, and a bad number of copies is one line naming the flag."""
    out_file = tmp_path / "group.csv"
    code, out, err = run(capsys, "explore", "unbound", "-t", "2 x Town guard", "--budget", "1", "--top-k", "3",
                         "--fights", "100", "--front", "--out", str(out_file))
    assert code == 0, err
    expected = explore("unbound", targets=["2 x unbound:Town guard"], budget=1, top_k=3, fights=100, progress=False)
    written = pl.read_csv(out_file)
    assert written["name"].to_list() == expected["name"].to_list()
    assert written["mean_rounds"].to_list() == expected["mean_rounds"].to_list()
    assert (written["target"] == "2 x Town guard").all()
    assert "method: each build's group fight; " in out and "cost front (mean_rounds per cost, per group" in out
    code, out, err = run(capsys, "explore", "unbound", "-t", "0 x Town guard", "--budget", "1")
    assert code != 0 and "-t '0 x Town guard': a number of copies must be 1 to 50, not 0" in err
