"""The ``workbench`` command (workbench/cli.py), run through ``main([...])``: ``encounter`` and
``encounter-difficulty`` print what ``wb.encounter`` / ``wb.encounter_difficulty`` return, sides
written ``3xNAME`` are three copies, every group rule reaches the engine, bad input is one line
naming the field.
"""

from __future__ import annotations

import polars as pl
import pytest

import workbench as wb
from tests.cli.running import assert_one_line_error, creature, run

GE = "glass_empires"


def _ge(*names):
    return [creature(GE, n) for n in names]


def _p_a_wins(path):
    frame = pl.read_parquet(path)
    return frame.filter(pl.col("side") == "a")["p_side_wins"][0], frame


@pytest.mark.parametrize(
    ("system", "a", "b"),
    [
        (GE, ["Vegetable Sprite", "Moon Rabbit"], ["Porcelain Doll", "Porcelain Doll"]),
        ("unbound", ["Town guard", "Town guard"], ["Battle mage"]),
        ("last_odyssey", ["Cop"], ["Skirmisher", "Skirmisher"]),
    ],
)
def test_encounter_matches_the_engine(capsys, tmp_path, system, a, b):
    res = wb.encounter([creature(system, n) for n in a], [creature(system, n) for n in b])
    assert res.exact
    out_file = tmp_path / "enc.parquet"
    code, out, err = run(capsys, "encounter", system, "-a", *a, "-b", *b, "--out", str(out_file))
    assert code == 0
    assert err.splitlines() == [f"wrote {out_file}"]  # stderr: only the file written, no progress line
    lines = out.splitlines()
    assert lines[0] == res.summary()
    assert lines[1] == f"shape: ({len(a) + len(b)}, 6)"
    for name in res.creatures["name"]:
        assert any(f" {name} " in line for line in lines[2:]), name
    p_a, frame = _p_a_wins(out_file)
    assert p_a == pytest.approx(res.p_a_wins, abs=1e-12)
    assert frame.select(res.creatures.columns).equals(res.creatures)
    assert frame["p_draw"][0] == pytest.approx(res.p_draw, abs=1e-12)


@pytest.mark.parametrize(
    ("flags", "kwargs"),
    [
        (["--first", "b"], {"first": "b"}),
        (["--first", "random"], {"first": "random"}),
        (["--order", "alternate"], {"order": "alternate"}),
        (["--targeting", "random"], {"targeting": "random"}),
        (["--no-refund"], {"refund": False}),
        (["--max-rounds", "5"], {"max_rounds": 5}),
    ],
)
def test_each_group_rule_reaches_the_engine(capsys, tmp_path, flags, kwargs):
    """Each flag gives the engine's result with that argument, which differs from the default's."""
    a, b = ["Vegetable Sprite", "Moon Rabbit"], ["Porcelain Doll", "Porcelain Doll"]
    res = wb.encounter(_ge(*a), _ge(*b), **kwargs)
    default = wb.encounter(_ge(*a), _ge(*b))
    assert abs(res.p_a_wins - default.p_a_wins) > 1e-4
    out_file = tmp_path / "enc.parquet"
    code, out, _ = run(capsys, "encounter", GE, "-a", *a, "-b", *b, *flags, "--out", str(out_file))
    assert code == 0 and out.splitlines()[0] == res.summary()
    assert _p_a_wins(out_file)[0] == pytest.approx(res.p_a_wins, abs=1e-12)


def test_flanking_reaches_the_engine(capsys):
    ub = "unbound"
    guards, mage = [creature(ub, "Town guard")] * 2, [creature(ub, "Battle mage")]
    never = wb.encounter(guards, mage, flanking="never")
    assert abs(never.p_a_wins - wb.encounter(guards, mage).p_a_wins) > 1e-3
    code, out, _ = run(capsys, "encounter", ub, "-a", "2xTown guard", "-b", "Battle mage", "--flanking", "never")
    assert code == 0 and out.splitlines()[0] == never.summary()


