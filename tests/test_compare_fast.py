"""The fast paths of compare/explore equal the general ones (issue #8, performance).

- workbench/systems/annulus/fast.py: damage pmfs per distinct resolved dice-parameter tuple equal
  the damage marginal of ``outcome_tables`` and, over a turn, ``plan_damage`` (1e-12) for random
  legal sets, creatures, situations and options (hypothesis); hand-worked strikes
  (annulus-attacks.txt: Reroll, Critical; CLARIFICATIONS.md, Annulus, steps 3-5).
- comparison: ``compare`` with the fast Annulus path equals the outcome_tables path row by row;
  the kill chain by batched matrix products equals the loop over damage values and blocks of turns;
  ``_dedupe`` equals ``np.unique``; a kill chance past the turn's support is exactly 0.
- exploration: the numpy candidate filter keeps the same top-k and Pareto rows as keeping every
  row (chunk sizes 1 and all), and top-k equals a brute-force ranking of every row.
"""

from __future__ import annotations


import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import workbench as wb
import workbench.batch_chains as B
import workbench.comparison as C
from workbench.comparison import compare, rounds_batch
from workbench.exploration import _candidates, explore
from workbench.systems.annulus import fast

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


def _same(a: np.ndarray, b: np.ndarray, tol: float = TOL) -> None:
    w = max(a.shape[-1], b.shape[-1])
    pad = lambda x: np.pad(x, [(0, 0)] * (x.ndim - 1) + [(0, w - x.shape[-1])])  # noqa: E731
    assert np.abs(pad(a) - pad(b)).max() < tol


# =========================================================================== fast.py
@settings(max_examples=60, deadline=None)
@given(batches())
def test_fast_use_pmfs_equal_outcome_tables(batch):
    attacks, attackers, targets, sit, opt = batch
    got = fast.damage_pmfs(attacks, attackers, targets, opt, sit)
    want = _damage_grid(A.outcome_tables(attacks, attackers, targets, opt, sit), len(attacks))
    use = got["use"][got["param"]]
    _same(use, want)
    assert np.allclose(use.sum(axis=1), 1.0, atol=TOL)
    # the spent-Reroll pmf is the outcome table without the Reroll
    spent = _damage_grid(A.outcome_tables(attacks, attackers, targets, opt, sit.replace(reroll_available=False)),
                         len(attacks))
    _same(got["spent"][got["param"]], spent)


@settings(max_examples=40, deadline=None)
@given(batches(), st.integers(1, 3))
def test_fast_turn_pmfs_equal_plan_damage(batch, k):
    """k uses of one set in a turn: independent, one Reroll per round (annulus-attacks.txt)."""
    attacks, attackers, targets, sit, opt = batch
    got = fast.damage_pmfs(attacks, attackers, targets, opt, sit)
    p = got["param"]
    T = fast.turn_pmfs(got["fresh"][p], got["spent"][p], np.full(len(attacks), k))
    for i, (x, a, t) in enumerate(zip(attacks, attackers, targets)):
        plan = A.plan_damage(a, t, [x] * k, opt.replace(actions=max(opt.actions, 2 * k)), sit) \
            if not (x.alteration == "Telegraphed" and k > 1) else None
        if plan is None:
            continue
        want = np.concatenate((np.zeros(plan.offset), plan.pmf))
        _same(T[i : i + 1], want[None, :])


def test_fast_hand_worked_strike_with_reroll():
    """annulus-attacks.txt Reroll, CLARIFICATIONS steps 3: 4 dice at 1/2 against defense 2:
    P(0) = 11/16, P(1) = 4/16, P(2) = 1/16; the 0 is rerolled with 3 dice (P(0) = 7/8, P(1) = 1/8)."""
    atk = A.Attack("R", "agility", {"Reroll": 1})
    me = A.Creature("me", level=1, endurance=1, agility=0, toughness=0, insight=0)
    tgt = A.Creature("t", level=1, endurance=1, agility=2, toughness=0, insight=0, awareness="alert")
    r = fast.damage_pmfs([atk], [me], [tgt], A.Options(), A.Situation())
    want = [11 / 16 * 7 / 8, 4 / 16 + 11 / 16 / 8, 1 / 16]
    assert np.abs(r["use"][0, :3] - want).max() < TOL and r["use"][0, 3:].sum() < TOL
    # two uses: the second may reroll only if the first did not (one reroll per round)
    T = fast.turn_pmfs(r["fresh"], r["spent"], np.array([2]))
    # a turn deals 0 only if the first strike is 0 after its reroll and the second, without one, is 0
    assert abs(T[0, 0] - (11 / 16 * 7 / 8) * (11 / 16)) < TOL


