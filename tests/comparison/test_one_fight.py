"""compare runs the fight rounds_to_kill runs (issue 15, items 1-3): per catalog row, compare's
mean_rounds and P(kill within 1, 2, 3 rounds) equal wb.rounds_to_kill's for the row's plan: to 1e-9
where exact, identically where simulated (same seed and fights: the same code path), and within 4
standard errors with another seed; ``method`` says "simulated" exactly when rounds_to_kill
simulates (its frame is not exact: state_effects not empty and no chain over the state fits), ``se`` is > 0 on simulated rows whose rounds vary and
null on exact ones, and ``forced_by`` is the sorted state_effects. All Annulus and Unbound catalog
pairs here; every Last Odyssey and Glass Empires pair in test_whole_catalogs.py (a module of its
own, so that the test runner can give it a worker: about 3 minutes)."""

from __future__ import annotations

import math
import warnings

import numpy as np
import polars as pl
import pytest

import workbench as wb
from workbench.comparison import BEST_PLAN, compare
from workbench.fight_rows import COMPARE_FIGHTS, row_seed
from workbench.simulate import state_effects
from workbench.fight.chain import state_chain

MAX_ROUNDS = 100


def _catalog(system: str):
    sys = wb.system(system)
    cs = list(sys.catalog().creatures.values())
    return sys, cs, [c for c in cs if sys.attacks_of(c)]


def _plan(sys, a, row):
    if row["attack"] == BEST_PLAN:
        return None
    attack = next(x for x in sys.attacks_of(a) if x.name == row["attack"])
    return [attack] * row["uses_per_turn"]


def _fight(a, t, plan, **kwargs):
    """Return (P(kill by round 1..3), mean over the frame, frame) of rounds_to_kill, or None when it
    refuses (a turn that never damages)."""
    try:
        # confirm: these tests check the numbers; the 10 s bound of a call is tests/arguments' (a
        # loaded CI machine can take a large Last Odyssey chain past it)
        f = wb.rounds_to_kill(a, t, plan=plan, confirm=True, **kwargs)
    except wb.RulesError as exc:
        assert exc.field == "turn", exc
        return None
    by = f["p_killed_by"].to_numpy()
    by3 = np.array([by[min(k, by.size) - 1] for k in (1, 2, 3)])
    return by3, float((f["round"] * f["p_killed_at"]).sum()), f


def _row_by3(row) -> np.ndarray:
    return np.array(row["p_killed_by"][:3])