def test_copies_equal_listing_the_creature(capsys):
    code, listed, _ = run(capsys, "encounter", GE, "-a", "Vegetable Sprite", "-b", "Porcelain Doll", "Porcelain Doll")
    assert code == 0 and "Porcelain Doll x2" in listed.splitlines()[0]
    for entry in ("2xPorcelain Doll", "2 x Porcelain Doll", "2×porcelain doll", "2X Porcelain Doll"):
        code, out, err = run(capsys, "encounter", GE, "-a", "Vegetable Sprite", "-b", entry)
        assert code == 0 and err == "" and out == listed, entry
    # copies mix with single names, in listed order
    code, mixed, _ = run(capsys, "encounter", GE, "-a", "Vegetable Sprite", "-b", "1xPorcelain Doll", "Porcelain Doll")
    assert code == 0 and mixed == listed


def test_a_file_or_share_code_of_several_creatures_is_part_of_a_side(capsys, tmp_path):
    sprite, rabbit = _ge("Vegetable Sprite", "Moon Rabbit")
    pack = wb.save([sprite, rabbit], tmp_path / "pack.json")
    code, by_name, _ = run(capsys, "encounter", GE, "-a", "Vegetable Sprite", "Moon Rabbit", "-b", "2xPorcelain Doll")
    assert code == 0
    code, by_file, _ = run(capsys, "encounter", GE, "-a", str(pack), "-b", "2xPorcelain Doll")
    assert code == 0 and by_file == by_name
    code, by_code, _ = run(capsys, "encounter", GE, "-a", wb.share_code(sprite), "Moon Rabbit", "-b",
                           "2xPorcelain Doll")
    assert code == 0 and by_code == by_name


def test_simulated_encounter_is_the_engines_and_seeded(capsys):
    a, b = ["Vegetable Sprite", "Moon Rabbit"], ["Porcelain Doll", "Porcelain Doll"]
    res = wb.encounter(_ge(*a), _ge(*b), simulate=True, fights=2000, seed=3)
    argv = ["encounter", GE, "-a", *a, "-b", *b, "--simulate", "--fights", "2000", "--seed", "3"]
    code, out, err = run(capsys, *argv)
    assert code == 0 and err == ""
    assert out.splitlines()[0] == res.summary() and "simulated (2,000 fights" in out
    assert run(capsys, *argv)[1] == out  # the same seed, the same output
    code, other, _ = run(capsys, *argv[:-1], "4")
    assert code == 0 and other.splitlines()[0] != out.splitlines()[0]


def test_yes_changes_nothing_within_bounds(capsys):
    code, plain, err = run(capsys, "encounter", GE, "-a", "Wolf", "-b", "Boar")
    assert code == 0 and err == "" and plain.startswith("Wolf vs Boar (exact")
    code, timed, err = run(capsys, "encounter", GE, "-a", "Wolf", "-b", "Boar", "--yes")
    assert code == 0 and err == "" and timed == plain


def test_exact_refuses_rather_than_simulate_and_fights_past_the_bound_need_yes(capsys):
    assert_one_line_error(capsys, "encounter", GE, "-a", "4xWolf", "-b", "4xBoar", "--exact",
                          contains=("simulate:", "43,046,721 cells"))
    assert_one_line_error(capsys, "encounter", GE, "-a", "Wolf", "-b", "Boar", "--simulate", "--fights", "6000000",
                          contains=("budget:", "6,000,000"))
    code, _, err = run(capsys, "encounter", GE, "-a", "Wolf", "-b", "Boar", "--simulate", "--exact")
    assert code == 2 and "not allowed with" in err


def test_difficulty_matches_the_engine(capsys, tmp_path):
    hard = wb.encounter_difficulty(_ge("Wolf"), creature(GE, "Spider Lily"), levels=(0.5, 0.8), max_copies=5)
    assert hard.copies == {0.5: 3, 0.8: 2}
    out_file = tmp_path / "curve.csv"
    code, out, err = run(capsys, "encounter-difficulty", GE, "-a", "Wolf", "--foe", "Spider Lily",
                         "--levels", "0.5", "0.8", "--max-copies", "5", "--out", str(out_file))
    assert code == 0 and err == f"wrote {out_file}\n"
    lines = out.splitlines()
    assert lines[0] == hard.summary()
    assert lines[1] == "shape: (4, 5)"  # 4 copies fall under both levels: the scan stops there
    curve = pl.read_csv(out_file)
    assert curve["copies"].to_list() == [1, 2, 3, 4]
    assert curve["p_party_wins"].to_list() == pytest.approx(hard.curve["p_party_wins"].to_list(), abs=1e-12)


