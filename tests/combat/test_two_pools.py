"""Annulus two-pool exact chain (annulus-attacks.txt: Endurance first, then Vitality; Vital strikes
go straight to Vitality) against an independent recursive oracle, and the automatic choice."""

from __future__ import annotations

import importlib

from fractions import Fraction
from functools import lru_cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import workbench as wb
from workbench import RulesError
from workbench.chains import kill_chains
from workbench.simulate import state_effects

A = wb.system("annulus")


def two_pool_alive_chain(joint, E, V, max_rounds=10_000):
    """P(alive after t turns) by round (t = 0..), as one column: the kernel's two-pool chain."""
    c = kill_chains(np.asarray(joint, float)[None], np.array([[E, V]]), np.zeros(1, dtype=np.int64), channels=2,
                    max_rounds=max_rounds)
    return np.concatenate(([1.0], 1.0 - np.cumsum(c.killed[0])))[:, None]

joints = st.lists(st.lists(st.integers(0, 4), min_size=1, max_size=3), min_size=1, max_size=4).map(
    lambda rows: [r + [0] * (3 - len(r)) for r in rows]).filter(lambda w: sum(map(sum, w)) - w[0][0] > 0)


def pools_oracle(w, E, V, rounds):
    """P(alive after t turns), t = 0..rounds, by recursion over (Endurance left, Vitality left) with Fractions."""
    total = sum(map(sum, w))
    outcomes = [(r, v, Fraction(q, total)) for r, row in enumerate(w) for v, q in enumerate(row) if q]

    @lru_cache(maxsize=None)
    def alive(e, vit, t):
        if vit <= 0:
            return Fraction(0)
        if t == 0:
            return Fraction(1)
        out = Fraction(0)
        for r, v, p in outcomes:
            soak = min(e, r)  # Endurance takes regular damage first, the rest goes to Vitality
            out += p * alive(e - soak, vit - (r - soak) - v, t - 1)
        return out

    return [alive(E, V, t) for t in range(rounds + 1)]


@settings(max_examples=60, deadline=None)
@given(joints, st.integers(0, 6), st.integers(1, 4))
def test_two_pool_chain_matches_recursive_oracle(w, E, V):
    joint = np.array(w, float) / sum(map(sum, w))
    rows = two_pool_alive_chain(joint, E, V, max_rounds=12)
    oracle = pools_oracle(tuple(map(tuple, w)), E, V, min(12, len(rows) - 1))
    for t, p in enumerate(oracle):
        assert abs(rows[t].sum() - float(p)) < 1e-12


def test_two_pool_hand_worked():
    """E = 3, V = 2; each turn deals 2 regular damage (p 1/2) or 1 vital damage (p 1/2).
    Killed in turn 1: never. In turn 2: vital + vital (1/4) -> P(T <= 2) = 1/4; 2 regular + 2 regular
    leaves V = 1 (3 soaked, 1 to Vitality)."""
    joint = np.array([[0, 0.5], [0, 0], [0.5, 0]])
    rows = two_pool_alive_chain(joint, 3, 2, max_rounds=4)
    assert rows[1].sum() == pytest.approx(1.0, abs=1e-15)
    assert rows[2].sum() == pytest.approx(0.75, abs=1e-15)
    # turn 3 survivors: R = 6 kills (3 soaked, 3 > V); R=4,V=1 kills (1 + 1); R=2, V=2 kills -> only none
    assert rows[3].sum() == pytest.approx(0.0, abs=1e-15)


def test_two_pool_rejects_bad_input():
    with pytest.raises(RulesError) as err:
        kill_chains(np.array([[[0.5, 0.5]]]), np.array([[3, 0]]), channels=2)
    assert err.value.field == "pools"
    with pytest.raises(RulesError) as err:
        kill_chains(np.array([[[0.5, 0.6]]]), np.array([[3, 2]]), channels=2)
    assert err.value.field == "turns"


def _creature(name, sets, endurance=6, vitality=3, **kw):
    return A.Creature(name, level=vitality, endurance=endurance, vitality=vitality, agility=kw.pop("agility", 1),
                      toughness=1, insight=1, attack_sets=sets, **kw)


def plan_joint(system, attacker, target, plan):
    """The joint (regular, vital) pmf of one turn of ``plan``: the 1 x 1 turn table."""
    return system.turn_tables([(attacker, target)], plans=[plan]).pmf[0]


VITAL = A.Attack("Stab", "agility", {"Vital": 1, "Critical": 1})
PLAIN = A.Attack("Punch", "agility", {})


