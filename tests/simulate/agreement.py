"""Helpers shared by the simulation tests: the mean rounds and standard error of a simulated
P(T <= t), and Annulus creatures with given pools, defenses and attack sets.
"""

from __future__ import annotations

import numpy as np

import workbench as wb

A = wb.system("annulus")


def _mean_and_se(by: np.ndarray, fights: int) -> tuple[float, float]:
    """Mean rounds from P(T <= t) and its standard error from the distribution's spread."""
    at = np.diff(by, prepend=0.0)
    t = np.arange(1, by.size + 1)
    m = float((t * at).sum())
    var = float((t * t * at).sum()) - m * m
    return m, (var / fights) ** 0.5


def _annulus(name, sets, endurance=6, vitality=3, defense=1, **kw):
    return A.Creature(name, level=vitality, endurance=endurance, vitality=vitality, agility=defense,
                      toughness=defense, insight=defense, attack_sets=sets, **kw)
