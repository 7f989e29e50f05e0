"""VariantsPanel (widgets/variants.py; issue 18, item 2, "the app's panels use them": the same grid
under the rules as written and under the designer's variant, with the change per row)."""

from __future__ import annotations

import polars as pl
import pytest

import workbench as wb
from workbench.widgets import Workbench
from workbench.widgets.variants import BASELINE, VARIANT, VariantsPanel

U = wb.system("unbound")
C = U.catalog()
GUARD, DUELIST, BERSERKER = C.creature("Town guard"), C.creature("Veteran duelist"), C.creature("Berserker")


def test_the_panel_is_wb_variants_of_the_baseline_and_the_edited_variant():
    p = VariantsPanel("unbound", [GUARD], [DUELIST, BERSERKER], variant=U.Options())
    assert set(p.value["variant"]) == {BASELINE, VARIANT}
    assert p.value["delta_mean_damage"].abs().max() == 0.0  # the variant given: a copy
    assert "nothing yet" in p.summary.value
    p.form.controls["confirm_crits"].value = False
    p.background.wait(30)
    want = wb.variants(
        [GUARD], [DUELIST, BERSERKER], {BASELINE: U.Options(), VARIANT: U.Options(confirm_crits=False)}, progress=False
    )
    got = p.value.filter(pl.col("variant") == VARIANT).sort("attack", "target")
    ref = want.filter(pl.col("variant") == VARIANT).sort("attack", "target")
    assert got["delta_mean_damage"].to_list() == pytest.approx(ref["delta_mean_damage"].to_list(), abs=1e-12)
    assert (got["delta_mean_damage"] > 0).all()  # every threat now a crit: more damage
    assert "confirm crits: True → False" in p.summary.value and "all exact" in p.summary.value
    spec = p.chart.chart.to_dict()
    assert "change in mean rounds" in str(spec)


def test_the_tab_opens_on_a_rule_change_that_shows_and_says_when_one_shows_nothing():
    """Issue 36, item 5: with no variant given, the first rule whose change moves the numbers is the
    starting example (Unbound: crits need no confirmation), said as such; a change with no effect
    on any row says "no effect"."""
    p = VariantsPanel("unbound", [GUARD], [DUELIST, BERSERKER])
    assert p.form.value == U.Options(confirm_crits=False)
    assert "confirm crits: True → False" in p.summary.value and "a starting example" in p.summary.value
    assert p.value["delta_mean_damage"].abs().max() > 0
    p.form.value = U.Options(casts_per_turn=2)  # no spell here: no effect
    p.background.wait(30)
    assert "no effect: this change leaves every number here as it is" in p.summary.value
    a = wb.system("annulus")
    q = VariantsPanel("annulus")
    assert q.form.value == a.Options(success_on=5) and q.value["delta_mean_rounds"].abs().max() > 0


def test_a_bad_variant_value_is_explained_and_the_last_chart_stays():
    p = VariantsPanel("unbound", [GUARD], [DUELIST])
    before = p.value
    p.form.controls["casts_per_turn"].value = -3
    assert "casts per turn: must be at least 0" in p.form.error and p.value is before  # in words (issue 36)
    assert p.problem  # the app's tab gets its warning mark


def test_the_app_variants_tab_follows_the_damage_selection():
    app = Workbench("unbound")
    v = app.build_tab("Variants")
    assert v.attackers == [app.damage.attacker] and v.targets[0] == app.damage.target
    app.damage.target = DUELIST
    v.background.wait(30)
    assert v.targets[0] == DUELIST and DUELIST.name in set(v.value["target"])


def test_the_app_variants_play_the_attack_on_screen_beside_the_best_plan():
    """The user's question: the Variants tab's first row is the Damage tab's attack, as edited, used
    as often as each turn allows (``wb.variants`` of the pair (attacker, attack)), the attacker's
    best plan the reference row below. Annulus: the Rat's Bite given Reckless 2 (+2 automatic
    successes) now downs the Town Guard, which neither its Bite nor its best plan did."""
    import math

    a = wb.system("annulus")
    app = Workbench("annulus")
    v = app.build_tab("Variants")
    d = app.damage
    # the Rat's one attack is its best plan: one row, said so
    rows = {r["build"] for values in v.chart.chart.to_dict()["datasets"].values() for r in values if "build" in r}
    assert rows == {"Rat · Bite (its best plan too)"}
    d.attack = d.attack.replace(upgrades={**d.attack.upgrades, "Reckless": 2})
    v.background.wait(60)
    f = v.value
    assert set(f["attack"]) == {"Bite", "best plan (reference)"}
    want = wb.variants(
        [(d.attacker, d.attack)], v.targets, {BASELINE: a.Options(), VARIANT: v.form.value}, fights=2_000
    )
    got = f.filter(pl.col("attack") == "Bite")
    assert got["mean_rounds"].to_list() == pytest.approx(want["mean_rounds"].to_list(), abs=1e-12)
    guard = lambda attack: f.filter((pl.col("attack") == attack) & (pl.col("target") == "Town Guard"))  # noqa: E731
    assert all(math.isfinite(x) for x in guard("Bite")["mean_rounds"])
    assert all(math.isinf(x) for x in guard("best plan (reference)")["mean_rounds"])
    rows = {r["build"] for values in v.chart.chart.to_dict()["datasets"].values() for r in values if "build" in r}
    assert rows == {"Rat · Bite", "Rat · best plan (reference)"}


def test_with_an_attack_the_other_attackers_keep_their_best_plan_rows():
    """With ``attack`` only the first attacker plays it; every other attacker keeps its best-plan
    row (it was left out)."""
    p = VariantsPanel("unbound", [GUARD, BERSERKER], [DUELIST], attack=GUARD.weapons[2])
    f = p.value
    got = {(r["attacker"], r["attack"]) for r in f.iter_rows(named=True)}
    assert got == {
        ("Town guard", GUARD.weapons[2].name),
        ("Town guard", "best plan (reference)"),
        ("Berserker", "best plan"),
    }
    rows = {r["build"] for values in p.chart.chart.to_dict()["datasets"].values() for r in values if "build" in r}
    assert "Berserker · best plan" in rows
