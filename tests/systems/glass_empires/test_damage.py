"""Glass Empires damage: resistance, weakness and immunity, armor points, the damage order and formula
options, mixed damage types, armor depleting across strikes (glass-empires-attack.txt;
CLARIFICATIONS.md, Glass Empires).
"""

from __future__ import annotations

import polars as pl
import pytest

from tests.systems.glass_empires.builders import CAT, GE, p_damage


def test_bear_two_strikes_kill_a_human_hand_worked():
    """Bear: 2 Strikes of 10 (bear.yaml: extra Strike). Per Strike 20:1, 10:14, 5:6, 0:15 (of 36). Human 12 HP:
    P(total < 12) = (15*15 + 2*15*6 + 6*6 + 2*15*14) / 1296 = 861/1296."""
    bear, human = CAT.creature("Bear"), CAT.creature("Human (Level 1 starting PC)")
    t = GE.outcomes(bear.weapons[0], bear, human)
    assert t.filter("kill")["probability"].sum() == pytest.approx(435 / 1296, abs=1e-14)
    assert p_damage(t, 40) == pytest.approx(1 / 1296, abs=1e-15)
    assert p_damage(t, 15) == pytest.approx(2 * 14 * 6 / 1296, abs=1e-15)
    assert t.filter(pl.col("strikes_passed") == 2)["probability"].sum() == pytest.approx((21 / 36) ** 2, abs=1e-14)


def test_resistance_weakness_immunity():
    """CLARIFICATIONS.md: 'Resistance halves damage (round down), weakness doubles, immunity zeroes'."""
    fire = GE.Attack("Torch", damage=5, damage_type="fire")
    c = GE.Creature("C", power=2, weapons=[fire])
    bush = CAT.creature("Bush, Angry")                       # weak to fire
    assert p_damage(GE.outcomes(fire, c, bush), 10) == pytest.approx(14 / 36, abs=1e-15)
    resists = GE.Creature("R", power=2, resist=["fire"])
    assert p_damage(GE.outcomes(fire, c, resists), 2) == pytest.approx(14 / 36, abs=1e-15)
    assert p_damage(GE.outcomes(fire, c, resists), 1) == pytest.approx(6 / 36, abs=1e-15)   # Seven 5//2=2, //2=1
    roaches = CAT.creature("Skittering Horde (Cockroaches)")   # immune to physical
    sword = CAT.attack("Heavy melee")
    t = GE.outcomes(sword, c, roaches)
    assert t["damage"].max() == 0 and t["ap_damage"].max() == 0


def test_armor_points_absorb_one_per_two_damage_or_fraction():
    """CLARIFICATIONS.md: 'Armor points absorb physical damage before HP, 1 AP per 2 damage (or fraction)'.
    Plate Soldier: Armor 4 x Power 4 = 16 AP. Sword 5: Pass -> 3 AP, 0 HP; Crit 10 -> 5 AP; Seven 2 -> 1 AP."""
    plate = CAT.creature("Plate Soldier (Level 2 human, example)")
    assert GE.armor_points(plate) == 16
    sword = CAT.attack("Medium melee")
    c = GE.Creature("C", power=2, weapons=[sword])
    t = GE.outcomes(sword, c, plate)
    assert t["damage"].max() == 0
    ap = {r["ap_damage"]: r["probability"] for r in t.group_by("ap_damage").agg(pl.col("probability").sum()).iter_rows(named=True)}
    assert ap[3] == pytest.approx(14 / 36) and ap[5] == pytest.approx(1 / 36) and ap[1] == pytest.approx(6 / 36)
    # with 2 AP left, a Pass of 5: 4 absorbed for 2 AP, 1 to HP
    t2 = GE.outcomes(sword, c, plate, situation=GE.Situation(target_ap=2))
    row = t2.filter(pl.col("damage") == 1)
    assert row["ap_damage"].to_list() == [2] and row["probability"].sum() == pytest.approx(14 / 36)
    # fire is not physical: armor points do not absorb it
    torch = GE.Attack("Torch", damage=5, damage_type="fire")
    assert p_damage(GE.outcomes(torch, c, plate), 5) == pytest.approx(14 / 36)


