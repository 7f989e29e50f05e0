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
    f = wb.variants([GUARD], [DUELIST, U.catalog().creature("Berserker")],
                    {"confirm": O(), "no confirmation": O(confirm_crits=False)})
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
