"""Annulus combat hooks: plan damage (one reroll per round), plan rules, turn plans, usability per
matchup and the wb.* dispatch (annulus-attacks.txt; CLARIFICATIONS.md, Annulus).

Baseline: 4 dice succeeding on 4+ (p = 1/2): P(k successes) = 1, 4, 6, 4, 1 out of 16.
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest

import workbench as wb
from tests.systems.annulus.builders import A, atk, close, mk
from workbench import RulesError


def test_combat_hooks():
    """hit_points = Endurance + Vitality (Endurance first, then Vitality); 2 actions per turn."""
    c = mk(level=4, endurance=7)
    assert A.hit_points(c) == 11 and A.actions_per_turn(c) == 2
    g = A.catalog().creature("Hill Giant")
    assert [a.name for a in A.attacks_of(g)] == ["Crushing Blow", "Tail Sweep", "Maw"]


def test_plan_damage_rerolls_once_per_round():
    """Reroll: "You cannot reroll more than one attack check per round": two Reroll uses vs defense 2,
    P(total 0) = (11/16 * 7/8) * 11/16, not (77/128)^2."""
    r = atk("Reroll")
    me = mk(attack_sets=[r])
    d = A.plan_damage(me, mk(ag=2), ["Test", "Test"])
    assert close(d.probability(0), F(77, 128) * F(11, 16))
    # first use 59/128; second: 6/16 if the reroll was spent (11/16), else 59/128 again
    assert close(d.mean(), F(59, 128) + F(11, 16) * F(6, 16) + F(5, 16) * F(59, 128))
    one = A.damage(r, me, mk(ag=2))
    assert d.mean() < 2 * one.mean()


def test_plan_damage_mean_is_sum_without_reroll():
    """Without a Reroll the uses of a turn are independent given their states; the Suspicious Town
    Guard becomes Alert after the first (annulus-attacks.txt: "Creatures that are successfully
    targeted by an attack ... will immediately become Alert"), so only the first Bite assassinates."""
    c = A.catalog()
    wolf, guard = c.creature("Wolf"), c.creature("Town Guard")
    d = A.plan_damage(wolf, guard, ["Bite", "Bite"])
    alert = A.damage(c.attack("Bite"), wolf, guard.replace(awareness="alert")).mean()
    # Bite (toughness) vs Toughness 2 on 4 dice: 3 successes (4/16) -> 1, 4 (1/16) -> 2: 6/16 Alert;
    # Suspicious: +2 when it hits (5/16): 6/16 + 10/16 = 1
    assert close(alert, F(6, 16))
    assert close(A.damage(c.attack("Bite"), wolf, guard).mean(), 1)
    assert close(d.mean(), 1 + F(6, 16))


def test_plan_rules():
    c = A.catalog()
    ogre, drake = c.creature("Ogre"), c.creature("Drake")
    with pytest.raises(RulesError, match="actions"):
        A.plan_damage(ogre, drake, ["Crushing Blow", "Punch"])
    with pytest.raises(RulesError, match="recharge"):
        A.plan_damage(drake, ogre, ["Tail Sweep", "Tail Sweep"])
    with pytest.raises(RulesError, match="no attack set"):
        A.plan_damage(ogre, drake, ["Fire Breath"])


def test_turn_plans():
    """Each legal full turn: 1-action sets in pairs, 2-action sets alone, area sets at most once; Maw has
    First Blood, so both orders of Tail Sweep and Maw are turns of their own (test_plan_orders.py)."""
    c = A.catalog()
    plans = A.turn_plans(c.creature("Hill Giant"), c.creature("Ogre"))
    assert set(plans) == {"Tail Sweep + Maw", "Maw + Tail Sweep", "Maw + Maw", "Crushing Blow"}
    for d in plans.values():
        assert abs(d.pmf.sum() - 1) < 1e-12
    # Berserker: Death Rattle (Swansong) is unusable at full Vitality, so it is left out
    assert set(A.turn_plans(c.creature("Berserker"), c.creature("Ogre"))) == {"Frenzy"}
    low = A.Situation(attacker_vitality=3)
    # at low Vitality the free Swansong set may be used or declined (a free attack is a choice)
    assert list(A.turn_plans(c.creature("Berserker"), c.creature("Ogre"), situation=low)) == \
        ["Death Rattle + Frenzy", "Frenzy"]


def test_wb_dispatch():
    c = A.catalog()
    t = wb.outcomes(c.attack("Claw"), c.creature("Wolf"), c.creature("Rat"))
    assert abs(t["probability"].sum() - 1) < 1e-12
    assert {"damage", "vitality_damage", "self_damage", "crit", "burn", "choke", "vital"} <= set(t.columns)


def test_usability_is_data_per_matchup():
    """CLARIFICATIONS, Annulus, order of resolution step 1 (usable?): a Gaze set needs mutual sight,
    a Range 2 set reaches 10-20 m only; ``usability`` says so per matchup (None: usable) in one
    pass, with the same field and rule that ``outcome_tables`` raises."""
    me = A.Creature("me", level=1, endurance=1, agility=0, toughness=0, insight=0)
    gaze, far, plain = (A.Attack("G", "insight", {"Gaze": 1}), A.Attack("R", "agility", {"Range": 2}),
                        A.Attack("P", "agility"))
    sits = [A.Situation(concealment="partial"), A.Situation(distance=1), A.Situation(distance=1)]
    why = A.usability([gaze, far, plain], [me] * 3, [me] * 3, None, sits)
    assert why[0].field == "mutual_sight" and why[1].field == "distance" and why[2] is None
    for i in (0, 1):
        with pytest.raises(RulesError) as err:
            A.outcome_tables([[gaze, far][i]], [me], [me], None, [sits[i]])
        assert err.value.field == why[i].field and err.value.rule == why[i].rule