def test_fast_hand_worked_critical():
    """CLARIFICATIONS, Annulus: Critical on a Trigger Die 12 (1/12) doubles the damage, the Bully
    bonus included by default (crit_doubles_bonus); 4 dice against defense 3 hit only on 4
    successes (1/16) for 1, Bully adds 7 - 6 = 1: 2, or 4 on a 12 (3 when only the 1 is doubled)."""
    atk = A.Attack("C", "agility", {"Critical": 1, "Bully": 1})
    me = A.Creature("me", size=7, level=1, endurance=1, agility=0, toughness=0, insight=0)
    tgt = A.Creature("t", size=6, level=1, endurance=1, agility=3, toughness=0, insight=0, awareness="alert")
    r = fast.damage_pmfs([atk], [me], [tgt], A.Options(), A.Situation())
    hit = 1 / 16  # 4 successes - defense 3 = 1; Bully: + (7 - 6) = 1 -> 2, doubled on a 12 -> 4
    assert abs(r["use"][0, 2] - hit * 11 / 12) < TOL
    assert abs(r["use"][0, 4] - hit / 12) < TOL
    assert abs(r["use"][0, 0] - (1 - hit)) < TOL
    r2 = fast.damage_pmfs([atk], [me], [tgt], A.Options(crit_doubles_bonus=False), A.Situation())
    assert abs(r2["use"][0, 3] - hit / 12) < TOL  # 2 * 1 + 1


def test_parameter_keys_mixed_radix_equals_row_unique():
    rng = np.random.default_rng(5)
    P = {c: rng.integers(0, 4, 500) for c in fast.KEY_COLUMNS}
    keys, inv = fast.parameter_keys(P)
    K = np.stack([P[c] for c in fast.KEY_COLUMNS], axis=1)
    want, winv = np.unique(K, axis=0, return_inverse=True)
    assert np.array_equal(np.sort(keys, axis=0), np.sort(want, axis=0))
    assert np.array_equal(keys[inv], K)
    assert len(np.unique(inv)) == len(want) == keys.shape[0]


# =========================================================================== comparison
def _builds(n: int, seed: int):
    rng = np.random.default_rng(seed)
    ups = ["Reckless", "Reroll", "Critical", "Flurry", "Charged", "Bully", "Assassin", "Flashy", "Telegraphed", "Keen"]
    out = []
    for i in range(n):
        pick = {u: 1 for u in rng.choice(ups, int(rng.integers(0, 4)), replace=False)}
        alts = [u for u in pick if u in ("Flurry", "Charged", "Telegraphed")]
        for u in alts[1:]:
            del pick[u]
        out.append(A.Attack(f"B{i}", str(rng.choice(["agility", "toughness", "insight"])), pick))
    return out


def _targets(n: int, seed: int):
    rng = np.random.default_rng(seed)
    return [A.Creature(f"T{i}", size=int(rng.integers(3, 8)), level=int(rng.integers(1, 6)),
                       endurance=int(rng.integers(0, 40)), agility=int(rng.integers(0, 4)),
                       toughness=int(rng.integers(0, 4)), insight=int(rng.integers(0, 4)),
                       awareness=str(rng.choice(["alert", "suspicious", "clueless"]))) for i in range(n)]


def _frames_equal(a: pl.DataFrame, b: pl.DataFrame) -> None:
    assert a.columns == b.columns and a.height == b.height
    for c in a.columns:
        if a[c].dtype == pl.Float64:
            x, y = a[c].to_numpy(), b[c].to_numpy()
            assert np.array_equal(np.isinf(x), np.isinf(y)) and np.array_equal(np.isnan(x), np.isnan(y))
            f = np.isfinite(x)
            assert np.abs(x[f] - y[f]).max(initial=0) < 1e-10 * max(1.0, np.abs(x[f]).max(initial=0)), c
        elif c == "p_killed_by":
            assert np.abs(np.array(a[c].to_list()) - np.array(b[c].to_list())).max() < TOL
        else:
            assert a[c].to_list() == b[c].to_list(), c


@pytest.mark.parametrize("seed", [1, 2])
def test_compare_fast_path_equals_outcome_tables_path(monkeypatch, seed):
    attacks = _builds(12, seed)
    cat = A.catalog()
    creatures = [c for c in cat.creatures.values() if A.attacks_of(c)][:3]
    targets = _targets(30, seed + 10)
    sit = A.Situation(after_kill=seed == 2, target_undamaged=seed == 1)
    fast_frame = compare(attacks + creatures, targets, chain=True, situation=sit, progress=False)
    monkeypatch.setattr(C, "FAST_ANNULUS", False)
    slow_frame = compare(attacks + creatures, targets, chain=True, situation=sit, progress=False)
    _frames_equal(fast_frame, slow_frame)


