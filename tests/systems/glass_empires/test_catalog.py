"""Glass Empires catalog: the shared data converted, file errors naming file and field, every published
creature present, weaponless creatures as targets (glass-empires-attack.txt; CLARIFICATIONS.md,
Glass Empires).
"""

from __future__ import annotations

import pytest

import workbench as wb
from tests.systems.glass_empires.builders import CAT, GE
from workbench import RulesError


def test_catalog_matches_shared_data():
    """Catalog creatures keep the published numbers: hp = 4 x Power and AP = Armor x Power (shared data)."""
    import tomllib

    data = tomllib.load(open("/work/shared/data/glass_empires_creatures.toml", "rb"))
    shared = {c["name"]: c for c in data["creature"]}
    assert len(CAT.creatures) >= 10
    for name, c in CAT.creatures.items():
        s = shared[name]
        assert (c.power, c.hp, c.armor, c.source) == (s["power"], s["hp"], s["armor"], s["source"])
        assert GE.armor_points(c) == s["ap"]
        assert c.strikes == s.get("strikes", 1)


def test_catalog_file_errors_name_file_and_field(tmp_path):
    from workbench.systems.glass_empires.catalog import load

    (tmp_path / "weapons.toml").write_text('[[weapon]]\nname = "Bad bow"\ncategory = "bow"\nkind = "ranged"\ndamage = 7\n')
    (tmp_path / "creatures.toml").write_text("")
    with pytest.raises(RulesError) as e:
        load(tmp_path)
    assert e.value.field == "damage" and "weapons.toml" in str(e.value)
    (tmp_path / "weapons.toml").write_text("")
    (tmp_path / "creatures.toml").write_text('[[creature]]\nname = "X"\npower = 0\n')
    with pytest.raises(RulesError) as e:
        load(tmp_path)
    assert e.value.field == "power" and "creatures.toml" in str(e.value)


def test_every_published_creature_is_in_the_catalog():
    """shared/data/glass_empires_creatures.toml has 40 creatures; the catalog holds all 40 (the 10 the old
    converter dropped: Cellar Spider, Black Bear, Cave Bear, Ant Queen (no Size: the base creature's), True
    Immortal and Kain (no weapon), the Warrior King (no weapon kind) and the three humans without weapon
    damage), and the bundled file is exactly what creatures_from_shared makes of the data."""
    import tomllib

    from workbench.systems.glass_empires.catalog import creatures_from_shared

    data = tomllib.load(open("/work/shared/data/glass_empires_creatures.toml", "rb"))
    assert len(CAT.creatures) == len(data["creature"]) == 40
    recs = creatures_from_shared(data)
    assert [GE.Creature.from_dict(r) for r in recs] == list(CAT.creatures.values())
    for name, base in (("Spider, Giant (Cellar Spider)", "Spider, Giant"), ("Bear, Black", "Bear"),
                       ("Bear, Cave", "Bear"), ("Ant, Giant (Queen caste)", "Ant, Giant")):
        c = CAT.creature(name)
        assert c.size == CAT.creature(base).size and "Size not stated" in c.note
    assert CAT.creature("Bear, Cave").strikes == 3
    assert CAT.creature("Ant, Giant (Queen caste)").immobile


def test_weaponless_creatures_are_targets_with_no_plans():
    """True Immortal and Kain list no weapon (README ambiguity 4): a Bear's Attack on them resolves (2 Strikes of
    10 vs no armor: per Strike (20*1 + 10*14 + 5*6)/36 = 190/36, two Strikes 380/36 = 10.556), and as attackers
    they have only the no-attack plan."""
    bear = CAT.creature("Bear")
    for name in ("True Immortal", "Kain"):
        c = CAT.creature(name)
        assert c.weapons == () and "no weapon" in c.note
        assert wb.damage(bear.weapons[0], bear, c).mean() == pytest.approx(380 / 36, abs=1e-12)
        assert wb.outcomes(bear.weapons[0], bear, c)["probability"].sum() == pytest.approx(1, abs=1e-12)
        assert GE.turn_plans(c, bear) == {"No attack": wb.Dist.constant(0)}
    assert "cannot be fought" in CAT.creature("Kain").note
