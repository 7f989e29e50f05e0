"""Glass Empires rules with hand-worked numbers (glass-empires-attack.txt, CLARIFICATIONS.md Glass Empires)."""

from __future__ import annotations

import time

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings, strategies as st

import workbench as wb
from workbench import RulesError

GE = wb.system("glass_empires")
CAT = GE.catalog()

# Hand-worked from the 2d6 counts 1,2,3,4,5,6,5,4,3,2,1 (naturals 2..12), natural 12 always Crit,
# natural 2 always Fumble: (crit, pass, seven, failure, fumble) out of 36.
HAND_BANDS = {
    -4: (1, 0, 2, 18, 15),
    -3: (1, 2, 3, 20, 10),
    -2: (1, 5, 4, 20, 6),
    -1: (1, 9, 5, 18, 3),
    0: (1, 14, 6, 14, 1),
    1: (3, 18, 5, 9, 1),
    2: (6, 20, 4, 5, 1),
    3: (10, 20, 3, 2, 1),
    4: (15, 18, 2, 0, 1),
}


def sword_pair(**target_kw):
    sword = GE.Attack("Sword", category="medium_melee")
    attacker = GE.Creature("Swordsman", power=3, weapons=[sword])
    target = GE.Creature("Target", **{"power": 3, **target_kw})
    return sword, attacker, target


def p_damage(table, value):
    return table.filter(pl.col("damage") == value)["probability"].sum()


@pytest.mark.parametrize("modifier", sorted(HAND_BANDS))
def test_band_probabilities_hand_worked(modifier):
    """glass-empires-attack.txt Strike Save table; CLARIFICATIONS.md: natural 12 Crit, natural 2 Fumble."""
    got = GE.band_table(modifier)["probability"].to_list()
    assert np.allclose(got, [c / 36 for c in HAND_BANDS[modifier]], atol=1e-15, rtol=0)


def test_band_probabilities_match_icepool():
    """The band split of 2d6 + modifier, checked against icepool's 2d6 (natural overrides applied)."""
    import icepool

    d = 2 @ icepool.d6
    for m in range(-8, 9):
        want = [0.0] * 5
        for nat, count in d.items():
            t = nat + m
            band = 0 if nat == 12 else 4 if nat == 2 else 0 if t >= 12 else 1 if t >= 8 else 2 if t == 7 else 3 if t >= 3 else 4
            want[band] += count / d.denominator()
        assert np.allclose(GE.band_table(m)["probability"].to_list(), want, atol=1e-14)


def test_crit_doubles_and_seven_halves_rounded_down():
    """Crit (>=12): 'twice the normal severity'; Seven (7): 'halving Damage taken; round down'. Sword 5 at +0."""
    sword, attacker, target = sword_pair()
    t = GE.outcomes(sword, attacker, target)
    assert p_damage(t, 10) == pytest.approx(1 / 36, abs=1e-15)    # natural 12 only
    assert p_damage(t, 5) == pytest.approx(14 / 36, abs=1e-15)
    assert p_damage(t, 2) == pytest.approx(6 / 36, abs=1e-15)     # 5 // 2
    assert p_damage(t, 0) == pytest.approx(15 / 36, abs=1e-15)    # Failure 14 + Fumble 1
    assert t["probability"].sum() == pytest.approx(1, abs=1e-12)


def test_natural_twelve_and_two_override_any_modifier():
    """CLARIFICATIONS.md: 'Natural 12 is always a Crit, natural 2 always a Fumble'."""
    assert GE.band_table(-20)["probability"].to_list() == pytest.approx([1 / 36, 0, 0, 0, 35 / 36])
    assert GE.band_table(20)["probability"].to_list() == pytest.approx([35 / 36, 0, 0, 0, 1 / 36])


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