def test_kill_chain_matrix_equals_damage_loop_and_blocks(monkeypatch):
    rng = np.random.default_rng(3)
    T = rng.random((40, 9)) * (rng.random((40, 9)) < 0.6)
    T[:, 0] += 0.05
    T[5] = 0.0
    T[5, 0] = 1.0  # never damages
    T /= T.sum(axis=1, keepdims=True)
    ti = rng.integers(0, 40, 400)
    hp = rng.integers(1, 70, 400)
    for chain in (True, False):
        ref = rounds_batch(T, ti, hp, max_rounds=60, chain=chain)
        monkeypatch.setattr(B, "_MATRIX_HP", 0)  # the loop over damage values
        loop = rounds_batch(T, ti, hp, max_rounds=60, chain=chain)
        monkeypatch.setattr(B, "_MATRIX_HP", 256)
        monkeypatch.setattr(B, "_MATRIX_BLOCK", 3 * 64 * 64)  # blocks of 3 turns
        block = rounds_batch(T, ti, hp, max_rounds=60, chain=chain)
        monkeypatch.setattr(B, "_MATRIX_BLOCK", 1 << 22)
        for other in (loop, block):
            for key in ref:
                x, y = ref[key], other[key]
                assert np.array_equal(np.isnan(x), np.isnan(y)) and np.array_equal(np.isinf(x), np.isinf(y))
                f = np.isfinite(x)
                assert np.abs(x[f] - y[f]).max(initial=0) < 1e-10, key
    # one-at-a-time oracle for a few rows (wb.rounds_to_kill)
    out = rounds_batch(T, ti, hp, max_rounds=60, chain=True)
    for i in range(0, 400, 37):
        if T[ti[i], 1:].sum() == 0:
            assert np.isinf(out["mean_rounds"][i]) and np.all(out["p_killed_by"][i] == 0)
            continue
        d = wb.Dist(T[ti[i]], 0)
        assert abs(out["mean_rounds"][i] - wb.mean_rounds_to_kill(d, int(hp[i]))) < 1e-9
        assert abs(out["p_kill_one_turn"][i] - d.sf(int(hp[i]))) < TOL


def test_kill_chance_past_the_support_is_exactly_zero():
    """A turn dealing at most 3 cannot kill 4 HP in one turn: exactly 0, not rounding noise."""
    T = np.array([[0.1, 0.2, 0.3, 0.4]])
    out = rounds_batch(T, np.array([0, 0]), np.array([4, 3]), max_rounds=5)
    assert out["p_kill_one_turn"][0] == 0.0
    assert abs(out["p_kill_one_turn"][1] - 0.4) < TOL


def test_dedupe_equals_numpy_unique():
    rng = np.random.default_rng(4)
    for size, n in ((50, 1000), (10**9, 100), (7, 0)):
        x = rng.integers(0, size, n)
        first, inv = C._dedupe(x, size)
        u, f2, i2 = np.unique(x, return_index=True, return_inverse=True)
        assert np.array_equal(first, f2) and np.array_equal(inv, i2.ravel())


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


def test_explore_top_k_equals_brute_force_ranking():
    """Every row of every build, computed by compare (the general path), ranked by hand."""
    targets = _targets(8, 9)
    got = explore("annulus", targets=targets, budget=3, top_k=3, progress=False)
    from workbench.systems.annulus.builds import annulus_builds

    frame, _ = annulus_builds(3, targets)
    full = compare(frame["build"].to_list(), targets, best_plan=False, progress=False)
    for t in targets:
        rows = full.filter(pl.col("target") == t.name)
        vals = np.sort(rows["mean_turn_damage"].to_numpy())[::-1]
        top = got.filter((pl.col("target") == t.name) & (pl.col("rank") <= 3))["mean_turn_damage"].to_numpy()
        assert top.size >= 3
        # the kept values are the 3 best values (ties may keep more rows, never other values)
        assert np.abs(np.sort(top)[::-1][:3] - vals[:3]).max() < 1e-9


def test_batched_convolution_by_fft_equals_the_exact_loop(monkeypatch):
    """Long supports (e.g. Last Odyssey x16 elements) convolve by FFT; probabilities agree with the
    exact loop over damage values to 1e-12, and no negative or noise mass appears where 0 is exact."""
    rng = np.random.default_rng(7)
    a = rng.random((30, 300)) * (rng.random((30, 300)) < 0.3)
    b = rng.random((30, 200)) * (rng.random((30, 200)) < 0.5)
    a[:, 0] += 1e-3
    b[:, 0] += 1e-3
    a /= a.sum(axis=1, keepdims=True)
    b /= b.sum(axis=1, keepdims=True)
    fast = C._bconv(a, b)
    monkeypatch.setattr(C, "_FFT_COLUMNS", 10**9)
    exact = C._bconv(a, b)
    assert fast.shape == exact.shape
    assert np.max(np.abs(fast - exact)) < 1e-12
    assert (fast >= 0).all()
    zero = np.zeros((1, 300))
    zero[0, 0] = 1.0
    spread = np.zeros((1, 200))
    spread[0, [0, 199]] = 0.5
    monkeypatch.setattr(C, "_FFT_COLUMNS", 1)
    out = C._bconv(zero, spread)  # exact result has mass at 0 and 199 only
    assert np.count_nonzero(out) == 2 and abs(out[0, 199] - 0.5) < 1e-12
