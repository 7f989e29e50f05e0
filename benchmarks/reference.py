"""The reference scenario (benchmarks/README.md), built four ways: workbench, icepool, dyce, tight numpy.

4 attacks per turn, each with advantage, +7 vs AC 16, natural 1 misses, 19-20 threatens and
crits without confirmation (a crit rolls 2d6+3 twice: 4d6+6), other hits 2d6+3; 150 HP.
Each builder starts from nothing (fresh dice) so no cache carries over between timings; the peers
are written as their docs write them (the hit and crit dice built once, then mapped over the
advantage d20), and the numpy version is the limit (mixture of convolved pmfs, np.convolve powers,
the plain chain).
"""

from __future__ import annotations

BONUS, AC, THREAT, HP, ATTACKS = 7, 16, 19, 150, 4


# ------------------------------------------------------------------ workbench
def wb_attack():
    from workbench import Dist

    d20 = Dist.highest(Dist.die(20), 2)
    p_crit = d20.sf(THREAT)  # 19-20 always hit here (19 + 7 >= 16), so every threat crits
    p_hit = d20.sf(max(AC - BONUS, 2)) - p_crit  # a natural 1 misses whatever the bonus
    hit = Dist.dice(2, 6) + 3
    crit = Dist.dice(4, 6) + 6
    return Dist.mixture([Dist.constant(0), hit, crit], [1 - p_hit - p_crit, p_hit, p_crit])


def wb_turn():
    return ATTACKS @ wb_attack()


def wb_rounds():
    import numpy as np

    from workbench.chains import kill_chains

    turn = wb_turn()
    return float(kill_chains(np.concatenate((np.zeros(turn.offset), turn.pmf)), np.array([HP])).mean[0])


# ------------------------------------------------------------------ icepool (as its docs write it)
def ice_attack():
    import icepool

    d6 = icepool.Die(range(1, 7))  # fresh dice each call: no cache carries over between repeats
    hit, crit = 2 @ d6 + 3, 4 @ d6 + 6  # built once, not per d20 face
    d20 = icepool.Die(range(1, 21)).highest(2)  # advantage
    return d20.map(lambda roll: crit if roll >= THREAT else hit if roll != 1 and roll + BONUS >= AC else 0)


def ice_turn():
    return ATTACKS @ ice_attack()


def ice_rounds():
    return ice_turn().mean_time_to_sum(HP)


# ------------------------------------------------------------------ dyce (as its docs write it)
def dyce_attack():
    from dyce import H, P
    from dyce.evaluation import expand

    d6 = H(6)
    hit, crit = 2 @ d6 + 3, 4 @ d6 + 6  # built once, not per d20 face
    d20 = P(H(20), H(20)).at(-1)  # advantage: the highest of two d20

    def outcome(result):
        roll = result.outcome
        return crit if roll >= THREAT else hit if roll != 1 and roll + BONUS >= AC else H({0: 1})

    return expand(outcome, d20)


def dyce_turn():
    return ATTACKS @ dyce_attack()


def dyce_rounds(tail: float = 1e-16):
    """dyce has no time-to-sum: the same absorbing chain, run on its histograms, to a 1e-16 tail."""
    from fractions import Fraction

    from dyce import H

    turn = dyce_turn()
    alive, mean, mass = H({0: 1}), 0.0, Fraction(1)
    while mass > tail:
        mean += float(mass)
        step = alive + turn
        alive = H({k: v for k, v in step.items() if k < HP})
        mass = mass * Fraction(alive.total, step.total) if alive.total else Fraction(0)
    return mean


# ------------------------------------------------------------------ tight numpy float64 (the limit)
def np_attack():
    """The attack's pmf from damage 0: a mixture of convolved d6 pmfs."""
    import numpy as np

    f = np.arange(1, 21)
    adv = (f * f - (f - 1) * (f - 1)) / 400.0  # the highest of two d20
    p_crit = adv[THREAT - 1 :].sum()
    p_hit = adv[max(AC - BONUS, 2) - 1 : THREAT - 1].sum()
    d6 = np.full(6, 1 / 6)
    two = np.convolve(d6, d6)  # 2..12
    four = np.convolve(two, two)  # 4..24
    out = np.zeros(31)
    out[0] = 1.0 - p_hit - p_crit
    out[5:16] += p_hit * two  # 2d6 + 3
    out[10:31] += p_crit * four  # 4d6 + 6
    return out


def np_turn():
    import numpy as np

    a = np_attack()
    a2 = np.convolve(a, a)
    return np.convolve(a2, a2)


def np_rounds(tail: float = 1e-16):
    """E[T] = sum_t P(T > t) by the plain chain: convolve the alive mass, cut at HP."""
    import numpy as np

    x = np_turn()
    alive = np.zeros(HP)
    alive[0] = 1.0
    mean, mass = 0.0, 1.0
    while mass >= tail:
        mean += mass
        alive = np.convolve(alive, x)[:HP]
        mass = alive.sum()
    return mean
