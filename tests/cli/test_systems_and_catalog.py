"""The ``workbench`` command (workbench/cli.py), run through ``main([...])``: ``systems`` and
``catalog``: every creature printed, CSV written, exports that read back as the same creatures.
"""

from __future__ import annotations

import json

import polars as pl
import pytest

import workbench as wb
from tests.cli.running import assert_one_line_error, creature, run


def test_systems_lists_all_four(capsys):
    code, out, _ = run(capsys, "systems")
    assert code == 0
    assert [line.split()[0] for line in out.strip().splitlines()] == wb.systems()


@pytest.mark.parametrize("system", wb.systems())
def test_catalog_prints_every_creature_and_writes_csv(capsys, tmp_path, system):
    out_file = tmp_path / "cat.csv"
    code, out, _ = run(capsys, "catalog", system, "--out", str(out_file))
    assert code == 0
    names = list(wb.system(system).catalog().creatures)
    assert names[0] in out and f"({len(names)}," in out
    assert pl.read_csv(out_file)["name"].to_list() == names


def test_catalog_attacks(capsys):
    code, out, _ = run(capsys, "catalog", "unbound", "--attacks")
    assert code == 0 and "Longsword" in out and "crit" in out


def test_catalog_csv_lists_attack_names(capsys, tmp_path):
    run(capsys, "catalog", "annulus", "--out", str(tmp_path / "c.csv"))
    wolf = pl.read_csv(tmp_path / "c.csv").filter(pl.col("name") == "Wolf")
    assert wolf["attack_sets"][0] == "Bite; Claw"


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
@pytest.mark.parametrize("system", wb.systems())
def test_catalog_export_reads_back_as_the_same_creatures(capsys, tmp_path, system, suffix):
    """docs/cli.md: export the catalog, then compare it. Every system's bestiary file reads back as
    the catalog's creatures, field for field (Glass Empires' own weapons, Last Odyssey's Shells)."""
    from workbench.cli import _bestiary, _read_frame

    path = tmp_path / f"bestiary{suffix}"
    assert run(capsys, "catalog", system, "--out", str(path))[0] == 0
    s = wb.system(system)
    assert _bestiary(s, _read_frame(str(path)), "targets") == list(s.catalog().creatures.values())
    code, out, err = run(capsys, "compare", system, "-a", str(path), "-t", str(path), "--top", "1", "--ignore-state")
    assert code == 0 and "error" not in err, err
    assert "shape: (1," in out


def test_catalog_export_names_own_attacks_by_their_creature(capsys, tmp_path):
    run(capsys, "catalog", "glass_empires", "--out", str(tmp_path / "g.csv"))
    sprite = pl.read_csv(tmp_path / "g.csv").filter(pl.col("name") == "Vegetable Sprite")
    assert sprite["weapons"][0] == "Vegetable Sprite: Tiny Fists"   # not in weapons.toml
    run(capsys, "catalog", "last_odyssey", "--out", str(tmp_path / "l.csv"))
    cop = pl.read_csv(tmp_path / "l.csv").filter(pl.col("name") == "Cop").row(0, named=True)
    assert json.loads(cop["shell"]) == creature("last_odyssey", "Cop").shell.to_dict() == {"points": 5, "element": None}


def test_bestiary_cell_naming_an_unknown_attack_is_one_line_error(capsys, tmp_path):
    pl.DataFrame({"name": ["Sprite"], "power": [1], "weapons": ["Sprite: Laser"]}).write_csv(tmp_path / "b.csv")
    assert_one_line_error(capsys, "compare", "glass_empires", "-a", str(tmp_path / "b.csv"), "-t", "Wolf",
                          contains=("row 0 (Sprite)", "'Sprite: Laser'"))
