"""wb.sweep (workbench/sweeps.py; issue 18, item 1): compare's one fight against a target whose
parameter runs over a range, for several builds at once."""

from __future__ import annotations

import math

import polars as pl
import pytest

import workbench as wb
from workbench import charts
from workbench.comparison import compare
from workbench.errors import RulesError

U = wb.system("unbound")
GUARD, DUELIST = U.catalog().creature("Town guard"), U.catalog().creature("Veteran duelist")


def _row(frame: pl.DataFrame, value, attack: str) -> dict:
    return frame.filter((pl.col("value") == value) & (pl.col("attack") == attack)).row(0, named=True)


def test_a_longsword_against_rising_armour_class_worked_by_hand():
    """unbound-d20-attacking.txt: d20 + attack bonus >= AC hits, a natural 20 always hits and a 1
    always misses; a threat (19-20 on a 19-20x2 weapon) is a critical hit when a second roll also
    hits, and a x2 critical rolls the damage twice. The Town guard (Str +2, untrained) swings a
    Longsword (1d8 + 2, mean 6.5; a crit 13).
    AC 10: hits on 8+, 13/20; crit 2/20 x 13/20 = 0.065; mean = (0.65 - 0.065) 6.5 + 0.065 x 13 = 4.6475.
    AC 20: hits on 18+, 3/20; crit 2/20 x 3/20 = 0.015; mean = 0.135 x 6.5 + 0.015 x 13 = 1.0725.
    AC 30: only a natural 20 hits, 1/20; crit 1/20 x 1/20; mean = (0.05 - 0.0025) 6.5 + 0.0025 x 13 = 0.34125."""
    f = wb.sweep([GUARD], DUELIST, "ac", [10, 20, 30])
    assert f.columns[:2] == ["parameter", "value"] and set(f["parameter"]) == {"target.ac"}
    assert f["value"].to_list()[:4] == [10] * 4 and f["value"].dtype == pl.Int64
    for ac, mean in ((10, 4.6475), (20, 1.0725), (30, 0.34125)):
        assert _row(f, ac, "Longsword")["mean_damage"] == pytest.approx(mean, abs=1e-12)
    assert set(f["target"]) == {"Veteran duelist"}


def test_every_row_is_compares_row_for_that_target():
    """The one fight: each value's rows equal compare against the target made with that value."""
    values = [12, 17, 22]
    f = wb.sweep([GUARD, U.catalog().creature("Ranger")], DUELIST, "ac", values)
    for v in values:
        alone = compare([GUARD, U.catalog().creature("Ranger")], [DUELIST.replace(ac=v)])
        got = f.filter(pl.col("value") == v).drop("parameter", "value")
        assert got.height == alone.height
        for c in ("mean_damage", "mean_turn_damage", "p_kill_one_turn", "mean_rounds", "rounds_q10", "rounds_q90"):
            a, b = got[c].to_list(), alone[c].to_list()
            assert all((x is None and y is None) or x == pytest.approx(y, abs=1e-12) for x, y in zip(a, b)), c
        assert got["method"].to_list() == alone["method"].to_list()


def test_an_hp_sweep_follows_the_renewal_formula():
    """Rounds to kill a target of each HP from the per-turn damage: E[T] = sum over s < HP of the
    renewal measure (wb.mean_rounds_to_kill), the same turn at every HP."""
    hps = list(range(5, 60, 6))
    f = wb.sweep([GUARD], DUELIST, "hp", hps).filter(pl.col("attack") == "Longsword")
    turn = wb.turn_damage(GUARD, DUELIST, plan=["Longsword"] * int(f["uses_per_turn"][0]))
    expected = wb.mean_rounds_to_kill(turn, hps)
    assert f["mean_rounds"].to_numpy() == pytest.approx(expected, abs=1e-9)
    assert all(b >= a for a, b in zip(f["mean_rounds"], f["mean_rounds"][1:]))  # more HP, never fewer rounds


def test_a_sweep_over_the_situation_and_the_options():
    """unbound: a situational bonus of +2 on the attack roll is AC 2 lower (Longsword, AC 16 -> 14)."""
    f = wb.sweep([GUARD], DUELIST, "bonus", [0, 2], on="situation")
    plain = wb.sweep([GUARD], DUELIST.replace(ac=DUELIST.ac - 2), "bonus", [0], on="situation")
    assert _row(f, 2, "Longsword")["mean_damage"] == pytest.approx(
        _row(plain, 0, "Longsword")["mean_damage"], abs=1e-12
    )
    assert set(f["parameter"]) == {"situation.bonus"}
    o = wb.sweep([GUARD], DUELIST, "minimum_damage", [0, 1], on="options")
    assert _row(o, 1, "Longsword")["mean_damage"] >= _row(o, 0, "Longsword")["mean_damage"]


@pytest.mark.parametrize(
    "kwargs, field, words",
    [
        (dict(parameter="armour", values=[1]), "parameter", "not a number field"),
        (dict(parameter="name", values=[1]), "parameter", "choose one of"),
        (dict(parameter="ac", values=[]), "values", "1 to 200"),
        (dict(parameter="ac", values=range(500)), "values", "1 to 200"),
        (dict(parameter="ac", values=[10, 10]), "values", "repeat"),
        (dict(parameter="ac", values=[10.5]), "values", "whole number"),
        (dict(parameter="ac", values=[float("nan")]), "values", "finite"),
        (dict(parameter="ac", values="10-20"), "values", "list or range"),
        (dict(parameter="hp", values=[0]), "values", "value 0"),
        (dict(parameter="ac", values=[10], on="weather"), "on", "one of"),
    ],
)
def test_bad_sweeps_are_rules_errors_naming_the_field(kwargs, field, words):
    with pytest.raises(RulesError) as e:
        wb.sweep([GUARD], DUELIST, **kwargs)
    assert e.value.field == field and words in str(e.value)


