"""Hand-worked Annulus numbers, one per rule (annulus-attacks.txt; CLARIFICATIONS.md, Annulus).

Baseline: 4 dice succeeding on 4+ (p = 1/2): P(k successes) = 1, 4, 6, 4, 1 out of 16.
"""

from __future__ import annotations

import time
from fractions import Fraction as F

import numpy as np
import polars as pl
import pytest

import workbench as wb
from workbench import RulesError
from workbench.systems.annulus.models import range_band

A = wb.system("annulus")
B4 = [F(1, 16), F(4, 16), F(6, 16), F(4, 16), F(1, 16)]


def mk(name="C", size=5, ag=0, to=0, ins=0, awareness="alert", level=6, endurance=6, **kw):
    return A.Creature(name, size=size, level=level, endurance=endurance, agility=ag, toughness=to, insight=ins,
                      awareness=awareness, **kw)


def atk(*ups, defense="agility", **kw):
    return A.Attack("Test", defense, {u: 1 for u in ups} if not kw.get("ranks") else kw["ranks"],
                    counter_type=kw.get("counter_type"))


ME, THEM = mk("Me"), mk("Them")


def mean(attack, attacker=ME, target=THEM, **sit):
    return A.damage(attack, attacker, target, situation=A.Situation(**sit)).mean()


def pool_mean(n):  # mean successes of n dice at p = 1/2 (defense 0)
    return n / 2


def close(a, b):
    return abs(float(a) - float(b)) < 1e-12


# ------------------------------------------------------------------ the core roll
def test_basic_pool_minus_defense():
    """annulus-attacks.txt: "roll four dice. You deal damage equal to the number of successes ...
    subtracts their relevant defense ... not below 0": vs defense 1, P(0) = 5/16, P(3) = 1/16."""
    d = A.damage(atk(), ME, mk(ag=1))
    assert close(d.probability(0), F(5, 16)) and close(d.probability(3), F(1, 16))
    assert close(d.mean(), F(6 + 8 + 3, 16))


def test_seed_picks_the_defense():
    """annulus-attacks.txt: "an attack with a Toughness Damage seed ability will always target the
    Toughness defense": toughness 4 blocks everything, agility 0 blocks nothing."""
    target = mk(ag=0, to=4)
    assert mean(atk(defense="toughness"), target=target) == 0
    assert close(mean(atk(defense="agility"), target=target), 2)


def test_success_on_option():
    """CLARIFICATIONS: option success_on (4 -> p = 1/2; 5 -> p = 1/3): mean 4/3 on 5+."""
    d = A.damage(atk(), ME, THEM, options=A.Options(success_on=5))
    assert close(d.mean(), F(4, 3))


def test_pool_never_below_zero():
    """CLARIFICATIONS: "pool never below 0 dice": 6 disadvantages -> always 0 damage, not an error."""
    d = A.damage(atk(), ME, THEM, situation=A.Situation(extra_disadvantages=6))
    assert d.probability(0) == 1.0


# ------------------------------------------------------------------ assassination
@pytest.mark.parametrize("awareness,bonus", [("clueless", 4), ("suspicious", 2), ("alert", 0)])
def test_assassination_bonus(awareness, bonus):
    """annulus-attacks.txt: "Clueless ... deal at least one point of damage ... +4 bonus damage ...
    Suspicious ... +2": E = 2 + P(>= 1 success) * bonus = 2 + 15/16 * bonus."""
    assert close(mean(atk(), target=mk(awareness=awareness)), 2 + F(15, 16) * bonus)


def test_assassination_needs_damage_on_its_own():
    """annulus-attacks.txt: "don't manage to deal any damage on your own, then you don't get to add
    the bonus": vs defense 4 a clueless target still takes 0."""
    assert mean(atk(), target=mk(ag=4, awareness="clueless")) == 0


def test_petrified_counts_as_clueless_for_demolitions():
    """CLARIFICATIONS step 4: "a Petrified target counts as Clueless for an attack with Demolitions"
    (annulus-attacks.txt: "All attacks against a petrified subject are considered assassinations if
    they successfully get through the creature's defenses"): E = 2 + 15/16 * 4."""
    assert close(mean(atk("Demolitions"), target_petrified=True), 2 + F(15, 16) * 4)


def test_petrified_is_immune_without_demolitions():
    """Petrify: "While petrified, the creature is immune to all attacks that don't have the required
    Demolitions upgrade" (CLARIFICATIONS step 4: "is immune to any other"): every use deals 0 and
    triggers nothing, though it is still used (Reckless still costs its 1 self-damage). The same set
    on a stone-free target: 2 + 15/16 * 0 = 2 (alert)."""
    plain = atk("Reckless", "Burn")
    t = A.outcomes(plain, ME, THEM, situation=A.Situation(target_petrified=True))
    assert t["damage"].max() == 0 and not t["burn"].any() and t["self_damage"].to_list() == [1]
    assert not t["rerolled"].any()
    assert mean(atk("Reroll"), target_petrified=True) == 0
    # the per-turn result: two uses of a one-action set, both 0
    assert wb.turn_damage(ME.replace(attack_sets=[atk()]), THEM, situation=A.Situation(target_petrified=True)).max() == 0
    assert close(mean(atk()), 2)


