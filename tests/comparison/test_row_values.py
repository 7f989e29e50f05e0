"""compare(): every row equals the one-at-a-time computation (wb.damage, wb.turn_damage and the one
fight, wb.rounds_to_kill of the attacker with the row's plan) to 1e-12, for every system and a mixed
call: compare runs the same chain over the same pools."""

from __future__ import annotations

import math
import warnings

import numpy as np
import polars as pl
import pytest

import workbench as wb
from workbench.comparison import BEST_PLAN, compare, neutral_attacker

TOL = 1e-12


def _quantile(by: np.ndarray, q: float) -> float | None:
    hit = np.flatnonzero(by >= q - 1e-12)
    return None if hit.size == 0 else int(hit[0]) + 1


def _pick(system: str, n_att: int, n_tgt: int):
    cat = wb.system(system).catalog()
    cs = list(cat.creatures.values())
    att = [c for c in cs if wb.system(system).attacks_of(c)][:n_att]
    return att, cs[:n_tgt]


def _check_rows(frame: pl.DataFrame, attackers, targets, max_rounds=100, options=None, situation=None):
    """Recompute every row of ``frame`` one matchup at a time and compare."""
    by_name = {c.name: c for c in attackers}
    tgt = {t.name: t for t in targets}
    checked = 0
    for row in frame.iter_rows(named=True):
        sys = wb.system(row["system"])
        a, t = by_name[row["attacker"]], tgt[row["target"]]
        opt = options if options is None or wb.system_of(options).name == sys.name else None
        sit = situation if situation is None or wb.system_of(situation).name == sys.name else None
        assert row["target_hp"] == sys.hit_points(t)
        if row["attack"] == BEST_PLAN:
            turn = wb.turn_damage(a, t, opt, sit)
            assert row["mean_damage"] is None
        else:
            attack = next(x for x in sys.attacks_of(a) if x.name == row["attack"])
            use = wb.damage(attack, a, t, opt, sit)
            assert abs(row["mean_damage"] - use.mean()) < TOL
            assert abs(row["sd_damage"] - use.std()) < TOL
            assert abs(row["p_any_damage"] - use.sf(1)) < TOL
            k = row["uses_per_turn"]
            turn = wb.turn_damage(a, t, opt, sit, plan=[attack] * k) if k else wb.Dist.constant(0)
        assert abs(row["mean_turn_damage"] - turn.mean()) < TOL
        assert abs(row["sd_turn_damage"] - turn.std()) < 1e-9
        assert abs(row["hp_share_per_turn"] - turn.mean() / row["target_hp"]) < TOL
        if turn.max() <= 0:
            assert math.isinf(row["mean_rounds"]) and row["rounds_q50"] is None
        else:
            # the one fight: rounds_to_kill's exact chain over the target's pools (Annulus: Endurance,
            # then Vitality), with the row's plan
            plan = None if row["attack"] == BEST_PLAN else [attack] * row["uses_per_turn"]
            fight = wb.rounds_to_kill(a, t, options=opt, situation=sit, plan=plan, simulate=False)
            by = fight["p_killed_by"].to_numpy()
            m = float((fight["round"] * fight["p_killed_at"]).sum())
            assert abs(row["mean_rounds"] - m) <= 1e-9 * max(1.0, m)
            assert abs(row["p_kill_one_turn"] - by[0]) < TOL
            if len(wb.system(row["system"]).pools) == 1:  # one pool: the turn's own tail
                assert abs(row["p_kill_one_turn"] - turn.sf(row["target_hp"])) < TOL
            for q, col in ((0.1, "rounds_q10"), (0.5, "rounds_q50"), (0.9, "rounds_q90")):
                assert row[col] == _quantile(by[:max_rounds], q), (row, col)
        checked += 1
    return checked


@pytest.mark.parametrize("system", wb.systems())
def test_rows_equal_one_at_a_time(system):
    att, tgt = _pick(system, 4, 6)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        f = compare(att, tgt, simulate=False)
    assert set(f["system"]) == {system}
    assert (f["attack"] == BEST_PLAN).sum() == len(att) * len(tgt)
    assert _check_rows(f, att, tgt) == f.height > len(att) * len(tgt)


def test_mixed_systems_one_call():
    """Two systems in one call: rows only within a system, each equal to the one-at-a-time numbers."""
    a1, t1 = _pick("annulus", 2, 3)
    a2, t2 = _pick("last_odyssey", 2, 3)
    f = compare(a1 + a2, t1 + t2, simulate=False)
    assert set(f["system"]) == {"annulus", "last_odyssey"}
    for sys_name, att, tgt in (("annulus", a1, t1), ("last_odyssey", a2, t2)):
        part = f.filter(pl.col("system") == sys_name)
        assert set(part["target"]) == {t.name for t in tgt}
        assert set(part["attacker"]) == {a.name for a in att}
    _check_rows(f, a1 + a2, t1 + t2)


def test_situation_and_options_apply_per_system():
    A = wb.system("annulus")
    att, tgt = _pick("annulus", 3, 4)
    opt = A.Options(success_on=5)
    sit = A.Situation(concealment="partial")
    f = compare(att, tgt, options=opt, situation=sit, simulate=False)
    _check_rows(f, att, tgt, options=opt, situation=sit)
    plain = compare(att, tgt, simulate=False)
    assert f["mean_damage"].sum() < plain["mean_damage"].sum()


