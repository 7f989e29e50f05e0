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
