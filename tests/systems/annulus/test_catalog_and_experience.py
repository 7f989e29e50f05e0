"""Annulus experience costs, the upgrade catalog and the creature catalog (annulus-attacks.txt;
CLARIFICATIONS.md, Annulus).

Baseline: 4 dice succeeding on 4+ (p = 1/2): P(k successes) = 1, 4, 6, 4, 1 out of 16.
"""

from __future__ import annotations

import polars as pl
import pytest

from tests.systems.annulus.builders import A
from workbench import RulesError


def test_experience_cost():
    """CLARIFICATIONS: "Each upgrade, and the Damage seed itself, costs 1 Experience; a stackable
    upgrade costs 1 per rank": seed + Reckless 2 + Critical = 4."""
    a = A.Attack("A", "agility", {"Reckless": 2, "Critical": 1})
    assert a.cost == 4 and a.experience == 4 and A.experience(a) == 4
    assert A.Attack("B", "agility").cost == 1
    assert A.experience(a, A.Options(experience_per_rank=2)) == 8


def test_upgrade_catalog():
    """CLARIFICATIONS: 21 general, 24 trigger, 6 alteration, 3 area; stackable: Reckless, Giant,
    Precise, Range, Assassin."""
    up = A.upgrades()
    assert up.height == 54 and up["name"].n_unique() == 54
    counts = dict(up.group_by("category").len().iter_rows())
    assert counts == {"general": 21, "trigger": 24, "alteration": 6, "area": 3}
    assert set(up.filter(pl.col("stackable"))["name"]) == {"Reckless", "Giant", "Precise", "Range", "Assassin"}
    assert (up["cost"] == 1).all() and up["description"].str.len_chars().min() > 20
    trig = up.filter(pl.col("category") == "trigger")
    assert trig["threshold"].null_count() == 0 and up.filter(pl.col("category") != "trigger")["threshold"].null_count() == 30


def test_catalog():
    """The bundled catalog: >= 10 creatures, sizes 2 to 8, >= 12 sets covering every category and
    every upgrade at least once."""
    cat = A.catalog()
    assert len(cat.creatures) >= 10 and len(cat.attacks) >= 12
    sizes = {c.size for c in cat.creatures.values()}
    assert min(sizes) == 2 and max(sizes) == 8
    used = {u for a in cat.attacks.values() for u in a.upgrades}
    assert used == set(A.upgrades()["name"])
    assert A.catalog() is cat


def test_malformed_catalog_names_file_and_field(tmp_path):
    from workbench.systems.annulus.system import load_catalog

    (tmp_path / "attacks.toml").write_text('[[attack]]\nname = "X"\ndefense = "agility"\nupgrades = ["Arc", "Line"]\n')
    (tmp_path / "creatures.toml").write_text("")
    with pytest.raises(RulesError) as e:
        load_catalog(tmp_path)
    assert "attacks.toml" in str(e.value) and e.value.field == "upgrades"
    (tmp_path / "attacks.toml").write_text('[[attack]]\nname = "X"\ndefense = "agility"\n')
    (tmp_path / "creatures.toml").write_text('[[creature]]\nname = "Y"\nlevel = 1\nendurance = 1\nagility = 0\n'
                                             'toughness = 0\ninsight = 0\nsize = -3\nattack_sets = ["X"]\n')
    with pytest.raises(RulesError) as e:
        load_catalog(tmp_path)
    assert "creatures.toml" in str(e.value) and e.value.field == "size"
