"""Glass Empires creature traits from the published stat lines: Skittering Horde, Living Tree, Wolf
pack hunter, Angry Bush, Ray Shield, Coraler bloodthirst (glass-empires-attack.txt;
CLARIFICATIONS.md, Glass Empires).
"""

from __future__ import annotations

from fractions import Fraction

import polars as pl
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


def _mean_rounds(pmf: dict[int, Fraction], need: int) -> Fraction:
    """Return the exact mean number of turns until the per-turn amounts (pmf {amount: p}) add up to ``need``:
    E[n] = (1 + sum_{k>0} p_k E[n - k]) / (1 - p_0), E[n <= 0] = 0."""
    e: dict[int, Fraction] = {}
    for n in range(1, need + 1):
        rest = sum((p * e.get(n - k, Fraction(0)) for k, p in pmf.items() if k > 0), Fraction(0))
        e[n] = (1 + rest) / (1 - pmf.get(0, Fraction(0)))
    return e[need]


def _frame_mean(f) -> float:
    return float((f["round"] * f["p_killed_at"]).sum())


def test_skittering_horde_cap_holds_over_the_whole_fight():
    """Swarm: "Damage that only affects a single target is reduced to 1" (skittering-horde.yaml; the data's
    single_target_damage_max = 1), per Strike, every turn. The Bear's 2 Strikes a turn each land (Crit, Pass or
    Seven) with 21/36 and then deal 1, so a turn deals 0, 1, 2 with 225, 630, 441 of 1296. The Horde's 16 HP take
    at least 8 turns: P(killed by round 7) = 0, P(killed by round 8) = (21/36)^16 (every Strike lands). The mean is
    the recurrence of _mean_rounds (about 14.2; without the cap the Bear averages 10.56 a turn and needs about 2)."""
    bear, horde = CAT.creature("Bear"), CAT.creature("Skittering Horde")
    f = wb.rounds_to_kill(bear, horde)
    assert f["exact"].all()
    assert f["p_killed_by"][6] == pytest.approx(0, abs=1e-12)
    assert f["p_killed_by"][7] == pytest.approx(float(Fraction(21, 36) ** 16), abs=1e-12)
    turn = {0: Fraction(225, 1296), 1: Fraction(630, 1296), 2: Fraction(441, 1296)}
    mean = float(_mean_rounds(turn, 16))
    assert _frame_mean(f) == pytest.approx(mean, rel=1e-9)
    from workbench.comparison import BEST_PLAN, compare

    row = compare([bear], [horde], progress=False).filter(pl.col("attack") == BEST_PLAN).row(0, named=True)
    assert row["method"] == "exact" and row["mean_rounds"] == pytest.approx(mean, rel=1e-9)


def test_living_tree_fire_multiplier_holds_over_the_whole_fight():
    """Vulnerable to Fire: "Fire Damage ignores Armor & deals 1.5x damage" (living-tree.yaml). A Torch (5 fire) per
    turn deals 15, 7, 3, 0 with 1, 14, 6, 15 of 36 (test above). The Tree has 12 HP: round 1 kills on a Crit, 1/36;
    by round 2: Crit first (36/1296), or 7 then 7 or more (14 x 15), or 3 then 15 (6 x 1), or 0 then 15 (15 x 1):
    267/1296. Without the multiplier (5 a Pass, 10 a Crit, 2 a Seven) by round 2 only 10 + 2 or more (1 x 21),
    5 + 10 (14 x 1) and 2 + 10 (6 x 1) kill: 41/1296."""
    tree = CAT.creature("Tree, Living")
    torch = GE.Attack("Torch", damage=5, damage_type="fire")
    me = GE.Creature("Torchbearer", power=2, weapons=[torch])
    f = wb.rounds_to_kill(me, tree)
    assert f["p_killed_by"][0] == pytest.approx(1 / 36, abs=1e-15)
    assert f["p_killed_by"][1] == pytest.approx(267 / 1296, abs=1e-15)
    plain = wb.rounds_to_kill(me, tree.replace(traits={}))
    assert plain["p_killed_by"][1] == pytest.approx(41 / 1296, abs=1e-15)
    turn = {15: Fraction(1, 36), 7: Fraction(14, 36), 3: Fraction(6, 36), 0: Fraction(15, 36)}
    assert _frame_mean(f) == pytest.approx(float(_mean_rounds(turn, 12)), rel=1e-9)


def test_wolf_pack_hunter_bonus_holds_over_the_whole_fight():
    """Pack Hunter: "Gain +2 to Strike Saves against targets Engaged with an ally" (wolf.yaml). The Bite (6) at +2
    deals 12, 6, 3, 0 with 6, 20, 4, 6 of 36 against the Level 1 Human (12 HP, no armor): round 1 kills on a Crit,
    6/36; by round 2: Crit first (216/1296), 6 then 6 or more (20 x 26), 3 then 12 (4 x 6), 0 then 12 (6 x 6):
    796/1296. Without the circumstance (bands 1, 14, 6, 14+1 of 36): 1/36 and (36 + 14 x 15 + 6 + 15)/1296 =
    267/1296. In a duel the Human's Fists (2, 8 HP Wolf) lose more often with the bonus on."""
    wolf, human = CAT.creature("Wolf"), CAT.creature("Human (Level 1 starting PC)")
    engaged = GE.Situation(circumstances=["target_engaged_with_ally"])
    f = wb.rounds_to_kill(wolf, human, situation=engaged)
    assert f["p_killed_by"][0] == pytest.approx(6 / 36, abs=1e-15)
    assert f["p_killed_by"][1] == pytest.approx(796 / 1296, abs=1e-15)
    alone = wb.rounds_to_kill(wolf, human)
    assert alone["p_killed_by"][0] == pytest.approx(1 / 36, abs=1e-15)
    assert alone["p_killed_by"][1] == pytest.approx(267 / 1296, abs=1e-15)
    turn = {12: Fraction(6, 36), 6: Fraction(20, 36), 3: Fraction(4, 36), 0: Fraction(6, 36)}
    assert _frame_mean(f) == pytest.approx(float(_mean_rounds(turn, 12)), rel=1e-9)
    assert wb.duel(wolf, human, situation=engaged).p_a_wins > wb.duel(wolf, human).p_a_wins