def test_the_sweep_chart_draws_a_line_per_build_and_the_rounds_band():
    f = wb.sweep([GUARD], DUELIST, "ac", range(10, 31, 4))
    spec = charts.sweep_chart(f).to_dict()
    marks = [layer["mark"]["type"] for layer in spec["layer"]]
    assert marks == ["area", "line"]
    assert spec["layer"][0]["encoding"]["y2"]["field"] == "rounds_q90"
    rows = [r for values in spec["datasets"].values() for r in values]
    assert {r["build"] for r in rows} == {f"Town guard · {a}" for a in f["attack"].unique()}
    no_band = charts.sweep_chart(f, "mean_damage").to_dict()
    assert [layer["mark"]["type"] for layer in no_band["layer"]] == ["line"]
    with pytest.raises(RulesError):
        charts.sweep_chart(f.drop("value"))


def test_a_build_that_never_downs_the_target_leaves_a_gap_not_infinity():
    """Annulus: against a huge defense no pool die succeeds: mean rounds inf, drawn as a gap."""
    a = wb.system("annulus")
    cat = list(a.catalog().creatures.values())
    f = wb.sweep([cat[0]], cat[1], "toughness", [1, 100])  # the Rat's Bite is Toughness Damage
    assert any(math.isinf(x) for x in f["mean_rounds"] if x is not None)
    spec = charts.sweep_chart(f).to_dict()
    rows = [r for values in spec["datasets"].values() for r in values]
    assert all(r["mean_rounds"] is None or math.isfinite(r["mean_rounds"]) for r in rows)


def test_the_subtitle_says_where_a_build_never_downs_the_target():
    """A gap in a line is said in words. The Rat's Bite rolls a pool of at most 4 dice against a
    Giant Centipede, damage = successes - Toughness, never below 0, and its Choke "only if the strike
    dealt >= 1 damage" (CLARIFICATIONS.md, Annulus): at Toughness 4 or more it never deals damage,
    so the sweep of Toughness 1..11 and 13 has no point at 4 to 11 nor at 13; the swept values in a
    run are joined ("4 to 11"), the others listed. The legend's symbols are opaque (they were the
    band's, pale)."""
    a = wb.system("annulus")
    cat = a.catalog()
    values = [*range(1, 12), 13]
    f = wb.sweep([cat.creature("Rat")], cat.creature("Giant Centipede"), "toughness", values)
    best = f.filter(pl.col("attack") == "best plan")
    never = best.filter(pl.col("mean_rounds").is_infinite())["value"].to_list()
    assert never == [*range(4, 12), 13]
    spec = charts.sweep_chart(best).to_dict()
    assert spec["title"]["subtitle"] == [
        "line: mean rounds, band: 10-90 % of the rounds",
        "no point where Rat · best plan never downs the target: toughness 4 to 11, 13",
    ]
    assert spec["layer"][0]["encoding"]["color"]["legend"] == {"symbolOpacity": 1}
    # every point drawn: no such line
    assert charts.sweep_chart(best.filter(pl.col("value") <= 3)).to_dict()["title"]["subtitle"] == (
        "line: mean rounds, band: 10-90 % of the rounds"
    )


def test_a_sweep_of_many_compares_is_counted_before_the_first(monkeypatch):
    """An options or situation sweep runs one compare per value: their sizes are counted together
    before the first one runs (values x one compare's matchup units), and past the bound the sweep
    is refused with a RulesError (field budget) naming the count, unless confirm=True."""
    from workbench.work import estimate

    work = estimate("sweep", [GUARD], DUELIST, "bonus", [0, 1, 2], on="situation")
    units = next(w for w in work.works if w.unit == "matchup units")
    one = next(w for w in estimate("compare", [GUARD], [DUELIST]).works if w.unit == "matchup units")
    assert units.count == 3 * one.count and work.decision == "answer"
    monkeypatch.setattr("workbench.limits.MAX_MATCHUPS", units.count - 1)
    with pytest.raises(RulesError) as e:
        wb.sweep([GUARD], DUELIST, "bonus", [0, 1, 2], on="situation")
    assert (
        e.value.field == "budget" and "3 compares" in str(e.value) and f"{units.count:,} matchup units" in str(e.value)
    )
    assert wb.sweep([GUARD], DUELIST, "bonus", [0, 1, 2], on="situation", confirm=True)["value"].n_unique() == 3


def test_a_range_too_long_to_list_is_refused_by_its_length():
    """Issue 35: ``values=range(10**18)`` raised MemoryError listing it; its length is counted first."""
    for values, n in ((range(10**18), 10**18), (range(0, 10**30, 3), (10**30 + 2) // 3)):
        with pytest.raises(RulesError) as e:
            wb.sweep([GUARD], DUELIST, "ac", values)
        assert e.value.field == "values" and f"not {n:,}" in e.value.message
