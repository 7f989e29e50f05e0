"""Unbound catalog: creatures, weapons and the five shields, Shield Bash, a bad catalog file naming
file and field (unbound-d20-attacking.txt; CLARIFICATIONS.md, Unbound).
"""

import pytest

from tests.systems.unbound.weapons import Action, U, mods
from workbench import RulesError


def test_catalog_has_creatures_weapons_and_the_five_shields():
    """'Buckler - 2d6 (B) 20x2 ... Tower - 2d10 (B) 20x2' (Shield Weapon Profiles)."""
    cat = U.catalog()
    assert len(cat.creatures) >= 10 and len(cat.attacks) >= 12
    shields = {n: (a.damage, a.crit) for n, a in cat.attacks.items() if a.shield}
    assert shields == {"Buckler": ("2d6", "20x2"), "Targe": ("2d6", "20x2"), "Kite": ("2d8", "20x2"),
                       "Heater": ("2d8", "20x2"), "Tower": ("2d10", "20x2")}
    assert U.catalog() is cat


def test_shield_bash_replaces_an_attack():
    """'A character may choose to replace any attack made as part of an attack action with a Shield Bash.'"""
    cat = U.catalog()
    c = cat.creature("Shieldbearer")
    got = mods([Action("all_out", "Battleaxe"), Action("push", "Tower")], c)
    assert got == [("Battleaxe", 0), ("Battleaxe", -4), ("Tower", -8)]


def test_bad_catalog_file_names_file_and_field(tmp_path):
    from workbench.systems.unbound.catalog import load_catalog
    (tmp_path / "attacks.toml").write_text('[[attack]]\nname = "Bad"\ndamage = "2x6"\n')
    (tmp_path / "creatures.toml").write_text("")
    with pytest.raises(RulesError) as e:
        load_catalog(tmp_path)
    assert e.value.field == "damage" and "attacks.toml" in str(e.value)
    (tmp_path / "attacks.toml").write_text('[[attack]]\nname = "Ok"\n')
    (tmp_path / "creatures.toml").write_text('[[creature]]\nname = "C"\nhp = 5\nac = -2\ntouch_ac = 1\n')
    with pytest.raises(RulesError) as e:
        load_catalog(tmp_path)
    assert e.value.field == "ac" and "creatures.toml" in str(e.value)
