"""Unbound notation and model validation: bad input raises RulesError naming the field.

Rules: unbound-d20-attacking.txt (weapon profiles "2d8 (B) 20x2") and CLARIFICATIONS.md, Unbound.
"""

import pytest

import workbench as wb
from workbench import RulesError
from workbench.systems.unbound import parse_crit, parse_damage

U = wb.system("unbound")


@pytest.mark.parametrize("text, dice, static", [
    ("1d8", ((1, 8, 1),), 0),
    ("2d6+3", ((2, 6, 1),), 3),
    ("1d4+1d6", ((1, 4, 1), (1, 6, 1)), 0),
    ("2d6-1", ((2, 6, 1),), -1),
    (" 2D6 + 1 + 2 ", ((2, 6, 1),), 3),
    ("d10", ((1, 10, 1),), 0),
])
def test_damage_notation_reads_the_weapon_profiles(text, dice, static):
    spec = parse_damage(text)
    assert spec.dice == dice and spec.static == static


@pytest.mark.parametrize("text", ["", "2x6", "2d", "d", "0d6", "2d0", "2d1", "abc", "2d6+", "+", "3", "2d6 3",
                                  "1d6*2", None, 7, "101d6"])
def test_bad_dice_strings_name_the_damage_field(text):
    with pytest.raises(RulesError) as e:
        U.Attack("X", damage=text)
    assert e.value.field == "damage" and "damage" in str(e.value)


@pytest.mark.parametrize("text, low, mult", [("20x2", 20, 2), ("19-20x2", 19, 2), ("18-20x3", 18, 3),
                                             ("20x4", 20, 4), ("17–20×2", 17, 2)])
def test_crit_profiles(text, low, mult):
    """CLARIFICATIONS.md, Unbound: '"20x2" is threat range and multiplier ("19-20x2", "20x3")'."""
    c = parse_crit(text)
    assert (c.threat_low, c.multiplier) == (low, mult)


@pytest.mark.parametrize("text", ["20", "x2", "19-20", "19-19x2", "20x1", "1-20x2", "0-20x2", "19-21x2",
                                  "20-19x2", "20x", "twenty", 20, ""])
def test_bad_crit_profiles_name_the_crit_field(text):
    with pytest.raises(RulesError) as e:
        U.Attack("X", crit=text)
    assert e.value.field == "crit" and "crit" in str(e.value)


def test_canonical_text_is_stored():
    a = U.Attack("X", damage=" 2D6 + 1 + 2 ", crit="19 - 20 x 2")
    assert a.damage == "2d6+3" and a.crit == "19-20x2"


def test_positional_fields_follow_the_design_order():
    a = U.Attack("Axe", "1d8", "thrown", "20x3", True, False, False, 10, 5)
    assert (a.name, a.damage, a.kind, a.crit, a.light, a.range_increment, a.attack_bonus) == \
        ("Axe", "1d8", "thrown", "20x3", True, 10, 5)
    c = U.Creature("C", 10, 15, 11, 2, 3, 4, "professional", [a])
    assert (c.hp, c.ac, c.touch_ac, c.str_mod, c.dex_mod, c.magic_mod, c.rank, c.weapons) == \
        (10, 15, 11, 2, 3, 4, "professional", (a,))


@pytest.mark.parametrize("kwargs, field", [
    (dict(rank="master"), "rank"),
    (dict(rank=2), "rank"),
    (dict(ac=-1), "ac"),
    (dict(touch_ac=-3), "touch_ac"),
    (dict(hp=0), "hp"),
    (dict(hp=2.5), "hp"),
    (dict(str_mod="3"), "str_mod"),
    (dict(weapons=["sword"]), "weapons[0]"),
    (dict(weapons=[{"name": "Claw", "damage": "1d"}]), "weapons[0].damage"),
    (dict(name=""), "name"),
])
def test_bad_creatures_name_the_field(kwargs, field):
    base = dict(name="C", hp=10, ac=15, touch_ac=11)
    base.update(kwargs)
    with pytest.raises(RulesError) as e:
        U.Creature(**base)
    assert e.value.field == field and field in str(e.value)


@pytest.mark.parametrize("kwargs, field", [
    (dict(kind="laser"), "kind"),
    (dict(kind="ranged"), "range_increment"),  # "All ranged attacks have a base range increment"
    (dict(range_increment=10), "range_increment"),  # a melee attack has none
    (dict(range_increment=0, kind="thrown"), "range_increment"),
    (dict(paired=True), "paired"),  # only natural weapons come in pairs
    (dict(kind="spell", natural=True), "natural"),
    (dict(kind="thrown", range_increment=10, shield=True), "shield"),
    (dict(braceable=True), "braceable"),
    (dict(light="yes"), "light"),
    (dict(attack_bonus="7"), "attack_bonus"),
])
def test_bad_attacks_name_the_field(kwargs, field):
    with pytest.raises(RulesError) as e:
        U.Attack("X", **kwargs)
    assert e.value.field == field


@pytest.mark.parametrize("cls, kwargs, field", [
    ("Options", dict(confirm_crits="no"), "confirm_crits"),
    ("Options", dict(minimum_damage=-1), "minimum_damage"),
    ("Options", dict(multiple_attack_penalty=-4), "multiple_attack_penalty"),
    ("Situation", dict(high_ground="sky"), "high_ground"),
    ("Situation", dict(distance=-5), "distance"),
    ("Situation", dict(flanking=1), "flanking"),
    ("Action", dict(action="smash", weapon="x"), "action"),
    ("Action", dict(action="push"), "weapon"),
    ("Action", dict(action="push", weapon="a", off_hand="b"), "off_hand"),
])
def test_bad_options_situations_actions(cls, kwargs, field):
    with pytest.raises(RulesError) as e:
        getattr(U, cls)(**kwargs)
    assert e.value.field == field


def test_defaults_are_the_clarified_ones():
    """CLARIFICATIONS.md, Unbound: confirm_crits on; -4 stacking; -3 secondary natural."""
    o = U.Options()
    assert o.confirm_crits is True and o.multiple_attack_penalty == 4 and o.secondary_natural_penalty == 3
    assert o.minimum_damage == 0


def test_round_trip_and_replace():
    c = U.catalog().creature("Blademaster")
    assert U.Creature.from_dict(c.to_dict()) == c
    with pytest.raises(RulesError) as e:
        c.replace(rank="legend")
    assert e.value.field == "rank"