def test_annulus_catalog_rows_are_the_two_pool_fight():
    """Every row of the whole Annulus catalog grid equals rounds_to_kill's two-pool chain; for the
    sets with Vital ("the attack ignores Endurance and strikes directly at Vitality", annulus-
    attacks.txt) the kill chance is not the HP-only one of the turn's total damage."""
    cs = list(wb.system("annulus").catalog().creatures.values())
    att = [c for c in cs if wb.system("annulus").attacks_of(c)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        f = compare(att, cs, progress=False, simulate=False)
    assert _check_rows(f, att, cs) == f.height
    vital = [c.name for c in att if any("Vital" in s.upgrades for s in c.attack_sets)]
    assert vital, "the catalog holds a Vital set"
    rows = f.filter(pl.col("attacker").is_in(vital) & (pl.col("attack") == BEST_PLAN))
    differ = 0
    for row in rows.iter_rows(named=True):
        a = next(c for c in att if c.name == row["attacker"])
        t = next(c for c in cs if c.name == row["target"])
        hp_only = wb.turn_damage(a, t).sf(row["target_hp"])
        differ += abs(hp_only - row["p_kill_one_turn"]) > 1e-6
    assert differ > 0


def test_best_plan_rows_follow_the_objective():
    """compare(objective="rounds") labels the plan with the fewest expected rounds, as
    turn_damage(objective="rounds") and rounds_to_kill(objective="rounds") do (the Veteran duelist
    against the Town guard: a steadier plan than the highest-mean one)."""
    U = wb.system("unbound")
    a, t = U.catalog().creature("Veteran duelist"), U.catalog().creature("Town guard")
    by_mean = compare([a], [t], progress=False, simulate=False).filter(pl.col("attack") == BEST_PLAN).row(0, named=True)
    by_rounds = (
        compare([a], [t], progress=False, objective="rounds", simulate=False)
        .filter(pl.col("attack") == BEST_PLAN)
        .row(0, named=True)
    )
    assert by_mean["plan"] != by_rounds["plan"] and by_rounds["mean_rounds"] < by_mean["mean_rounds"]
    fight = wb.rounds_to_kill(a, t, objective="rounds", simulate=False)
    assert abs(float((fight["round"] * fight["p_killed_at"]).sum()) - by_rounds["mean_rounds"]) < 1e-9
    assert abs(wb.turn_damage(a, t, objective="rounds").mean() - by_rounds["mean_turn_damage"]) < 1e-12
    d = wb.duel(a, t, objective="rounds", simulate=False)
    assert d.exact


def test_unresolved_mass_is_what_the_round_limit_leaves():
    """p_unresolved = P(T > max_rounds) of the same chain: 1 - rounds_to_kill's P(T <= max_rounds)."""
    cs = list(wb.system("annulus").catalog().creatures.values())[:4]
    f = compare(cs, cs, max_rounds=3, progress=False, best_plan=False, simulate=False)
    for row in f.iter_rows(named=True):
        a, t = next(c for c in cs if c.name == row["attacker"]), next(c for c in cs if c.name == row["target"])
        attack = next(x for x in a.attack_sets if x.name == row["attack"])
        if row["mean_turn_damage"] == 0:
            assert row["p_unresolved"] == 1.0
            continue
        by = wb.rounds_to_kill(a, t, plan=[attack] * row["uses_per_turn"], simulate=False)["p_killed_by"].to_numpy()
        assert abs(row["p_unresolved"] - (1 - by[min(2, by.size - 1)])) < 1e-12


def test_probabilities_stay_within_0_and_1_where_float_noise_crosses():
    # issue 35: Toad, Giant vs Leather Longswordsman at environment=-12 gave p_any_damage = -2.2e-16
    g = wb.system("glass_empires")
    cat = g.catalog()
    frame = compare(
        [cat.creature("Toad, Giant")],
        [cat.creature("Leather Longswordsman (Level 4 human, example)")],
        situation=g.Situation(environment=-12),
        chain=True,
    )
    for name in [c for c in frame.columns if c.startswith("p_")]:
        col = frame[name].explode() if frame.schema[name] == pl.List(pl.Float64) else frame[name]
        col = col.drop_nulls()
        assert col.is_empty() or (col.min() >= 0.0 and col.max() <= 1.0), name
    assert frame["p_any_damage"].drop_nulls().to_list() == [0.0]


def test_last_odyssey_back_row_with_a_kill_objective_leaves_melee_only_rows_without_a_turn():
    # issue 35: target_row='back' and objective='kill_within_3' raised IndexError (a pair with no
    # legal plan: the Cop's only ability is melee and cannot reach the back row)
    lo = wb.system("last_odyssey")
    cat = lo.catalog()
    targets = list(cat.creatures.values())[:5]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        frame = compare(
            [cat.creature("Cop")], targets, situation=lo.Situation(target_row="back"), objective="kill_within_3"
        )
    assert frame.height == 5 and set(frame["target"]) == {t.name for t in targets}
    assert frame["mean_turn_damage"].fill_null(0.0).max() == 0.0
