"""Hand-worked numbers for every Unbound attack rule (unbound-d20-attacking.txt, CLARIFICATIONS.md)."""

from fractions import Fraction as F

import polars as pl
import pytest

import workbench as wb
from workbench import Dist, RulesError

U = wb.system("unbound")
Attack, Creature, Options, Situation, Action = U.Attack, U.Creature, U.Options, U.Situation, U.Action


def me(str_mod=0, dex_mod=0, magic_mod=0, rank="untrained", weapons=(), **kw):
    return Creature("A", 30, 10, 10, str_mod, dex_mod, magic_mod, rank, list(weapons), **kw)


def foe(ac=15, touch_ac=10):
    return Creature("T", 30, ac, touch_ac)


def p_hit(attack, attacker, target, options=None, situation=None):
    t = U.outcomes(attack, attacker, target, options, situation)
    return t.filter(pl.col("hit"))["probability"].sum()


def col_p(t, expr):
    return t.filter(expr)["probability"].sum()


# --------------------------------------------------------------------------- Making an Attack
def test_equal_or_higher_than_ac_hits():
    """'If the result of their attack is equal to or higher than the targets AC ... the attack hits':
    +5 vs AC 15 needs a natural 10+, 11 faces of 20."""
    assert p_hit(Attack("S", attack_bonus=5), me(), foe(15)) == pytest.approx(11 / 20, abs=1e-15)


def test_touch_attacks_aim_at_touch_ac():
    """'whichever they are targeting': touch attack +0 vs touch AC 12 needs 12+ (9/20), not AC 25."""
    assert p_hit(Attack("T", touch=True, attack_bonus=0), me(), foe(25, 12)) == pytest.approx(9 / 20)


def test_natural_one_misses_and_natural_twenty_hits():
    """'a natural 1 on the d20 roll is an automatic miss and a natural 20 is an automatic hit'."""
    assert p_hit(Attack("S", attack_bonus=40), me(), foe(5)) == pytest.approx(19 / 20)
    assert p_hit(Attack("S", attack_bonus=-10), me(), foe(60)) == pytest.approx(1 / 20)


@pytest.mark.parametrize("kind, extra, mods, expected", [
    ("melee", {}, dict(str_mod=3, dex_mod=-5), 14 / 20),      # 'Melee attacks use the characters strength modifier'
    ("ranged", dict(range_increment=50), dict(str_mod=-5, dex_mod=2), 13 / 20),  # 'Ranged ... dexterity'
    ("thrown", dict(range_increment=10), dict(str_mod=-5, dex_mod=1), 12 / 20),
    ("spell", {}, dict(magic_mod=4, thaumaturgy_mod=1), 15 / 20),  # 'thaumaturgy or magic ..., whichever is higher'
    ("spell", {}, dict(magic_mod=1, thaumaturgy_mod=5), 16 / 20),
])
def test_attack_bonus_attribute_by_kind(kind, extra, mods, expected):
    """unbound-d20-attacking.txt, Attack Bonuses; vs AC 10: hit on natural >= 10 - bonus."""
    assert p_hit(Attack("W", kind=kind, **extra), me(**mods), foe(10)) == pytest.approx(expected)


def test_explicit_attack_bonus_replaces_the_attribute():
    assert p_hit(Attack("W", attack_bonus=2), me(str_mod=9), foe(10)) == pytest.approx(13 / 20)


# --------------------------------------------------------------------------- damage
def test_melee_damage_adds_strength_ranged_does_not():
    """CLARIFICATIONS.md, Unbound: 'Melee damage adds the Strength modifier; ranged and spell damage add nothing'."""
    o = Options(confirm_crits=False)
    t = U.outcomes(Attack("Sword", "1d8", attack_bonus=50, crit="20x2"), me(str_mod=2), foe(0), o)
    normal = t.filter(pl.col("hit") & ~pl.col("threat"))
    assert sorted(normal["damage"].to_list()) == list(range(3, 11))
    t = U.outcomes(Attack("Bow", "1d8", "ranged", range_increment=60, attack_bonus=50), me(str_mod=2), foe(0), o)
    assert sorted(t.filter(pl.col("hit") & ~pl.col("threat"))["damage"].to_list()) == list(range(1, 9))


def test_damage_never_below_zero_and_minimum_option():
    """Text states no minimum damage: a hit of 1d4-3 deals max(0, roll) (P(0 | hit) = 3/4);
    Options.minimum_damage=1 makes it at least 1."""
    a = Attack("Weak", "1d4-3", attack_bonus=50, crit="20x2")
    o = Options(confirm_crits=False)
    t = U.outcomes(a, me(), foe(0), o)
    hit_plain = t.filter(pl.col("hit") & ~pl.col("threat"))
    assert hit_plain["damage"].min() == 0
    p0 = col_p(hit_plain, pl.col("damage") == 0) / hit_plain["probability"].sum()
    assert p0 == pytest.approx(3 / 4)
    t1 = U.outcomes(a, me(), foe(0), Options(confirm_crits=False, minimum_damage=1))
    assert t1.filter(pl.col("hit"))["damage"].min() == 1
    assert col_p(t1, pl.col("damage") == 0) == pytest.approx(1 / 20)  # only the natural 1 misses