@pytest.mark.parametrize("ranks,clueless,suspicious", [(1, 6, 3), (2, 8, 4)])
def test_assassin_ranks(ranks, clueless, suspicious):
    """annulus-attacks.txt Assassin: "+2 bonus damage ... Clueless (+1 ... Suspicious) ... can be
    taken multiple times"."""
    a = A.Attack("Stab", "agility", {"Assassin": ranks})
    assert close(mean(a, target=mk(awareness="clueless")), 2 + F(15, 16) * clueless)
    assert close(mean(a, target=mk(awareness="suspicious")), 2 + F(15, 16) * suspicious)
    assert close(mean(a, target=mk(awareness="alert")), 2)


def test_situation_awareness_overrides_target():
    """Situation.target_awareness replaces the creature's own awareness state."""
    assert close(mean(atk(), target=mk(awareness="alert"), target_awareness="clueless"), 2 + F(15, 16) * 4)


# ------------------------------------------------------------------ general upgrades
def test_keen_partial_concealment():
    """Keen: "You take no disadvantage ... partial concealment"; CLARIFICATIONS: partial 1, full 2."""
    assert close(mean(atk(), concealment="partial"), 1.5)
    assert close(mean(atk("Keen"), concealment="partial"), 2)
    assert close(mean(atk("Keen"), concealment="full"), 1)
    assert close(mean(atk(), concealment="full"), 1)


def test_blood_price_pays_vitality():
    """Blood Price: "damage your own Vitality instead of spending an action ... two actions ... two
    Vitality": self_vitality_damage 1 (2 for Charged), 0 when not used."""
    t = A.outcomes(atk("Blood Price"), ME, THEM, situation=A.Situation(blood_price=True))
    assert set(t["self_vitality_damage"]) == {1}
    t2 = A.outcomes(A.Attack("x", "agility", ["Blood Price", "Charged"]), ME, THEM,
                    situation=A.Situation(blood_price=True))
    assert set(t2["self_vitality_damage"]) == {2}
    assert set(A.outcomes(atk("Blood Price"), ME, THEM)["self_vitality_damage"]) == {0}


@pytest.mark.parametrize("ranks", [1, 2, 3])
def test_reckless(ranks):
    """Reckless: "+1 additional automatic success ... take 1 damage that cannot be avoided ... each time
    increases both damage output and blowback by +1": vs defense 1, damage = k + ranks - 1."""
    a = A.Attack("R", "agility", {"Reckless": ranks})
    t = A.outcomes(a, ME, mk(ag=1))
    assert close((t["damage"] * t["probability"]).sum(), 2 + ranks - 1)
    assert set(t["self_damage"]) == {ranks}


def test_bully():
    """Bully: "size 5 ... on a Size 4 creature, you deal +1 damage ... size 3 creature, +2"; size 3 is 2
    steps smaller, so one disadvantage (CLARIFICATIONS: per step beyond the first): 3 dice."""
    assert close(mean(atk("Bully"), target=mk(size=4)), 2 + F(15, 16))
    assert close(mean(atk("Bully"), target=mk(size=3)), F(3, 2) + F(7, 8) * 2)
    assert close(mean(atk("Bully"), target=mk(size=6)), 2)  # larger target: no bonus


def test_visceral():
    """Visceral: "You don't take any disadvantages when attacking a creature from the inside"."""
    assert close(mean(atk(), inside_devourer=True), 1.5)
    assert close(mean(atk("Visceral"), inside_devourer=True), 2)


def test_reroll_exact():
    """Reroll: "reroll your check and take the new result ... You take a disadvantage on the reroll";
    CLARIFICATIONS: a strike that dealt 0 is rerolled once. Defense 2: P(0) = 11/16 * 7/8 = 77/128,
    P(1) = 4/16 + 11/16 * 3/8 ... only 3 successes of 3 dice give 1: 1/4 + 11/128, P(2) = 1/16."""
    d = A.damage(atk("Reroll"), ME, mk(ag=2))
    assert close(d.probability(0), F(77, 128))
    assert close(d.probability(1), F(1, 4) + F(11, 128))
    assert close(d.probability(2), F(1, 16))
    t = A.outcomes(atk("Reroll"), ME, mk(ag=2))
    assert close(t.filter(pl.col("rerolled"))["probability"].sum(), F(11, 16))
    off = A.damage(atk("Reroll"), ME, mk(ag=2), situation=A.Situation(reroll_available=False))
    assert close(off.probability(0), F(11, 16))
    never = A.damage(atk("Reroll"), ME, mk(ag=2), options=A.Options(reroll="never"))
    assert close(never.probability(0), F(11, 16))


