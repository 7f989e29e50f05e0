"""Last Odyssey strikes: the hit rule and damage per face, die 1 always hits, minimum base damage, the
Multi Attacks worked example (last-odyssey-attacks.txt; CLARIFICATIONS.md, Last Odyssey).
"""

from __future__ import annotations

import polars as pl
import pytest

import workbench as wb
from tests.systems.last_odyssey.builders import LO, A, C, by_die, p
from workbench.systems.last_odyssey import Shell  # noqa: E402


def test_worked_example_multi_attacks_text():
    """last-odyssey-attacks.txt, Multi Attacks: accuracy 3, attack 2, die 5; target 1 (evasion 6,
    defense 1) is missed, target 2 (evasion 2, defense 3) is hit for base damage 4."""
    user = C("Example", 20, physical_accuracy=3, physical_attack=2)
    first = C("First", 20, evasion=6, physical_defense=1, shell=Shell(5))   # Shell: no strike ×2
    second = C("Second", 20, evasion=2, physical_defense=3, shell=Shell(5))
    cleave = A("Cleave", targets="all")
    t = LO.multi_target_outcomes(cleave, user, [first, second], by_die=True)
    row = t.filter(pl.col("die") == 5).row(0, named=True)
    # accuracy result 5 - 3 = 2; 2 + 6 = 8 > 7 misses; 2 + 2 = 4 <= 7 hits; 2 - 3 + 5 = 4
    assert (row["hit_0"], row["damage_0"]) == (False, 0)
    assert (row["hit_1"], row["damage_1"]) == (True, 4)
    assert row["damage"] == 4 and row["targets_hit"] == 1
    # The same targets without a Shell take the strike's double damage: 4 × 2 = 8.
    t2 = LO.multi_target_outcomes(cleave, user, [first.replace(shell=None), second.replace(shell=None)], by_die=True)
    assert t2.filter(pl.col("die") == 5).row(0, named=True)["damage_1"] == 8


def test_strike_hit_rule_and_damage_per_face():
    """Strikes: hit when die − Physical Accuracy + Evasion <= 7; base = PA − PD + die;
    strike against no Shell ×2 (last-odyssey-attacks.txt, Strikes and General Notes)."""
    user = C("U", 10, physical_accuracy=2, physical_attack=5)
    target = C("T", 10, evasion=4, physical_defense=3)
    faces = by_die(A("Hit"), user, target)
    # die − 2 + 4 <= 7  ⇔  die <= 5; base = 5 − 3 + die = 2 + die; ×2
    for d in range(1, 11):
        hit = d <= 5
        assert faces[d] == (hit, 2 * (2 + d) if hit else 0, False)
    table = wb.outcomes(A("Hit"), user, target)
    assert p(table, hit=True) == pytest.approx(0.5, abs=1e-12)
    assert wb.damage(A("Hit"), user, target).mean() == pytest.approx((6 + 8 + 10 + 12 + 14) / 10, abs=1e-12)


def test_die_one_always_hits_strikes_and_spells():
    """General Notes: "a result of 1 will still lead to a hit" even when nothing else can."""
    user = C("U", 10, physical_accuracy=0, magical_accuracy=0, physical_attack=1, magical_attack=1)
    dodgy = C("T", 10, evasion=20, physical_defense=0, magical_defense=0, shell=Shell(3))
    for kind in ("strike", "spell"):
        faces = by_die(A("X", kind=kind), user, dodgy)
        assert faces[1][0] is True and all(not faces[d][0] for d in range(2, 11))
    # strike vs Shell: base 1 − 0 + 1 = 2, no ×2; spell vs Shell: 2 × 2 = 4
    assert by_die(A("X"), user, dodgy)[1][1] == 2
    assert by_die(A("X", kind="spell"), user, dodgy)[1][1] == 4


def test_minimum_base_damage_is_one():
    """General Notes: "The minimum amount of base damage ... is 1": PA 1 vs PD 30."""
    user = C("U", 10, physical_accuracy=10, physical_attack=1)
    wall = C("T", 10, physical_defense=30, shell=Shell(1))
    assert {by_die(A("X"), user, wall)[d][1] for d in range(1, 11)} == {1}
    # without a Shell: base 1, ×2 = 2 on every face
    assert {by_die(A("X"), user, wall.replace(shell=None))[d][1] for d in range(1, 11)} == {2}