def test_out_of_range_minus_one_and_beyond_twice_is_an_error():
    """Out of Range: 'up to twice a weapon's listed range, but when doing so, each Strike Save suffers a -1'."""
    bow = CAT.attack("Bow")
    archer = GE.Creature("Archer", power=2, weapons=[bow])
    assert GE.strike_modifier(bow, archer, GE.Situation(distance=150)) == 0
    assert GE.strike_modifier(bow, archer, GE.Situation(distance=151)) == -1
    assert GE.strike_modifier(bow, archer, GE.Situation(distance=300)) == -1
    t = GE.outcomes(bow, archer, GE.Creature("T", power=2), situation=GE.Situation(distance=200))
    assert p_damage(t, 5) == pytest.approx(9 / 36, abs=1e-15)   # Pass at -1: naturals 9, 10, 11
    with pytest.raises(RulesError, match="distance"):
        GE.outcomes(bow, archer, GE.Creature("T", power=2), situation=GE.Situation(distance=301))


def test_cover_penalties_apply_to_ranged_only():
    """Cover: low/weak cover -2, high/strong cover -4 to 'ranged attacks' Strike Saves'."""
    bow, sword = CAT.attack("Bow"), CAT.attack("Medium melee")
    c = GE.Creature("C", power=2, weapons=[bow, sword])
    assert GE.strike_modifier(bow, c, GE.Situation(cover="low")) == -2
    assert GE.strike_modifier(bow, c, GE.Situation(cover="high")) == -4
    assert GE.strike_modifier(sword, c, GE.Situation(cover="high")) == 0
    t = GE.outcomes(bow, c, GE.Creature("T", power=2), situation=GE.Situation(cover="high"))
    assert p_damage(t, 0) == pytest.approx((18 + 15) / 36, abs=1e-15)


def test_environment_and_conditions_each_plus_minus_one():
    """'add factors such as the environment, Conditions' (CLARIFICATIONS.md: each relevant one +-1)."""
    sword, attacker, target = sword_pair()
    s = GE.Situation(environment=2, conditions=-1)
    assert GE.strike_modifier(sword, attacker, s) == 1
    t = GE.outcomes(sword, attacker, target, situation=s)
    assert p_damage(t, 10) == pytest.approx(3 / 36, abs=1e-15)


def test_no_personal_fact_bonus():
    """'You may not add personal Fact bonuses to a Save'."""
    with pytest.raises(RulesError, match="fact_bonus"):
        GE.Situation(fact_bonus=1)


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


def test_firing_into_melee_victims_by_height():
    """Firing into Melee: random among those within the foe's reach 'whose Heights are greater than half the
    intended target's Height'. Intended 6 ft; nearby 2, 3, 4, 10 ft -> eligible: 6, 4, 10, each 1/3."""
    intended = GE.Creature("Foe", power=2, size=6)
    nearby = [GE.Creature(f"N{s}", power=2, size=s, armor=1) for s in (2, 3, 4, 10)]
    v = GE.into_melee_victims(intended, nearby)
    assert v["victim"].to_list() == [0, 3, 4]
    assert v["probability"].to_list() == pytest.approx([1 / 3] * 3)
    bow = CAT.attack("Bow")
    archer = GE.Creature("Archer", power=2, weapons=[bow])
    t = GE.into_melee_outcomes(bow, archer, intended, nearby)
    assert t["probability"].sum() == pytest.approx(1, abs=1e-12)
    # the unarmored intended foe takes a Pass of 5 with P = 1/3 * 14/36; armored victims take it on AP (2 AP: 4 + 1)
    assert t.filter((pl.col("victim") == 0) & (pl.col("damage") == 5))["probability"].sum() == pytest.approx(14 / 108)
    assert t.filter((pl.col("victim") == 3) & (pl.col("damage") == 1))["probability"].sum() == pytest.approx(14 / 108)
    with pytest.raises(RulesError, match="attack"):
        GE.into_melee_outcomes(CAT.attack("Medium melee"), archer, intended, nearby)


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


def test_vectorised_grid_equals_single_matchups():
    """outcome_tables over several matchups equals each 1 x 1 call."""
    creatures = list(CAT.creatures.values())
    armed = [c for c in creatures if c.weapons]
    attacks = [c.weapons[0] for c in armed[:6]]
    targets = creatures[-6:]
    grid = GE.outcome_tables(attacks, armed[:6], targets)
    for i in range(6):
        single = GE.outcomes(attacks[i], armed[i], targets[i])
        part = grid.filter(pl.col("matchup") == i).drop("matchup")
        assert part.equals(single)


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