def test_tireless():
    """Tireless: "does not take a disadvantage if you use it while you are tired"."""
    assert close(mean(atk(), tired=True), 1.5)
    assert close(mean(atk("Tireless"), tired=True), 2)


def test_flashy():
    """Flashy: "you always have an advantage on checks to use the attack": 5 dice."""
    assert close(mean(atk("Flashy")), 2.5)


@pytest.mark.parametrize("giant,dice", [(0, 2), (1, 3), (2, 4), (3, 4)])
def test_giant(giant, dice):
    """Giant: "one fewer disadvantage when attacking subjects ... significantly larger ... never
    gives you advantages": size 5 vs 8 is 2 disadvantages (steps beyond the first)."""
    a = A.Attack("G", "agility", {"Giant": giant}) if giant else atk()
    assert close(mean(a, target=mk(size=8)), dice / 2)


@pytest.mark.parametrize("precise,dice", [(0, 2), (1, 3), (2, 4), (3, 4)])
def test_precise(precise, dice):
    """Precise: "one fewer disadvantage when attacking subjects ... significantly smaller": 5 vs 2."""
    a = A.Attack("P", "agility", {"Precise": precise}) if precise else atk()
    assert close(mean(a, target=mk(size=2)), dice / 2)


def test_size_one_step_is_free():
    """CLARIFICATIONS: "A target 2 or more sizes larger (or smaller) imposes one disadvantage per step
    beyond the first": size 6 or 4 costs nothing; option size_free_steps=0 makes it cost 1."""
    assert close(mean(atk(), target=mk(size=6)), 2)
    d = A.damage(atk(), ME, mk(size=6), options=A.Options(size_free_steps=0))
    assert close(d.mean(), 1.5)


def test_armored():
    """Armored: "does not take a disadvantage from being used while under the effects of an Armor"."""
    assert close(mean(atk(), armor=True), 1.5)
    assert close(mean(atk("Armored"), armor=True), 2)


def test_killing_spree():
    """Killing Spree: "+2 additional automatic successes the single next time you use the attack"
    after a kill: vs defense 2, damage = k exactly (mean 2); without a kill mean is 0.6875."""
    assert close(mean(atk("Killing Spree"), target=mk(ag=2), after_kill=True), 2)
    assert close(mean(atk("Killing Spree"), target=mk(ag=2)), F(4 + 2, 16))
    assert close(mean(atk(), target=mk(ag=2), after_kill=True), F(6, 16))


def test_first_blood():
    """First Blood: "an advantage ... when targeting a creature that is completely undamaged"."""
    assert close(mean(atk("First Blood")), 2.5)
    assert close(mean(atk("First Blood"), target_undamaged=False), 2)


def test_range_bands():
    """Range: "maximum range of 5 meters, but cannot be used at ranges of 2 meter or less ... each time
    increases maximum range by two steps"; CLARIFICATIONS bands 0: <= 1 m; 1: > 2-5; 2: > 10-20; 3: > 50-100."""
    assert range_band(0) == (0, 1) and range_band(1) == (2, 5) and range_band(2) == (10, 20)
    assert range_band(3) == (50, 100) and range_band(4) == (200, 500)
    r1 = A.Attack("Bow", "agility", {"Range": 1})
    assert close(mean(r1, distance=5), 2)
    for bad in (2, 1, 5.5):
        with pytest.raises(RulesError, match="distance"):
            mean(r1, distance=bad)
    with pytest.raises(RulesError, match="1 m"):
        mean(atk(), distance=1.5)
    r2 = A.Attack("Rifle", "agility", {"Range": 2})
    assert close(mean(r2, distance=20), 2)
    with pytest.raises(RulesError):
        mean(r2, distance=10)


def test_airtight():
    """annulus-attacks.txt: "attacks don't work and cannot be used in airless environments"; Airtight:
    "functions normally in airless environments"."""
    with pytest.raises(RulesError, match="Airtight") as e:
        mean(atk(), airless=True)
    assert e.value.field == "airless"
    assert close(mean(atk("Airtight"), airless=True), 2)


def test_maths_free_general_upgrades():
    """Demolitions, Obliterate, Inherent, Knockout and Stealth change no dice: same table as Punch."""
    base = A.damage(atk(), ME, mk(awareness="clueless"))
    for u in ("Demolitions", "Obliterate", "Inherent", "Knockout", "Stealth"):
        assert A.damage(atk(u), ME, mk(awareness="clueless")).isclose(base)


