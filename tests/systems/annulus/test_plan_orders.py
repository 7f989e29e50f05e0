"""Annulus turn plans: every legal turn is offered, in every order whose turn can differ
(annulus-attacks.txt; CLARIFICATIONS.md, Annulus, "State across uses").

Baseline: 4 dice succeeding on 4+ (p = 1/2): P(k successes) = 1, 4, 6, 4, 1 out of 16; a pool of n
dice has mean n/2 against defense 0.
"""

from __future__ import annotations

from fractions import Fraction as F

import workbench as wb
from tests.systems.annulus.builders import A, close, mk


def test_a_telegraphed_set_alone_is_a_full_turn():
    """Telegraphed: "You may only telegraph a single attack per round" and "You gain +2 advantages on
    the attack check": a creature whose only one-action set is Telegraphed spends its turn on one use,
    6 dice against defense 0, mean 3 (before: no plan, turn_damage raised)."""
    me = mk(attack_sets=[A.Attack("Tell", "agility", {"Telegraphed": 1})])
    assert list(A.turn_plans(me, mk())) == ["Tell"]
    assert close(wb.turn_damage(me, mk()).mean(), 3)


def test_both_orders_of_a_first_blood_pair_are_offered():
    """First Blood: "an advantage on the attack check when targeting a creature that is completely
    undamaged". Maw (First Blood) first: 5 dice, 2.5, then Sweep 2: 4.5. Sweep first: 2, then Maw has
    its advantage only if the Sweep dealt 0 (1/16): 1/16 * 2.5 + 15/16 * 2 = 2 + 1/32; total 4 + 1/32.
    Before, only "Sweep + Maw" was offered and Maw lost its First Blood."""
    sweep = A.Attack("Sweep", "agility", {"Arc": 1})
    maw = A.Attack("Maw", "agility", {"First Blood": 1})
    me = mk(attack_sets=[sweep, maw])
    plans = A.turn_plans(me, mk())
    assert {"Sweep + Maw", "Maw + Sweep"} <= set(plans)
    assert close(plans["Maw + Sweep"].mean(), F(9, 2))
    assert close(plans["Sweep + Maw"].mean(), 4 + F(1, 32))
    # the best turn is Maw twice: 2.5, then 5 dice only if the first dealt 0 (1/32): 2 + 1/64; 4 + 33/64
    assert close(wb.turn_damage(me, mk()).mean(), 4 + F(33, 64))


def test_order_matters_only_where_a_use_can_differ():
    """Two sets that read no state (no First Blood, Reroll, Killing Spree) meet an Alert target the
    same way in either order: one order is offered. Against a Clueless target the first use is the
    assassination ("Creatures that are successfully targeted by an attack ... will immediately become
    Alert"), so both orders are offered: Sweep (Reckless 1: +1 success) first: 4 dice + 1 = 3, +4 when
    it deals >= 1 (always: >= 1 success) = 7, then Punch 2: 9; Punch first: 2 + 4 * 15/16 = 5.75,
    then Sweep 3: 8.75."""
    sweep = A.Attack("Sweep", "agility", {"Arc": 1, "Reckless": 1})
    punch = A.Attack("Punch", "agility", {})
    me = mk(attack_sets=[punch, sweep])
    assert list(A.turn_plans(me, mk())) == ["Punch + Punch", "Punch + Sweep"]
    plans = A.turn_plans(me, mk(awareness="clueless"))
    assert set(plans) == {"Punch + Punch", "Punch + Sweep", "Sweep + Punch"}
    assert close(plans["Sweep + Punch"].mean(), 9)
    assert close(plans["Punch + Sweep"].mean(), F(35, 4))


def test_storm_priest_attacks_while_grave_pulse_recharges():
    """Area sets "must recharge like boons do ... cannot be used again immediately": while Grave Pulse
    is uncharged the Storm Priest's legal turn is Thunderclap alone (Soothing Word cannot reach 1 m), and
    it wins its duel against the Wolf about 96.6 % of the time (62.8 % when it idled)."""
    c = A.catalog()
    priest, wolf = c.creature("Storm Priest"), c.creature("Wolf")
    without = priest.replace(attack_sets=[a for a in priest.attack_sets if a.name != "Grave Pulse"])
    assert list(A.turn_plans(without, wolf)) == ["Thunderclap"]
    r = wb.duel(priest, wolf, fights=20_000, seed=1)
    assert r.p_a_wins > 0.93


def test_every_order_left_out_has_the_turn_of_one_offered():
    """The orders left out change nothing: for every legal multiset, every permutation's exact turn
    (plan_damage) equals, to 1e-12, the turn of an offered order of the same sets. Sets: First Blood,
    two Reroll sets, Killing Spree, two plain ones, three actions; targets Alert and Clueless, with and
    without a situation's Setup or a kill."""
    from itertools import permutations

    import numpy as np

    sets = [
        A.Attack("FB", "agility", {"First Blood": 1}),
        A.Attack("R1", "agility", {"Reroll": 1}),
        A.Attack("R2", "agility", {"Reroll": 1, "Reckless": 1}),
        A.Attack("KS", "agility", {"Killing Spree": 1}),
        A.Attack("P1", "agility", {}),
        A.Attack("P2", "agility", {"Reckless": 2}),
    ]
    me = mk(attack_sets=sets)
    opts = A.Options(actions=3)
    for target in (mk(ag=1), mk(ag=1, awareness="clueless")):
        for sit in (A.Situation(), A.Situation(target_setup=True), A.Situation(after_kill=True)):
            plans = A.turn_plans(me, target, opts, sit)
            offered: dict[tuple, list] = {}
            for label, d in plans.items():
                offered.setdefault(tuple(sorted(label.split(" + "))), []).append(d)
            perms = [(key, perm) for key in offered for perm in sorted(set(permutations(key)))]
            table = A.turn_tables([(me, target)] * len(perms), opts, sit, plans=[list(p) for _, p in perms])
            for j, (key, perm) in enumerate(perms):
                d = table.dist(j)
                assert any(
                    d.offset == o.offset and d.pmf.size == o.pmf.size and np.abs(d.pmf - o.pmf).max() < 1e-12
                    for o in offered[key]
                ), (perm, sit)
