"""Last Odyssey Shell: spells double against a Shell, a broken Shell counts as none, the Shell absorbs
damage before HP (last-odyssey-attacks.txt; CLARIFICATIONS.md, Last Odyssey).
"""

from __future__ import annotations

import polars as pl

import workbench as wb
from tests.systems.last_odyssey.builders import LO, A, C, S, by_die
from workbench.systems.last_odyssey import Shell  # noqa: E402


def test_spell_uses_magical_stats_and_doubles_against_shell():
    """Spells: die − Magical Accuracy + Evasion <= 7; base = MA − MD + die; spell vs an active
    Shell ×2, vs no Shell ×1 (last-odyssey-attacks.txt, Spells, General Notes)."""
    user = C("U", 10, magical_accuracy=3, magical_attack=4, physical_accuracy=0, physical_attack=0)
    shelled = C("T", 10, evasion=3, magical_defense=2, shell=Shell(10))
    bare = shelled.replace(shell=None)
    bolt = A("Bolt", kind="spell")
    # die − 3 + 3 <= 7 ⇔ die <= 7; base = 4 − 2 + die = 2 + die
    for d in range(1, 11):
        hit = d <= 7
        assert by_die(bolt, user, shelled)[d][:2] == (hit, 2 * (2 + d) if hit else 0)
        assert by_die(bolt, user, bare)[d][:2] == (hit, (2 + d) if hit else 0)


def test_broken_shell_counts_as_no_shell():
    """A Shell at 0 points is not active: strikes double, spells do not (General Notes)."""
    user = C("U", 10, physical_accuracy=10, physical_attack=3)
    t = C("T", 10, physical_defense=1, shell=Shell(6))
    assert by_die(A("X"), user, t)[4][1] == 6                                   # 3 − 1 + 4 = 6, ×1
    assert by_die(A("X"), user, t, situation=S(target_shell_points=0))[4][1] == 12  # ×2


def test_shell_absorbs_damage_before_hp():
    """CLARIFICATIONS.md: a Shell is a pool of points that takes damage before HP."""
    user = C("U", 10, physical_accuracy=10, physical_attack=5)
    t = C("T", 30, physical_defense=0, shell=Shell(7))
    table = wb.outcomes(A("X"), user, t)
    # damage = 5 + die (Shell active, ×1): 6..15; shell takes min(d, 7), HP the rest
    row = table.filter(pl.col("damage") == 12).row(0, named=True)
    assert (row["shell_damage"], row["hp_damage"]) == (7, 5)
    row = table.filter(pl.col("damage") == 6).row(0, named=True)
    assert (row["shell_damage"], row["hp_damage"]) == (6, 0)
    assert LO.shell_points(t) == 7 and LO.hit_points(t) == 30 and LO.health(t) == 37
