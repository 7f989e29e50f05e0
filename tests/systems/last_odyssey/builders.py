"""Helpers shared by the Last Odyssey rule tests: outcome tables by hit die and probabilities of a
table.
"""

from __future__ import annotations

import polars as pl

import workbench as wb

LO = wb.system("last_odyssey")
C, A, S, O, Shell = LO.Creature, LO.Attack, LO.Situation, LO.Options, None
from workbench.systems.last_odyssey import Shell  # noqa: E402


def by_die(attack, attacker, target, options=None, situation=None):
    """Return {die: (hit, damage, status)} from the multi-target table of one target."""
    t = LO.multi_target_outcomes(attack, attacker, [target], options, situation, by_die=True)
    return {r["die"]: (r["hit_0"], r["damage_0"], r["status_0"]) for r in t.iter_rows(named=True)}


def p(table: pl.DataFrame, **where) -> float:
    """Return the total probability of the rows matching ``where``."""
    expr = pl.lit(True)
    for k, v in where.items():
        expr = expr & (pl.col(k) == v)
    return table.filter(expr)["probability"].sum()
