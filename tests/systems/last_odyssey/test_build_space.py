"""Last Odyssey's build space (explore(budget=...)): the catalog abilities with at most ``budget``
of the declared choices changed (LastOdysseySystem.build_choices: kind, last-odyssey-attacks.txt
"There are three types of attacks: strikes, spells, and sleights"; element, colorless or one of
the nine of CLARIFICATIONS.md, Last Odyssey's element table), each change costing 1
(workbench/systems/builds.py, choice_space)."""

from __future__ import annotations

import polars as pl

import workbench as wb
from workbench.comparison import compare
from workbench.systems.builds import catalog_attacks

LO = wb.system("last_odyssey")


def test_builds_at_budget_1_by_hand():
    """85 distinct catalog abilities; each has one kind (2 others) and one of the 10 element values
    (9 others): 85 x 11 = 935 changes. A sleight must name its status ("they gain the status the
    ability inflicts"): the 70 strikes and spells that inflict none are refused as sleights.
    85 + 935 - 70 = 950."""
    bases = catalog_attacks(LO)
    assert len(bases) == 85
    assert sum(a.kind != "sleight" and a.status is None for a in bases) == 70
    space = LO.build_space(1, [])
    assert space.counts == {"combinations": 1020, "refused": 70, "repeats": 0, "legal_sets": 950, "distinct": 950}
    assert LO.build_space_size(1) == 1020


def test_top_build_against_the_cop():
    """Against the Cop (Evasion 1, Magical Defense 1, an active colorless Shell), a x2 spell of the
    neutral attacker (accuracy and attack 0) hits when die - 0 + 1 <= 7 (die 1-6: 6/10); base damage
    max(1, die - 1) = 1, 1, 2, 3, 4, 5, times 2 (the ability) times 2 (a spell against an active
    Shell): 4 + 4 + 8 + 12 + 16 + 20 = 64 over 10 faces, 6.4 per use; two uses a turn (2 action
    points at tier 1). Ice Spike, the first such catalog spell, is rank 1 unchanged (cost 0: no
    element beats colorless 1 against a colorless Shell); the engine agrees (compare over every
    build, turn_damage)."""
    cop = LO.catalog().creature("Cop")
    f = wb.explore("last_odyssey", targets=[cop], budget=1, top_k=3, progress=False)
    top = f.row(0, named=True)
    assert (top["name"], top["cost"], top["rank"]) == ("Ice Spike", 0, 1)
    assert abs(top["mean_damage"] - 6.4) < 1e-12
    space = LO.build_space(1, [cop])
    builds = space.builds
    every = compare(builds["build"].to_list(), [cop], best_plan=False, simulate=False)
    assert abs(every["mean_turn_damage"].max() - top["mean_turn_damage"]) < 1e-12
    atk = builds.filter(pl.col("name") == top["name"])["build"][0]
    k = LO.uses_per_turn(space.attacker, atk)
    turn = wb.turn_damage(space.attacker, cop, plan=[atk] * k)
    assert k == 2 and abs(turn.mean() - top["mean_turn_damage"]) < 1e-12
    assert abs(wb.damage(atk, space.attacker, cop).mean() - 6.4) < 1e-12
