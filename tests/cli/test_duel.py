"""The ``workbench`` command (workbench/cli.py), run through ``main([...])``: ``duel``: the summary
equals the engine's, the PNG chart.
"""

from __future__ import annotations

import polars as pl
import pytest

import workbench as wb
from tests.cli.running import creature, run


@pytest.mark.parametrize("first", ["a", "b", "random"])
def test_duel_summary_matches_the_engine(capsys, tmp_path, first):
    res = wb.duel(creature("annulus", "Wolf"), creature("annulus", "Town Guard"), first=first, max_rounds=50)
    out_file = tmp_path / "rounds.parquet"
    code, out, _ = run(capsys, "duel", "annulus", "Wolf", "Town Guard", "--first", first, "--max-rounds", "50",
                       "--out", str(out_file))
    assert code == 0
    assert out.splitlines()[0] == res.summary()
    rounds = pl.read_parquet(out_file)
    assert rounds.height == 50
    assert rounds["p_a_wins"].sum() == pytest.approx(res.p_a_wins, abs=1e-12)


def test_duel_chart_png(capsys, tmp_path):
    path = tmp_path / "duel.png"
    code, _, _ = run(capsys, "duel", "glass_empires", "Vegetable Sprite", "Porcelain Doll", "--chart", str(path))
    assert code == 0 and path.read_bytes()[:4] == b"\x89PNG"


def test_duel_takes_yes(capsys):
    """--yes changes nothing within the bounds; the output on stdout is the same, and stderr
    (captured, not a terminal) carries no progress line. There is no --max-seconds: no clock stops
    the work (docs/limits.md)."""
    code, plain, err = run(capsys, "duel", "annulus", "Wolf", "Town Guard")
    assert code == 0 and err == ""
    code, again, err = run(capsys, "duel", "annulus", "Wolf", "Town Guard", "--yes")
    assert code == 0 and again == plain and err == ""


def test_a_brute_of_attack_999_and_multiplier_100_is_answered(capsys, tmp_path):
    """Issue 35: `workbench duel` and `workbench optimal` on it were still running at 40 s."""
    import dataclasses

    L = wb.system("last_odyssey")
    cop = L.catalog().creatures["Cop"]
    brute = cop.replace(name="Brute", physical_attack=999, abilities=(cop.abilities[0].replace(multiplier=100.0),)
    )
    path = wb.save(brute, tmp_path / "brute.toml")
    code, out, _ = run(capsys, "duel", "last_odyssey", str(path), str(path))
    assert code == 0 and out.startswith("Brute vs Brute (exact")
    code, out, _ = run(capsys, "optimal", "last_odyssey", str(path), "-t", str(path))
    assert code == 0 and "optimal play" in out
