"""Optimal play over keyed states (workbench/state_chain.py, solve_keyed_policy; issue 15, item 4):
the plan of each state (key, damage taken) that makes the expected rounds fewest, checked by hand,
against an oracle that evaluates every deterministic policy exactly with Fractions, and against the
fixed-plan chain it reduces to when each key has one plan."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest

from workbench.state_chain import Branch, KeyedTurn, PlannedChain, solve_keyed_chain, solve_keyed_policy


def _sunder_and_strike(hp: int) -> PlannedChain:
    """Armor "up" or "down". Strike: 1 damage while the armor is up, 3 once it is down; Sunder: the
    armor goes down, no damage (down, it does nothing)."""

    def turn(key):
        strike = KeyedTurn([key], np.array([1 if key == "up" else 3]), np.array([1.0]))
        return {"Strike": strike, "Sunder": KeyedTurn(["down"], np.array([0]), np.array([1.0]))}

    return PlannedChain("up", hp, turn, lambda key: {"armor": key})


def test_by_hand_sunder_first_when_enough_hp_is_left():
    """HP 4. Strike alone: 4 rounds; Sunder alone never kills; the damage play (the most damage each turn)
    strikes forever: 4. Optimal, m(key, HP left): down, Strike, m = ceil(left / 3): 1, 1, 1, 2 for 1..4
    left (Sunder there stays put at no damage, never better). Up, 1 left: Strike, 1 (Sunder 1 + 1 = 2);
    2 left: Strike 1 + m(up, 1) = 2 ties Sunder 1 + m(down, 2) = 2, the first listed, Strike; 3 left:
    Sunder 1 + m(down, 3) = 2 beats Strike 1 + m(up, 2) = 3; 4 left: Strike 1 + m(up, 3) = 3 ties
    Sunder 1 + m(down, 4) = 3, so Strike. Mean 3, not 4: Strike (3 left), Sunder, Strike (dead in round 3)."""
    kp = solve_keyed_policy(_sunder_and_strike(4), 100)
    assert kp is not None
    assert kp.mean == pytest.approx(3.0, abs=1e-12)
    up, down = kp.keys.index("up"), kp.keys.index("down")
    label = lambda i, taken: kp.labels[kp.choice[i, taken]]  # noqa: E731
    # damage taken 0..3 = HP left 4..1
    assert [label(up, t) for t in range(4)] == ["Strike", "Sunder", "Strike", "Strike"]
    assert kp.rounds_left[up].tolist() == pytest.approx([3, 2, 2, 1], abs=1e-12)
    assert kp.rounds_left[down].tolist() == pytest.approx([2, 1, 1, 1], abs=1e-12)
    assert [label(down, t) for t in range(4)] == ["Strike"] * 4
    assert kp.by.tolist() == pytest.approx([0.0, 0.0, 1.0], abs=1e-15)


def _exact_mean(start, hp, keys, plans, policy):
    """Expected rounds of the deterministic ``policy`` ((key, taken) -> label) from (start, 0), by Gaussian
    elimination with Fractions over the states it reaches; None when a reached state can never be killed
    (I - Q is then singular)."""
    reach, todo = {(start, 0)}, [(start, 0)]
    while todo:
        k, t = todo.pop()
        for k2, d, _ in plans[k][policy[k, t]]:
            if t + d < hp and (k2, t + d) not in reach:
                reach.add((k2, t + d))
                todo.append((k2, t + d))
    states = sorted(reach, key=lambda s: (keys.index(s[0]), s[1]))
    at = {s: i for i, s in enumerate(states)}
    n = len(states)
    a = [[Fraction(int(i == j)) for j in range(n)] + [Fraction(1)] for i in range(n)]
    for s in states:
        for k2, d, q in plans[s[0]][policy[s]]:
            if s[1] + d < hp:
                a[at[s]][at[(k2, s[1] + d)]] -= q
    for c in range(n):  # Gauss-Jordan with exact pivots
        p = next((r for r in range(c, n) if a[r][c] != 0), None)
        if p is None:
            return None
        a[c], a[p] = a[p], a[c]
        for r in range(n):
            if r != c and a[r][c] != 0:
                f = a[r][c] / a[c][c]
                a[r] = [x - f * y for x, y in zip(a[r], a[c])]
    return a[at[(start, 0)]][n] / a[at[(start, 0)]][at[(start, 0)]]


@pytest.mark.parametrize("band", [None, 1])
@pytest.mark.parametrize("seed", range(5))
def test_the_policy_is_the_best_of_every_deterministic_policy(seed, band):
    """Oracle: three keys, two plans at each, HP 3 (9 states, 2^9 deterministic policies), random rows with
    rational probabilities; every policy's mean exact in Fractions. The solver's mean equals the smallest
    to 1e-12, and the rounds left it reports at the start are that mean; solved as one band and one damage
    level a band (``band_transitions=1``)."""
    rng = np.random.default_rng(seed)
    keys, hp = ["a", "b", "c"], 3
    plans = {}
    for k in keys:
        plans[k] = {}
        for lab in ("x", "y"):
            n = int(rng.integers(1, 4))
            w = rng.integers(1, 5, size=n)
            rows = [(keys[int(rng.integers(3))], int(rng.integers(0, 3)), Fraction(int(x), int(w.sum()))) for x in w]
            plans[k][lab] = rows

    def turn(key):
        return {
            lab: KeyedTurn([r[0] for r in rows], np.array([r[1] for r in rows]), np.array([float(r[2]) for r in rows]))
            for lab, rows in plans[key].items()
        }

    kp = solve_keyed_policy(PlannedChain("a", hp, turn, lambda k: {"key": k}), 1000, also=keys, band_transitions=band)
    states = [(k, t) for k in keys for t in range(hp)]
    means = []
    for choice in itertools.product(("x", "y"), repeat=len(states)):
        m = _exact_mean("a", hp, keys, plans, dict(zip(states, choice)))
        if m is not None:
            means.append(m)
    if not means:
        assert kp.mean == np.inf
        return
    assert kp.mean == pytest.approx(float(min(means)), abs=1e-12)
    assert kp.rounds_left[kp.keys.index("a"), 0] == kp.mean


def test_one_plan_a_key_is_the_fixed_plan_chain():
    """Each key with a single plan: the policy is that plan, and its mean and P(killed by t) are those of
    solve_keyed_chain over the same turns."""

    def turn(key):
        if key == 0:
            return KeyedTurn([0, 1, 1], np.array([0, 2, 1]), np.array([0.25, 0.5, 0.25]))
        return KeyedTurn([1, 0], np.array([1, 3]), np.array([0.6, 0.4]))

    fixed = solve_keyed_chain(0, 23, turn, 1000)
    kp = solve_keyed_policy(PlannedChain(0, 23, lambda k: {"only": turn(k)}, lambda k: {}), 1000)
    assert kp.mean == pytest.approx(fixed.mean, rel=1e-12)
    n = min(kp.by.size, fixed.by.size)
    np.testing.assert_allclose(kp.by[:n], fixed.by[:n], rtol=0, atol=1e-12)


def test_where_no_play_kills_for_certain_the_mean_is_infinite_and_the_curve_still_counts():
    """Key "armed" strikes for 1 with probability 1/2, else the weapon breaks (key "broken", which deals
    nothing ever after); HP 2. No play kills for certain: mean inf. P(killed by 2) = 1/4 (two hits)."""

    def turn(key):
        if key == "broken":
            return {"Swing": KeyedTurn(["broken"], np.array([0]), np.array([1.0]))}
        return {"Swing": KeyedTurn(["armed", "broken"], np.array([1, 0]), np.array([0.5, 0.5]))}

    kp = solve_keyed_policy(PlannedChain("armed", 2, turn, lambda k: {}), 100)
    assert kp.mean == np.inf
    assert kp.by[1] == pytest.approx(0.25, abs=1e-15) and kp.by[-1] == pytest.approx(0.25, abs=1e-15)
    assert kp.choice[kp.keys.index("broken")].tolist() == [-1, -1]  # nothing ever kills from there


def test_past_its_bounds_it_gives_up():
    chain = _sunder_and_strike(1000)
    assert solve_keyed_policy(chain, 100, max_transitions=10) is None


def test_by_hand_dice_before_the_plan():
    """A round first rolls: a trap (1/4) deals 2 before any plan, a lucky roll (3/8) or a plain one (3/8)
    deal nothing; then the plan, chosen knowing the roll. Safe deals 1 surely; Risky deals 2 after a lucky
    roll, else 2 with probability 1/4. HP 2. With 1 left everything kills: m = 1 (Safe, listed first).
    With 2 left, m = 1 + 1/4 x 0 + 3/8 x 0 (lucky: Risky kills) + 3/8 x min(Safe: m(1) = 1, Risky: 3/4 m):
    Safe gives m = 11/8, and Risky's 3/4 x 11/8 > 1 keeps it. Deciding before the roll could do no better
    than Risky throughout, m = 1 + 3/8 x 3/4 m, m = 32/23 > 11/8. P(killed by 1) = 5/8, by 2 = 1."""
    from workbench.state_chain import Branch

    def rows(*pairs):
        return KeyedTurn(["k"] * len(pairs), np.array([d for d, _ in pairs]), np.array([p for _, p in pairs]))

    def turn(key):
        plain = {"Safe": rows((1, 1.0)), "Risky": rows((2, 0.25), (0, 0.75))}
        lucky = {"Safe": rows((1, 1.0)), "Risky": rows((2, 1.0))}
        return [
            Branch(0.25, 2, {"Safe": rows((0, 1.0))}, {"roll": "trap"}),
            Branch(0.375, 0, lucky, {"roll": "lucky"}),
            Branch(0.375, 0, plain, {"roll": "plain"}),
        ]

    kp = solve_keyed_policy(PlannedChain("k", 2, turn, lambda k: {}), 100)
    assert kp.mean == pytest.approx(11 / 8, abs=1e-12)
    assert kp.branch_named == [{"roll": "trap"}, {"roll": "lucky"}, {"roll": "plain"}]
    chosen = {b["roll"]: kp.labels[kp.choice[i, 0]] for i, b in enumerate(kp.branch_named)}
    assert chosen == {"trap": "Safe", "lucky": "Risky", "plain": "Safe"}  # with 2 left (damage taken 0)
    assert kp.by.tolist() == pytest.approx([5 / 8, 1.0], abs=1e-15)
    assert kp.rounds_left[0].tolist() == pytest.approx([11 / 8, 1.0], abs=1e-12)


@pytest.mark.parametrize("seed", range(4))
def test_bands_of_damage_taken_change_nothing(seed):
    """Backward induction over bands of damage taken: the same fight (six keys, three plans each,
    dice before the plan at some keys, a key with no plan, rows that stay put) solved as one band,
    a band of each damage level and bands of 7 levels gives the same plans, rounds left and P(killed
    by t) to 1e-12."""
    rng = np.random.default_rng(100 + seed)
    keys, hp = list(range(6)), 40
    tables = {}
    for k in keys:
        tables[k] = {}
        for lab in ("x", "y", "z"):
            n = int(rng.integers(1, 5))
            w = rng.random(n) + 0.05
            tables[k][lab] = KeyedTurn(
                [int(rng.integers(6)) for _ in range(n)], rng.integers(0, 4, size=n), w / w.sum()
            )

    def turn(key):
        if key == 5:
            return {}  # no plan: the state stays as it is
        if key % 2:  # dice before the plan: a trap (1/4) deals 1 first, and plan "z" is not legal after it
            return [
                Branch(0.25, 1, {lab: t for lab, t in tables[key].items() if lab != "z"}, {"trap": True}),
                Branch(0.75, 0, tables[key], {"trap": False}),
            ]
        return tables[key]

    chain = PlannedChain(0, hp, turn, lambda k: {"key": k})
    whole = solve_keyed_policy(chain, 1000)
    rows = sum(len(t.keys) for k in keys[:5] for t in tables[k].values())
    for band in (1, 7 * rows):
        got = solve_keyed_policy(chain, 1000, band_transitions=band)
        assert got.keys == whole.keys and got.labels == whole.labels
        np.testing.assert_array_equal(got.choice, whole.choice)
        np.testing.assert_allclose(got.rounds_left, whole.rounds_left, rtol=1e-12, atol=0)
        np.testing.assert_allclose(got.by, whole.by, rtol=0, atol=1e-12)
    assert np.isfinite(whole.rounds_left).any() and (whole.choice >= 0).any()
