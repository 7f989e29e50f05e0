"""Glass Empires against an independent brute-force oracle: every (d1, d2) of every Strike enumerated.

The oracle below is written from glass-empires-attack.txt and CLARIFICATIONS.md (Glass Empires)
without using the implementation: it walks all 36**strikes dice tuples with exact fractions.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from fractions import Fraction

from hypothesis import given, settings, strategies as st

import workbench as wb

GE = wb.system("glass_empires")


def oracle(damage, modifier, strikes, ap, res, armored, jams, order="band,resistance,armor", jam_ends=True,
           taken=Fraction(1), rounding="down", reduction=0, cap=None, shield=0):
    """Return {(damage, ap_damage, crit, fumble, jam, passed): probability} by full enumeration.

    Target traits (shared/data/glass_empires_creatures.toml): ``taken`` a damage-taken multiplier after
    resistance, rounded ``rounding``; ``reduction`` off each landed Strike; ``cap`` the most one Strike deals;
    ``shield`` a Ray Shield threshold (up at the start): it absorbs every Strike, and the first Strike of at
    least ``shield`` breaks it (and is absorbed too)."""
    faces = list(itertools.product(range(1, 7), repeat=2))
    out = defaultdict(Fraction)

    def times(x):
        v = x * taken
        return {"down": v.numerator // v.denominator, "up": -(-v.numerator // v.denominator),
                "nearest": (2 * v.numerator + v.denominator) // (2 * v.denominator)}[rounding]

    for rolls in itertools.product(faces, repeat=strikes):
        hp_dmg, ap_left, crit, fumble, jam, passed = 0, ap, False, False, False, 0
        shield_up = shield > 0
        for d1, d2 in rolls:
            if jam and jam_ends:
                continue
            nat = d1 + d2
            total = nat + modifier
            if nat == 12:
                result = "crit"
            elif nat == 2:
                result = "fumble"
            elif total >= 12:
                result = "crit"
            elif 8 <= total <= 11:
                result = "pass"
            elif total == 7:
                result = "seven"
            elif 3 <= total <= 6:
                result = "failure"
            else:
                result = "fumble"
            crit |= result == "crit"
            fumble |= result == "fumble"
            if result == "fumble" and jams:
                jam = True
            if result in ("failure", "fumble"):
                continue
            passed += 1

            def band(x):
                return {"crit": 2 * x, "pass": x, "seven": x // 2}[result]

            def resist(x):
                return times({"immune": 0, "resist": x // 2, "normal": x, "weak": x * 2}[res])

            if order == "band,resistance,armor":
                x = resist(band(damage))
            elif order == "resistance,band,armor":
                x = band(resist(damage))
            else:
                x = band(damage)
            x = max(0, x - reduction)
            if cap is not None:
                x = min(x, cap)
            if shield_up:
                shield_up = x < shield
                x = 0
            if armored:
                used = min(ap_left, -(-x // 2))          # 1 AP per 2 damage or fraction
                absorbed = min(x, 2 * used)
                ap_left -= used
                x -= absorbed
            if order == "band,armor,resistance":
                x = resist(x)
                if cap is not None:
                    x = min(x, cap)
            hp_dmg += x
        out[(hp_dmg, ap - ap_left, crit, fumble, jam, passed)] += Fraction(1, 36 ** strikes)
    return out


def table_as_dict(table):
    d = defaultdict(float)
    for r in table.iter_rows(named=True):
        d[(r["damage"], r["ap_damage"], r["crit"], r["fumble"], r["jam"], r["strikes_passed"])] += r["probability"]
    return d


def build(damage, strikes, power, armor, res, damage_type, jams):
    attack = GE.Attack("Test weapon", damage=damage, kind="melee", damage_type=damage_type, reload=jams)
    attacker = GE.Creature("Attacker", power=3, strikes=strikes, weapons=[attack])
    kw = {"resist": (), "weak": (), "immune": ()}
    key = {"resist": "resist", "weak": "weak", "immune": "immune"}.get(res)
    if key:
        kw[key] = (damage_type,)
    target = GE.Creature("Target", power=power, armor=armor, **kw)
    return attack, attacker, target


def assert_matches(table, expected):
    got = table_as_dict(table)
    assert set(k for k, v in got.items() if v > 0) == set(k for k, v in expected.items() if v > 0)
    for k, v in expected.items():
        assert abs(got[k] - float(v)) < 1e-12, k


@settings(max_examples=60, deadline=None)
@given(damage=st.integers(0, 12), modifier=st.integers(-6, 6), strikes=st.integers(1, 2),
       power=st.integers(1, 4), armor=st.sampled_from([0, 1, 2, 4]),
       res=st.sampled_from(["normal", "resist", "weak", "immune"]),
       damage_type=st.sampled_from(["physical", "fire"]), jams=st.booleans(),
       order=st.sampled_from(["band,resistance,armor", "resistance,band,armor", "band,armor,resistance"]),
       ap_used=st.integers(0, 16), jam_ends=st.booleans())
def test_outcome_table_equals_enumeration_of_every_strike(damage, modifier, strikes, power, armor, res,
                                                         damage_type, jams, order, ap_used, jam_ends):
    """glass-empires-attack.txt: 'perform 1 or more Strikes' each its own Strike Save; CLARIFICATIONS.md bands,
    resistance, armor points (1 AP per 2 damage or fraction) and the damage order option."""
    attack, attacker, target = build(damage, strikes, power, armor, res, damage_type, jams)
    ap_now = max(0, armor * power - ap_used)
    situation = GE.Situation(environment=modifier, target_ap=ap_now)
    options = GE.Options(damage_order=order, jam_ends_strikes=jam_ends)
    table = GE.outcomes(attack, attacker, target, options, situation)
    assert abs(table["probability"].sum() - 1) < 1e-12
    expected = oracle(damage, modifier, strikes, ap_now, res, damage_type == "physical", jams, order, jam_ends)
    assert_matches(table, expected)


def test_three_strikes_with_armor_depletion_match_enumeration():
    """Cave Bear style: 3 Strikes of 10 against Plate Soldier AP 16 at -2; 36**3 dice tuples enumerated."""
    attack, attacker, target = build(10, 3, 4, 4, "normal", "physical", False)
    table = GE.outcomes(attack, attacker, target, situation=GE.Situation(conditions=-2))
    assert_matches(table, oracle(10, -2, 3, 16, "normal", True, False))


def test_windgun_three_strikes_jam_stops_later_strikes_matches_enumeration():
    """Fumble row: a windgun jams; with jam_ends_strikes the jammed gun makes no further Strike."""
    gun = GE.Attack("Windgun", category="windgun", kind="ranged")
    shooter = GE.Creature("Gunner", power=6, strikes=3, weapons=[gun])
    target = GE.Creature("Target", power=3, armor=1)
    table = GE.outcomes(gun, shooter, target, situation=GE.Situation(environment=-3))
    assert_matches(table, oracle(8, -3, 3, 3, "normal", True, True))


def test_two_attack_plan_carries_armor_points_between_attacks():
    """A two-Attack turn (attack_is_save_action=False) = 2 Strikes in sequence sharing armor points."""
    sword = GE.Attack("Sword", category="medium_melee")
    attacker = GE.Creature("Swordsman", power=3, weapons=[sword])
    target = GE.Creature("Knight", power=3, armor=2)
    opts = GE.Options(attack_is_save_action=False)
    dist = GE.plan_damage(attacker, target, ["Sword", "Sword"], opts)
    expected = defaultdict(Fraction)
    for (dmg, *_), p in oracle(5, 0, 2, 6, "normal", True, False).items():
        expected[dmg] += p
    for dmg, p in expected.items():
        assert abs(dist.probability(dmg) - float(p)) < 1e-12
    independent = GE.damage(sword, attacker, target) + GE.damage(sword, attacker, target)
    assert not dist.isclose(independent)  # armor depletion makes the two Attacks dependent


@settings(max_examples=60, deadline=None)
@given(damage=st.integers(0, 12), modifier=st.integers(-4, 5), strikes=st.integers(1, 2),
       armor=st.sampled_from([0, 1, 2]), res=st.sampled_from(["normal", "resist", "weak", "immune"]),
       damage_type=st.sampled_from(["physical", "fire"]),
       order=st.sampled_from(["band,resistance,armor", "resistance,band,armor", "band,armor,resistance"]),
       taken=st.sampled_from([Fraction(1), Fraction(3, 2), Fraction(1, 2), Fraction(5, 4)]),
       rounding=st.sampled_from(["down", "nearest", "up"]), reduction=st.integers(0, 2),
       cap=st.sampled_from([None, 0, 1, 3]), shield=st.sampled_from([0, 1, 6, 11]))
def test_published_target_traits_equal_enumeration(damage, modifier, strikes, armor, res, damage_type, order, taken,
                                                   rounding, reduction, cap, shield):
    """shared/data/glass_empires_creatures.toml traits on each Strike: damage_taken_multiplier (the Living Tree's
    fire x1.5, Options.multiplier_rounding), damage reduction (Bloodthirst), the single-target cap (Swarm) and the
    Ray Shield, against 36**strikes enumerated dice tuples."""
    attack, attacker, target = build(damage, strikes, 3, armor, res, damage_type, False)
    traits = {"damage_taken_multiplier": {damage_type: float(taken)}, "damage_reduction": reduction}
    if cap is not None:
        traits["single_target_damage_max"] = cap
    if shield:
        traits["ray_shield_breaks_at"] = shield
    target = target.replace(traits=traits)
    options = GE.Options(damage_order=order, multiplier_rounding=rounding)
    table = GE.outcomes(attack, attacker, target, options, GE.Situation(environment=modifier))
    expected = oracle(damage, modifier, strikes, armor * 3, res, damage_type == "physical", False, order, True,
                      taken, rounding, reduction, cap, shield)
    assert_matches(table, expected)
