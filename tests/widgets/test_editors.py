"""The creature editor, the attack builders and the situation and options panels (widgets/creature.py,
attack.py, situation.py), headless, against the toy rule system of tests/widget_toy.py.

Each test drives a panel by setting ``.value`` on its controls and asserts on the model, on the
numbers shown and on the chart spec (``panel.chart.chart.to_dict()``). Toy rules: one die + bonus -
armor - cover, at least ``minimum`` (see tests/widget_toy.py).
"""

from __future__ import annotations

from tests.widget_toy import TOY, Attack, Creature, Options, Situation
from workbench.widgets.attack import BUILDERS, AttackSetBuilder, attack_builder
from workbench.widgets.creature import CreatureEditor
from workbench.widgets.situation import OptionsPanel, SituationPanel


def test_creature_editor_picks_from_catalog_and_goes_custom_on_edit():
    ed = CreatureEditor(TOY)
    goblin = TOY.catalog().creature("Goblin")
    assert ed.value == goblin and ed.picker.value == "Goblin"
    ed.picker.value = "Ogre"
    assert ed.value.name == "Ogre" and ed.controls["armor"].value == 3
    ed.controls["hp"].value = 31
    assert ed.value.hp == 31 and ed.value.attacks == TOY.catalog().creature("Ogre").attacks
    assert ed.picker.value == ed.CUSTOM
    ed.value = goblin                                                # set from outside
    assert ed.picker.value == "Goblin" and ed.controls["hp"].value == 7


def test_creature_editor_error_keeps_value():
    ed = CreatureEditor(TOY, Creature("Rat", hp=2))
    assert ed.picker.value == ed.CUSTOM
    ed.controls["hp"].value = -4
    assert ed.value == Creature("Rat", hp=2)
    assert "hp" in ed.errors_shown() and "at least 1" in ed.errors_shown()["hp"]


def test_attack_builder_lists_the_attackers_attacks_first():
    ogre = TOY.catalog().creature("Ogre")
    b = AttackSetBuilder(TOY, attacker=ogre)
    assert list(b.picker.options) == ["(custom)", "Fist", "Club", "Bow", "Dagger"]
    assert b.value.name == "Fist"
    b.attacker = TOY.catalog().creature("Goblin")
    assert list(b.picker.options) == ["(custom)", "Club", "Bow", "Dagger"]
    b.picker.value = "Dagger"
    assert b.value == Attack("Dagger", bonus=3, sides=4)
    b.controls["sides"].value = 8
    assert b.value.sides == 8 and b.picker.value == "(custom)"
    b.controls["bonus"].value = 11                                   # toy rules: bonus -5..+10
    assert b.value.bonus == 3 and "bonus" in b.errors_shown()


def test_attack_builder_registry_prefers_a_system_builder():
    class Rich(AttackSetBuilder):
        pass

    assert type(attack_builder(TOY)) is AttackSetBuilder
    BUILDERS["toy"] = Rich
    try:
        assert type(attack_builder(TOY)) is Rich
    finally:
        del BUILDERS["toy"]


def test_situation_and_options_panels():
    s = SituationPanel(TOY)
    assert s.value == Situation()
    s.controls["cover"].value = 3                                    # toy rules: cover is 0, 1 or 2
    assert s.value == Situation() and "cover" in s.errors_shown()
    s.controls["cover"].value = 2
    assert s.value == Situation(cover=2) and s.errors_shown() == {}
    o = OptionsPanel(TOY)
    o.controls["crit_on_max"].value = True
    assert o.value == Options(crit_on_max=True)


def test_attack_builder_follows_a_new_attacker():
    """An attack of the old attacker's own is swapped for the new attacker's first; a catalog pick stays."""
    goblin, ogre = TOY.catalog().creature("Goblin"), TOY.catalog().creature("Ogre")
    b = AttackSetBuilder(TOY, attacker=goblin)
    assert b.value.name == "Club"
    b.attacker = ogre
    assert b.value.name == "Fist" and b.picker.value == "Fist"
    b.picker.value = "Dagger"
    b.attacker = goblin
    assert b.value.name == "Dagger"
