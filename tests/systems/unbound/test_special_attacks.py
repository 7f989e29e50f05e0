"""Unbound special attacks: Wild Attack, Snipe, and bracing a crossbow as a basic action
(unbound-d20-attacking.txt; CLARIFICATIONS.md, Unbound).
"""

import numpy as np
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
from workbench.simulate import state_effects
from workbench.fight.chain import state_chain


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


def test_plans_propose_the_brace_and_it_holds_from_turn_to_turn():
    """Implaced Weapons: "A character can brace one of these weapons ... as a basic action. While braced ... the
    character gains advantage on attack roles with these weapons." The plans offer Brace + an attack action (the
    brace spends one of the two basic actions); once braced the weapon stays braced (nobody moves in a fight).
    Hand-worked, Dexterity 2 vs AC 16, confirm_crits off, 1d10: plain shots need 14 (7/20) and 18 at -4 (3/20):
    5.5 x 6/20 + 11/20 = 2.2 and 5.5 x 2/20 + 11/20 = 1.1, 3.3 in all. Braced shot: hit 1 - (13/20)^2 = 231/400,
    threat 39/400: (5.5 x 192 + 11 x 39)/400 = 1485/400 = 3.7125 > 3.3, so turn 1 braces. Braced, two shots: the
    second hits 1 - (17/20)^2 = 111/400: (5.5 x 72 + 11 x 39)/400 = 2.0625, 5.775 in all > 3.7125, so later turns
    shoot twice at advantage. Against 1 HP (any hit kills): P(kill in turn 1) = 231/400; later turns miss both
    with (169/400)(289/400) = 48841/160000, so P(kill) q = 111159/160000 and the mean rounds are
    1 + (169/400) / q = 1 + 67600/111159 (re-bracing every turn: 400/231)."""
    c = who(weapons=[XBOW])
    target = Creature("T", 1, 16, 10)
    opts = Options(confirm_crits=False)
    plans = U.turn_plans(c, target, opts)
    assert plans["Brace (Crossbow) + Push the Attack (Crossbow)"].mean() == pytest.approx(1485 / 400, abs=1e-12)
    assert plans["Push the Attack (Crossbow) + Push the Attack (Crossbow)"].mean() == pytest.approx(3.3, abs=1e-12)
    assert wb.turn_damage(c, target, opts).mean() == pytest.approx(1485 / 400, abs=1e-12)
    held = wb.turn_damage(c, target, opts, Situation(braced=True))
    assert held.mean() == pytest.approx(3.7125 + 2.0625, abs=1e-12)
    assert state_effects(c, target, opts) == {"braced weapon"}
    assert state_effects(c, target, opts, Situation(braced=True)) == set()
    f = wb.rounds_to_kill(c, target, options=opts)
    assert f["exact"].all()
    by = f["p_killed_by"].to_numpy()
    q = 111159 / 160000
    assert by[0] == pytest.approx(231 / 400, abs=1e-12)
    assert by[1] == pytest.approx(231 / 400 + 169 / 400 * q, abs=1e-12)
    mean = float((f["round"] * f["p_killed_at"]).sum())
    assert mean == pytest.approx(1 + 67600 / 111159, abs=1e-12)
    sim = wb.rounds_to_kill(c, target, options=opts, simulate=True, fights=20_000, seed=4)
    m_sim = float((sim["round"] * sim["p_killed_at"]).sum())
    assert abs(m_sim - mean) < 4 * (0.9 / 20_000) ** 0.5  # the variance of the rounds is 0.77 < 0.9


def test_a_duel_with_a_brace_is_exact():
    """Implaced Weapons: a Brace gives the braced weapon advantage on the bracer's own later turns; it
    lowers nothing the foe attacks, so a duel in which one side braces is exact (the bracer's chain over
    its braced mask, UnboundSystem.duel_couplings) instead of simulated. Hand-worked: the crossbowman of
    the test above with 1 HP, A first, against a 1-HP swordsman (AC 16, Strength 2, two swings: the
    first hits AC 10 on 8+ (13/20), the second at -4 on 12+ (9/20), so he kills with
    b = 1 - (7/20)(11/20) = 323/400). A kills in round 1 with a1 = 231/400, later with q = 111159/160000;
    P(A wins) = a1 + (1 - a1)(1 - b) q / (1 - (1 - q)(1 - b)) = 38404443/60239243 (100 rounds leave
    ((1 - q)(1 - b))^99 < 1e-100)."""
    c = who(weapons=[XBOW]).replace(hp=1)
    swordsman = Creature("T", 1, 16, 10, 2, 2, 2, "untrained", [SWORD])
    opts = Options(confirm_crits=False)
    assert state_effects(c, swordsman, opts) == {"braced weapon"} and not U.duel_couplings(c, swordsman, opts)
    assert wb.turn_damage(swordsman, c, opts).sf(1) == pytest.approx(323 / 400, abs=1e-12)
    r = wb.duel(c, swordsman, opts)
    assert r.exact and r.forced_by == ()
    assert r.p_a_wins == pytest.approx(38404443 / 60239243, abs=1e-12)
    assert r.p_b_wins == pytest.approx(1 - 38404443 / 60239243, abs=1e-12)
    sim = wb.duel(c, swordsman, opts, simulate=True, fights=20_000, seed=3)
    assert abs(sim.p_a_wins - r.p_a_wins) < 4 * sim.standard_error


def test_the_brace_chain_gives_a_duels_hp_left():
    """The chain's weighted alive mass (state_chain(..., weights=)): with weights 1 at t = 0 only it is
    the untouched target (all mass at 0 damage taken); at t = 1 after the first turn (a braced shot,
    1d10 at advantage against a 30-HP target: damage 0 w.p. 1 - 231/400 - 39/400 (no hit), each of
    1..10 w.p. (231 - 39)/400/10 as a hit, crits doubling)."""
    c = who(weapons=[XBOW])
    target = Creature("T", 30, 16, 10)
    opts = Options(confirm_crits=False)
    got = state_chain(U, c, target, opts, Situation(), None, 100, np.array([1.0]))
    by, mean, w0 = got.by, got.mean, got.weighted
    assert w0[0] == pytest.approx(1.0, abs=1e-12) and w0[1:].sum() == pytest.approx(0.0, abs=1e-12)
    w1 = state_chain(U, c, target, opts, Situation(), None, 100, np.array([0.0, 1.0])).weighted
    assert w1[0] == pytest.approx(1 - 231 / 400, abs=1e-12) and w1.sum() == pytest.approx(1.0 - by[0], abs=1e-12)
    assert w1[1] == pytest.approx(192 / 400 / 10, abs=1e-12)  # a plain hit of 1 (a crit deals 2 at least)
