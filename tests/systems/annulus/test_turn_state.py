"""Annulus effects that hold for one use, composed use by use in a turn (pools.py) and in the
simulation (simulation.py): First Blood, assassination, a Setup and a Killing Spree given as the
situation (annulus-attacks.txt; CLARIFICATIONS.md, Annulus, "State across uses").

Baseline: 4 dice succeeding on 4+ (p = 1/2): P(k successes) = 1, 4, 6, 4, 1 out of 16; a pool of n
dice has mean n/2 against defense 0.
"""

from __future__ import annotations

from fractions import Fraction as F
from math import comb

import workbench as wb
from tests.systems.annulus.builders import A, close, mk
from workbench.simulate import simulate_rounds_to_kill

N = 20_000


def _two(*ups, **target):
    s = A.Attack("S", "agility", {u: 1 for u in ups})
    return mk("Me", attack_sets=[s]), mk("Them", **target)


def _sf(n, k):  # P(Bin(n, 1/2) >= k)
    return F(sum(comb(n, j) for j in range(k, n + 1)), 2**n)


def test_first_blood_only_while_undamaged():
    """First Blood: "an advantage on the attack check when targeting a creature that is completely
    undamaged". First use 5 dice: 2.5; the second has the advantage only if the first dealt 0 (1/32):
    1/32 * 2.5 + 31/32 * 2 = 2 + 1/64; turn 4.515625 (before: 5.0)."""
    me, them = _two("First Blood")
    assert close(wb.turn_damage(me, them).mean(), F(289, 64))
    # a damaged target: no advantage at all, 2 + 2
    assert close(wb.turn_damage(me, them, situation=A.Situation(target_undamaged=False)).mean(), 4)


def test_only_the_first_strike_on_a_clueless_target_assassinates():
    """Stealth: "Creatures that are successfully targeted by an attack ... will immediately become
    Alert". Two Punches on a Clueless target: 2 + 4 * 15/16 = 5.75, then 2 against an Alert target:
    7.75 (before: 11.5)."""
    me, them = _two(awareness="clueless")
    assert close(wb.turn_damage(me, them).mean(), F(31, 4))


def test_a_setup_given_as_the_situation_is_for_the_first_use():
    """Setup: "The single next attack against a Setuped target gains an advantage on the check and
    removes the Setup sting": 5 dice then 4, 2.5 + 2 = 4.5 (before: 5)."""
    me, them = _two()
    assert close(wb.turn_damage(me, them, situation=A.Situation(target_setup=True)).mean(), F(9, 2))


def test_killing_spree_after_a_kill_is_for_the_next_use():
    """Killing Spree: "you gain +2 additional automatic successes the single next time you use the
    attack": 2 + 2 then 2: 6 (before: 8)."""
    me, them = _two("Killing Spree")
    assert close(wb.turn_damage(me, them, situation=A.Situation(after_kill=True)).mean(), 6)


def test_the_simulation_gives_the_first_use_only_too():
    """The simulation agrees (4 standard errors of N fights): P(a 9-HP target, Endurance 6 + Vitality 3,
    dies in round 1) = P(the turn deals >= 9). Killing Spree after a kill: X1 + 2 + X2 >= 9 with X1 + X2
    ~ Bin(8): P(Bin(8) >= 7) = 9/256 (both uses +2: P(Bin(8) >= 5) = 93/256). A situation's Setup on an
    8-HP target (Endurance 5): 5 dice then 4, P(Bin(9) >= 8) = 10/512 (both: P(Bin(10) >= 8) = 56/1024).
    A Clueless 10-HP target (Endurance 7), two Punches, the first +4 when it deals >= 1: P(X1 >= 1 and
    X1 + 4 + X2 >= 10) = P(X1 + X2 >= 6) = P(Bin(8) >= 6) = 37/256 (with X1 = 0, X1 + X2 <= 4 anyway);
    both +4 would kill whenever X1 + X2 >= 2 with both >= 1, far more often."""
    cases = [
        (("Killing Spree",), {}, A.Situation(after_kill=True), _sf(8, 7)),
        ((), {"endurance": 5}, A.Situation(target_setup=True), _sf(9, 8)),
        ((), {"endurance": 7, "awareness": "clueless"}, None, _sf(8, 6)),
    ]
    for ups, target, sit, want in cases:
        me, them = _two(*ups, level=3, **target)
        exact = wb.turn_damage(me, them, situation=sit)
        assert close(1 - exact.cdf(them.endurance + them.vitality - 1), want)
        by = simulate_rounds_to_kill(me, them, situation=sit, fights=N, seed=5)
        se = (float(want) * (1 - float(want)) / N) ** 0.5
        assert abs(by[0] - float(want)) < 4 * se, (ups, by[0], float(want))