@settings(max_examples=40, deadline=None)
@given(damage=st.integers(0, 15), strikes=st.integers(1, 3), armor=st.integers(0, 4), power=st.integers(1, 5),
       m=st.integers(-6, 5), res=st.sampled_from([(), ("physical",)]))
def test_properties_sum_to_one_and_monotone(damage, strikes, armor, power, m, res):
    """Probabilities sum to 1; a better modifier never lowers mean damage or P(a Strike lands);
    more armor points never raise HP damage."""
    w = GE.Attack("w", damage=damage)
    a = GE.Creature("a", power=2, strikes=strikes, weapons=[w])
    t = GE.Creature("t", power=power, armor=armor, resist=res)
    lo = GE.outcomes(w, a, t, situation=GE.Situation(environment=m))
    hi = GE.outcomes(w, a, t, situation=GE.Situation(environment=m + 1))
    for tab in (lo, hi):
        assert abs(tab["probability"].sum() - 1) < 1e-12
    mean = lambda tab: float((tab["damage"] * tab["probability"]).sum() + (tab["ap_damage"] * tab["probability"]).sum())  # noqa: E731
    assert mean(hi) >= mean(lo) - 1e-12
    landed = lambda tab: tab.filter(pl.col("strikes_passed") > 0)["probability"].sum()  # noqa: E731
    assert landed(hi) >= landed(lo) - 1e-12
    bare = GE.damage(w, a, t.replace(armor=0), situation=GE.Situation(environment=m))
    assert bare.mean() >= GE.damage(w, a, t, situation=GE.Situation(environment=m)).mean() - 1e-12


def test_ten_thousand_matchups_in_one_call():
    """Measure: 10,000 matchups (catalog creatures x weapons, 1-3 Strikes, armor) in one vectorised call."""
    creatures = list(CAT.creatures.values())
    weapons = [w for w in CAT.attacks.values() if w.kind == "melee"]
    rng = np.random.default_rng(6)
    n = 10_000
    attackers = [creatures[i].replace(strikes=int(s), weapons=()) for i, s in
                 zip(rng.integers(0, len(creatures), n), rng.integers(1, 4, n))]
    attacks = [weapons[i] for i in rng.integers(0, len(weapons), n)]
    targets = [creatures[i] for i in rng.integers(0, len(creatures), n)]
    start = time.perf_counter()
    table = GE.outcome_tables(attacks, attackers, targets)
    elapsed = time.perf_counter() - start
    print(f"\nglass_empires: 10,000 matchups in {elapsed:.3f} s, {table.height} rows")
    sums = table.group_by("matchup").agg(pl.col("probability").sum())
    assert sums.height == n and np.allclose(sums["probability"].to_numpy(), 1, atol=1e-12)
    assert elapsed < 30


def test_bear_against_plate_soldier_armor_depletes_across_strikes():
    """Bear 2 x 10 vs Plate Soldier 16 AP: only Crit + Crit reaches HP: 20 costs 10 AP, then 12 of 20 absorbed by
    the last 6 AP -> 8 HP damage, P = 1/1296 (CLARIFICATIONS.md: 1 AP per 2 damage (or fraction))."""
    bear, plate = CAT.creature("Bear"), CAT.creature("Plate Soldier (Level 2 human, example)")
    t = GE.outcomes(bear.weapons[0], bear, plate)
    assert t["damage"].unique().sort().to_list() == [0, 8]
    assert p_damage(t, 8) == pytest.approx(1 / 1296, abs=1e-15)
    assert t.filter(pl.col("damage") == 8)["ap_damage"].to_list() == [16]


def test_generic_turn_layer_uses_the_hooks():
    """wb.rounds_to_kill on creatures goes through turn_plans / hit_points (one Attack per turn by default)."""
    bear, human = CAT.creature("Bear"), CAT.creature("Human (Level 1 starting PC)")
    r = wb.rounds_to_kill(bear, human)
    assert r["p_killed_by"][0] == pytest.approx(435 / 1296, abs=1e-12)


# --------------------------------------------------------------------------- published creatures and traits
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