def _check_frame(sys, frame: pl.DataFrame, creatures) -> dict[str, int]:
    """Check every row of ``frame`` against rounds_to_kill; return counts of exact / simulated rows."""
    by_name = {c.name: c for c in creatures}
    seen = {"exact": 0, "simulated": 0}
    for row in frame.iter_rows(named=True):
        a, t = by_name[row["attacker"]], by_name[row["target"]]
        plan = _plan(sys, a, row)
        if plan == []:  # no use of the attack fits a turn: never killed, nothing to fight
            assert row["method"] == "exact" and math.isinf(row["mean_rounds"])
            seen["exact"] += 1
            continue
        effects = sorted(state_effects(a, t, None, None, plan))
        simulated = row["method"] == "simulated"
        seen[row["method"]] += 1
        if simulated:
            assert row["forced_by"].split("; ") == effects
            seed = row_seed(0, sys.name, row["attacker"], row["attack"], row["target"])
            got = _fight(a, t, plan, fights=COMPARE_FIGHTS, seed=seed, max_rounds=MAX_ROUNDS)
            if got is None:  # no simulated fight kills within the round limit: all mass unresolved
                assert row["p_unresolved"] == 1.0 and row["mean_rounds"] is None
                continue
            by3, mean, f = got
            assert not f["exact"][0]
            # the same code path with the same seed and fights: identical numbers
            assert np.array_equal(_row_by3(row), by3)
            assert row["p_kill_one_turn"] == by3[0]
            if f["p_killed_by"][-1] >= 1.0:
                # the same fights; the mean summed in another order (float rounding only)
                assert abs(row["mean_rounds"] - mean) <= 1e-12 * mean and row["p_unresolved"] == 0.0
                assert row["se"] is not None and row["se"] >= 0.0
                # s.e. > 0 exactly when the fights end in more than one round
                assert (row["se"] > 0.0) == (int((f["p_killed_at"].to_numpy() > 0).sum()) > 1)
            else:
                assert row["mean_rounds"] is None and row["p_unresolved"] > 0.0
        else:
            assert row["forced_by"] == "" and row["se"] is None
            # exact where rounds_to_kill is exact: no state, or a turn that can never damage
            got = _fight(a, t, plan)
            if got is None:
                assert math.isinf(row["mean_rounds"]) and row["p_unresolved"] == 1.0
                continue
            by3, mean, f = got
            if math.isinf(row["mean_rounds"]):  # a chain over the state that kills only in part (mean inf)
                assert f["exact"][0] and np.allclose(_row_by3(row), by3, atol=1e-9, rtol=0)
                # the mass left at compare's round limit (the Hill Giant's Maw against the Ogre still
                # kills a little after round 100: 0.750006 left then, 0.75 in the end)
                left = wb.rounds_to_kill(a, t, plan=plan, max_rounds=MAX_ROUNDS)["p_killed_by"][-1]
                assert row["p_unresolved"] == pytest.approx(1.0 - left, abs=1e-9)
                continue
            # exact as rounds_to_kill is: no state, or a chain over the state that fits (Glass Empires
            # armor points and jams)
            assert f["exact"][0], (row["attacker"], row["attack"], row["target"], effects)
            assert abs(row["mean_rounds"] - mean) <= 1e-9 * max(1.0, mean)
            assert np.allclose(_row_by3(row), by3, atol=1e-9, rtol=0)
            assert row["p_kill_one_turn"] == pytest.approx(by3[0], abs=1e-9)
    return seen


def _compare(att, tgt):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "left out, not usable here" notes
        return compare(att, tgt, progress=False, chain=True, max_rounds=MAX_ROUNDS, confirm=True)


@pytest.mark.parametrize("system", ["annulus", "unbound"])
def test_every_catalog_row_is_rounds_to_kills_fight(system):
    sys, cs, att = _catalog(system)
    frame = _compare(att, cs)
    seen = _check_frame(sys, frame, cs)
    assert seen["exact"] + seen["simulated"] == frame.height > 0
    if system == "annulus":
        # the Annulus catalog carries state (awareness, conditions, ...), all of it chained over the
        # state (annulus/round.py): no row simulated
        assert seen["simulated"] == 0
        assert sum(bool(state_effects(a, t)) for a in att for t in cs) > 100


@pytest.mark.parametrize(
    "system, attacker, target",
    [
        ("last_odyssey", "Zombie Hulk", "Troll"),  # Miasma, between rounds
        ("last_odyssey", None, None),
    ],
)
def test_simulated_rows_agree_with_another_seed_within_4_se(system, attacker, target, state_too_large):
    """When the state does not fit the chain (``state_too_large``): another seed and more fights
    (rounds_to_kill's own defaults but 20,000 fights): mean rounds and P(kill within 1, 2, 3) within 4
    standard errors of the two estimates."""
    sys, cs, att = _catalog(system)
    if attacker is None:  # the first Last Odyssey pair of the catalog whose fight is simulated
        a, t = next((a, t) for a in att for t in cs if state_effects(a, t) and state_chain(sys, a, t) is None)
    else:
        a, t = sys.catalog().creature(attacker), sys.catalog().creature(target)
    row = _compare([a], [t]).filter(pl.col("attack") == BEST_PLAN).row(0, named=True)
    assert row["method"] == "simulated" and row["p_unresolved"] == 0.0
    fights = 20_000
    by3, mean, f = _fight(a, t, None, fights=fights, seed=7)
    var = float((f["round"] ** 2 * f["p_killed_at"]).sum()) - mean * mean
    se = math.hypot(row["se"], math.sqrt(var / fights))
    assert abs(row["mean_rounds"] - mean) <= 4 * se + 1e-12
    mine = _row_by3(row)
    for k in range(3):
        p = by3[k]
        s = math.hypot(math.sqrt(mine[k] * (1 - mine[k]) / COMPARE_FIGHTS), math.sqrt(p * (1 - p) / fights))
        assert abs(mine[k] - p) <= 4 * s + 1e-12


