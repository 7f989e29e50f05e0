"""The ``workbench`` command, run through ``main([...])``: output, files written, one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys

import polars as pl
import pytest

import workbench as wb
from workbench.cli import main

# one (attacker, its attack, target) per system, from the bundled catalogs
MATCHUPS = {
    "annulus": ("Wolf", "Bite", "Town Guard"),
    "unbound": ("Town guard", "Longsword", "Veteran duelist"),
    "last_odyssey": ("Cop", "Truncheon", "Skirmisher"),
    "glass_empires": ("Vegetable Sprite", "Tiny Fists", "Porcelain Doll"),
}


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_line_error(capsys, *argv, contains=()):
    code, out, err = run(capsys, *argv)
    assert code == 2, (out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("workbench: error: "), err
    assert "Traceback" not in err
    for text in contains:
        assert text in lines[0], lines[0]
    return lines[0]


def creature(system, name):
    return wb.system(system).catalog().creature(name)


def attack_of(system, attacker, name):
    return next(a for a in wb.system(system).attacks_of(creature(system, attacker)) if a.name == name)


# --------------------------------------------------------------------------- systems, catalog
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


# --------------------------------------------------------------------------- damage
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


# --------------------------------------------------------------------------- duel
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


# --------------------------------------------------------------------------- show / share
def test_show_prints_toml_that_loads_back(capsys, tmp_path):
    code, out, _ = run(capsys, "show", "annulus", "Wolf")
    assert code == 0 and 'model_kind = "creature"' in out
    path = tmp_path / "w.toml"
    path.write_text(out)
    assert wb.load(path) == creature("annulus", "Wolf")


def test_show_code_and_save(capsys, tmp_path):
    code, out, _ = run(capsys, "show", "unbound", "Longsword", "--code")
    assert code == 0
    sword = wb.system("unbound").catalog().attack("Longsword")
    assert wb.from_share_code(out.strip()) == sword
    code, out, err = run(capsys, "show", out.strip(), "--save", str(tmp_path / "s.json"))
    assert code == 0 and wb.load(tmp_path / "s.json") == sword


# --------------------------------------------------------------------------- errors: one line, exit 2
def test_unknown_system(capsys):
    assert_one_line_error(capsys, "damage", "chess", "Wolf", "Bite", "Rat", contains=("chess",))


def test_unknown_creature_and_attack(capsys):
    assert_one_line_error(capsys, "damage", "annulus", "Dragon", "Bite", "Rat", contains=("Dragon",))
    assert_one_line_error(capsys, "damage", "annulus", "Wolf", "Fireball", "Rat",
                          contains=("Fireball", "Bite, Claw"))
    assert_one_line_error(capsys, "duel", "annulus", "Wolf", "Nobody", contains=("Nobody",))


def test_bad_files(capsys, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("name = = 3\n")
    assert_one_line_error(capsys, "damage", "annulus", str(bad), "Bite", "Rat", contains=(str(bad), "TOML"))
    assert_one_line_error(capsys, "duel", "annulus", str(tmp_path / "missing.json"), "Rat",
                          contains=("no such file",))
    unknown = tmp_path / "u.toml"
    unknown.write_text('system = "annulus"\nmodel_kind = "creature"\nname = "X"\nlevel = 1\nendurance = 1\n'
                       'agility = 0\ntoughness = 0\ninsight = 0\nwings = 2\n')
    assert_one_line_error(capsys, "duel", "annulus", str(unknown), "Rat", contains=("wings", str(unknown)))
    wb.save(wb.system("unbound").catalog().attack("Longsword"), tmp_path / "sword.toml")
    assert_one_line_error(capsys, "duel", "annulus", str(tmp_path / "sword.toml"), "Rat",
                          contains=("not a annulus creature",))
    assert_one_line_error(capsys, "duel", "annulus", "wb1:garbage", "Rat", contains=("corrupted",))


def test_bad_output_paths_and_numbers(capsys, tmp_path):
    assert_one_line_error(capsys, "catalog", "annulus", "--out", str(tmp_path / "x.xlsx"), contains=("--out",))
    assert_one_line_error(capsys, "damage", "annulus", "Wolf", "Bite", "Rat", "--chart", str(tmp_path / "c.jpg"),
                          contains=("--chart",))
    assert_one_line_error(capsys, "duel", "annulus", "Wolf", "Rat", "--max-rounds", "0", contains=("--max-rounds",))
    assert not list(tmp_path.iterdir())


def test_usage_errors_exit_2(capsys):
    code, _, err = run(capsys, "duel", "annulus", "Wolf")
    assert code == 2 and "usage" in err
    code, _, err = run(capsys, "duel", "annulus", "Wolf", "Rat", "--first", "c")
    assert code == 2 and "invalid choice" in err
    code, _, _ = run(capsys)
    assert code == 2


@pytest.mark.parametrize("command", ["systems", "catalog", "damage", "duel", "compare", "explore", "show"])
def test_help_for_each_subcommand(capsys, command):
    code, out, _ = run(capsys, command, "--help")
    assert code == 0 and out.startswith("usage: workbench " + command)


def test_top_level_help_lists_commands(capsys):
    code, out, _ = run(capsys, "--help")
    assert code == 0
    for command in ("systems", "catalog", "damage", "duel", "compare", "explore", "show"):
        assert command in out


def test_python_dash_m_workbench():
    done = subprocess.run([sys.executable, "-m", "workbench", "systems"], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0 and done.stdout.split()[0] == "annulus"
    done = subprocess.run([sys.executable, "-m", "workbench", "catalog", "nope"], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "nope" in done.stderr


# --------------------------------------------------------------------------- compare
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