def test_sum_notation_damage():
    """'1d4+1d6' rolls both dice: 2..10 with P(7) = 4/24."""
    t = U.outcomes(Attack("Ray", "1d4+1d6", attack_bonus=50, crit="20x2"), me(), foe(0), Options(confirm_crits=False))
    plain = t.filter(pl.col("hit") & ~pl.col("threat"))
    p = dict(zip(plain["damage"], plain["probability"]))
    assert p[7] / sum(p.values()) == pytest.approx(4 / 24)


# --------------------------------------------------------------------------- criticals
def test_threat_range_and_multiplier_without_confirmation():
    """CLARIFICATIONS: '"20x2" is threat range and multiplier'; 19-20x2 with certain hits:
    P(crit) = 2/20; a crit rolls 1d8+2 twice: mean 13."""
    t = U.outcomes(Attack("Sword", "1d8", crit="19-20x2", attack_bonus=50), me(str_mod=2), foe(0),
                   Options(confirm_crits=False))
    crit = t.filter(pl.col("crit"))
    assert crit["probability"].sum() == pytest.approx(2 / 20)
    assert (crit["damage"] * crit["probability"]).sum() / crit["probability"].sum() == pytest.approx(13.0)
    assert crit["damage"].min() == 6 and crit["damage"].max() == 20


def test_confirmation_roll_same_modifiers_same_ac():
    """CLARIFICATIONS: 'A threat that hits is confirmed by a second roll with the same modifiers
    against the same AC': +0 vs AC 11 hits 10/20; 19-20 threatens 2/20; crit = 2/20 * 10/20."""
    t = U.outcomes(Attack("S", crit="19-20x2", attack_bonus=0), me(), foe(11))
    assert col_p(t, pl.col("threat")) == pytest.approx(0.1)
    assert col_p(t, pl.col("crit")) == pytest.approx(0.05)
    assert col_p(t, pl.col("threat") & ~pl.col("crit")) == pytest.approx(0.05)
    assert col_p(t, pl.col("hit")) == pytest.approx(0.5)


def test_threat_needs_a_hit():
    """A natural 19 that misses (+0 vs AC 20) does not threaten; only the natural 20 does."""
    t = U.outcomes(Attack("S", crit="19-20x2", attack_bonus=0), me(), foe(20), Options(confirm_crits=False))
    assert col_p(t, pl.col("threat")) == pytest.approx(1 / 20)


def test_crit_x3_damage_exact():
    """20x3 with '1d4+1': crit = three rolls of 1d4+1 = 3d4+3, exact against brute enumeration."""
    t = U.outcomes(Attack("A", "1d4+1", crit="20x3", attack_bonus=50), me(), foe(0), Options(confirm_crits=False))
    crit = t.filter(pl.col("crit"))
    got = {d: p * 20 for d, p in zip(crit["damage"], crit["probability"])}
    want = {}
    for a in range(1, 5):
        for b in range(1, 5):
            for c in range(1, 5):
                want[a + b + c + 3] = want.get(a + b + c + 3, 0) + 1 / 64
    assert got == pytest.approx(want)


# --------------------------------------------------------------------------- advantage
@pytest.mark.parametrize("sit, expected", [
    (Situation(advantage=True), 1 - (10 / 20) ** 2),
    (Situation(disadvantage=True), (10 / 20) ** 2),
    (Situation(advantage=True, disadvantage=True), 0.5),
])
def test_advantage_disadvantage_cancel(sit, expected):
    """CLARIFICATIONS: 'roll 2d20 keep the higher; disadvantage keep the lower; they do not stack and cancel'."""
    assert p_hit(Attack("S", attack_bonus=0), me(), foe(11), None, sit) == pytest.approx(expected)


def test_charge_gives_advantage_to_melee_only():
    """'When a character takes the charge action when making a melee attack they gain advantage'."""
    assert p_hit(Attack("S", attack_bonus=0), me(), foe(11), None, Situation(charge=True)) == pytest.approx(0.75)
    with pytest.raises(RulesError) as e:
        U.outcomes(Attack("B", kind="ranged", range_increment=30), me(), foe(), None, Situation(charge=True))
    assert e.value.field == "charge"


def test_braced_firearm_or_crossbow_has_advantage():
    """'While braced or firing from prone the character gains advantage on attack roles with these weapons.'"""
    xbow = Attack("Xbow", kind="ranged", range_increment=120, braceable=True, attack_bonus=0)
    bow = Attack("Bow", kind="ranged", range_increment=100, attack_bonus=0)
    assert p_hit(xbow, me(), foe(11), None, Situation(braced=True)) == pytest.approx(0.75)
    assert p_hit(bow, me(), foe(11), None, Situation(braced=True)) == pytest.approx(0.5)