# ------------------------------------------------------------------ situation
def test_situation_advantages_and_disadvantages():
    """CLARIFICATIONS step 2: Prone within 5 m +1, beyond 20 m 1 disadvantage; Setup +1; target
    Blind +1; attacker Weakened 1."""
    bow = A.Attack("Bow", "agility", {"Range": 3})  # > 50 to 100 m
    assert close(mean(atk(), target_prone=True), 2.5)
    assert close(mean(bow, distance=60, target_prone=True), 1.5)
    assert close(mean(A.Attack("B", "agility", {"Range": 1}), distance=5, target_prone=True), 2.5)
    assert close(mean(atk(), target_setup=True), 2.5)
    assert close(mean(atk(), target_blind=True), 2.5)
    assert close(mean(atk(), attacker_weakened=True), 1.5)


# ------------------------------------------------------------------ triggers
THRESHOLDS = {"Berserk": 12, "Blind": 12, "Burn": 11, "Choke": 9, "Critical": 12, "Daze": 11, "Vital": 12,
              "Devour": 10, "Disarm": 11, "Dispel": 10, "Fatigue": 10, "Grab": 10, "Hobble": 10,
              "Immobilize": 12, "Knockdown": 11, "Pacify": 12, "Petrify": 12, "Push": 11, "Sap": 11,
              "Setup": 10, "Silence": 9, "Terrorize": 11, "Drain": 12, "Weaken": 12}


@pytest.mark.parametrize("name,threshold", list(THRESHOLDS.items()))
def test_trigger_probability(name, threshold):
    """annulus-attacks.txt "When the Trigger Die has a result of N+" and "a triggered effect is only
    applied when you manage to deal at least one point of damage": P(effect) = P(dmg >= 1) *
    (13 - N)/12; vs defense 1, P(dmg >= 1) = 11/16."""
    col = "crit" if name == "Critical" else name.lower()
    t = A.outcomes(atk(name), ME, mk(ag=1))
    assert close(t.filter(pl.col(col))["probability"].sum(), F(11, 16) * F(13 - threshold, 12))
    assert t.filter(pl.col(col) & (pl.col("damage") == 0)).height == 0
    cat = A.upgrades().filter(pl.col("name") == name)
    assert cat["threshold"][0] == threshold


def test_one_trigger_die_for_all_triggers():
    """annulus-attacks.txt: "you still only need to roll a single trigger die ... all effects are
    triggered (or not) based on the result of the single die": Choke (9+) always accompanies Burn (11+)."""
    t = A.outcomes(atk("Burn", "Choke"), ME, THEM)
    assert t.filter(pl.col("burn") & ~pl.col("choke")).height == 0
    assert close(t.filter(pl.col("burn") & pl.col("choke"))["probability"].sum(), F(15, 16) * F(2, 12))


def test_critical_doubles_damage_after_defense():
    """Critical: "defense of 2 and get 3 successes, you actually deal 2 damage ... (1 success over their
    defense, doubled to 2)"; CLARIFICATIONS default: Bully and assassination are doubled too."""
    t = A.outcomes(atk("Critical"), ME, mk(ag=2))
    crit3 = t.filter(pl.col("crit"))
    assert sorted(set(crit3["damage"])) == [2, 4]  # 3 successes -> 2, 4 successes -> 4
    assert close(crit3.filter(pl.col("damage") == 2)["probability"].sum(), F(4, 16) / 12)
    sus = A.outcomes(atk("Critical"), ME, mk(ag=2, awareness="suspicious"))
    assert set(sus.filter(pl.col("crit"))["damage"]) == {6, 8}  # (1 + 2) * 2, (2 + 2) * 2
    only = A.outcomes(atk("Critical"), ME, mk(ag=2, awareness="suspicious"),
                      options=A.Options(crit_doubles_bonus=False))
    assert set(only.filter(pl.col("crit"))["damage"]) == {4, 6}  # 1 * 2 + 2, 2 * 2 + 2
    # mean: E[d] * (1 + 1/12) vs defense 0
    assert close(mean(atk("Critical")), 2 * F(13, 12))


def test_vital_goes_to_vitality():
    """Vital: "ignores Endurance and strikes directly at Vitality": vitality_damage = damage on a 12."""
    t = A.outcomes(atk("Vital"), ME, THEM)
    v = t.filter(pl.col("vital"))
    assert (v["vitality_damage"] == v["damage"]).all()
    assert (t.filter(~pl.col("vital"))["vitality_damage"] == 0).all()
    assert close((t["vitality_damage"] * t["probability"]).sum(), F(2, 12))


def test_drain_restores_endurance():
    """Drain: "When the Trigger Die has a result of 12, you may instantly restore 1 lost Endurance"."""
    t = A.outcomes(atk("Drain"), ME, THEM)
    assert close((t["self_heal"] * t["probability"]).sum(), F(15, 16) / 12)


