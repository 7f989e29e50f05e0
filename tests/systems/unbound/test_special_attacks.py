"""Unbound special attacks: Wild Attack, Snipe, and bracing a crossbow as a basic action
(unbound-d20-attacking.txt; CLARIFICATIONS.md, Unbound).
"""

import polars as pl
import pytest

import workbench as wb
from tests.systems.unbound.weapons import (
    BOW,
    SWORD,
    Action,
    Attack,
    Creature,
    Options,
    Situation,
    U,
    who,
)
from workbench import RulesError


def test_wild_attack_ac_drop_and_attacker_penalty():
    """'-2 plus half the multiple attack penalty to AC'; attacker 'penalty to AC equal to half the highest
    penalty applied by a wild attack'. Professional: drops 2 and 2+2=4; attacker -2."""
    c = who("professional")
    slots = U.slots([Action("all_out", "Sword", wild=True)], c)
    assert [s.ac_drop for s in slots] == [2, 4]
    t = U.action_outcomes(Action("all_out", "Sword", wild=True), c, Creature("T", 10, 16, 10))
    assert set(t["self_ac_penalty"]) == {2}
    # hand-worked first attack: +2 vs AC 16-2 needs 12+ (9/20); second +2-4 vs 16-4 needs 14+ (7/20)
    p_none = t.filter(pl.col("hits") == 0)["probability"].sum()
    assert p_none == pytest.approx((11 / 20) * (13 / 20))


def test_snipe_needs_unaware_target_and_a_ranged_weapon():
    c = who(weapons=[BOW, SWORD])
    with pytest.raises(RulesError) as e:
        U.plan_damage(c, who(), [Action("snipe", "Bow")])
    assert e.value.field == "target_unaware"
    d = U.plan_damage(c, who(), [Action("snipe", "Bow")], None, Situation(target_unaware=True))
    assert d == U.damage(BOW, c, who())
    with pytest.raises(RulesError) as e:
        U.plan_damage(c, who(), [Action("snipe", "Sword")], None, Situation(target_unaware=True))
    assert e.value.field == "weapon"


XBOW = Attack("Crossbow", "1d10", kind="ranged", range_increment=80, braceable=True)


def test_bracing_a_crossbow_costs_a_basic_action():
    """Implaced Weapons: "A character can brace one of these weapons ... as a basic action. While braced ... the
    character gains advantage on attack roles with these weapons." Brace + one shot fills the two basic actions;
    Brace + two shots is three. Hand-worked, Dexterity 2 vs AC 12, confirm_crits off, 1d10 (ranged adds nothing):
    braced shot, advantage: hit 1 - (9/20)^2 = 319/400, threat (a 20 kept) 1 - (19/20)^2 = 39/400:
    5.5 x 280/400 + 11 x 39/400 = 1969/400. Two plain shots: d20 >= 10 (11/20, threat 1/20): 5.5 x 10/20 + 11/20 =
    3.3; at -4 d20 >= 14 (7/20): 5.5 x 6/20 + 11/20 = 2.2; 5.5 in all. Braced on an earlier turn
    (Situation.braced), both shots have advantage at no cost."""
    c = who(weapons=[XBOW])
    target = Creature("T", 30, 12, 10)
    opts = Options(confirm_crits=False)
    braced_turn = wb.turn_damage(c, target, opts, plan=[Action("brace", "Crossbow"), Action("push", "Crossbow")])
    assert braced_turn.mean() == pytest.approx(1969 / 400, abs=1e-12)
    assert wb.turn_damage(c, target, opts, plan=["Crossbow", "Crossbow"]).mean() == pytest.approx(5.5, abs=1e-12)
    with pytest.raises(RulesError) as e:
        U.slots([Action("brace", "Crossbow"), Action("push", "Crossbow"), Action("push", "Crossbow")], c)
    assert e.value.field == "attacks"
    with pytest.raises(RulesError) as e:
        U.slots([Action("brace", "Sword"), Action("push", "Sword")], who())
    assert e.value.field == "weapon"
    # braced before this turn: both shots at advantage; the first is the braced shot above
    pre = wb.turn_damage(c, target, opts, Situation(braced=True), plan=["Crossbow", "Crossbow"])
    first = U.damage(XBOW, c, target, opts, Situation(braced=True))
    assert first.mean() == pytest.approx(1969 / 400, abs=1e-12) and pre.mean() > braced_turn.mean()
