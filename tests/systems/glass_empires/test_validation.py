"""Glass Empires model validation: bad builds and bad trait inputs raise RulesError naming the field
(glass-empires-attack.txt; CLARIFICATIONS.md, Glass Empires).
"""

from __future__ import annotations

import pytest

from tests.systems.glass_empires.builders import CAT, GE
from workbench import RulesError


@pytest.mark.parametrize("build,field", [
    (lambda: GE.Attack("x", damage=-1), "damage"),
    (lambda: GE.Attack("x"), "damage"),
    (lambda: GE.Attack("x", category="halberd"), "category"),
    (lambda: GE.Attack("x", category="bow", damage=6, kind="ranged"), "damage"),
    (lambda: GE.Attack("x", category="bow"), "kind"),
    (lambda: GE.Attack("x", category="light_melee", kind="ranged"), "kind"),
    (lambda: GE.Attack("x", damage=4, kind="ranged"), "range"),
    (lambda: GE.Attack("x", damage=4, kind="ranged", range=0), "range"),
    (lambda: GE.Attack("x", damage=4, kind="thrown"), "kind"),
    (lambda: GE.Attack("x", damage=4, damage_type="laser"), "damage_type"),
    (lambda: GE.Attack("x", category="bow", kind="ranged", dual_pistols=True), "dual_pistols"),
    (lambda: GE.Attack("", damage=4), "name"),
    (lambda: GE.Attack("x", damage=4, reload="yes"), "reload"),
    (lambda: GE.Creature("c", power=0), "power"),
    (lambda: GE.Creature("c", power=2, hp=0), "hp"),
    (lambda: GE.Creature("c", power=2, armor=-1), "armor"),
    (lambda: GE.Creature("c", power=2, size=0), "size"),
    (lambda: GE.Creature("c", power=2, strikes=0), "strikes"),
    (lambda: GE.Creature("c", power=2, resist=["plasma"]), "resist"),
    (lambda: GE.Creature("c", power=2, resist=["fire"], weak=["fire"]), "weak"),
    (lambda: GE.Creature("c", power=4, hd=2, level=1), "hd"),
    (lambda: GE.Creature("c", power=2, weapons=["sword"]), "weapons[0]"),
    (lambda: GE.Creature("c", power=2, weapons=[GE.Attack("a", damage=1), GE.Attack("A", damage=2)]), "weapons"),
    (lambda: GE.Options(damage_order="armor first"), "damage_order"),
    (lambda: GE.Options(armor_points_formula="armor_x_level"), "armor_points_formula"),
    (lambda: GE.Options(attack_is_save_action="no"), "attack_is_save_action"),
    (lambda: GE.Situation(cover="medium"), "cover"),
    (lambda: GE.Situation(environment=1.5), "environment"),
    (lambda: GE.Situation(distance=-1), "distance"),
    (lambda: GE.Situation(target_ap=-1), "target_ap"),
    (lambda: GE.outcomes(CAT.attack("Bow"), GE.Creature("c", power=1), GE.Creature("t", power=1),
                         situation=GE.Situation(target_ap=1)), "target_ap"),
    (lambda: GE.outcomes(CAT.attack("Bow"), GE.Creature("c", power=1), GE.Creature("t", power=1),
                         situation=GE.Situation(target_hp=5)), "target_hp"),
    (lambda: GE.outcome_tables([CAT.attack("Bow")], [], []), "attacks"),
    (lambda: GE.outcome_tables([CAT.attack("Bow")], ["me"], [GE.Creature("t", power=1)]), "attacker"),
])
def test_bad_inputs_rejected_naming_the_field(build, field):
    with pytest.raises(RulesError) as e:
        build()
    assert e.value.field == field
    assert field in str(e.value)


@pytest.mark.parametrize("build,field", [
    (lambda: GE.Creature("c", power=2, traits={"damage_taken_multiplier": {"plasma": 2}}),
     "traits.damage_taken_multiplier"),
    (lambda: GE.Creature("c", power=2, traits={"damage_taken_multiplier": {"fire": -1}}),
     "traits.damage_taken_multiplier.fire"),
    (lambda: GE.Creature("c", power=2, traits={"strike_save_bonus": {"always": 2}}), "traits.strike_save_bonus"),
    (lambda: GE.Creature("c", power=2, traits={"resist_conditional": [["fire", "resistant"]]}),
     "traits.resist_conditional[0]"),
    (lambda: GE.Creature("c", power=2, traits={"single_target_damage_max": -1}), "traits.single_target_damage_max"),
    (lambda: GE.Creature("c", power=2, traits={"immobile": "yes"}), "traits.immobile"),
    (lambda: GE.Creature("c", power=2, traits={"regenerates": 1}), "traits"),
    (lambda: GE.Options(multiplier_rounding="banker"), "multiplier_rounding"),
    (lambda: GE.Situation(circumstances=["flanked"]), "circumstances"),
])
def test_bad_trait_inputs_rejected_naming_the_field(build, field):
    with pytest.raises(RulesError) as e:
        build()
    assert e.value.field == field
