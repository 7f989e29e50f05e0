"""Optimal play (workbench/policies.py; issue 15, item 4): the plan of each state of the target's
pools that makes the expected rounds to kill fewest, by dynamic programming, checked by hand, against
an oracle that tries every deterministic policy with exact fractions, and through rounds_to_kill."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest

import workbench as wb
from workbench.errors import RulesError
from workbench.policies import optimal_play, solve_policy

STEADY = [0.0, 1.0]  # 1 damage every turn
LONG_SHOT = [2 / 3, 0, 0, 0, 0, 1 / 3]  # 5 damage with probability 1/3, else nothing


def _pmfs(*rows):
    width = max(len(r) for r in rows)
    return np.array([list(r) + [0.0] * (width - len(r)) for r in rows])


def test_by_hand_steady_then_long_shot():
    """Plan A deals 1 every turn; plan B deals 5 with probability 1/3, else 0; 6 HP. Either plan alone needs 6
    rounds on average (A: six turns; B: a hit leaves 1 HP, then 3 more rounds on average: 3 + 3). Optimal play,
    m(h) for h HP left: A at 1-3 left (m = 1, 2, 3: B's 1 / (1/3) = 3 is no better), B at 4 and 5 left (one
    hit kills: 3 < A's 1 + m(3) = 4 and 1 + m(4) = 4), and at 6 left A's 1 + m(5) = 4 ties B's
    (1 + (1/3) m(1)) / (1/3) = 4: the plan listed first, A. Mean 4 rounds, not 6."""
    p = solve_policy(_pmfs(STEADY, LONG_SHOT), (6,), ["A", "B"])
    assert p.mean == pytest.approx(4.0, abs=1e-12)
    assert [p.labels[j] for j in p.choice] == ["A", "A", "A", "B", "B", "A"]  # HP left 1..6
    assert p.rounds_left.tolist() == pytest.approx([1, 2, 3, 3, 3, 4], abs=1e-12)
    t = np.arange(1, p.by.size + 1)
    assert float(t @ np.diff(p.by, prepend=0.0)) == pytest.approx(4.0, abs=1e-12)  # the chain agrees
    assert p.by[0] == 0.0 and p.by[1] == pytest.approx(1 / 3, abs=1e-15)  # A, then B from 5 left


def _policy_mean(plans, hp, policy) -> Fraction | None:
    """Exact expected rounds of a fixed deterministic policy (a plan per HP left), or None if infinite."""
    m = {0: Fraction(0)}
    for h in range(1, hp + 1):
        plan = plans[policy[h - 1]]
        stay = plan.get(0, Fraction(0))
        if stay == 1:
            return None
        rest = [(q, m[max(h - d, 0)]) for d, q in plan.items() if d > 0]
        if any(v is None for _, v in rest):
            m[h] = None
            continue
        m[h] = (1 + sum(q * v for q, v in rest)) / (1 - stay)
    return m[hp]


@pytest.mark.parametrize("seed", range(6))
def test_the_policy_is_the_best_of_every_deterministic_policy(seed):
    """Oracle: every one of the 3^HP deterministic policies (three random plans, HP 6), each mean exact in
    fractions; the dynamic program's mean equals the smallest to 1e-12, and is at most each fixed plan's."""
    rng = np.random.default_rng(seed)
    plans = []
    for _ in range(3):
        support = rng.choice(5, size=3, replace=False)
        w = rng.integers(1, 5, size=3)
        plans.append({int(d): Fraction(int(x), int(w.sum())) for d, x in zip(support, w)})
    hp = 6
    pmf = _pmfs(*[[float(pl.get(d, 0)) for d in range(5)] for pl in plans])
    got = solve_policy(pmf, (hp,), ["a", "b", "c"])
    means = [_policy_mean(plans, hp, pol) for pol in itertools.product(range(3), repeat=hp)]
    finite = [m for m in means if m is not None]
    assert got.mean == pytest.approx(float(min(finite)), abs=1e-12)
    for j in range(3):
        fixed = _policy_mean(plans, hp, [j] * hp)
        assert fixed is None or got.mean <= float(fixed) + 1e-12


def test_two_pools_against_the_oracle_of_every_policy():
    """Endurance 1, Vitality 2 (Annulus: regular damage spends Endurance, then spills into Vitality; vital damage
    goes to Vitality): states (e, w) with e in 0..1, w in 1..2. Plan a deals 1 regular surely; plan b deals 1
    vital with probability 1/2, else nothing. Every deterministic policy over the 4 states is tried exactly."""
    a = np.zeros((2, 2))
    a[1, 0] = 1.0
    b = np.zeros((2, 2))
    b[0, 0], b[0, 1] = 0.5, 0.5
    got = solve_policy(np.stack([a, b]), (1, 2), ["a", "b"])
    plans = {0: {(1, 0): Fraction(1)}, 1: {(0, 0): Fraction(1, 2), (0, 1): Fraction(1, 2)}}

    def mean(policy):  # policy: (e, w) -> plan
        m = {}
        for e, w in sorted(((e, w) for e in (0, 1) for w in (1, 2)), key=lambda s: s[0] + s[1]):
            plan = plans[policy[(e, w)]]
            stay, total = plan.get((0, 0), Fraction(0)), Fraction(1)
            for (r, v), q in plan.items():
                if (r, v) == (0, 0):
                    continue
                e2, w2 = max(e - r, 0), w - v - max(r - e, 0)
                total += q * (m[(e2, w2)] if w2 >= 1 else 0)
            m[(e, w)] = total / (1 - stay)
        return m[(1, 2)]

    states = [(e, w) for e in (0, 1) for w in (1, 2)]
    best = min(mean(dict(zip(states, pol))) for pol in itertools.product((0, 1), repeat=4))
    assert got.mean == pytest.approx(float(best), abs=1e-12)
    # by hand: a alone takes 3 rounds (the Endurance point, then one Vitality point a turn); b alone 4 (two vital
    # hits at 1/2 each); from (0, 2) b costs 2 rounds a point where a costs 1, and at the start b leads to
    # (1, 1) at 2 rounds a point: no mix beats a's 3.
    assert got.mean == pytest.approx(3.0, abs=1e-12)


def test_rounds_to_kill_under_optimal_play_is_never_slower_than_a_fixed_plan():
    """Unbound's Town guard against the Veteran duelist (the state-free chain, simulate=False): the optimal
    mean is at most the fewest-rounds fixed plan's and the frame's P(killed by t) sums to it."""
    c = wb.system("unbound").catalog()
    a, t = c.creature("Town guard"), c.creature("Veteran duelist")
    best_fixed = wb.rounds_to_kill(a, t, objective="rounds", simulate=False)
    opt = wb.rounds_to_kill(a, t, objective="optimal", simulate=False)
    mean = lambda f: float((f["round"] * f["p_killed_at"]).sum())  # noqa: E731
    assert mean(opt) <= mean(best_fixed) + 1e-9 and opt["exact"].all()
    policy, frame = optimal_play(a, t, ignore_state=True)
    assert mean(opt) == pytest.approx(policy.mean, abs=1e-9)
    assert frame.height == wb.system("unbound").hit_points(t) and set(frame.columns) == {
        "hp_left",
        "plan",
        "mean_rounds_left",
    }


def test_what_optimal_play_cannot_honour_is_refused(monkeypatch):
    """A system that describes no round of its fights' state (RuleSystem.fight_round None, the default:
    here Last Odyssey's made to answer so) offers no plans over it: optimal play over it is refused,
    naming the state and the way round; a forced simulation is refused too."""
    lo = wb.system("last_odyssey")
    hulk, cop = lo.catalog().creature("Zombie Hulk"), lo.catalog().creature("Cop")
    monkeypatch.setattr(type(lo), "fight_round", lambda self, *args, **kwargs: None)
    with pytest.raises(RulesError) as err:
        wb.rounds_to_kill(hulk, cop, objective="optimal")
    assert err.value.field == "objective" and "simulate=False" in err.value.message
    assert "miasma, mp, shell" in err.value.message
    with pytest.raises(RulesError) as err:
        wb.rounds_to_kill(hulk, cop, objective="optimal", simulate=True)
    assert err.value.field == "simulate"
    c = wb.system("unbound").catalog()
    a, t = c.creature("Town guard"), c.creature("Veteran duelist")
    with pytest.raises(RulesError) as err:
        wb.rounds_to_kill(a, t, objective="optimal", simulate=False, plan="Longsword")
    assert err.value.field == "plan"
    with pytest.raises(RulesError) as err:
        solve_policy(np.array([[0.0, 1.0]]), (300_000,), ["x"])
    assert err.value.field == "target"
    with pytest.raises(RulesError, match="objective='optimal'") as err:
        wb.compare([a], [t], objective="optimal", progress=False)
    assert err.value.field == "objective"