# ------------------------------------------------------------------ alterations
def test_charged():
    """Charged: "two actions ... +2 advantages ... roll the trigger die twice and apply the higher":
    6 dice (mean 3), P(12) = 23/144, P(11+) = 44/144 (CLARIFICATIONS: 1 - ((k-1)/12)^2)."""
    a = A.Attack("C", "agility", ["Charged", "Critical", "Burn"])
    t = A.outcomes(a, ME, mk(ag=5))  # defense 5: only 6 successes deal damage (1/64)
    assert close(t.filter(pl.col("damage") > 0)["probability"].sum(), F(1, 64))
    t0 = A.outcomes(A.Attack("C", "agility", ["Charged", "Burn"]), ME, THEM)
    assert close(t0.filter(pl.col("burn"))["probability"].sum(), F(63, 64) * F(44, 144))
    assert close(A.damage(A.Attack("C", "agility", ["Charged"]), ME, THEM).mean(), 3)
    tc = A.outcomes(A.Attack("C", "agility", ["Charged", "Critical"]), ME, THEM)
    assert close(tc.filter(pl.col("crit"))["probability"].sum(), F(63, 64) * F(23, 144))
    assert A.attack_cost(a) == 2


def test_telegraphed():
    """Telegraphed: "+2 advantages ... roll the trigger die twice and apply the higher"; 1 action to
    announce."""
    a = A.Attack("T", "agility", ["Telegraphed", "Silence"])
    t = A.outcomes(a, ME, THEM)
    assert close(A.damage(a, ME, THEM).mean(), 3)
    assert close(t.filter(pl.col("silence"))["probability"].sum(), F(63, 64) * (1 - F(8, 12) ** 2))
    assert A.attack_cost(a) == 1


def test_flurry():
    """Flurry: "two actions ... roll three times with a disadvantage each time and apply all results
    ... roll the trigger die ... for each of the three": 3 strikes of 3 dice vs defense 0: mean 4.5;
    P(total 0) = (1/8)^3; P(no Sap) = (1 - 7/8 * 2/12)^3."""
    a = A.Attack("F", "agility", ["Flurry", "Sap"])
    d = A.damage(a, ME, THEM)
    assert close(d.mean(), 4.5) and close(d.probability(0), F(1, 8) ** 3) and d.max() == 9
    t = A.outcomes(a, ME, THEM)
    assert close(t.filter(~pl.col("sap"))["probability"].sum(), (1 - F(7, 8) * F(2, 12)) ** 3)
    assert A.attack_cost(a) == 2


def test_flurry_assassination_each_strike():
    """CLARIFICATIONS: Flurry strikes are against "the target as it was when the attack began
    (awareness included)": each damaging strike adds +4 vs Clueless: mean 4.5 + 3 * 7/8 * 4."""
    d = A.damage(A.Attack("F", "agility", ["Flurry"]), ME, mk(awareness="clueless"))
    assert close(d.mean(), F(9, 2) + 3 * F(7, 8) * 4)


def test_gaze():
    """Gaze: "you and the subject must be able to both fully see each other. If either of you is in an
    area of full or partial concealment, suffering from a Blind sting ... cannot be used"; free."""
    g = A.Attack("G", "insight", ["Gaze"])
    assert close(mean(g), 2)
    for sit in (dict(mutual_sight=False), dict(concealment="partial"), dict(target_blind=True)):
        with pytest.raises(RulesError, match="Gaze"):
            mean(g, **sit)
    assert A.attack_cost(g) == 0


def test_swansong():
    """Swansong: "if you are level 7, then you can only use Swansong attacks when you have 3 or fewer
    Vitality remaining"."""
    s = A.Attack("S", "insight", ["Swansong"])
    me7 = mk(level=7)
    assert me7.vitality == 7
    assert close(mean(s, attacker=me7, attacker_vitality=3), 2)
    with pytest.raises(RulesError, match="Swansong") as e:
        mean(s, attacker=me7, attacker_vitality=4)
    assert e.value.field == "attacker_vitality"
    with pytest.raises(RulesError):
        mean(s, attacker=me7)  # full Vitality by default
    assert A.attack_cost(s) == 0


def test_swansong_is_judged_against_max_vitality_the_level():
    """Swansong: "half or less of your total amount of Vitality remaining (rounded down) ... if you are level 7,
    then you can only use Swansong attacks when you have 3 or fewer Vitality remaining"; CLARIFICATIONS: "Max
    Vitality = level". The ``vitality`` field is the current Vitality: a level 7 creature at Vitality 3 may use it
    (7 // 2 = 3), at 4 it may not; the damage is the plain 4-dice mean, 2."""
    s = A.Attack("S", "insight", ["Swansong"])
    wounded = mk(level=7, vitality=3)
    assert close(mean(s, attacker=wounded), 2)
    with pytest.raises(RulesError, match="Swansong") as e:
        mean(s, attacker=mk(level=7, vitality=4))
    assert e.value.field == "attacker_vitality"
    # per turn: Swansong is free, once per round, so the wounded creature's best turn with it and a Punch
    # (2 one-action uses) is 2 + 2 + 2 = 6
    punch = A.Attack("Punch", "agility", [])
    who = wounded.replace(attack_sets=[s, punch])
    assert close(wb.turn_damage(who, THEM).mean(), 6)


