"""Annulus assassination, hand-worked: the awareness bonus, Assassin ranks, petrified targets and
Demolitions (annulus-attacks.txt; CLARIFICATIONS.md, Annulus).

Baseline: 4 dice succeeding on 4+ (p = 1/2): P(k successes) = 1, 4, 6, 4, 1 out of 16.
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest

import workbench as wb
from tests.systems.annulus.builders import ME, THEM, A, atk, close, mean, mk


@pytest.mark.parametrize("awareness,bonus", [("clueless", 4), ("suspicious", 2), ("alert", 0)])
def test_assassination_bonus(awareness, bonus):
    """annulus-attacks.txt: "Clueless ... deal at least one point of damage ... +4 bonus damage ...
    Suspicious ... +2": E = 2 + P(>= 1 success) * bonus = 2 + 15/16 * bonus."""
    assert close(mean(atk(), target=mk(awareness=awareness)), 2 + F(15, 16) * bonus)


def test_assassination_needs_damage_on_its_own():
    """annulus-attacks.txt: "don't manage to deal any damage on your own, then you don't get to add
    the bonus": vs defense 4 a clueless target still takes 0."""
    assert mean(atk(), target=mk(ag=4, awareness="clueless")) == 0


def test_petrified_counts_as_clueless_for_demolitions():
    """CLARIFICATIONS step 4: "a Petrified target counts as Clueless for an attack with Demolitions"
    (annulus-attacks.txt: "All attacks against a petrified subject are considered assassinations if
    they successfully get through the creature's defenses"): E = 2 + 15/16 * 4."""
    assert close(mean(atk("Demolitions"), target_petrified=True), 2 + F(15, 16) * 4)


def test_petrified_is_immune_without_demolitions():
    """Petrify: "While petrified, the creature is immune to all attacks that don't have the required
    Demolitions upgrade" (CLARIFICATIONS step 4: "is immune to any other"): every use deals 0 and
    triggers nothing, though it is still used (Reckless still costs its 1 self-damage). The same set
    on a stone-free target: 2 + 15/16 * 0 = 2 (alert)."""
    plain = atk("Reckless", "Burn")
    t = A.outcomes(plain, ME, THEM, situation=A.Situation(target_petrified=True))
    assert t["damage"].max() == 0 and not t["burn"].any() and t["self_damage"].to_list() == [1]
    assert not t["rerolled"].any()
    assert mean(atk("Reroll"), target_petrified=True) == 0
    # the per-turn result: two uses of a one-action set, both 0
    assert wb.turn_damage(ME.replace(attack_sets=[atk()]), THEM, situation=A.Situation(target_petrified=True)).max() == 0
    assert close(mean(atk()), 2)


@pytest.mark.parametrize("ranks,clueless,suspicious", [(1, 6, 3), (2, 8, 4)])
def test_assassin_ranks(ranks, clueless, suspicious):
    """annulus-attacks.txt Assassin: "+2 bonus damage ... Clueless (+1 ... Suspicious) ... can be
    taken multiple times"."""
    a = A.Attack("Stab", "agility", {"Assassin": ranks})
    assert close(mean(a, target=mk(awareness="clueless")), 2 + F(15, 16) * clueless)
    assert close(mean(a, target=mk(awareness="suspicious")), 2 + F(15, 16) * suspicious)
    assert close(mean(a, target=mk(awareness="alert")), 2)


def test_situation_awareness_overrides_target():
    """Situation.target_awareness replaces the creature's own awareness state."""
    assert close(mean(atk(), target=mk(awareness="alert"), target_awareness="clueless"), 2 + F(15, 16) * 4)