def test_difficulty_says_when_it_stopped_at_max_copies(capsys):
    code, out, _ = run(capsys, "encounter-difficulty", GE, "-a", "Wolf", "--foe", "Spider Lily", "--max-copies", "2")
    assert code == 0 and out.splitlines()[1] == "(the scan stopped at --max-copies 2: the party may beat more)"
    code, out, _ = run(capsys, "encounter-difficulty", GE, "-a", "Wolf", "--foe", "Spider Lily", "--max-copies", "6")
    assert code == 0 and "--max-copies" not in out


def test_difficulty_passes_the_encounter_settings(capsys):
    kwargs = {"simulate": True, "fights": 400, "seed": 5, "first": "b", "max_copies": 3}
    hard = wb.encounter_difficulty(_ge("Vegetable Sprite", "Moon Rabbit"), creature(GE, "Porcelain Doll"), **kwargs)
    assert not hard.curve["exact"].any()
    code, out, _ = run(capsys, "encounter-difficulty", GE, "-a", "Vegetable Sprite", "Moon Rabbit",
                       "--foe", "Porcelain Doll", "--simulate", "--fights", "400", "--seed", "5", "--first", "b",
                       "--max-copies", "3")
    assert code == 0 and out.splitlines()[0] == hard.summary()
    for p in hard.curve["p_party_wins"]:
        assert f"{p:.4f}" in out


def test_bad_sides_name_the_field(capsys, tmp_path):
    assert_one_line_error(capsys, "encounter", GE, "-a", "Wolf", "-b", "Nobody",
                          contains=("side_b:", "'Nobody'", "glass_empires catalog"))
    assert_one_line_error(capsys, "encounter", GE, "-a", "0xWolf", "-b", "Boar", contains=("side_a:", "not 0"))
    assert_one_line_error(capsys, "encounter", GE, "-a", "Wolf", "-b", "51xBoar", contains=("side_b:", "not 51"))
    assert_one_line_error(capsys, "encounter", GE, "-a", "Wolf", "-b", "9" * 5000 + "xBoar", contains=("side_b:",))
    assert_one_line_error(capsys, "encounter", GE, "-a", "30xWolf", "30xWolf", "-b", "Boar",
                          contains=("side_a:", "60 creatures, over 50"))
    # mixed systems: an Unbound creature in a Glass Empires encounter
    guard = wb.save(creature("unbound", "Town guard"), tmp_path / "guard.toml")
    assert_one_line_error(capsys, "encounter", GE, "-a", "Wolf", str(guard), "-b", "Boar",
                          contains=("side_a:", "not a glass_empires creature"))
    assert_one_line_error(capsys, "encounter", GE, "-a", "Wolf", "-b", str(tmp_path / "missing.toml"),
                          contains=("side_b:", "no such file"))
    # an encounter past the exact chain's counted bound: --exact is refused naming the bound (the
    # Drake's area sets strike three Wolves and two allies: outcomes by the hundred thousand)
    assert_one_line_error(capsys, "encounter", "annulus", "-a", "Drake", "2xWolf", "-b", "3xWolf", "--exact",
                          "--allies-in-area", "2", contains=("simulate:", "a turn's outcomes"))
    assert_one_line_error(capsys, "encounter", "chess", "-a", "Wolf", "-b", "Rat", contains=("system:", "chess"))


def test_bad_values_name_the_field(capsys):
    base = ("encounter", GE, "-a", "Wolf", "-b", "Boar")
    assert_one_line_error(capsys, *base, "--max-rounds", "0", contains=("--max-rounds",))
    assert_one_line_error(capsys, *base, "--seed", "-1", contains=("seed:",))
    assert_one_line_error(capsys, *base, "--fights", "0", contains=("fights:",))
    for flag, value in (("--order", "diagonal"), ("--targeting", "weakest"), ("--flanking", "sometimes"),
                        ("--first", "c")):
        code, out, err = run(capsys, *base, flag, value)
        assert code == 2 and out == "" and err.count("\n") == 1 and f"argument {flag}: invalid choice" in err
    diff = ("encounter-difficulty", GE, "-a", "Wolf")
    assert_one_line_error(capsys, *diff, "--foe", "3xBoar", contains=("foe:",))
    assert_one_line_error(capsys, *diff, "--foe", "Nobody", contains=("foe:", "'Nobody'"))
    assert_one_line_error(capsys, *diff, "--foe", "Boar", "--levels", "1.5", contains=("levels:",))
    assert_one_line_error(capsys, *diff, "--foe", "Boar", "--max-copies", "0", contains=("max_copies:",))
    assert_one_line_error(capsys, *diff, "--foe", "Boar", "--max-copies", "51", contains=("max_copies:", "50"))
    assert_one_line_error(capsys, "encounter-difficulty", GE, "-a", "Nobody", "--foe", "Boar", contains=("party:",))


