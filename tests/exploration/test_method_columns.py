"""explore's rows say how they were computed (issue 15 item 3, docs/compare.md, explore): ``method``
"exact, one turn", ``se`` and ``p_unresolved`` null (no fight is run), ``forced_by`` the state the
fight of the row's build against its target carries (workbench.simulate.state_effects) and
``state_ignored`` whether the ranking leaves it out."""

from __future__ import annotations

import polars as pl

import workbench as wb
from workbench.exploration import METHOD_COLUMNS, explore, fighter, method_line
from workbench.simulate import state_effects

A = wb.system("annulus")
CAT = A.catalog()
WOLF, GUARD, RAT = CAT.creature("Wolf"), CAT.creature("Town Guard"), CAT.creature("Rat")
TARGETS = [WOLF, GUARD, RAT]


def _by_name(frame: pl.DataFrame, name: str, target: str) -> dict:
    rows = frame.filter((pl.col("name") == name) & (pl.col("target") == target))
    assert rows.height == 1, (name, target, rows)
    return rows.row(0, named=True)


def test_columns_and_dtypes():
    f = explore("annulus", targets=TARGETS, budget=3, top_k=5)
    tail = [c for c in f.columns if c in METHOD_COLUMNS]
    assert tail == ["method", "se", "p_unresolved", "forced_by", "state_ignored"]
    assert f.columns.index("method") == f.columns.index("pareto") + 1
    assert dict(f.select(METHOD_COLUMNS).schema) == {
        "method": pl.String,
        "se": pl.Float64,
        "p_unresolved": pl.Float64,
        "forced_by": pl.String,
        "state_ignored": pl.Boolean,
    }
    assert f["method"].unique().to_list() == ["exact, one turn"]
    assert f["se"].null_count() == f["p_unresolved"].null_count() == f.height  # no fight, nothing simulated
    assert f["forced_by"].null_count() == 0
    assert (f["state_ignored"] == (f["forced_by"] != "")).all()


def test_hand_picked_rows():
    """Wolf is Alert, the Town Guard is not (awareness changes after the first strike,
    annulus-attacks.txt); a Reckless set hurts its user (self-damage); the Guard's Riposte carries
    Disarm, which can take one of the attacker's sets away for the rest of the fight (the state of
    the victim's fight, workbench/systems/annulus/round.py): state the turn leaves out."""
    f = explore("annulus", targets=[WOLF, GUARD], budget=3, top_k=200)
    assert WOLF.awareness == "alert" and GUARD.awareness != "alert"
    reckless = _by_name(f, "Agility: Reckless 2", "Wolf")
    assert "reckless" in reckless["forced_by"].split("; ") and reckless["state_ignored"]
    assert reckless["forced_by"] == "reckless"
    plain = _by_name(f, "Agility: Damage", "Wolf")
    assert plain["forced_by"] == "" and plain["state_ignored"] is False
    assert _by_name(f, "Agility: Damage", "Town Guard")["forced_by"] == "awareness; disarm"
    assert _by_name(f, "Agility: Reckless 2", "Town Guard")["forced_by"] == "awareness; disarm; reckless"
    assert "disarm" not in _by_name(f, "Agility: Damage", "Wolf")["forced_by"]  # the Wolf has no Disarm


def test_forced_by_is_state_effects_of_every_row():
    """Each row's forced_by is state_effects of the neutral attacker holding only the row's build
    against the row's target, with the plan "the build uses_per_turn times", asked one at a time."""
    space = A.build_space(3, TARGETS)
    builds = dict(zip(space.builds["name"].to_list(), space.builds["build"].to_list()))
    f = explore("annulus", targets=TARGETS, budget=3, top_k=40)
    named = {t.name: t for t in TARGETS}
    kinds = set()
    for row in f.iter_rows(named=True):
        b = builds[row["name"]]
        me = space.attacker.replace(attack_sets=(b,))
        plan = [b] * A.uses_per_turn(me, b)
        want = "; ".join(sorted(state_effects(me, named[row["target"]], plan=plan)))
        assert row["forced_by"] == want, row
        kinds |= set(want.split("; ")) - {""}
    assert {"reckless", "awareness", "telegraphed"} <= kinds  # the sample covers several effects
    assert (f["forced_by"] == "").any()


def test_state_effects_many_equals_state_effects_on_the_catalog():
    """The batch the rows are asked in (AnnulusSystem.state_effects_many) gives state_effects of
    every catalog creature and of every creature holding one of its sets, against every target."""
    creatures = list(CAT.creatures.values())
    attackers = creatures + [fighter(A, c, s) for c in creatures for s in c.attack_sets]
    pairs = [(a, t) for a in attackers for t in creatures]
    got = A.state_effects_many([a for a, _ in pairs], [t for _, t in pairs])
    want = [state_effects(a, t) for a, t in pairs]
    assert got == want
    seen = set().union(*want)
    assert {"reckless", "awareness", "counter"} & seen and len(seen) >= 4


def test_default_state_effects_many_per_pair():
    """The protocol's default (Unbound): state_effects pair by pair, the plan included (a Wild
    Attack lowers the attacker's own AC until its next turn, unbound-d20-attacking.txt)."""
    U = wb.system("unbound")
    cat = U.catalog()
    guard, duelist = cat.creature("Town guard"), cat.creature("Veteran duelist")
    plans = [None, [U.attacks_of(guard)[0]] * 2]
    got = U.state_effects_many([guard, guard], [duelist, duelist], plans=plans)
    assert got == [state_effects(guard, duelist, plan=p) for p in plans]


def test_vary_rows_carry_the_columns():
    U = wb.system("unbound")
    cat = U.catalog()
    guard, sword, axe = cat.creature("Town guard"), cat.attack("Longsword"), cat.attack("Greataxe")
    g = explore("unbound", targets=["unbound:Veteran duelist"], base=guard, attack=sword, vary={"attack": [sword, axe]})
    assert g["method"].to_list() == ["exact, one turn"] * 2
    duelist = cat.creature("Veteran duelist")
    for row in g.iter_rows(named=True):
        atk = sword if row["attack"] == "Longsword" else axe
        me = fighter(U, guard, atk)
        want = "; ".join(sorted(state_effects(me, duelist, plan=[atk] * U.uses_per_turn(me, atk))))
        assert row["forced_by"] == want


def test_method_line():
    f = explore("annulus", targets=[WOLF, GUARD], budget=3, top_k=3)
    line = method_line(f)
    n = int(f["state_ignored"].sum())
    assert n > 0 and f"{n:,} of {f.height:,} rows" in line and "reckless" in line and "awareness" in line
    # the effects in words, not the column's names
    assert "first blood" in line and "first_blood" not in line and "first_blood" in "; ".join(f["forced_by"].drop_nulls())
    plain = f.filter(~pl.col("state_ignored"))
    assert method_line(plain) == "one-turn statistics, exact; no row's fight carries state"


def test_heatmap_of_explore_says_how():
    """An explore frame's heatmap: every cell's tooltip holds method, forced_by and state_ignored,
    and the subtitle is explore's method line (never compare's "all exact (absorbing chain)")."""
    from workbench.charts import heatmap

    f = explore("annulus", targets=[WOLF, GUARD], budget=2, top_k=3)
    spec = heatmap(f, "target", "name", "mean_turn_damage").to_dict()
    tips = {t["field"] for t in spec["layer"][0]["encoding"]["tooltip"]}
    assert {"method", "forced_by", "state_ignored"} <= tips
    assert spec["title"]["subtitle"] == method_line(f)
