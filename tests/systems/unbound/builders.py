"""Builders shared by the Unbound rule tests: attackers, targets and P(hit) of one attack."""

import polars as pl

import workbench as wb

U = wb.system("unbound")

Attack, Creature, Options, Situation, Action = U.Attack, U.Creature, U.Options, U.Situation, U.Action


def me(str_mod=0, dex_mod=0, magic_mod=0, rank="untrained", weapons=(), **kw):
    return Creature("A", 30, 10, 10, str_mod, dex_mod, magic_mod, rank, list(weapons), **kw)


def foe(ac=15, touch_ac=10):
    return Creature("T", 30, ac, touch_ac)


def p_hit(attack, attacker, target, options=None, situation=None):
    t = U.outcomes(attack, attacker, target, options, situation)
    return t.filter(pl.col("hit"))["probability"].sum()


def col_p(t, expr):
    return t.filter(expr)["probability"].sum()
