"""Builders shared by the Glass Empires rule tests: the system, its catalog, a sword duel and
P(damage).
"""

from __future__ import annotations

import polars as pl

import workbench as wb

GE = wb.system("glass_empires")

CAT = GE.catalog()


def sword_pair(**target_kw):
    sword = GE.Attack("Sword", category="medium_melee")
    attacker = GE.Creature("Swordsman", power=3, weapons=[sword])
    target = GE.Creature("Target", **{"power": 3, **target_kw})
    return sword, attacker, target


def p_damage(table, value):
    return table.filter(pl.col("damage") == value)["probability"].sum()
