"""Glass Empires' build space (explore(budget=...)): the catalog weapons (the weapon table and the
creatures' weapons: the loadouts) with at most ``budget`` of the declared choices changed
(GlassEmpiresSystem.build_choices: damage_type, the seven types of the published stat lines;
two_handed, CLARIFICATIONS.md, Glass Empires "medium melee 5 (+1 two-handed)"), each change costing
1 (workbench/systems/builds.py, choice_space)."""

from __future__ import annotations

from fractions import Fraction as F

import polars as pl

import workbench as wb
from workbench.comparison import compare
from workbench.systems.builds import catalog_attacks

G = wb.system("glass_empires")


def test_builds_at_budget_1_by_hand():
    """40 distinct catalog weapons; 39 deal one of the 7 types (6 others), the Skittering Horde's
    Bites & Stings deals physical/poison (7 others): 39 x 6 + 7 = 241; two_handed flips on all 40:
    281 changes. The table wields the heavy melee weapon, sling, bow, crossbow and windgun
    two-handed whatever is asked ("two_handed": the category fills it), so those 5 one-handed
    versions are the weapons themselves (repeats): 40 + 281 - 5 = 316."""
    bases = catalog_attacks(G)
    assert len(bases) == 40
    assert [a.name for a in bases if "/" in a.damage_type] == ["Bites & Stings"]
    space = G.build_space(1, [])
    assert space.counts == {"combinations": 321, "refused": 0, "repeats": 5, "legal_sets": 316, "distinct": 316}
    assert G.build_space_size(1) == 321


def test_top_build_against_the_creeping_cap():
    """The Creeping Cap is weak to fire ("weakness doubles"). The Warrior King's weapon (16 a Strike)
    made fire deals 32 on a Pass: a Strike Save of 2d6 + 0 is a Crit on 12 (1/36, x2: 64), a Pass on
    8-11 (14/36: 32), a Seven on 7 (6/36, halved: 16): (64 + 448 + 96) / 36 = 152/9, one Strike a
    turn. The engine agrees (compare over every build, turn_damage)."""
    cap = G.catalog().creature("Creeping Cap")
    f = wb.explore("glass_empires", targets=[cap], budget=1, top_k=3, progress=False)
    top = f.row(0, named=True)
    assert (top["name"], top["cost"], top["rank"]) == ("Weapon (unspecified): damage_type fire", 1, 1)
    assert abs(top["mean_turn_damage"] - float(F(152, 9))) < 1e-12
    space = G.build_space(1, [cap])
    builds = space.builds
    every = compare(builds["build"].to_list(), [cap], best_plan=False, simulate=False)
    assert abs(every["mean_turn_damage"].max() - top["mean_turn_damage"]) < 1e-12
    atk = builds.filter(pl.col("name") == top["name"])["build"][0]
    k = G.uses_per_turn(space.attacker, atk)
    turn = wb.turn_damage(space.attacker, cap, plan=[atk] * k)
    assert k == 1 and abs(turn.mean() - top["mean_turn_damage"]) < 1e-12
