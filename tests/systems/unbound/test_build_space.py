"""Unbound's build space (explore(budget=...)): the catalog attacks with at most ``budget`` of the
declared choices changed (UnboundSystem.build_choices: damage 2d6 / 2d8 / 2d10, the Shield Weapon
Profiles of unbound-d20-attacking.txt; crit 20x2 / 19-20x2 / 20x3, CLARIFICATIONS.md, Unbound:
'"20x2" is threat range and multiplier ("19-20x2", "20x3")'; touch, "targeting either normal armor
class or touch armor class"), each change costing 1 (workbench/systems/builds.py, choice_space)."""

from __future__ import annotations

import polars as pl

import workbench as wb
from workbench.comparison import compare
from workbench.systems.builds import catalog_attacks

U = wb.system("unbound")


def test_builds_at_budget_1_by_hand():
    """25 distinct catalog attacks (the shields, weapons, natural weapons and spells of
    workbench/catalog/unbound). damage: 8 of them already roll 2d6, 2d8 or 2d10 (Buckler, Targe,
    Greatsword, Gore, Flame lance 2d6; Kite, Heater 2d8; Tower 2d10): 8 x 2 + 17 x 3 = 67 other
    values. crit: all but the Rapier (18-20x2) and the Musket (20x4) have a listed one: 23 x 2 + 2 x 3
    = 52. touch: 25 flips. Nothing is refused or repeated: 25 + 67 + 52 + 25 = 169."""
    bases = catalog_attacks(U)
    assert len(bases) == 25
    assert sorted(a.name for a in bases if a.damage in ("2d6", "2d8", "2d10")) == [
        "Buckler", "Flame lance", "Gore", "Greatsword", "Heater", "Kite", "Targe", "Tower"]
    assert sorted(a.name for a in bases if a.crit not in ("20x2", "19-20x2", "20x3")) == ["Musket", "Rapier"]
    space = U.build_space(1, [])
    assert space.counts == {"combinations": 169, "refused": 0, "repeats": 0, "legal_sets": 169, "distinct": 169}
    assert U.build_space_size(1) == 169 and U.build_space(0, []).size == 25


def test_top_build_against_the_town_guard():
    """Against the Town guard (touch AC 11), the Reference greatsword (whole bonus +7, 2d6+3, 19-20x2)
    made a touch attack is best: first Push the Attack hits on d20 >= 4 (17/20), the second at -4 on
    d20 >= 8 (13/20); 2d6+3 averages 10 and a confirmed threat (19-20, confirmed at the same odds)
    adds another 10: 17/20 * 10 + 2/20 * 17/20 * 10 = 9.35, then 13/20 * 10 + 2/20 * 13/20 * 10 =
    7.15; the turn 16.5. The engine agrees: the top of compare over every build, and turn_damage."""
    guard = U.catalog().creature("Town guard")
    f = wb.explore("unbound", targets=[guard], budget=1, top_k=3, progress=False)
    top = f.row(0, named=True)
    assert (top["name"], top["cost"], top["rank"]) == ("Reference greatsword: touch True", 1, 1)
    assert abs(top["mean_turn_damage"] - 16.5) < 1e-12
    space = U.build_space(1, [guard])
    builds = space.builds
    every = compare(builds["build"].to_list(), [guard], best_plan=False, simulate=False)
    assert abs(every["mean_turn_damage"].max() - top["mean_turn_damage"]) < 1e-12
    atk = builds.filter(pl.col("name") == top["name"])["build"][0]
    k = U.uses_per_turn(space.attacker, atk)
    turn = wb.turn_damage(space.attacker, guard, plan=[atk] * k)
    assert k == 2 and abs(turn.mean() - top["mean_turn_damage"]) < 1e-12
    assert abs(turn.sf(U.hit_points(guard)) - top["p_kill_one_turn"]) < 1e-12
