"""Unbound turns: illegal turns, action tables counting hits and crits, turn plans and combat hooks,
10,000 matchups in one call (unbound-d20-attacking.txt; CLARIFICATIONS.md, Unbound).
"""


import polars as pl
import pytest

from tests.systems.unbound.weapons import (
    BITE,
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
from workbench import Dist, RulesError

BOLT = Attack("Bolt", "2d6", kind="spell", touch=True)


@pytest.mark.parametrize("plan, field", [
    ([Action("all_out", "Sword"), Action("all_out", "Sword")], "attacks"),   # once per turn
    ([Action("push", "Sword")] * 3, "attacks"),                               # two basic actions
    ([Action("multi"), Action("push", "Sword")], "attacks"),
    ([Action("cast", "Bolt"), Action("push", "Sword")], "attacks"),          # attack vs spell casting action
    ([Action("push", "Bolt")], "weapon"),
    ([Action("push", "Nothing")], "weapon"),
])
def test_illegal_turns(plan, field):
    c = who("professional", [SWORD, BOLT, BITE])
    with pytest.raises(RulesError) as e:
        U.plan_damage(c, who(), plan)
    assert e.value.field == field


def test_action_table_counts_hits_and_crits():
    """Two Push the Attack at +2 vs AC 12 (11/20) and 8 (-4: 7/20 -> +(-2) vs 12 needs 14+):
    P(hits=2) = 11/20 * 7/20; P(crits) with 19-20x2 confirmed."""
    c = who()
    t = U.action_outcomes([Action("push", "Sword"), Action("push", "Sword")], c, Creature("T", 10, 12, 10))
    assert t.filter(pl.col("hits") == 2)["probability"].sum() == pytest.approx(11 / 20 * 7 / 20)
    p1 = 2 / 20 * 11 / 20
    p2 = 2 / 20 * 7 / 20
    assert t.filter(pl.col("crits") == 2)["probability"].sum() == pytest.approx(p1 * p2)
    assert set(t["attacks"]) == {2}
    assert abs(t["probability"].sum() - 1) < 1e-12
    d = U.plan_damage(c, Creature("T", 10, 12, 10), ["Sword", "Sword"])
    assert Dist.from_outcomes(t["damage"].to_numpy(), t["probability"].to_numpy()) == d


def test_action_tables_vectorised_match_single():
    cat = U.catalog()
    bm, ow, gd = cat.creature("Blademaster"), cat.creature("Owlbear"), cat.creature("Town guard")
    acts = [Action("all_out", "Short sword", "Dagger"), Action("push", "Longsword"), Action("multi")]
    grid = U.action_tables(acts, [bm, gd, ow], [ow, bm, gd])
    for i, (a, c, t) in enumerate(zip(acts, [bm, gd, ow], [ow, bm, gd])):
        one = U.action_outcomes(a, c, t)
        mine = grid.filter(pl.col("matchup") == i).drop("matchup")
        assert mine.drop("probability").equals(one.drop("probability"))
        assert (mine["probability"] - one["probability"]).abs().max() < 1e-15


def test_turn_plans_labels_and_values():
    c = who("professional", [SWORD])
    tgt = Creature("T", 10, 14, 10)
    plans = U.turn_plans(c, tgt)
    assert set(plans) == {"Push the Attack (Sword) + Push the Attack (Sword)",
                          "Push the Attack (Sword) + All Out Attack (Sword)",
                          "All Out Attack (Sword) + Push the Attack (Sword)"}
    assert plans["All Out Attack (Sword) + Push the Attack (Sword)"] == U.plan_damage(
        c, tgt, [Action("all_out", "Sword"), Action("push", "Sword")])
    # Push + Push: penalties 0 and -4, an independent sum
    pp = U.damage(SWORD, c, tgt) + U.damage(SWORD.replace(attack_bonus=c.str_mod - 4), c, tgt)
    assert plans["Push the Attack (Sword) + Push the Attack (Sword)"] == pp


def test_turn_plans_include_multi_snipe_cast_and_wild_when_asked():
    c = who("untrained", [SWORD, BOW, BITE, BOLT])
    plans = U.turn_plans(c, who(), Options(wild_plans=True), Situation(target_unaware=True))
    assert "Multi Action (Sword + Bite)" in plans and "Snipe (Bow)" in plans and "Spell Attack (Bolt)" in plans
    assert "Wild Push the Attack (Sword) + Wild Push the Attack (Bite)" in plans
    assert not any("Spell Attack" in k and "+" in k for k in plans)
    assert "Snipe (Bow)" not in U.turn_plans(c, who())


def test_combat_hooks():
    c = U.catalog().creature("Owlbear")
    assert U.actions_per_turn(c) == 2 and U.hit_points(c) == 55
    assert U.attacks_of(c) == list(c.weapons)
    assert U.attack_cost(c.weapons[0]) == 1 and U.attack_cost(Action("multi")) == 2


def test_ten_thousand_matchups_in_one_call():
    """Scale: 10,000 matchups resolve in one vectorised call (its speed: benchmarks/, never asserted)."""
    cat = U.catalog()
    creatures = list(cat.creatures.values())
    rows = [(w, c, creatures[(i * 7 + j) % len(creatures)]) for i, c in enumerate(creatures) for j, w in
            enumerate(c.weapons)]
    rows = (rows * (10_000 // len(rows) + 1))[:10_000]
    t = U.outcome_tables([r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows])
    assert t["matchup"].n_unique() == 10_000
