"""Glass Empires catalog: the shared data converted, file errors naming file and field, every published
creature present, weaponless creatures as targets (glass-empires-attack.txt; CLARIFICATIONS.md,
Glass Empires).
"""

from __future__ import annotations

import polars as pl
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


def _shared():
    import tomllib

    data = tomllib.load(open("/work/shared/data/glass_empires_creatures.toml", "rb"))
    return {c["name"]: c for c in data["creature"]}


#: the ten creatures the old converter dropped, and each one's stat line as the catalog must hold it, worked out
#: from the data file (shared/data/glass_empires_creatures.toml and its README) by hand:
#: (name, Size and where it comes from, [(weapon, damage per Strike, kind, damage type)], words the note must hold)
BROUGHT_IN = [
    # a variant row without a Size: the base creature's (README "Derived fields": variants list under `inherited`
    # the fields copied from their base entry; Size is not among them)
    ("Spider, Giant (Cellar Spider)", 10, [("Bite", 6, "melee", "physical")], ["Size not stated", "Spider, Giant"]),
    ("Bear, Black", 10, [("Teeth & Claws", 10, "melee", "physical")], ["Size not stated", "flees"]),
    ("Bear, Cave", 10, [("Teeth & Claws", 10, "melee", "physical")], ["Size not stated", "(Bear)"]),
    ("Ant, Giant (Queen caste)", 2, [("Ant Mandibles", 4, "melee", "physical")], ["Size not stated", "Ant, Giant"]),
    # no attacks (README ambiguity 4): targets with no weapon
    ("True Immortal", 5, [], ["no weapon listed"]),
    ("Kain", 6, [], ["no weapon listed", "cannot be fought"]),
    # "Weapon (unspecified)", damage 16, no kind or type: melee, physical; 16 x 3 Strikes = 48 = 4 x its multiplier 12
    ("Warrior King (Level 10, example)", 5, [("Weapon (unspecified)", 16, "melee", "physical")],
     ["5 ft (a human)", "melee assumed", "physical assumed"]),
    # damage not stated: 4 x damage multiplier / Strikes. Longswords: 4 x 1.75 / 1 = 7. The Mercenary states no
    # multiplier: BR 4.5 = Power 2 x (1 + Armor 2/4) x m x (0 combat features + 1) gives m = 1.5, so 4 x 1.5 = 6
    ("Mercenary Spearman (Level 0 human, example)", 5, [("Spear", 6, "melee", "physical")],
     ["damage not stated", "1.5"]),
    ("Longswordsman in Chain (Level 0 human, example)", 5, [("Longsword", 7, "melee", "physical")],
     ["damage not stated", "1.75"]),
    ("Gentleman Knight (Level 1 human, example)", 5, [("Longsword", 7, "melee", "physical")],
     ["damage not stated", "1.75"]),
]


@pytest.mark.parametrize("name, size, weapons, note_words", BROUGHT_IN, ids=[b[0] for b in BROUGHT_IN])
def test_each_brought_in_creature_has_its_published_stat_line(name, size, weapons, note_words):
    """Each of the ten creatures the old converter dropped carries the data file's numbers (power, HD, level, hp,
    armor, ap, strikes, source) and, where the data is silent, the default in ``BROUGHT_IN`` with a visible note."""
    s = _shared()[name]
    c = CAT.creature(name)
    assert (c.power, c.hd, c.level, c.hp, c.armor) == (s["power"], s["hd"], s.get("level", 0), s["hp"], s["armor"])
    assert (GE.armor_points(c), c.strikes, c.source) == (s["ap"], s.get("strikes", 1), s["source"])
    assert c.size == size and s.get("size") in (None, size)
    assert [(w.name, w.damage, w.kind, w.damage_type) for w in c.weapons] == weapons
    for w, a in zip(c.weapons, s["attacks"]):
        assert a["name"] == w.name and a.get("damage", w.damage) == w.damage
    for word in note_words:
        assert word in c.note
    assert c.immobile is bool(s.get("immobile", False))


def test_the_catalog_counts_every_creature_of_the_data_file_once():
    """The data file's [meta] creature_count is 40 and so is the catalog: no creature is left out (docs:
    "Left out, with the reason" lists weapons only), no name twice."""
    import tomllib

    data = tomllib.load(open("/work/shared/data/glass_empires_creatures.toml", "rb"))
    assert data["meta"]["creature_count"] == len(data["creature"]) == len(CAT.creatures) == 40
    assert sorted(CAT.creatures) == sorted(_shared())


def test_a_weaponless_creature_gets_a_clear_result_in_every_consumer():
    """True Immortal (no attacks, HP 28) and Kain (no attacks, HP 40): as attackers they deal 0 a turn, so
    rounds_to_kill is a RulesError (field "turn"), compare's row says mean_rounds inf, a duel against the Bear is the
    Bear's with certainty minus the chance the Bear has not killed it in 100 rounds (the Bear's own rounds_to_kill
    at round 100), and a duel of the two is decided by nobody. Naming a weapon it lacks is a RulesError."""
    from workbench.comparison import BEST_PLAN, compare

    ti, kain, bear = CAT.creature("True Immortal"), CAT.creature("Kain"), CAT.creature("Bear")
    assert wb.turn_damage(ti, bear).max() == 0
    with pytest.raises(RulesError) as e:
        wb.rounds_to_kill(ti, bear)
    assert e.value.field == "turn"
    with pytest.raises(RulesError) as e:
        GE.attack_named(ti, "Fists")
    assert e.value.field == "attacks" and "no attack called 'Fists'" in str(e.value)
    d = wb.duel(ti, bear)
    by = wb.rounds_to_kill(bear, ti)["p_killed_by"].to_numpy()
    assert d.p_a_wins == 0 and d.p_b_wins == pytest.approx(by[min(99, by.size - 1)], abs=1e-12)
    nobody = wb.duel(ti, kain)
    assert (nobody.p_a_wins, nobody.p_b_wins, nobody.p_draw) == (0, 0, 1)
    rows = compare([ti, bear], [bear], progress=False).filter(pl.col("attack") == BEST_PLAN)
    got = dict(zip(rows["attacker"], rows["mean_rounds"]))
    assert got["True Immortal"] == float("inf") and got["Bear"] < float("inf")