def test_bear_vs_plate_soldier_is_no_longer_2592_rounds():
    """Issue 15: against armor points that stay spent, Bear vs Plate Soldier takes about 5.19 rounds
    (rounds_to_kill and an independent chain), not the 2,592 of a chain whose armor is restored. The
    chain over (AP left, HP) answers it exactly, and the simulation of the same side agrees."""
    G = wb.system("glass_empires")
    bear, plate = G.catalog().creature("Bear"), G.catalog().creature("Plate Soldier (Level 2 human, example)")
    row = _compare([bear], [plate]).filter(pl.col("attack") == BEST_PLAN).row(0, named=True)
    assert row["method"] == "exact" and row["forced_by"] == "" and row["se"] is None
    assert abs(row["mean_rounds"] - 5.19) < 0.005
    sim = compare([bear], [plate], progress=False, simulate=True, fights=20_000).filter(pl.col("attack") == BEST_PLAN)
    assert sim["method"][0] == "simulated" and sim["forced_by"][0] == "armor points"
    assert abs(sim["mean_rounds"][0] - row["mean_rounds"]) < 4 * sim["se"][0]
    free = compare([bear], [plate], progress=False, simulate=False).filter(pl.col("attack") == BEST_PLAN)
    assert free["mean_rounds"][0] > 1000 and free["method"][0] == "exact"


def test_seed_and_fights_are_checked_and_change_the_draws(state_too_large):
    L = wb.system("last_odyssey")  # the Zombie Hulk's Miasma, its state too large here: simulated rows
    wolf, rat = L.catalog().creature("Zombie Hulk"), L.catalog().creature("Troll")
    for bad in ({"fights": 0}, {"fights": 2.5}, {"seed": -1}, {"seed": "x"}, {"simulate": "yes"}):
        with pytest.raises(wb.RulesError) as e:
            compare([wolf], [rat], **bad)
        assert e.value.field == next(iter(bad))
    one = compare([wolf], [rat], seed=1, fights=500)
    again = compare([wolf], [rat], seed=1, fights=500)
    other = compare([wolf], [rat], seed=2, fights=500)
    assert one.equals(again)
    sim = one["method"] == "simulated"
    assert sim.any() and not one.filter(sim)["mean_rounds"].equals(other.filter(sim)["mean_rounds"])
    forced = compare([wolf], [rat], simulate=True, best_plan=False)
    assert (forced["method"] == "simulated").all()


def test_heatmap_spec_and_cli_show_the_method(capsys, state_too_large):
    from workbench.charts import heatmap
    from workbench.cli import main

    # Annulus: the Wolf's fight with the Drake carries no state (exact); the others' state is too large
    # for the chain here (state_too_large): simulated
    frame = _compare(["annulus:Wolf", "annulus:Ogre"], ["annulus:Drake", "annulus:Rat"])
    spec = heatmap(frame, "target", "attacker", "mean_rounds").to_dict()
    n_sim = int((frame["method"] == "simulated").sum())
    assert n_sim > 0
    subtitle = spec["title"]["subtitle"]
    assert f"{n_sim:,} of {frame.height:,} simulated" in subtitle
    tips = [t["field"] for layer in spec["layer"] for t in layer.get("encoding", {}).get("tooltip", [])]
    assert "method" in tips and "se" in tips and "forced_by" in tips
    values = next(iter(spec["datasets"].values()))
    assert {v["method"] for v in values} == {"exact", "simulated"}

    code = main(["compare", "annulus", "-a", "Wolf", "Ogre", "-t", "Drake", "Rat"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "method" in out and "simulated" in out and "exact" in out
    assert f"method: {n_sim} of {frame.height} simulated" in out
    code = main(["compare", "annulus", "-a", "Wolf", "-t", "Rat", "--ignore-state"])
    out, err = capsys.readouterr()
    assert code == 0 and "method: all exact (absorbing chain)" in out
