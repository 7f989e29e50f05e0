"""The DESIGN.md reference scenario, built three ways: workbench Dist, icepool, dyce.

4 attacks per turn, each with advantage, +7 vs AC 16, natural 1 misses, 19-20 threatens and
crits without confirmation (a crit rolls 2d6+3 twice: 4d6+6), other hits 2d6+3; 150 HP.
Each builder starts from nothing (fresh dice) so no cache carries over between timings.
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
    from workbench import mean_rounds_to_kill

    return mean_rounds_to_kill(wb_turn(), HP)


# ------------------------------------------------------------------ icepool
def _ice_outcome(roll: int):
    import icepool

    if roll >= THREAT:
        return 4 @ icepool.Die(range(1, 7)) + 6
    if roll != 1 and roll + BONUS >= AC:
        return 2 @ icepool.Die(range(1, 7)) + 3
    return 0


def ice_attack():
    import icepool

    d20 = icepool.Die(range(1, 21)).highest(2)
    return d20.map(_ice_outcome)


def ice_turn():
    return ATTACKS @ ice_attack()


def ice_rounds():
    return ice_turn().mean_time_to_sum(HP)


# ------------------------------------------------------------------ dyce
def _dyce_outcome(result):
    from dyce import H

    roll = result.outcome
    if roll >= THREAT:
        return 4 @ H(6) + 6
    if roll != 1 and roll + BONUS >= AC:
        return 2 @ H(6) + 3
    return 0


def dyce_attack():
    from dyce import H, P
    from dyce.evaluation import expand

    return expand(_dyce_outcome, P(H(20), H(20)).at(-1))


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