def test_counter_is_a_normal_set_too():
    """Counter: "You may still use the attack set ... as a normal attack set": same table as Punch."""
    c = A.Attack("C", "agility", ["Counter"], counter_type="toughness")
    assert A.damage(c, ME, THEM).isclose(A.damage(atk(), ME, THEM))
    assert A.attack_cost(c) == 1
    assert A.Attack("C", "agility", ["Counter Insight"]).counter_type == "insight"


# ------------------------------------------------------------------ areas
@pytest.mark.parametrize("area,reach", [("Arc", 1), ("Burst", 1), ("Line", 2)])
def test_area_per_target_and_recharge(area, reach):
    """Areas: steps 2-5 once per creature in the area, each its own roll (CLARIFICATIONS); recharge on
    5-6 on a d6 = 1/3 (annulus-attacks.txt: "If the result is a 5 or a 6, the set is recharged")."""
    a = A.Attack("A", "agility", [area, "Burn"])
    targets = [mk(ag=0), mk(ag=1, awareness="clueless"), mk(size=8)]
    t = A.area_outcome_tables(a, ME, targets, situation=A.Situation(distance=reach))
    for i, tg in enumerate(targets):
        one = A.outcomes(a, ME, tg, situation=A.Situation(distance=reach))
        part = t.filter(pl.col("matchup") == i).drop("matchup")
        assert part.equals(one)
    assert A.recharge_probability(a) == pytest.approx(1 / 3, abs=1e-15)
    assert A.recharge_probability(atk()) == 1.0
    with pytest.raises(RulesError):
        A.outcomes(a, ME, THEM, situation=A.Situation(distance=reach + 1))


# ------------------------------------------------------------------ validation
ILLEGAL = [
    (["Charged", "Flurry"], ["Charged", "Flurry", "alteration"]),
    (["Gaze", "Telegraphed"], ["Gaze", "Telegraphed", "alteration"]),
    (["Arc", "Line"], ["Arc", "Line", "area"]),
    (["Range", "Burst"], ["Range", "Burst"]),
    (["Flashy", "Stealth"], ["Flashy", "Stealth"]),
    (["Counter Agility", "Counter Toughness"], ["Counter Agility", "Counter Toughness", "one Counter"]),
    ({"Bully": 2}, ["Bully", "more than once"]),
    ({"Critical": 2}, ["Critical", "more than once"]),
    (["Fireball"], ["unknown upgrade", "Fireball"]),
    (["Damage"], ["seed"]),
    ({"Reckless": 0}, ["Reckless", "at least 1"]),
]


@pytest.mark.parametrize("ups,words", ILLEGAL)
def test_illegal_sets_rejected(ups, words):
    """Each illegal set raises RulesError naming the upgrades and the rule (annulus-attacks.txt)."""
    with pytest.raises(RulesError) as e:
        A.Attack("Bad", "agility", ups)
    for w in words:
        assert w.lower() in str(e.value).lower()
    assert e.value.field == "upgrades" and e.value.rule


def test_counter_needs_type_and_seed_is_one_of_three():
    """Counter: "Pick one kind of attack (Agility, Toughness, or Insight)"; the seed must be one of the
    three Damage abilities."""
    with pytest.raises(RulesError) as e:
        A.Attack("C", "agility", ["Counter"])
    assert e.value.field == "counter_type" and "Counter" in str(e.value)
    with pytest.raises(RulesError) as e:
        A.Attack("C", "agility", ["Bully"], counter_type="agility")
    assert e.value.field == "counter_type"
    with pytest.raises(RulesError) as e:
        A.Attack("C", "strength")
    assert e.value.field == "defense"
    assert A.Attack("C", "Insight Damage").defense == "insight"


@pytest.mark.parametrize("field,value", [("size", -1), ("level", 0), ("endurance", -2), ("agility", -1),
                                         ("awareness", "asleep"), ("vitality", 0), ("toughness", 1.5)])
def test_bad_creature_rejected(field, value):
    """Creature fields are validated and the error names the field."""
    kw = dict(size=5, level=3, endurance=3, agility=0, toughness=0, insight=0)
    kw[field] = value
    with pytest.raises(RulesError) as e:
        A.Creature("X", **kw)
    assert e.value.field == field


@pytest.mark.parametrize("field,value", [("distance", -1), ("concealment", "fog"), ("tired", "yes"),
                                         ("target_awareness", "asleep")])
def test_bad_situation_rejected(field, value):
    with pytest.raises(RulesError) as e:
        A.Situation(**{field: value})
    assert e.value.field == field


def test_bad_options_rejected():
    for field, value in (("success_on", 8), ("reroll", "always"), ("size_free_steps", -1)):
        with pytest.raises(RulesError) as e:
            A.Options(**{field: value})
        assert e.value.field == field


