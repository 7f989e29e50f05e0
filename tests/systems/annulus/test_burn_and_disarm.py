"""Annulus Burn in an airless environment and the Disarm condition in the round (annulus/round.py;
annulus-attacks.txt; CLARIFICATIONS.md, Annulus; docs/combat.md, Annulus effects).

Baseline: 4 dice succeeding on 4+ (p = 1/2): P(k successes) = 1, 4, 6, 4, 1 out of 16.
"""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np

from tests.systems.annulus.builders import B4, A, mk
from workbench.fight.draw import Enumerator
from workbench.fight.round import play
from workbench.simulate import simulate_rounds_to_kill, state_effects
from workbench.systems.annulus import Tactics
from workbench.systems.annulus.round import AnnulusRound, set_mask

N = 20_000


def _round_one_kill(burn_lasts: bool) -> F:
    """P(an 8-HP target dies in round 1) of two uses of {Airtight, Burn} vs defense 0: the uses deal
    X1 + X2; a use that deals >= 1 burns on 11+ (1/6); the target's recovery check (3+ of 4 dice,
    5/16) comes first in its turn, then Burn deals Bin(2) at its end."""
    b2 = [F(1, 4), F(1, 2), F(1, 4)]
    total = F(0)
    for x1, p1 in enumerate(B4):
        for x2, p2 in enumerate(B4):
            if x1 + x2 >= 8:
                total += p1 * p2
                continue
            if not burn_lasts:
                continue
            burned = 1 - (1 - F(int(x1 >= 1), 6)) * (1 - F(int(x2 >= 1), 6))
            total += p1 * p2 * burned * F(11, 16) * sum(b2[k] for k in range(3) if x1 + x2 + k >= 8)
    return total


def test_burn_never_holds_in_an_airless_environment():
    """Burn: "If a target with a Burn condition enters water or an airless environment, the condition is
    automatically removed". In an airless fight (an Airtight set: "The attack functions normally in
    airless environments") a Burn set only deals its strikes: P(round-1 kill of 8 HP) = P(Bin(8) = 8) =
    1/256; in air, Burn adds its end-of-turn dice (about 0.0128). Burn is no stateful effect there."""
    s = A.Attack("Flame", "agility", {"Airtight": 1, "Burn": 1})
    me, them = mk("Me", attack_sets=[s]), mk("Them", level=3, endurance=5)
    airless = A.Situation(airless=True)
    assert _round_one_kill(False) == F(1, 256)
    assert "burn" not in state_effects(me, them, situation=airless)
    assert "burn" in state_effects(me, them)
    for sit, burn in ((airless, False), (None, True)):
        want = float(_round_one_kill(burn))
        by = simulate_rounds_to_kill(me, them, situation=sit, fights=N, seed=7)
        assert abs(by[0] - want) < 4 * (want * (1 - want) / N) ** 0.5, (sit, by[0], want)


def _round(target_sets, tactics=None):
    """The turn of a target "T" with ``target_sets`` against "Me" (Endurance 20, a Disarm set) in the
    one Annulus round (annulus/round.py), and both creatures' states at the start (T first)."""
    me = mk("Me", endurance=20, attack_sets=[A.Attack("Knock", "agility", {"Disarm": 1})])
    target = mk("T", attack_sets=target_sets)
    rnd = AnnulusRound(A, target, me, tactics=tactics)
    return rnd, *rnd.start()


def _turn(rnd, t, foe, n):
    """Return (T, its foe, the enumerator) after T's turn in ``n`` fights, every outcome enumerated."""
    draw = Enumerator(n)
    t2, foe2 = play(rnd, t, foe, draw, ("turn",))
    return t2, foe2, draw


def test_disarm_takes_the_weakest_set_and_never_an_inherent_one():
    """Disarm: "The disarmed target chooses one of their attack sets ... A single creature can be under
    the effect of multiple Disarm conditions, so long as each one affects a different attack set ... If
    a targeted creature has one or more attack sets with the Inherent upgrade ... they assign the
    condition to one of their sets that doesn't have it (if any) before ignoring the effect entirely".
    Mean per use vs defense 0: Small 2, Stone (Reckless 1) 3, Big (Reckless 3) 5; Stone is Inherent: the
    order is Small, then Big; a third Disarm is ignored. Three fights: Disarms in fights 0 and 1, then 0,
    then 0 again: fight 0 has lost Small and Big, fight 1 Small, fight 2 nothing."""
    big = A.Attack("Big", "agility", {"Reckless": 3})
    small = A.Attack("Small", "agility", {})
    stone = A.Attack("Stone", "agility", {"Inherent": 1, "Reckless": 1})
    rnd, t, _ = _round([big, small, stone])
    assert [rnd.a.sets[i].name for i in rnd.a.disarm_order] == ["Small", "Big"]
    t = t.tile(3)
    for fights in ([0, 1], [0], [0]):
        t = rnd._disarm(rnd.a, t, np.isin(np.arange(3), fights))
    assert t.disarmed.tolist() == [set_mask([0, 1]), set_mask([1]), 0]


def test_disarm_is_the_state_of_the_creature_that_can_lose_a_set():
    """Disarm takes one of the victim's sets, so it is a stateful effect of the victim's fight: of the
    Town Guard (whose Riposte has Disarm) and the Wolf, the Wolf's fight names it, and a creature whose
    only set is Inherent ("You cannot lose access to the attack via the Disarm condition") does not."""
    c = A.catalog()
    guard, wolf = c.creature("Town Guard"), c.creature("Wolf")
    assert "disarm" in state_effects(wolf, guard)
    assert "disarm" not in state_effects(guard, wolf)
    stone = wolf.replace(attack_sets=[A.Attack("Stone", "agility", {"Inherent": 1})])
    assert "disarm" not in state_effects(stone, guard)


def test_a_disarmed_set_is_not_used():
    """Disarm: "For as long as the condition lasts, they cannot use that set". The target's only set,
    Smash (Reckless 4: at least 4 damage a use vs defense 0), disarmed in fight 0: in every outcome of
    its turn that fight's foe keeps all 20 Endurance, and fight 1's foe loses at least 8 to the two uses."""
    rnd, t, foe = _round([A.Attack("Smash", "agility", {"Reckless": 4})], tactics=Tactics(recover_from=()))
    t, foe = rnd._disarm(rnd.a, t.tile(2), np.array([True, False])), foe.tile(2)
    _, foe, draw = _turn(rnd, t, foe, 2)
    lost = rnd.hp_lost(1, foe)
    assert (lost[draw.origin == 0] == 0).all() and (lost[draw.origin == 1] >= 8).all()


def test_a_recovery_check_frees_a_disarmed_set():
    """Recovery: "A recovery check is made by spending 1 action and rolling 4 dice. Recovery is successful
    (and the condition is removed) if the check has 3 or more successes": a disarmed creature (Tactics
    recover_from disarm) gets its set back in its turn with probability P(Bin(4, 1/2) >= 3) = 5/16."""
    rnd, t, foe = _round([A.Attack("Smash", "agility", {})], tactics=Tactics(recover_from=("disarm",)))
    t = rnd._disarm(rnd.a, t, np.array([True]))
    t, _, draw = _turn(rnd, t, foe, 1)
    freed = draw.weight[t.disarmed == 0].sum()
    assert abs(freed - 5 / 16) < 1e-12
