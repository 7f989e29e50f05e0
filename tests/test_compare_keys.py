"""compare's one path: matchups with equal ``damage_keys`` are resolved once, so the key must
never merge matchups whose damage differs; the kill statistics of every row (chains.kill_stats)
against one-at-a-time oracles; explore's candidate filter and chunking.

Annulus (annulus-attacks.txt; CLARIFICATIONS.md, Annulus, order of resolution): the key holds what
one use reads (upgrades, counter type, attacker size, level and Vitality, target size, the seed's
defense value, awareness).
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import workbench as wb
from workbench.chains import kill_stats
from workbench.comparison import compare
from workbench.exploration import _candidates, explore

A = wb.system("annulus")
TOL = 1e-12
GENERAL = ["Keen", "Reckless", "Bully", "Visceral", "Reroll", "Tireless", "Flashy", "Giant", "Armored",
           "Killing Spree", "First Blood", "Precise", "Assassin", "Stealth", "Blood Price"]
STACKABLE = {"Reckless", "Giant", "Precise", "Assassin"}
TRIGGERS = ["Critical", "Vital", "Drain", "Burn", "Choke"]
ALTERATIONS = [None, "Charged", "Flurry", "Gaze", "Swansong", "Telegraphed", "Counter"]


@st.composite
def attack_sets(draw):
    ups: dict[str, int] = {}
    for g in draw(st.lists(st.sampled_from(GENERAL), max_size=5, unique=True)):
        ups[g] = draw(st.integers(1, 3)) if g in STACKABLE else 1
    if "Flashy" in ups and "Stealth" in ups:
        del ups["Stealth"]
    for t in draw(st.lists(st.sampled_from(TRIGGERS), max_size=3, unique=True)):
        ups[t] = 1
    alt = draw(st.sampled_from(ALTERATIONS))
    if alt:
        ups[alt] = 1
    counter = "toughness" if alt == "Counter" else None
    return A.Attack("Random", draw(st.sampled_from(["agility", "toughness", "insight"])), ups, counter_type=counter)


@st.composite
def creatures(draw):
    return A.Creature("C", size=draw(st.integers(1, 9)), level=draw(st.integers(1, 6)),
                      endurance=draw(st.integers(0, 12)), agility=draw(st.integers(0, 4)),
                      toughness=draw(st.integers(0, 4)), insight=draw(st.integers(0, 4)),
                      awareness=draw(st.sampled_from(["clueless", "suspicious", "alert"])))


@st.composite
def situations(draw, attack, attacker):
    flag = lambda: draw(st.booleans())  # noqa: E731
    gaze = attack.alteration == "Gaze"
    return A.Situation(
        distance=1.0, concealment="none" if gaze else draw(st.sampled_from(["none", "partial", "full"])),
        tired=flag(), armor=flag(), inside_devourer=flag(), attacker_weakened=flag(), target_prone=flag(),
        target_setup=flag(), target_blind=False if gaze else flag(), target_undamaged=flag(),
        target_petrified=flag(), after_kill=flag(), mutual_sight=True,
        attacker_vitality=attacker.vitality // 2 if attack.alteration == "Swansong" else None,
        target_awareness=draw(st.sampled_from([None, "clueless", "suspicious", "alert"])),
        reroll_available=flag(), extra_advantages=draw(st.integers(0, 2)),
        extra_disadvantages=draw(st.integers(0, 2)))


options = st.builds(lambda s, c, p, r, a: A.Options(success_on=s, crit_doubles_bonus=c, base_pool=p, reroll=r,
                                                    actions=a),
                    st.integers(3, 6), st.booleans(), st.integers(2, 5), st.sampled_from(["on_zero", "never"]),
                    st.integers(1, 3))


@st.composite
def batches(draw):
    """Aligned matchups sharing one situation (as compare and explore call them)."""
    n = draw(st.integers(1, 6))
    attacks = [draw(attack_sets()) for _ in range(n)]
    attacker = draw(creatures())
    # one situation for the batch: drop the sets it makes unusable (Gaze/Swansong differ per set)
    attacks = [a for a in attacks if a.alteration not in ("Gaze", "Swansong")] or [A.Attack("Plain", "agility")]
    sit = draw(situations(attacks[0], attacker))
    return attacks, [attacker] * len(attacks), [draw(creatures()) for _ in attacks], sit, draw(options)


def _damage_grid(table: pl.DataFrame, n: int) -> np.ndarray:
    g = np.zeros((n, int(table["damage"].max()) + 1))
    np.add.at(g, (table["matchup"].to_numpy(), table["damage"].to_numpy()), table["probability"].to_numpy())
    return g


def _joint(table: pl.DataFrame) -> dict:
    """P(regular, vital) of one use: the damage over (Endurance, Vitality)."""
    g = table.group_by((pl.col("damage") - pl.col("vitality_damage")).alias("r"), "vitality_damage").agg(
        pl.col("probability").sum())
    return {(r, v): p for r, v, p in g.iter_rows()}


@settings(max_examples=60, deadline=None)
@given(st.lists(attack_sets(), min_size=1, max_size=4), st.lists(creatures(), min_size=1, max_size=3),
       st.lists(creatures(), min_size=2, max_size=5), options)
def test_equal_damage_keys_mean_equal_damage(attacks, attackers, targets, opt):
    """Every two matchups of a grid with equal ``damage_keys`` have the same per-use damage over
    (Endurance, Vitality) to 1e-12 and the same turn of ``uses_per_turn`` uses: resolving one for
    all is exact (annulus-attacks.txt; CLARIFICATIONS, Annulus, order of resolution)."""
    pairs = [(c, x) for c in attackers for x in attacks]
    ids = A.damage_keys(pairs, targets, opt)
    sit = A.Situation()
    seen: dict[int, tuple] = {}
    for p, (c, x) in enumerate(pairs):
        for t_i, t in enumerate(targets):
            why = A.usability([x], [c], [t], opt, sit)[0]
            if why is not None:
                use = turn = None
            else:
                use = _joint(A.outcome_tables([x], [c], [t], opt, sit))
                k = A.uses_per_turn(c, x, opt)
                turn = A.turn_tables([(c.replace(attack_sets=[x]), t)], opt, sit, plans=[[x] * k]).pmf[0]
            key = int(ids[p, t_i])
            if key not in seen:
                seen[key] = (use, turn)
                continue
            use0, turn0 = seen[key]
            assert (use is None) == (use0 is None)
            if use is None:
                continue
            assert set(use) == set(use0) and max(abs(use[c_] - use0[c_]) for c_ in use) < TOL
            w = tuple(max(a, b) for a, b in zip(turn.shape, turn0.shape))
            pad = lambda a: np.pad(a, [(0, w[0] - a.shape[0]), (0, w[1] - a.shape[1])])  # noqa: E731
            assert np.abs(pad(turn) - pad(turn0)).max() < TOL


@pytest.mark.parametrize("system", wb.systems())
def test_compare_per_use_columns_equal_outcome_tables(system):
    """Every per-use row of a catalog grid equals the marginal of its own outcome table (no key
    merged two different matchups)."""
    sys = wb.system(system)
    cs = [c for c in sys.catalog().creatures.values() if sys.attacks_of(c)][:5]
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        f = compare(cs, cs, best_plan=False, progress=False, simulate=False)
    by = {c.name: c for c in cs}
    for row in f.iter_rows(named=True):
        a, t = by[row["attacker"]], by[row["target"]]
        x = next(x for x in sys.attacks_of(a) if x.name == row["attack"])
        d = wb.damage(x, a, t)
        assert abs(row["mean_damage"] - d.mean()) < TOL and abs(row["p_any_damage"] - d.sf(1)) < TOL


# =========================================================================== kill statistics
def test_kill_stats_equal_the_one_matchup_chain():
    rng = np.random.default_rng(3)
    T = rng.random((40, 9)) * (rng.random((40, 9)) < 0.6)
    T[:, 0] += 0.05
    T[5] = 0.0
    T[5, 0] = 1.0  # never damages
    T /= T.sum(axis=1, keepdims=True)
    ti = rng.integers(0, 40, 400)
    hp = rng.integers(1, 70, 400)
    out = kill_stats(T, ti, hp[:, None], max_rounds=60, chain=True)
    for i in range(0, 400, 37):
        if T[ti[i], 1:].sum() == 0:
            assert np.isinf(out["mean_rounds"][i]) and np.all(out["p_killed_by"][i] == 0)
            continue
        d = wb.Dist(T[ti[i]], 0)
        assert abs(out["mean_rounds"][i] - wb.mean_rounds_to_kill(d, int(hp[i]))) < 1e-9
        assert abs(out["p_kill_one_turn"][i] - d.sf(int(hp[i]))) < TOL
        by = wb.rounds_to_kill(d, hp=int(hp[i]))["p_killed_by"].to_numpy()[:60]
        assert np.abs(out["p_killed_by"][i, : by.size] - by).max() < 1e-12


def test_kill_chance_past_the_support_is_exactly_zero():
    """A turn dealing at most 3 cannot kill 4 HP in one turn: exactly 0, not rounding noise."""
    T = np.array([[0.1, 0.2, 0.3, 0.4]])
    out = kill_stats(T, np.array([0, 0]), np.array([[4], [3]]), max_rounds=5)
    assert out["p_kill_one_turn"][0] == 0.0
    assert abs(out["p_kill_one_turn"][1] - 0.4) < TOL


def test_two_pool_kill_stats_hand_worked():
    """annulus-attacks.txt: "Endurance is removed first, then Vitality"; Vital goes "directly at
    Vitality". Endurance 1, Vitality 1; a turn deals 1 regular (1/2), 1 vital (1/4) or nothing (1/4).
    One turn kills only by the vital point: P = 1/4. Two turns kill unless both are nothing or the
    first regular point is followed by nothing / nothing then a regular point: alive after 2 turns
    = P(0,0) + P(1r,0) + P(0,1r) = 1/16 + 1/8 + 1/8 = 5/16, so P(T <= 2) = 11/16."""
    J = np.zeros((1, 2, 2))
    J[0, 1, 0], J[0, 0, 1], J[0, 0, 0] = 0.5, 0.25, 0.25
    out = kill_stats(J, np.array([0]), np.array([[1, 1]]), max_rounds=3, chain=True)
    assert abs(out["p_killed_by"][0, 0] - 0.25) < TOL
    assert abs(out["p_killed_by"][0, 1] - 11 / 16) < TOL
    # mean: damaging steps Y (regular 2/3, vital 1/3): K = 1 w.p. 1/3, else 2: E[K] = 5/3; / P(dmg) 3/4
    assert abs(out["mean_rounds"][0] - (5 / 3) / 0.75) < TOL


# =========================================================================== exploration
def test_candidates_keep_top_k_with_build_id_ties_and_best_per_cost():
    value = np.array([[1.0, 0.0], [3.0, 0.0], [3.0, 0.0], [2.0, 5.0]]).ravel()  # 4 pairs x 2 targets
    ok = np.ones(8, dtype=bool)
    ok[7] = False  # pair 3 unusable against target 1
    rows = set(_candidates(value, ok, 4, 2, None).tolist())
    # target 0: 3, 3 (pairs 1, 2); target 1: the zeros of pairs 0, 1 (ties: earlier pairs)
    assert rows == {2, 4, 1, 3}
    rows = set(_candidates(value, ok, 4, 1, np.array([1, 1, 2, 2])).tolist())
    # top 1: pair 1 (t0), pair 0 (t1); best per (cost, target): cost 1 -> pair 1 / pair 0, cost 2 -> pair 2 / pair 2
    assert rows == {2, 1, 4, 5}


@pytest.mark.parametrize("by", ["mean_turn_damage", "p_kill_one_turn"])
def test_explore_chunking_does_not_change_the_result(by):
    targets = _targets(12, 7)
    a = explore("annulus", targets=targets, budget=3, top_k=4, chunk_size=1, by=by, progress=False)
    b = explore("annulus", targets=targets, budget=3, top_k=4, chunk_size=10_000, by=by, progress=False)
    assert a.height == b.height > 0
    for c in a.columns:  # the same rows, ranks and front; values to rounding (dot products of other widths)
        if a[c].dtype == pl.Float64:
            assert np.abs(a[c].to_numpy() - b[c].to_numpy()).max() < TOL
        else:
            assert a[c].to_list() == b[c].to_list(), c


def _targets(n: int, seed: int):
    rng = np.random.default_rng(seed)
    return [A.Creature(f"T{i}", size=int(rng.integers(3, 8)), level=int(rng.integers(1, 6)),
                       endurance=int(rng.integers(0, 40)), agility=int(rng.integers(0, 4)),
                       toughness=int(rng.integers(0, 4)), insight=int(rng.integers(0, 4)),
                       awareness=str(rng.choice(["alert", "suspicious", "clueless"]))) for i in range(n)]


def test_explore_top_k_equals_brute_force_ranking():
    """Every row of every build, computed by compare (the general path), ranked by hand."""
    targets = _targets(8, 9)
    got = explore("annulus", targets=targets, budget=3, top_k=3, progress=False)
    from workbench.systems.annulus.builds import annulus_builds

    frame, _ = annulus_builds(3, targets)
    full = compare(frame["build"].to_list(), targets, best_plan=False, progress=False, simulate=False)
    for t in targets:
        rows = full.filter(pl.col("target") == t.name)
        vals = np.sort(rows["mean_turn_damage"].to_numpy())[::-1]
        top = got.filter((pl.col("target") == t.name) & (pl.col("rank") <= 3))["mean_turn_damage"].to_numpy()
        assert top.size >= 3
        # the kept values are the 3 best values (ties may keep more rows, never other values)
        assert np.abs(np.sort(top)[::-1][:3] - vals[:3]).max() < 1e-9


