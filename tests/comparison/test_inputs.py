"""compare() inputs (names, bare attacks, pairs, polars/pandas bestiaries, mixed), bad inputs, and
the frame helpers rank, pivot, export."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import polars as pl
import pytest

import workbench as wb
from workbench.comparison import BEST_PLAN, compare, export, neutral_attacker, pivot, rank

A = wb.system("annulus")
WOLF = A.catalog().creature("Wolf")
RAT = A.catalog().creature("Rat")


def test_catalog_names_with_and_without_system():
    f1 = compare(["Wolf"], ["Rat", "Hill Giant"], system="annulus")
    f2 = compare(["annulus:Wolf"], ["annulus:Rat", "annulus:Hill Giant"])
    assert f1.equals(f2)
    assert set(f1["target"]) == {"Rat", "Hill Giant"}


def test_bare_attack_uses_the_neutral_attacker_and_has_no_best_plan_row():
    claw = A.catalog().attack("Claw")
    f = compare([claw], [WOLF])
    assert f.height == 1 and f["attack"][0] == "Claw" and f["attacker"][0] == "Claw"
    c = neutral_attacker(claw)
    assert (c.size, c.level, c.agility) == (5, 1, 0)
    use = wb.damage(claw, c, WOLF)
    assert abs(f["mean_damage"][0] - use.mean()) < 1e-12
    # Claw has Reroll: two uses in a turn share the round's one reroll (annulus-attacks.txt)
    turn = wb.turn_damage(c, WOLF, plan=[claw, claw])
    assert f["uses_per_turn"][0] == 2
    assert abs(f["mean_turn_damage"][0] - turn.mean()) < 1e-12
    assert not turn.isclose(use + use)  # not two independent uses


def test_pairs_use_the_creatures_stats():
    f = compare([(WOLF, "Bite")], [RAT], system="annulus")
    assert f["attack"].to_list() == ["Bite"]
    bite = next(a for a in WOLF.attack_sets if a.name == "Bite")
    assert abs(f["mean_damage"][0] - wb.damage(bite, WOLF, RAT).mean()) < 1e-12


def test_a_pair_with_an_edited_attack_fights_with_it():
    """A pair's attack need not be one of the creature's: an edited attack takes the place of its
    attack of the same name for the row's fight (``attack_plans.holding``, as rounds_to_kill's
    ``plan=attack``). The Hill Giant's Tail Sweep never hurts a Wolf (its pool meets the Wolf's
    Agility, CLARIFICATIONS.md: damage = successes - defense, never below 0: mean rounds inf); with
    Reckless 2 (+2 automatic successes) it does. The row was refused ("Tail Sweep is not one of
    Hill Giant's attack sets", Annulus only); now its numbers are rounds_to_kill's."""
    giant, wolf = A.catalog().creature("Hill Giant"), A.catalog().creature("Wolf")
    sweep_ = next(a for a in giant.attack_sets if a.name == "Tail Sweep")
    edited = sweep_.replace(upgrades={**sweep_.upgrades, "Reckless": 2})
    f = compare([(giant, edited), (giant, sweep_)], [wolf])
    assert f["attack"].to_list() == ["Tail Sweep", "Tail Sweep"]
    assert math.isinf(f["mean_rounds"][1])
    frame = wb.rounds_to_kill(giant, wolf, plan=edited)
    mean = float((frame["round"] * frame["p_killed_at"]).sum())
    assert bool(frame["exact"][0]) and f["method"][0] == "exact"
    assert 1 < f["mean_rounds"][0] < math.inf and abs(f["mean_rounds"][0] - mean) < 1e-9
    assert abs(f["mean_damage"][0] - wb.damage(edited, giant, wolf).mean()) < 1e-12


def test_best_plan_rows_can_be_switched():
    n = len(WOLF.attack_sets)
    assert compare([WOLF], [RAT]).height == n + 1
    assert compare([WOLF], [RAT], best_plan=False).height == n
    assert compare([A.catalog().attack("Claw")], [RAT], best_plan=True).height == 2


def test_a_turn_that_never_damages_gives_inf_and_null_quantiles():
    wall = A.Creature("Wall", level=3, endurance=10, agility=9, toughness=9, insight=9)
    f = compare([A.Attack("Poke", "agility")], [wall])
    assert f["mean_damage"][0] == 0.0 and f["p_kill_one_turn"][0] == 0.0
    assert math.isinf(f["mean_rounds"][0])
    assert f["rounds_q10"][0] is None and f["rounds_q90"][0] is None


def _bestiary():
    return pl.DataFrame({
        "system": ["annulus", "annulus", "last_odyssey"],
        "name": ["Boar", "Mole", "Slime"],
        "level": [2, 1, None], "endurance": [4, 2, None],
        "agility": [1, 0, None], "toughness": [2, 1, None], "insight": [0, 0, None],
        "size": [4, 3, None], "hp": [None, None, 20],
    })


def test_polars_and_pandas_bestiaries_as_targets():
    frame = _bestiary()
    f = compare([WOLF], frame)
    assert set(f["target"]) == {"Boar", "Mole"}  # the Last Odyssey slime meets no Annulus attacker
    boar = A.Creature("Boar", level=2, endurance=4, agility=1, toughness=2, insight=0, size=4)
    ref = compare([WOLF], [boar])
    assert np.allclose(f.filter(pl.col("target") == "Boar")["mean_rounds"].to_numpy(),
                       ref["mean_rounds"].to_numpy(), rtol=0, atol=1e-12)
    g = compare([WOLF], frame.to_pandas())
    assert g.equals(f)


def test_bestiary_attackers_name_catalog_attacks():
    frame = pl.DataFrame({"name": ["Brute"], "level": [3], "endurance": [5], "agility": [1], "toughness": [1],
                          "insight": [1], "attack_sets": ["Claw; Bite"]})
    f = compare(frame, [RAT], system="annulus")
    assert set(f["attack"]) == {"Claw", "Bite", BEST_PLAN}


@pytest.mark.parametrize("bad, field", [
    (pl.DataFrame({"name": ["X"], "level": [1], "endurance": [1], "agility": [0], "toughness": [0],
                   "insight": [0], "wings": [2]}), "wings"),
    (pl.DataFrame({"name": ["X"], "level": [1], "endurance": [-3], "agility": [0], "toughness": [0],
                   "insight": [0]}), "endurance"),
    (pl.DataFrame({"name": ["X"], "level": [1], "endurance": [1], "agility": [0], "toughness": [0],
                   "insight": [0], "awareness": ["sleepy"]}), "awareness"),
])
def test_bad_frames_name_the_field(bad, field):
    with pytest.raises(wb.RulesError) as e:
        compare([WOLF], bad, system="annulus")
    assert e.value.field == field and field in str(e.value)


@pytest.mark.parametrize("attackers, targets, kwargs, field", [
    (["annulus:Nobody"], [RAT], {}, "attackers"),
    ([WOLF], ["annulus:Nobody"], {}, "targets"),
    (["Wolf"], [RAT], {}, "system"),
    ([WOLF], [RAT], {"system": "chess"}, "system"),
    ([42], [RAT], {}, "attackers"),
    ([WOLF], [3.5], {}, "targets"),
    ([WOLF], [wb.system("last_odyssey").catalog().frame().row(0, named=True)["name"]], {"system": "last_odyssey"},
     "targets"),
    ([WOLF], [RAT], {"max_rounds": 0}, "max_rounds"),
    ([(WOLF, "Nope")], [RAT], {}, "attack"),
])
def test_bad_inputs_raise_rules_error_naming_the_field(attackers, targets, kwargs, field):
    with pytest.raises(wb.RulesError) as e:
        compare(attackers, targets, **kwargs)
    assert e.value.field == field


def test_rank_pivot_export(tmp_path):
    f = compare([WOLF, A.catalog().creature("Ogre")], [RAT, A.catalog().creature("Drake")], best_plan=False)
    r = rank(f, by="mean_rounds", per="target")
    for tgt in ("Rat", "Drake"):
        part = r.filter(pl.col("target") == tgt)
        assert part["rank"][0] == 1
        assert part["mean_rounds"][0] == part["mean_rounds"].min()
    d = rank(f, by="mean_damage", per=None)
    assert d["mean_damage"][0] == f["mean_damage"].max()
    m = pivot(f, "mean_rounds")
    assert m.height == f.select("attacker", "attack").unique().height
    assert set(m.columns) >= {"Rat", "Drake"}
    csv, pq = export(f, tmp_path / "g.csv"), export(f, tmp_path / "g.parquet")
    assert pl.read_parquet(pq).equals(f)
    back = pl.read_csv(csv)
    assert back.height == f.height and np.allclose(back["mean_damage"].to_numpy(), f["mean_damage"].to_numpy())
    with pytest.raises(wb.RulesError) as e:
        export(f, tmp_path / "g.xlsx")
    assert e.value.field == "path"
    with pytest.raises(wb.RulesError):
        rank(f, by="nope")


def test_chain_column_matches_rounds_to_kill():
    f = compare([WOLF], [RAT], chain=True, max_rounds=20, simulate=False)
    row = f.row(0, named=True)
    attack = next(a for a in WOLF.attack_sets if a.name == row["attack"])
    turn = wb.turn_damage(WOLF, RAT, plan=[attack] * row["uses_per_turn"])
    by = wb.rounds_to_kill(turn, hp=row["target_hp"])["p_killed_by"].to_numpy()
    by = np.concatenate([by, np.full(20, by[-1])])[:20]
    assert np.allclose(row["p_killed_by"], by, atol=1e-12, rtol=0)


def test_export_creates_missing_folders_as_the_cli_does(tmp_path):
    # issue 35: wb.export(frame, 'nodir/x.csv') raised FileNotFoundError
    g = wb.system("glass_empires").catalog()
    frame = compare([g.creature("Wolf")], [g.creature("Bear")])
    out = export(frame, tmp_path / "nodir" / "deeper" / "x.csv")
    assert pl.read_csv(out).height == frame.height
    assert export(frame, tmp_path / "other" / "x.parquet").exists()


def test_export_refuses_a_file_name_too_long_and_an_unwritable_folder(tmp_path):
    # issue 35: a 300-character file name raised OSError
    g = wb.system("glass_empires").catalog()
    frame = compare([g.creature("Wolf")], [g.creature("Bear")])
    with pytest.raises(wb.RulesError) as e:
        export(frame, tmp_path / ("x" * 300 + ".csv"))
    assert e.value.field == "path" and "255" in e.value.message and "file system" in e.value.rule
    (tmp_path / "afile").write_text("a file, not a folder")
    with pytest.raises(wb.RulesError) as e:
        export(frame, tmp_path / "afile" / "x.csv")
    assert e.value.field == "path"
    assert not list(tmp_path.glob("x*"))