def test_plan_joint_marginal_is_plan_damage():
    a, b = _creature("A", [VITAL, PLAIN]), _creature("B", [PLAIN])
    for plan in ([VITAL, VITAL], [VITAL, PLAIN], [PLAIN]):
        joint = plan_joint(A, a, b, plan)
        total = np.zeros(joint.shape[0] + joint.shape[1] - 1)
        for r in range(joint.shape[0]):
            total[r: r + joint.shape[1]] += joint[r]
        d = A.plan_damage(a, b, plan)
        ref = np.zeros(total.size)
        ref[d.offset: d.offset + d.pmf.size] = d.pmf
        assert np.allclose(total, ref, atol=1e-12, rtol=0)


def test_vital_strike_goes_straight_to_vitality():
    """annulus-attacks.txt: Vital "ignores Endurance". Against E = 20, V = 1 a single strike kills
    in round 1 only through a Vital 12 on the Trigger Die that deals damage: P = P(damage >= 1) / 12."""
    a = _creature("A", [A.Attack("Stab", "agility", {"Vital": 1, "Charged": 1})])
    b = _creature("B", [PLAIN], endurance=20, vitality=1, agility=1)
    frame = wb.rounds_to_kill(a, b)
    assert frame["exact"][0]
    t = A.outcome_tables([a.attack_sets[0]], [a], [b])
    p_hit = float(t.filter(t["damage"] >= 1)["probability"].sum())
    # Charged rolls the Trigger Die twice, keep the higher: P(12) = 1 - (11/12)^2
    assert frame["p_killed_by"][0] == pytest.approx(p_hit * (1 - (11 / 12) ** 2), abs=1e-12)
    hp_only = wb.rounds_to_kill(wb.turn_damage(a, b), hp=21)
    assert hp_only["p_killed_by"][0] < 1e-12 < frame["p_killed_by"][0]


def test_rounds_to_kill_for_annulus_uses_the_two_pool_chain():
    a, b = _creature("A", [VITAL]), _creature("B", [PLAIN])
    by = wb.rounds_to_kill(a, b, max_rounds=30, simulate=False)["p_killed_by"].to_numpy()
    joint = plan_joint(A, a, b, [VITAL, VITAL])
    ref = 1.0 - two_pool_alive_chain(joint, b.endurance, b.vitality, 30)[1:, 0]
    assert np.allclose(by, ref[: by.size], atol=1e-15)


def test_automatic_choice_reports_exact_or_simulated(monkeypatch):
    a, b = _creature("A", [VITAL]), _creature("B", [PLAIN])
    assert state_effects(a, b) == set()
    assert wb.duel(a, b).exact
    burner = _creature("C", [A.Attack("Torch", "agility", {"Burn": 1})])
    assert "burn" in state_effects(burner, b)
    r = wb.duel(burner, b, fights=2000)  # the duel over both sides' state (derived from annulus/round.py)
    assert r.exact and r.fights is None and r.forced_by == ()
    monkeypatch.setattr(importlib.import_module("workbench.fight.duel"), "MAX_CELLS", 0)
    r = wb.duel(burner, b, fights=2000)  # past its bound: simulated, and it says why
    assert not r.exact and r.fights == 2000 and r.standard_error > 0 and r.forced_by == ("burn",)
    # rounds to kill: exact over the fight's state (annulus/round.py, derived by workbench/fight/chain.py), simulated when forced
    frame = wb.rounds_to_kill(burner, b, fights=2000)
    assert frame["exact"][0] and frame["fights"][0] is None
    frame = wb.rounds_to_kill(burner, b, fights=2000, simulate=True)
    assert not frame["exact"][0] and frame["fights"][0] == 2000
    assert wb.duel(burner, b, simulate=False).exact
    with pytest.raises(RulesError) as err:
        wb.duel(a, b, simulate="yes")
    assert err.value.field == "simulate"


def test_clueless_target_makes_the_simulation_run():
    a = _creature("A", [PLAIN])
    b = _creature("B", [PLAIN], awareness="clueless")
    assert state_effects(a, b) == {"awareness"}


def test_triggers_that_cannot_land_do_not_force_simulation():
    """annulus-attacks.txt: "a triggered effect is only applied when you manage to deal at least one
    point of damage" -- the Wolf's Bite never gets through the Ogre's Toughness, so its Choke is moot
    and the fight stays exact; against a Rat it can land, so the Choke carries state."""
    import workbench as wb
    from workbench.simulate import state_effects

    cat = wb.system("annulus").catalog()
    wolf, ogre, rat = cat.creature("Wolf"), cat.creature("Ogre"), cat.creature("Rat")
    bite = wolf.attack_sets[0]
    assert wb.damage(bite, wolf, ogre).max() == 0
    assert "choke" not in state_effects(wolf, ogre)
    assert wb.damage(bite, wolf, rat).max() > 0 and "choke" in state_effects(wolf, rat)