def test_upgrades_frozen_and_hashable():
    a = A.Attack("A", "agility", {"reckless": 2, "first blood": 1})
    assert dict(a.upgrades) == {"Reckless": 2, "First Blood": 1}
    assert hash(a) == hash(A.Attack("A", "agility", {"Reckless": 2, "First Blood": 1}))
    with pytest.raises(RulesError):
        a.upgrades["Bully"] = 1
    assert A.Attack.from_dict(a.to_dict()) == a


# ------------------------------------------------------------------ experience and catalog
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


# ------------------------------------------------------------------ combat hooks
def test_combat_hooks():
    """hit_points = Endurance + Vitality (Endurance first, then Vitality); 2 actions per turn."""
    c = mk(level=4, endurance=7)
    assert A.hit_points(c) == 11 and A.actions_per_turn(c) == 2
    g = A.catalog().creature("Hill Giant")
    assert [a.name for a in A.attacks_of(g)] == ["Crushing Blow", "Tail Sweep", "Maw"]


def test_plan_damage_rerolls_once_per_round():
    """Reroll: "You cannot reroll more than one attack check per round": two Reroll uses vs defense 2,
    P(total 0) = (11/16 * 7/8) * 11/16, not (77/128)^2."""
    r = atk("Reroll")
    me = mk(attack_sets=[r])
    d = A.plan_damage(me, mk(ag=2), ["Test", "Test"])
    assert close(d.probability(0), F(77, 128) * F(11, 16))
    # first use 59/128; second: 6/16 if the reroll was spent (11/16), else 59/128 again
    assert close(d.mean(), F(59, 128) + F(11, 16) * F(6, 16) + F(5, 16) * F(59, 128))
    one = A.damage(r, me, mk(ag=2))
    assert d.mean() < 2 * one.mean()


def test_plan_damage_mean_is_sum_without_reroll():
    c = A.catalog()
    wolf, guard = c.creature("Wolf"), c.creature("Town Guard")
    d = A.plan_damage(wolf, guard, ["Bite", "Bite"])
    assert close(d.mean(), 2 * A.damage(c.attack("Bite"), wolf, guard).mean())


def test_plan_rules():
    c = A.catalog()
    ogre, drake = c.creature("Ogre"), c.creature("Drake")
    with pytest.raises(RulesError, match="actions"):
        A.plan_damage(ogre, drake, ["Crushing Blow", "Punch"])
    with pytest.raises(RulesError, match="recharge"):
        A.plan_damage(drake, ogre, ["Tail Sweep", "Tail Sweep"])
    with pytest.raises(RulesError, match="no attack set"):
        A.plan_damage(ogre, drake, ["Fire Breath"])


def test_turn_plans():
    """Each legal full turn: 1-action sets in pairs, 2-action sets alone, area sets at most once."""
    c = A.catalog()
    plans = A.turn_plans(c.creature("Hill Giant"), c.creature("Ogre"))
    assert set(plans) == {"Tail Sweep + Maw", "Maw + Maw", "Crushing Blow"}
    for d in plans.values():
        assert abs(d.pmf.sum() - 1) < 1e-12
    # Berserker: Death Rattle (Swansong) is unusable at full Vitality, so it is left out
    assert set(A.turn_plans(c.creature("Berserker"), c.creature("Ogre"))) == {"Frenzy"}
    low = A.Situation(attacker_vitality=3)
    # at low Vitality the free Swansong set may be used or declined (a free attack is a choice)
    assert list(A.turn_plans(c.creature("Berserker"), c.creature("Ogre"), situation=low)) == \
        ["Death Rattle + Frenzy", "Frenzy"]


def test_wb_dispatch():
    c = A.catalog()
    t = wb.outcomes(c.attack("Claw"), c.creature("Wolf"), c.creature("Rat"))
    assert abs(t["probability"].sum() - 1) < 1e-12
    assert {"damage", "vitality_damage", "self_damage", "crit", "burn", "choke", "vital"} <= set(t.columns)


# ------------------------------------------------------------------ scale
def test_ten_thousand_matchups_one_call():
    """10,000 (set, target) pairs in one vectorised call: every matchup sums to 1."""
    c = A.catalog()
    rng = np.random.default_rng(7)
    sets = [a for a in c.attacks.values() if a.alteration not in ("Gaze", "Swansong") and not a.area
            and not a.has("Range")]
    creatures = list(c.creatures.values())
    n = 10_000
    attacks = [sets[i] for i in rng.integers(0, len(sets), n)]
    attackers = [creatures[i] for i in rng.integers(0, len(creatures), n)]
    targets = [creatures[i] for i in rng.integers(0, len(creatures), n)]
    t0 = time.perf_counter()
    t = A.outcome_tables(attacks, attackers, targets)
    elapsed = time.perf_counter() - t0
    sums = t.group_by("matchup").agg(pl.col("probability").sum())
    assert sums.height == n and (sums["probability"] - 1).abs().max() < 1e-12
    print(f"annulus: 10,000 matchups in {elapsed:.3f} s, {t.height} rows")


