"""Builders shared by the Annulus rule tests: creatures, attack sets and the mean damage of one use.

Baseline: 4 dice succeeding on 4+ (p = 1/2): P(k successes) = 1, 4, 6, 4, 1 out of 16.
"""

from __future__ import annotations

from fractions import Fraction as F

import workbench as wb

A = wb.system("annulus")

B4 = [F(1, 16), F(4, 16), F(6, 16), F(4, 16), F(1, 16)]


def mk(name="C", size=5, ag=0, to=0, ins=0, awareness="alert", level=6, endurance=6, **kw):
    return A.Creature(name, size=size, level=level, endurance=endurance, agility=ag, toughness=to, insight=ins,
                      awareness=awareness, **kw)


def atk(*ups, defense="agility", **kw):
    return A.Attack("Test", defense, {u: 1 for u in ups} if not kw.get("ranks") else kw["ranks"],
                    counter_type=kw.get("counter_type"))


ME, THEM = mk("Me"), mk("Them")


def mean(attack, attacker=ME, target=THEM, **sit):
    return A.damage(attack, attacker, target, situation=A.Situation(**sit)).mean()


def pool_mean(n):  # mean successes of n dice at p = 1/2 (defense 0)
    return n / 2


def close(a, b):
    return abs(float(a) - float(b)) < 1e-12