# --------------------------------------------------------------------------- situational bonuses
def test_flanking_plus_two():
    """'When two characters flank an enemy they gain a +2 tactical bonus to hit'."""
    a = Attack("S", attack_bonus=0)
    assert p_hit(a, me(), foe(12), None, Situation(flanking=True)) == pytest.approx(11 / 20)


@pytest.mark.parametrize("kind, hg, expected", [("melee", "above", 12 / 20), ("melee", "below", 10 / 20),
                                                ("ranged", "above", 12 / 20), ("ranged", "below", 11 / 20)])
def test_high_ground(kind, hg, expected):
    """'+1 tactical bonus' attacking down; 'attacking up ... with a melee attack ... -1'."""
    extra = dict(range_increment=30) if kind == "ranged" else {}
    a = Attack("S", kind=kind, attack_bonus=0, **extra)
    assert p_hit(a, me(), foe(10), None, Situation(high_ground=hg)) == pytest.approx(expected)


def test_shooting_into_melee_and_precise_shot():
    """'the attacker takes a -4 to attack. This penalty can be negated by ... Precise Shot.'"""
    bow = Attack("Bow", kind="ranged", range_increment=100, attack_bonus=0)
    s = Situation(shooting_into_melee=True)
    assert p_hit(bow, me(), foe(6), None, s) == pytest.approx(11 / 20)
    assert p_hit(bow, me(), foe(6), None, s.replace(precise_shot=True)) == pytest.approx(15 / 20)
    assert p_hit(bow, me(precise_shot=True), foe(6), None, s) == pytest.approx(15 / 20)
    assert p_hit(Attack("S", attack_bonus=0), me(), foe(6), None, s) == pytest.approx(15 / 20)  # melee unaffected


@pytest.mark.parametrize("distance, expected_bonus", [(0, 0), (10, 0), (11, -2), (25, -4), (50, -8)])
def test_range_increments(distance, expected_bonus):
    """'every range increment past the first applies a stacking -2 penalty' (increment 10 ft)."""
    a = Attack("Axe", kind="thrown", range_increment=10, attack_bonus=0)
    assert p_hit(a, me(), foe(5), None, Situation(distance=distance)) == pytest.approx((16 + expected_bonus) / 20)


def test_range_maximum_thrown_5_others_10():
    """'thrown weapons have a maximum number of 5 range increments, while ... bows and crossbows ... 10'."""
    axe = Attack("Axe", kind="thrown", range_increment=10)
    bow = Attack("Bow", kind="ranged", range_increment=10)
    U.outcomes(axe, me(), foe(), None, Situation(distance=50))
    with pytest.raises(RulesError) as e:
        U.outcomes(axe, me(), foe(), None, Situation(distance=51))
    assert e.value.field == "distance" and "maximum is 5" in str(e.value)
    assert p_hit(bow.replace(attack_bonus=0), me(), foe(0), None, Situation(distance=100)) == pytest.approx(
        3 / 20)  # increment 10: -18 vs AC 0 needs a natural 18+
    with pytest.raises(RulesError) as e:
        U.outcomes(bow, me(), foe(), None, Situation(distance=101))
    assert e.value.field == "distance"


# --------------------------------------------------------------------------- reference scenario pieces
def test_outcome_table_probabilities_sum_to_one_and_rows_unique():
    atk = [Attack("S", "2d6-1", crit="18-20x3", attack_bonus=b) for b in range(-3, 12)]
    n = len(atk)
    t = U.outcome_tables(atk, [me()] * n, [foe(15)] * n)
    sums = t.group_by("matchup").agg(pl.col("probability").sum()).sort("matchup")
    assert sums["matchup"].to_list() == list(range(n))
    assert max(abs(x - 1) for x in sums["probability"]) < 1e-12
    assert t.select("matchup", "damage", "hit", "threat", "crit").is_duplicated().sum() == 0
    assert t.schema["damage"] == pl.Int64 and t.schema["probability"] == pl.Float64


def test_single_matchup_is_the_1x1_grid():
    a, c, t = Attack("S", "1d8", attack_bonus=3), me(), foe(14)
    grid = U.outcome_tables([a, a], [c, c], [foe(20), t])
    one = U.outcomes(a, c, t)
    assert grid.filter(pl.col("matchup") == 1).drop("matchup").equals(one)


def test_hand_worked_mean():
    """+4 vs AC 14, 1d8 (str 0), 20x2 confirmed: P(hit)=11/20, P(crit)=1/20*11/20;
    mean = 11/20*4.5 + P(crit)*4.5."""
    d = U.damage(Attack("S", "1d8", attack_bonus=4), me(), foe(14))
    assert d.mean() == pytest.approx(float(F(11, 20) * F(9, 2) + F(1, 20) * F(11, 20) * F(9, 2)), abs=1e-12)
