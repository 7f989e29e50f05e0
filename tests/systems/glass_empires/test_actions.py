"""Glass Empires actions: melee reach and the angry step, the action economy hooks, the refunded action
after a kill, and the generic turn layer over them (glass-empires-attack.txt; CLARIFICATIONS.md,
Glass Empires).
"""

from __future__ import annotations

import pytest

import workbench as wb
from tests.systems.glass_empires.builders import CAT, GE, sword_pair
from workbench import RulesError


def test_melee_reach_is_size_and_angry_step_doubles_it():
    """'A character's melee reach is equal to their Size'; The Angry Step: move up to the melee reach first,
    unless a terrain or Condition limits free movement."""
    sword, attacker, target = sword_pair()                 # Size 5
    assert GE.strike_modifier(sword, attacker, GE.Situation(distance=10)) == 0
    with pytest.raises(RulesError, match="distance"):
        GE.strike_modifier(sword, attacker, GE.Situation(distance=10.5))
    with pytest.raises(RulesError, match="distance"):
        GE.strike_modifier(sword, attacker, GE.Situation(distance=6, movement_impeded=True))
    with pytest.raises(RulesError, match="distance"):
        GE.strike_modifier(sword, attacker, GE.Situation(distance=6, angry_step=False))
    bear = CAT.creature("Bear")                               # Size 10
    assert GE.strike_modifier(bear.weapons[0], bear, GE.Situation(distance=20)) == 0
    toad = CAT.creature("Toad, Giant")                        # Frog Tongue: melee reach 15
    assert GE.strike_modifier(toad.weapons[0], toad, GE.Situation(distance=30)) == 0


def test_action_economy_hooks():
    """CLARIFICATIONS.md: '2 instant actions per turn, at most one of them a Save action'; default reading: an
    Attack (resolved by Strike Saves) is the Save action, so one Attack per turn."""
    sword, attacker, target = sword_pair()
    assert GE.actions_per_turn(attacker) == 2 and GE.attack_cost(sword) == 1
    assert GE.hit_points(target) == 12 and GE.attacks_of(attacker) == [sword]
    assert GE.attacks_per_turn(attacker) == 1
    plans = GE.turn_plans(attacker, target)
    assert list(plans) == ["Sword"]
    assert plans["Sword"].isclose(GE.damage(sword, attacker, target))
    with pytest.raises(RulesError, match="attacks"):
        GE.plan_damage(attacker, target, ["Sword", "Sword"])
    with pytest.raises(RulesError, match="attacks"):
        GE.plan_damage(attacker, target, ["Spear"])
    two = GE.turn_plans(attacker, target, GE.Options(attack_is_save_action=False))
    assert set(two) == {"Sword", "Sword + Sword"}
    assert two["Sword + Sword"].mean() == pytest.approx(2 * plans["Sword"].mean())   # no armor: additive


def test_kill_refunds_the_action():
    """'If your Strike deals enough Damage to outright kill the defender, you receive the Action ... back.'"""
    sword, attacker, target = sword_pair()
    t = GE.outcomes(sword, attacker, target, situation=GE.Situation(target_hp=5))
    assert t.filter("kill")["probability"].sum() == pytest.approx(15 / 36)
    row = t.filter("kill").row(0, named=True)
    assert GE.refunds_action(row) and not GE.refunds_action(row, GE.Options(kill_refunds_action=False))


def test_generic_turn_layer_uses_the_hooks():
    """wb.rounds_to_kill on creatures goes through turn_plans / hit_points (one Attack per turn by default)."""
    bear, human = CAT.creature("Bear"), CAT.creature("Human (Level 1 starting PC)")
    r = wb.rounds_to_kill(bear, human)
    assert r["p_killed_by"][0] == pytest.approx(435 / 1296, abs=1e-12)


def test_ant_queen_is_immobile_so_has_no_angry_step():
    """Ant Queen: immobile (shared data). "While ... not suffering any terrain or Condition that limits or alters
    your free movement, you may ... move a distance up to ... your melee reach" (The Angry Step): an immobile
    creature cannot, so its reach is its Size, 2 ft; the mobile worker Ant reaches 2 + 2 = 4 ft."""
    queen, ant = CAT.creature("Ant, Giant (Queen caste)"), CAT.creature("Ant, Giant")
    assert GE.strike_modifier(queen.weapons[0], queen, GE.Situation(distance=2)) == 0
    with pytest.raises(RulesError) as e:
        GE.strike_modifier(queen.weapons[0], queen, GE.Situation(distance=3))
    assert e.value.field == "distance" and "immobile" in str(e.value)
    assert GE.strike_modifier(ant.weapons[0], ant, GE.Situation(distance=4)) == 0
