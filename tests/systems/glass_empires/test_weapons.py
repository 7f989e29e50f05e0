"""Glass Empires weapons: the weapon table's damage, every category in the catalog, Fumbles jamming
windguns and reload weapons, and defaults where the weapon data is silent (glass-empires-attack.txt;
CLARIFICATIONS.md, Glass Empires).
"""

from __future__ import annotations

import pytest

from tests.systems.glass_empires.builders import CAT, GE


def test_weapon_table_damage():
    """CLARIFICATIONS.md: rock 2, throwable 3, light 4, medium 5 (+1 two-handed), heavy 8, sling 4, bow 5,
    crossbow 8 (Reload), windgun pistol 5, windgun 8; dual windgun pistols in melee +1."""
    want = {"Rock": 2, "Rock (thrown)": 2, "Throwable": 3, "Light melee": 4, "Medium melee": 5,
            "Medium melee (two-handed)": 6, "Heavy melee": 8, "Sling": 4, "Bow": 5, "Crossbow": 8,
            "Windgun pistol": 5, "Windgun pistol (melee)": 5, "Dual windgun pistols (melee)": 6, "Windgun": 8}
    for name, dmg in want.items():
        assert CAT.attack(name).strike_damage == dmg, name
    assert CAT.attack("Crossbow").reload and CAT.attack("Crossbow").jams
    assert CAT.attack("Windgun").jams and not CAT.attack("Bow").jams
    dual_ranged = GE.Attack("Dual pistols", category="windgun_pistol", kind="ranged", dual_pistols=True)
    assert dual_ranged.strike_damage == 5  # the +1 is for melee only


def test_catalog_has_every_weapon_category():
    """Every row of the weapon table is in the bundled catalog."""
    from workbench.systems.glass_empires import WEAPONS

    cats = {a.category for a in CAT.attacks.values()}
    assert cats == set(WEAPONS) and len(cats) == 10


@pytest.mark.parametrize("weapon,p_jam", [("Crossbow", 1 / 36), ("Windgun", 1 / 36), ("Windgun pistol", 1 / 36),
                                          ("Bow", 0.0), ("Sling", 0.0)])
def test_fumble_jams_windguns_and_reload_weapons(weapon, p_jam):
    """Fumble (<=2): 'if you're using a windgun or weapon with Reload, it's jammed'. At +0 P(Fumble) = 1/36."""
    w = CAT.attack(weapon)
    shooter = GE.Creature("Shooter", power=2, weapons=[w])
    t = GE.outcomes(w, shooter, GE.Creature("Target", power=2))
    assert t.filter("jam")["probability"].sum() == pytest.approx(p_jam, abs=1e-15)
    assert t.filter("fumble")["probability"].sum() == pytest.approx(1 / 36, abs=1e-15)


def test_defaults_where_the_weapon_data_is_silent():
    """README ambiguity 3 and "Derived fields" (damagemultiplier = best damage per turn / 4): the longswords'
    multiplier 1.75 -> 7 per Strike; the Mercenary's BR 4.5 = 2 x (1 + 2/4) x m -> m = 1.5 -> 6; the Warrior
    King's 16 per Strike keeps its damage (3 x 16 = 48 = 4 x 12) and is melee by default. Each says so."""
    for name, dmg in (("Longswordsman in Chain (Level 0 human, example)", 7),
                      ("Gentleman Knight (Level 1 human, example)", 7),
                      ("Mercenary Spearman (Level 0 human, example)", 6), ("Warrior King (Level 10, example)", 16)):
        c = CAT.creature(name)
        (w,) = c.weapons
        assert (w.damage, w.kind, w.damage_type, c.size) == (dmg, "melee", "physical", 5)
        assert "not stated" in c.note
    assert "weapon kind not stated" in CAT.creature("Warrior King (Level 10, example)").note