def test_reroll_hand_worked_use_and_turn():
    """annulus-attacks.txt Reroll, CLARIFICATIONS steps 3: 4 dice at 1/2 against defense 2:
    P(0) = 11/16, P(1) = 4/16, P(2) = 1/16; the 0 is rerolled with 3 dice (P(0) = 7/8, P(1) = 1/8)."""
    atk = A.Attack("R", "agility", {"Reroll": 1})
    me = A.Creature("me", level=1, endurance=1, agility=0, toughness=0, insight=0)
    tgt = A.Creature("t", level=1, endurance=1, agility=2, toughness=0, insight=0, awareness="alert")
    use = wb.damage(atk, me, tgt)
    want = [11 / 16 * 7 / 8, 4 / 16 + 11 / 16 / 8, 1 / 16]
    assert np.abs(use.pmf[:3] - want).max() < 1e-12 and use.offset == 0 and use.pmf[3:].sum() < 1e-12
    # two uses: the second may reroll only if the first did not (one reroll per round)
    me2 = me.replace(attack_sets=[atk])
    turn = A.plan_damage(me2, tgt, [atk, atk])
    # a turn deals 0 only if the first strike is 0 after its reroll and the second, without one, is 0
    assert abs(turn.probability(0) - (11 / 16 * 7 / 8) * (11 / 16)) < 1e-12


def test_critical_doubles_the_bully_bonus_hand_worked():
    """CLARIFICATIONS, Annulus: Critical on a Trigger Die 12 (1/12) doubles the damage, the Bully
    bonus included by default (crit_doubles_bonus); 4 dice against defense 3 hit only on 4
    successes (1/16) for 1, Bully adds 7 - 6 = 1: 2, or 4 on a 12 (3 when only the 1 is doubled)."""
    atk = A.Attack("C", "agility", {"Critical": 1, "Bully": 1})
    me = A.Creature("me", size=7, level=1, endurance=1, agility=0, toughness=0, insight=0)
    tgt = A.Creature("t", size=6, level=1, endurance=1, agility=3, toughness=0, insight=0, awareness="alert")
    d = wb.damage(atk, me, tgt)
    hit = 1 / 16  # 4 successes - defense 3 = 1; Bully: + (7 - 6) = 1 -> 2, doubled on a 12 -> 4
    assert abs(d.probability(2) - hit * 11 / 12) < 1e-12
    assert abs(d.probability(4) - hit / 12) < 1e-12
    assert abs(d.probability(0) - (1 - hit)) < 1e-12
    d2 = wb.damage(atk, me, tgt, A.Options(crit_doubles_bonus=False))
    assert abs(d2.probability(3) - hit / 12) < 1e-12  # 2 * 1 + 1


def test_usability_is_data_per_matchup():
    """CLARIFICATIONS, Annulus, order of resolution step 1 (usable?): a Gaze set needs mutual sight,
    a Range 2 set reaches 10-20 m only; ``usability`` says so per matchup (None: usable) in one
    pass, with the same field and rule that ``outcome_tables`` raises."""
    me = A.Creature("me", level=1, endurance=1, agility=0, toughness=0, insight=0)
    gaze, far, plain = (A.Attack("G", "insight", {"Gaze": 1}), A.Attack("R", "agility", {"Range": 2}),
                        A.Attack("P", "agility"))
    sits = [A.Situation(concealment="partial"), A.Situation(distance=1), A.Situation(distance=1)]
    why = A.usability([gaze, far, plain], [me] * 3, [me] * 3, None, sits)
    assert why[0].field == "mutual_sight" and why[1].field == "distance" and why[2] is None
    for i in (0, 1):
        with pytest.raises(RulesError) as err:
            A.outcome_tables([[gaze, far][i]], [me], [me], None, [sits[i]])
        assert err.value.field == why[i].field and err.value.rule == why[i].rule


def test_an_area_set_alone_is_a_full_turn():
    """annulus-attacks.txt: an area set must recharge before it is used again, so a creature whose
    only one-action set is an area set spends its turn on one use of it (before: no plan at all),
    and next to a Charged set (two actions) the area set alone is a legal turn too (before: left
    out). The turn of the area set alone is exactly one use of it."""
    me = A.Creature("me", level=1, endurance=1, agility=0, toughness=0, insight=0,
                    attack_sets=[A.Attack("Sweep", "agility", {"Arc": 1})])
    foe = A.Creature("foe", level=1, endurance=1, agility=0, toughness=0, insight=0)
    assert list(A.turn_plans(me, foe)) == ["Sweep"]
    assert wb.turn_damage(me, foe) == wb.damage(me.attack_sets[0], me, foe)
    both = me.replace(attack_sets=[me.attack_sets[0], A.Attack("Heave", "agility", {"Charged": 1})])
    assert set(A.turn_plans(both, foe)) == {"Sweep", "Heave"}
