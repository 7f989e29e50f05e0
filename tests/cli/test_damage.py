"""The ``workbench`` command (workbench/cli.py), run through ``main([...])``: ``damage``: mean, SD,
P(any) and the table, a hand-worked Annulus bite, files, share codes, options files, charts.
"""

from __future__ import annotations

import polars as pl
import pytest

import workbench as wb
from tests.cli.running import creature, run

# one (attacker, its attack, target) per system, from the bundled catalogs
MATCHUPS = {
    "annulus": ("Wolf", "Bite", "Town Guard"),
    "unbound": ("Town guard", "Longsword", "Veteran duelist"),
    "last_odyssey": ("Cop", "Truncheon", "Skirmisher"),
    "glass_empires": ("Vegetable Sprite", "Tiny Fists", "Porcelain Doll"),
}


def attack_of(system, attacker, name):
    return next(a for a in wb.system(system).attacks_of(creature(system, attacker)) if a.name == name)


@pytest.mark.parametrize("system", wb.systems())
def test_damage_prints_mean_sd_p_any_and_table(capsys, tmp_path, system):
    a_name, atk_name, t_name = MATCHUPS[system]
    dist = wb.damage(attack_of(system, a_name, atk_name), creature(system, a_name), creature(system, t_name))
    csv = tmp_path / "d.csv"
    code, out, _ = run(capsys, "damage", system, a_name, atk_name, t_name, "--out", str(csv))
    assert code == 0
    assert f"mean {dist.mean():.4f}" in out and f"sd {dist.std():.4f}" in out
    assert f"P(any damage) {dist.sf(1):.4%}" in out
    frame = pl.read_csv(csv)
    nonzero = [int(x) for x in dist.outcomes if dist.probability(x) > 0]
    assert frame["damage"].to_list() == nonzero
    assert frame["probability"].to_list() == pytest.approx([dist.probability(x) for x in nonzero], abs=1e-12)
    assert frame["probability"].sum() == pytest.approx(1.0, abs=1e-12)
    assert frame["at_least"][0] == pytest.approx(1.0, abs=1e-12)
    assert frame.filter(pl.col("damage") >= 1)["probability"].sum() == pytest.approx(dist.sf(1), abs=1e-12)


def test_damage_hand_worked_annulus_bite():
    """annulus-attacks.txt: Wolf's Bite (Toughness seed, Precise, Choke) on the Town Guard (toughness 2):
    the CLI prints the same numbers as wb.damage, which the annulus tests check by hand."""
    dist = wb.damage(attack_of("annulus", "Wolf", "Bite"), creature("annulus", "Wolf"),
                     creature("annulus", "Town Guard"))
    assert dist.probability(0) + dist.sf(1) == pytest.approx(1.0)


def test_damage_from_files_and_share_codes(capsys, tmp_path):
    wolf = creature("annulus", "Wolf")
    bite = attack_of("annulus", "Wolf", "Bite")
    wb.save(wolf, tmp_path / "wolf.toml")
    wb.save(bite.replace(name="Big Bite"), tmp_path / "bite.json")
    code, out, _ = run(capsys, "damage", "annulus", str(tmp_path / "wolf.toml"), str(tmp_path / "bite.json"),
                       wb.share_code(creature("annulus", "Town Guard")))
    assert code == 0, out
    dist = wb.damage(bite, wolf, creature("annulus", "Town Guard"))
    assert "Wolf uses Big Bite on Town Guard" in out and f"mean {dist.mean():.4f}" in out


def test_damage_with_options_file(capsys, tmp_path):
    s = wb.system("annulus")
    opts = s.Options(success_on=5)
    wb.save(opts, tmp_path / "opts.toml")
    dist = wb.damage(attack_of("annulus", "Wolf", "Bite"), creature("annulus", "Wolf"),
                     creature("annulus", "Town Guard"), opts)
    code, out, _ = run(capsys, "damage", "annulus", "Wolf", "Bite", "Town Guard", "--options",
                       str(tmp_path / "opts.toml"))
    assert code == 0 and f"mean {dist.mean():.4f}" in out


@pytest.mark.parametrize("suffix, magic", [(".png", b"\x89PNG\r\n\x1a\n"), (".svg", b"<svg")])
def test_damage_chart_written(capsys, tmp_path, suffix, magic):
    path = tmp_path / f"chart{suffix}"
    code, _, err = run(capsys, "damage", "annulus", "Wolf", "Claw", "Rat", "--chart", str(path))
    assert code == 0 and f"wrote {path}" in err
    assert path.read_bytes().startswith(magic) and path.stat().st_size > 2000