def test_damage_order_options():
    """CLARIFICATIONS.md default: 'Crit x2 or Seven /2 first, then resistance, then armor points, then HP'.
    Damage 7 Crit vs resistance: 14//2 = 7 (default) or 7//2*2 = 6 (resistance first).
    Damage 5 Crit vs resistance with 2 AP: 10->5, 4 absorbed, 1 HP (default) or 10, 4 absorbed, 6//2 = 3."""
    axe = GE.Attack("Axe", damage=7)
    c = GE.Creature("C", power=2, weapons=[axe])
    res = GE.Creature("R", power=2, resist=["physical"])
    assert p_damage(GE.outcomes(axe, c, res), 7) == pytest.approx(1 / 36)
    assert p_damage(GE.outcomes(axe, c, res, GE.Options(damage_order="resistance,band,armor")), 6) == pytest.approx(1 / 36)
    sword = CAT.attack("Medium melee")
    armored = GE.Creature("A", power=2, armor=1, resist=["physical"])   # 2 AP
    assert p_damage(GE.outcomes(sword, c, armored), 1) == pytest.approx(1 / 36)
    t = GE.outcomes(sword, c, armored, GE.Options(damage_order="band,armor,resistance"))
    assert p_damage(t, 3) == pytest.approx(1 / 36)


def test_armor_points_formula_option():
    """CLARIFICATIONS.md default 'Armor points = Armor x Power'; option armor_x_hd (armor.mdx's reading).
    Plate Soldier HD 2 + Level 2: 16 vs 8 (shared data: ap 16, ap_if_armor_x_hd 8)."""
    plate = CAT.creature("Plate Soldier (Level 2 human, example)")
    assert GE.armor_points(plate, GE.Options(armor_points_formula="armor_x_hd")) == 8
    assert GE.armor_points(plate, GE.Options()) == 16


def test_mixed_damage_type_uses_most_damaging_type():
    """Skittering Horde 'physical/poison': vs Creeping Cap (immune poison) physical applies; vs Cockroaches
    (immune physical) poison applies, capped at 1 by their swarm (single-target damage max 1): every Strike that
    lands (21 of 36) deals 1; least_damaging gives 0 on both."""
    horde = CAT.creature("Skittering Horde")
    bites = horde.weapons[0]
    cap, roaches = CAT.creature("Creeping Cap"), CAT.creature("Skittering Horde (Cockroaches)")
    assert p_damage(GE.outcomes(bites, horde, cap), 4) == pytest.approx(14 / 36)
    assert p_damage(GE.outcomes(bites, horde, roaches), 1) == pytest.approx(21 / 36)
    for target in (cap, roaches):
        least = GE.outcomes(bites, horde, target, GE.Options(mixed_damage_type="least_damaging"))
        assert least["damage"].max() == 0


def test_bear_against_plate_soldier_armor_depletes_across_strikes():
    """Bear 2 x 10 vs Plate Soldier 16 AP: only Crit + Crit reaches HP: 20 costs 10 AP, then 12 of 20 absorbed by
    the last 6 AP -> 8 HP damage, P = 1/1296 (CLARIFICATIONS.md: 1 AP per 2 damage (or fraction))."""
    bear, plate = CAT.creature("Bear"), CAT.creature("Plate Soldier (Level 2 human, example)")
    t = GE.outcomes(bear.weapons[0], bear, plate)
    assert t["damage"].unique().sort().to_list() == [0, 8]
    assert p_damage(t, 8) == pytest.approx(1 / 1296, abs=1e-15)
    assert t.filter(pl.col("damage") == 8)["ap_damage"].to_list() == [16]