@pytest.mark.parametrize("command", ["encounter", "encounter-difficulty"])
def test_help(capsys, command):
    code, out, _ = run(capsys, command, "--help")
    assert code == 0 and out.startswith("usage: workbench " + command)
    code, out, _ = run(capsys, "--help")
    assert code == 0 and command in out


def test_an_annulus_encounter_is_the_engines(capsys):
    """Annulus encounters are exact (the chain plays a fall part-way through a turn from the full
    state, docs/encounters.md): the CLI's summary is the engine's; ``--simulate`` gives the engine's
    simulation for the same seed and fights."""
    A = "annulus"
    want = wb.encounter([creature(A, "Wolf")] * 2, [creature(A, "Berserker")])
    code, out, err = run(capsys, "encounter", A, "-a", "2xWolf", "-b", "Berserker")
    assert code == 0 and err == "" and out.splitlines()[0] == want.summary() and "(exact," in out
    sim = wb.encounter([creature(A, "Wolf")] * 2, [creature(A, "Berserker")], simulate=True, fights=2_000, seed=3)
    code, out, err = run(capsys, "encounter", A, "-a", "2xWolf", "-b", "Berserker", "--simulate", "--fights", "2000",
                         "--seed", "3")
    assert code == 0 and err == "" and out.splitlines()[0] == sim.summary()


def test_foes_in_area_from_the_command_line(capsys):
    """``--foes-in-area Line=1``: the Drake's Fire Breath (a Line) strikes one Wolf; the result equals
    the engine's with the same seed."""
    code, out, err = run(capsys, "encounter", "annulus", "-a", "Drake", "-b", "3xWolf", "--foes-in-area", "Line=1",
                         "--fights", "2000", "--seed", "4")
    assert code == 0, err
    cat = wb.system("annulus").catalog()
    want = wb.encounter([cat.creature("Drake")], [cat.creature("Wolf")] * 3, foes_in_area={"Line": 1},
                        fights=2000, seed=4)
    assert f"{want.p_a_wins:.2%}" in out
    assert_one_line_error(capsys, "encounter", "annulus", "-a", "Drake", "-b", "Wolf", "--foes-in-area", "Line",
                          contains=("foes_in_area:", "AREA=N"))
    assert_one_line_error(capsys, "encounter", "annulus", "-a", "Drake", "-b", "Wolf", "--foes-in-area", "Cone=2",
                          contains=("foes_in_area:", "Cone"))


def test_allies_in_area_from_the_command_line(capsys):
    """``--allies-in-area 2``: the Drake's area sets also strike its two Wolves; the result equals the
    engine's with the same seed, and a count out of range is one line naming the field."""
    code, out, err = run(capsys, "encounter", "annulus", "-a", "Drake", "2xWolf", "-b", "3xWolf",
                         "--allies-in-area", "2", "--fights", "2000", "--seed", "4")
    assert code == 0, err
    cat = wb.system("annulus").catalog()
    wolf = cat.creature("Wolf")
    want = wb.encounter([cat.creature("Drake"), wolf, wolf], [wolf] * 3, allies_in_area=2, fights=2000, seed=4)
    assert out.splitlines()[0] == want.summary()
    plain = wb.encounter([cat.creature("Drake"), wolf, wolf], [wolf] * 3, fights=2000, seed=4)
    assert not want.creatures.equals(plain.creatures)  # the option reached the engine
    assert_one_line_error(capsys, "encounter", "annulus", "-a", "Drake", "-b", "Wolf", "--allies-in-area", "-1",
                          contains=("allies_in_area:", "0 to 50"))
