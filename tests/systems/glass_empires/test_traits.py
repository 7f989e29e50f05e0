"""Glass Empires creature traits from the published stat lines: Skittering Horde, Living Tree, Wolf
pack hunter, Angry Bush, Ray Shield, Coraler bloodthirst (glass-empires-attack.txt;
CLARIFICATIONS.md, Glass Empires).
"""

from __future__ import annotations

import pytest

import workbench as wb
from tests.systems.glass_empires.builders import CAT, GE, p_damage, sword_pair


def test_skittering_horde_caps_single_target_damage_at_one():
    """Skittering Horde: "Single-target damage against it is capped at 1" (README ambiguity 5). Bear, 2 Strikes of
    10: each Strike that lands (Crit, Pass or Seven: 1 + 14 + 6 = 21 of 36) deals 1, so the mean is 2 x 21/36 =
    7/6 and the most is 2 (it was 10.56 and up to 40). P(2) = (21/36)^2 = 441/1296."""
    bear, horde = CAT.creature("Bear"), CAT.creature("Skittering Horde")
    assert horde.single_target_damage_max == 1 and horde.area_damage_multiplier == 4
    d = GE.damage(bear.weapons[0], bear, horde)
    assert d.mean() == pytest.approx(7 / 6, abs=1e-12) and d.max() == 2
    assert d.probability(2) == pytest.approx(441 / 1296, abs=1e-15)
    # the turn is that one Attack (one Attack per turn, the default)
    assert wb.turn_damage(bear, horde).mean() == pytest.approx(7 / 6, abs=1e-12)
    # the cockroach swarm is immune to physical: the Bear's Strikes deal 0
    assert GE.damage(bear.weapons[0], bear, CAT.creature("Skittering Horde (Cockroaches)")).max() == 0


@pytest.mark.parametrize("rounding,crit,passed,seven", [("down", 15, 7, 3), ("nearest", 15, 8, 3), ("up", 15, 8, 3)])
def test_living_tree_takes_fire_times_one_and_a_half(rounding, crit, passed, seven):
    """Tree, Living: damage_taken_multiplier fire 1.5 (shared data). A 5-damage fire weapon: Crit 10 x 1.5 = 15,
    Pass 5 x 1.5 = 7.5 -> 7 rounded down (default: the text's only rounding, the Seven's "round down"), 8 nearest
    or up; Seven 5 // 2 = 2 x 1.5 = 3. Fire is not physical, so the Tree's 6 AP do not absorb it. Mean (default)
    = (15 x 1 + 7 x 14 + 3 x 6) / 36 = 131/36."""
    tree = CAT.creature("Tree, Living")
    torch = GE.Attack("Torch", damage=5, damage_type="fire")
    me = GE.Creature("Torchbearer", power=2, weapons=[torch])
    t = GE.outcomes(torch, me, tree, GE.Options(multiplier_rounding=rounding))
    assert sorted(t["damage"].unique().to_list()) == [0, seven, passed, crit]
    assert p_damage(t, passed) == pytest.approx(14 / 36, abs=1e-15)
    assert t["ap_damage"].max() == 0
    if rounding == "down":
        assert GE.damage(torch, me, tree).mean() == pytest.approx(131 / 36, abs=1e-12)
    # a physical Slam (6) is not multiplied: even a Crit's 12 is absorbed by the Tree's 6 AP (1 AP per 2 damage)
    assert GE.damage(tree.weapons[0], tree, tree).max() == 0


def test_wolf_pack_hunter_adds_two_to_its_strike_saves():
    """Wolf: strike_save_bonus +2 vs a target engaged with its ally (shared data). At +2 the bands are (6, 20, 4, 5,
    1)/36, so its Bite (6) averages (12 x 6 + 6 x 20 + 3 x 4)/36 = 204/36; without the circumstance (0: 1, 14, 6)
    it is (12 + 84 + 18)/36 = 114/36. The text bars only personal Fact bonuses ("should otherwise add factors such
    as the environment, Conditions, & the like")."""
    wolf, human = CAT.creature("Wolf"), CAT.creature("Human (Level 1 starting PC)")
    engaged = GE.Situation(circumstances=["target_engaged_with_ally"])
    assert GE.strike_modifier(wolf.weapons[0], wolf, engaged) == 2
    assert GE.damage(wolf.weapons[0], wolf, human, situation=engaged).mean() == pytest.approx(204 / 36, abs=1e-12)
    assert GE.damage(wolf.weapons[0], wolf, human).mean() == pytest.approx(114 / 36, abs=1e-12)
    assert wb.turn_damage(wolf, human, situation=engaged).mean() == pytest.approx(204 / 36, abs=1e-12)


def test_angry_bush_resists_physical_only_near_another_bush():
    """Bush, Angry: resist_conditional physical "resistant" within 10 ft of another angry bush (shared data);
    resistance halves rounded down. A Sword (5): Crit 10 -> 5, Pass 5 -> 2, Seven 2 -> 1: mean (5 + 28 + 6)/36 =
    39/36; alone (10 + 70 + 12)/36 = 92/36."""
    sword, me, _ = sword_pair()
    bush = CAT.creature("Bush, Angry")
    near = GE.Situation(circumstances=["within_10ft_of_another_angry_bush"])
    assert GE.damage(sword, me, bush, situation=near).mean() == pytest.approx(39 / 36, abs=1e-12)
    assert GE.damage(sword, me, bush).mean() == pytest.approx(92 / 36, abs=1e-12)


def test_ray_shield_absorbs_until_a_strike_of_six_breaks_it():
    """Moon Rabbit Operator: Ray Shield "immune to all damage", breaks on an effect dealing at least 6, which it
    absorbs (shared data). A Sword (5) never breaks it: a Pass 5 < 6, and a Crit 10 breaks it but is absorbed, so
    one Strike deals 0 always. Two Strikes: the second deals damage only after a first Crit (1/36): then 10, 5, 2
    with 1, 14, 6 of 36, so the mean is (1/36) x (10 + 70 + 12)/36 = 92/1296. With the shield already down the two
    Strikes deal 2 x 92/36."""
    op = CAT.creature("Moon Rabbit Operator")
    assert op.ray_shield_breaks_at == 6
    sword = GE.Attack("Sword", category="medium_melee")
    one = GE.Creature("Swordsman", power=3, weapons=[sword])
    two = one.replace(strikes=2)
    assert GE.damage(sword, one, op).max() == 0
    assert GE.damage(sword, two, op).mean() == pytest.approx(92 / 1296, abs=1e-15)
    down = GE.Situation(target_shield_up=False)
    assert GE.damage(sword, two, op, situation=down).mean() == pytest.approx(2 * 92 / 36, abs=1e-12)


def test_coraler_bloodthirst_reduces_each_strike_by_one():
    """Coraler: damage reduction 1 vs direct attacks until it takes a defensive or protective action (shared data).
    A Sword (5) Strike: Crit 10 -> 9, Pass 5 -> 4, Seven 2 -> 1: mean (9 + 56 + 6)/36 = 71/36; once the reduction is
    spent (target_damage_reduction_active=False) (10 + 70 + 12)/36 = 92/36."""
    sword, me, _ = sword_pair()
    coraler = CAT.creature("Coraler (Level 1 starting PC)")
    assert coraler.damage_reduction == 1
    assert GE.damage(sword, me, coraler).mean() == pytest.approx(71 / 36, abs=1e-12)
    spent = GE.Situation(target_damage_reduction_active=False)
    assert GE.damage(sword, me, coraler, situation=spent).mean() == pytest.approx(92 / 36, abs=1e-12)
