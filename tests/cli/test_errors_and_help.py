"""The ``workbench`` command (workbench/cli.py), run through ``main([...])``: errors are one line with
exit status 2 (unknown systems, creatures and attacks, bad files, paths and numbers, usage), help
for each command, ``python -m workbench``.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

import workbench as wb
from tests.cli.running import assert_one_line_error, run


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


def test_out_file_names_past_the_limit_and_folders_that_are_files(capsys, tmp_path):
    # issue 35: a 300-character file name raised OSError (export); --out answers as export does
    long = tmp_path / ("x" * 300 + ".csv")
    assert_one_line_error(capsys, "compare", "glass_empires", "-a", "Wolf", "-t", "Bear", "--out", str(long),
                          contains=("path", "255", "file system"))
    (tmp_path / "afile").write_text("a file")
    assert_one_line_error(capsys, "compare", "glass_empires", "-a", "Wolf", "-t", "Bear",
                          "--out", str(tmp_path / "afile" / "x.csv"), contains=("path", "cannot write"))
    code, _, _ = run(capsys, "compare", "glass_empires", "-a", "Wolf", "-t", "Bear",
                     "--out", str(tmp_path / "new" / "deeper" / "x.csv"))
    assert code == 0 and (tmp_path / "new" / "deeper" / "x.csv").exists()
