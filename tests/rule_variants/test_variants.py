"""wb.variants (workbench/rule_variants.py; issue 18, item 2): the same grid under several rule
Options, with a variant column, differences from the baseline and a diff heatmap."""

from __future__ import annotations

import pytest

import polars as pl

import workbench as wb
from workbench import charts
from workbench.errors import RulesError

U = wb.system("unbound")
GUARD, DUELIST = U.catalog().creature("Town guard"), U.catalog().creature("Veteran duelist")
O = U.Options


def test_crit_confirmation_on_and_off_worked_by_hand():
    """unbound-d20-attacking.txt and CLARIFICATIONS.md (confirm_crits, default on): a threat is a
    critical hit only if a second roll hits. The Town guard's Longsword (d20 + 2, 1d8 + 2, threat
    19-20, x2) against AC 20 hits on 18+ (3/20).
    Confirmed: crit 2/20 x 3/20 = 0.015; mean 0.135 x 6.5 + 0.015 x 13 = 1.0725.
    Unconfirmed: every threat (19, 20 both hit) is a crit, 0.1; plain hits 0.05 (an 18);
    mean 0.05 x 6.5 + 0.1 x 13 = 1.625. The change: +0.5525."""
    target = DUELIST.replace(ac=20)
    f = wb.variants([GUARD], [target], {"confirm": O(), "no confirmation": O(confirm_crits=False)})
    assert f.columns[:2] == ["variant", "baseline"] and set(f["baseline"]) == {"confirm"}
    row = lambda v: f.filter((pl.col("variant") == v) & (pl.col("attack") == "Longsword")).row(0, named=True)  # noqa: E731
    assert row("confirm")["mean_damage"] == pytest.approx(1.0725, abs=1e-12)
    assert row("no confirmation")["mean_damage"] == pytest.approx(1.625, abs=1e-12)
    assert row("no confirmation")["delta_mean_damage"] == pytest.approx(0.5525, abs=1e-12)
    assert row("confirm")["delta_mean_damage"] == 0.0
    assert row("no confirmation")["delta_mean_rounds"] < 0  # more damage, fewer rounds


def test_each_variant_is_compare_under_its_options():
    targets = [DUELIST, U.catalog().creature("Berserker")]
    opts = {"base": O(), "min 1": O(minimum_damage=1)}
    f = wb.variants([GUARD], targets, opts, baseline="min 1")
    for label, o in opts.items():
        alone = wb.compare([GUARD], targets, options=o)
        got = f.filter(pl.col("variant") == label)
        assert got["mean_rounds"].to_list() == pytest.approx(alone["mean_rounds"].to_list(), abs=1e-12)
    assert set(f["baseline"]) == {"min 1"}
    assert (f.filter(pl.col("variant") == "min 1")["delta_mean_rounds"] == 0).all()


@pytest.mark.parametrize(
    "options, kwargs, field",
    [
        ({"only": O()}, {}, "options"),
        ({str(i): O() for i in range(9)}, {}, "options"),
        ([O(), O()], {}, "options"),
        ({"a": O(), "": O()}, {}, "options"),
        ({"a": O(), "b": O()}, {"baseline": "c"}, "baseline"),
    ],
)
def test_bad_variants_are_rules_errors(options, kwargs, field):
    with pytest.raises(RulesError) as e:
        wb.variants([GUARD], [DUELIST], options, **kwargs)
    assert e.value.field == field


def test_the_diff_heatmap_is_centred_on_zero():
    f = wb.variants(
        [GUARD],
        [DUELIST, U.catalog().creature("Berserker")],
        {"confirm": O(), "no confirmation": O(confirm_crits=False)},
    )
    spec = charts.variant_heatmap(f, "no confirmation").to_dict()
    layer = spec["layer"][0]
    domain = layer["encoding"]["color"]["scale"]["domain"]
    assert domain[0] == -domain[1] and domain[1] > 0
    assert layer["encoding"]["color"]["field"] == "delta_mean_rounds"
    with pytest.raises(RulesError) as e:
        charts.variant_heatmap(f, "house rules")
    assert e.value.field == "variant"


@pytest.mark.parametrize(
    "options",
    [
        {"a": O(), "b": wb.system("annulus").Options()},  # two systems' Options
        {"a": O(), "b": wb.system("unbound").Situation()},  # not Options
        {"a": O(), "b": " 3 "},
        {"a": O(), "b": None},
    ],
)
def test_variants_are_options_of_one_rule_system(options):
    # issue 35: Options of two systems ran, each compare silently dropping the other's
    from workbench.systems import ONE_SYSTEM

    with pytest.raises(RulesError) as e:
        wb.variants([GUARD], [DUELIST], options)
    assert e.value.field == "options" and e.value.rule == ONE_SYSTEM


def test_a_grey_cell_of_the_diff_heatmap_says_why_it_has_no_change():
    """A difference needs both numbers: where the build never downs the target (rounds infinite)
    under one rule set or both the cell is grey, and the subtitle and the cell's tooltip say which.
    Annulus (CLARIFICATIONS.md: pool = 4 + advantages - disadvantages dice, damage = successes -
    defense): the Rat's Bite never hurts the Town Guard, nor a Giant Centipede of Toughness 3 with
    a base pool of 3 dice (at most 3 successes), which it can with 4 (4 successes of 4 dice)."""
    A = wb.system("annulus")
    cat = A.catalog()
    rat, guard = cat.creature("Rat"), cat.creature("Town Guard")
    tough = cat.creature("Giant Centipede").replace(toughness=3)
    f = wb.variants([rat], [guard, tough], {"rules": A.Options(), "3 dice": A.Options(base_pool=3)})
    best = f.filter(pl.col("attack") == "best plan")
    inf = {(r["variant"], r["target"]): r["mean_rounds"] == float("inf") for r in best.iter_rows(named=True)}
    assert inf == {
        ("rules", "Town Guard"): True,
        ("3 dice", "Town Guard"): True,
        ("rules", "Giant Centipede"): False,
        ("3 dice", "Giant Centipede"): True,
    }
    spec = charts.variant_heatmap(best, "3 dice").to_dict()
    rows = {r["target"]: r["why"] for values in spec["datasets"].values() for r in values if "why" in r}
    assert rows == {
        "Town Guard": "never downs the target under either rule set",
        "Giant Centipede": "never downs the target under 3 dice",
    }
    assert spec["title"]["subtitle"][1] == (  # (the most cells first, then by the words)
        "grey (–): no change to show, 1 cell where it never downs the target under 3 dice, "
        "1 cell where it never downs the target under either rule set"
    )
    back = wb.variants([rat], [tough], {"3 dice": A.Options(base_pool=3), "rules": A.Options()})
    spec = charts.variant_heatmap(back.filter(pl.col("attack") == "best plan"), "rules").to_dict()
    assert (
        spec["title"]["subtitle"][1] == "grey (–): no change to show, 1 cell where it downs the target only under rules"
    )
    # every cell has a change: no such line
    finite = wb.variants(
        [rat], [cat.creature("Giant Centipede")], {"rules": A.Options(), "5+": A.Options(success_on=5)}
    )
    assert charts.variant_heatmap(finite, "5+").to_dict()["title"]["subtitle"] == [
        "blue: better for the attacker, red: worse"
    ]
