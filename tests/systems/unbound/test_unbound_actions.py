"""Unbound attack actions, turn plans, combat hooks and catalog (unbound-d20-attacking.txt, Attack Actions)."""

import time

import polars as pl
import pytest

import workbench as wb
from workbench import Dist, RulesError

U = wb.system("unbound")
Attack, Creature, Options, Situation, Action = U.Attack, U.Creature, U.Options, U.Situation, U.Action

SWORD = Attack("Sword", "1d8", crit="19-20x2")
SHORT = Attack("Short", "1d6", light=True)
DAGGER = Attack("Dagger", "1d4", light=True)
AXE = Attack("Axe", "1d8")
GREAT = Attack("Great", "2d6", two_handed=True)
BOW = Attack("Bow", kind="ranged", range_increment=100)
BOLT = Attack("Bolt", "2d6", kind="spell", touch=True)
CLAWS = Attack("Claws", "1d6", natural=True, paired=True)
BITE = Attack("Bite", "1d8", natural=True)
TAIL = Attack("Tail", "1d6", natural=True)


def who(rank="untrained", weapons=(SWORD,), **kw):
    return Creature("A", 30, 10, 10, 2, 2, 2, rank, list(weapons), **kw)


def mods(actions, attacker, options=None, situation=None):
    return [(s.attack.name, s.modifier) for s in U.slots(actions, attacker, options, situation)]


# --------------------------------------------------------------------------- penalties
def test_push_the_attack_stacks_minus_four():
    """'Every attack past the first a character makes in the same turn takes a stacking -4 penalty'."""
    assert mods([Action("push", "Sword"), Action("push", "Sword")], who()) == [("Sword", 0), ("Sword", -4)]


@pytest.mark.parametrize("rank, expected", [("untrained", [0]), ("professional", [0, -4]),
                                            ("grandmaster", [0, -4, -8])])
def test_all_out_attack_iteratives_by_rank(rank, expected):
    """'an iterative attack at professional rank and grandmaster+ rank' (CLARIFICATIONS: 1/2/3 attacks)."""
    assert [m for _, m in mods([Action("all_out", "Sword")], who(rank))] == expected


def test_all_out_then_push_counts_every_earlier_attack():
    assert mods([Action("all_out", "Sword"), Action("push", "Sword")], who("grandmaster"))[-1] == ("Sword", -12)
    assert [m for _, m in mods([Action("push", "Sword"), Action("all_out", "Sword")], who("professional"))] == \
        [0, -4, -8]


@pytest.mark.parametrize("main, off, pen", [(SWORD, AXE, 4), (SWORD, DAGGER, 3), (SHORT, DAGGER, 2), (SHORT, AXE, 4)])
def test_two_weapon_penalties_by_lightness(main, off, pen):
    """'both attacks take the multiple attack penalty from the off hand'; light off hand lowers it by 1,
    both light by 2 (CLARIFICATIONS: -4 / -3 / -2, stacking with the iterative penalty)."""
    c = who("professional", [main, off])
    got = mods([Action("all_out", main.name, off.name)], c)
    assert got == [(main.name, -pen), (main.name, -4 - pen), (off.name, -pen)]


def test_offhand_counts_as_attack_option():
    c = who("professional", [SHORT, DAGGER])
    got = mods([Action("all_out", "Short", "Dagger")], c, Options(offhand_counts_as_attack=True))
    assert got == [("Short", -2), ("Short", -6), ("Dagger", -10)]


def test_two_weapon_needs_one_handed_wielded_weapons():
    for main, off, field in [(GREAT, DAGGER, "weapon"), (SWORD, CLAWS, "off_hand"), (SWORD, BOW, "off_hand")]:
        with pytest.raises(RulesError) as e:
            U.slots([Action("all_out", main, off)], who("professional", [main, off]))
        assert e.value.field == field


def test_paired_natural_weapons_count_as_one_attack():
    """'the second claw does not take the penalty from attacking multiple times'."""
    c = who(weapons=[CLAWS, BITE])
    assert mods([Action("push", "Claws"), Action("push", "Bite")], c) == [("Claws", 0), ("Claws", 0), ("Bite", -4)]


def test_primary_natural_gains_no_iteratives():
    """Primary natural weapon: 'it does not gain iterative attacks'."""
    assert mods([Action("all_out", "Bite")], who("grandmaster", [BITE])) == [("Bite", 0)]


def test_multi_action_secondary_natural_minus_three_more():
    """'Any secondary attacks used as part of a Multi Action ... take a -3 penalty ... in addition to
    normal multiple attacks penalties'; the claws pair is one attack."""
    c = who(weapons=[BITE, CLAWS, TAIL])
    assert mods([Action("multi")], c) == [("Bite", 0), ("Claws", -7), ("Claws", -7), ("Tail", -11)]
    c = who(weapons=[SWORD, BITE])
    assert mods([Action("multi", "Sword")], c) == [("Sword", 0), ("Bite", -7)]
    with pytest.raises(RulesError) as e:
        U.slots([Action("multi", "Sword")], who())
    assert e.value.field == "weapons"


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


# --------------------------------------------------------------------------- turn plans & hooks
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


# --------------------------------------------------------------------------- catalog
def test_catalog_has_creatures_weapons_and_the_five_shields():
    """'Buckler - 2d6 (B) 20x2 ... Tower - 2d10 (B) 20x2' (Shield Weapon Profiles)."""
    cat = U.catalog()
    assert len(cat.creatures) >= 10 and len(cat.attacks) >= 12
    shields = {n: (a.damage, a.crit) for n, a in cat.attacks.items() if a.shield}
    assert shields == {"Buckler": ("2d6", "20x2"), "Targe": ("2d6", "20x2"), "Kite": ("2d8", "20x2"),
                       "Heater": ("2d8", "20x2"), "Tower": ("2d10", "20x2")}
    assert U.catalog() is cat


def test_shield_bash_replaces_an_attack():
    """'A character may choose to replace any attack made as part of an attack action with a Shield Bash.'"""
    cat = U.catalog()
    c = cat.creature("Shieldbearer")
    got = mods([Action("all_out", "Battleaxe"), Action("push", "Tower")], c)
    assert got == [("Battleaxe", 0), ("Battleaxe", -4), ("Tower", -8)]


def test_bad_catalog_file_names_file_and_field(tmp_path):
    from workbench.systems.unbound.catalog import load_catalog
    (tmp_path / "attacks.toml").write_text('[[attack]]\nname = "Bad"\ndamage = "2x6"\n')
    (tmp_path / "creatures.toml").write_text("")
    with pytest.raises(RulesError) as e:
        load_catalog(tmp_path)
    assert e.value.field == "damage" and "attacks.toml" in str(e.value)
    (tmp_path / "attacks.toml").write_text('[[attack]]\nname = "Ok"\n')
    (tmp_path / "creatures.toml").write_text('[[creature]]\nname = "C"\nhp = 5\nac = -2\ntouch_ac = 1\n')
    with pytest.raises(RulesError) as e:
        load_catalog(tmp_path)
    assert e.value.field == "ac" and "creatures.toml" in str(e.value)


def test_ten_thousand_matchups_in_one_call():
    """Scale: 10,000 matchups resolve in one vectorised call (timing reported, bound generous)."""
    cat = U.catalog()
    creatures = list(cat.creatures.values())
    rows = [(w, c, creatures[(i * 7 + j) % len(creatures)]) for i, c in enumerate(creatures) for j, w in
            enumerate(c.weapons)]
    rows = (rows * (10_000 // len(rows) + 1))[:10_000]
    start = time.perf_counter()
    t = U.outcome_tables([r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows])
    elapsed = time.perf_counter() - start
    assert t["matchup"].n_unique() == 10_000
    assert elapsed < 10.0


# --------------------------------------------------------------------------- one secondary after a wielded weapon
def test_multi_action_after_a_wielded_weapon_takes_one_secondary_natural():
    """Secondary Natural Attacks: "a character may perform a Multi Action ... to attack with all primary and secondary
    natural weapons available or with an available secondary natural weapon after attacking with a wielded weapon".
    Sword + Bite + Tail: the Multi Action with the Sword makes the Sword and ONE secondary (default the first natural
    weapon, or the one named), at -4 - 3 = -7.
    Hand-worked vs AC 10, Strength 2, confirm_crits off: Sword d20 + 2 >= 10 (13/20), threat 19-20 (2/20):
    6.5 x 11/20 + 13 x 2/20 = 4.875; Bite d20 - 5 >= 10 (6/20), threat 20: 6.5 x 5/20 + 13 x 1/20 = 2.275;
    Tail 5.5 x 5/20 + 11 x 1/20 = 1.925. The old reading added the Tail at -11 too (d20 >= 19: 5.5/20 + 11/20 =
    0.825)."""
    c = who(weapons=[SWORD, BITE, TAIL])
    assert mods([Action("multi", "Sword")], c) == [("Sword", 0), ("Bite", -7)]
    assert mods([Action("multi", "Sword", secondary="Tail")], c) == [("Sword", 0), ("Tail", -7)]
    target = Creature("T", 30, 10, 10)
    opts = Options(confirm_crits=False)
    bite = wb.turn_damage(c, target, opts, plan=[Action("multi", "Sword")])
    tail = wb.turn_damage(c, target, opts, plan=[Action("multi", "Sword", secondary="Tail")])
    assert bite.mean() == pytest.approx(4.875 + 2.275, abs=1e-12)
    assert tail.mean() == pytest.approx(4.875 + 1.925, abs=1e-12)
    # every natural weapon without a wielded one is unchanged: Bite, then Tail at -7
    assert mods([Action("multi")], c) == [("Bite", 0), ("Tail", -7)]
    for bad, field in ((Action("multi", "Sword", secondary="Sword"), "secondary"),
                       (Action("multi", "Sword", secondary="Wings"), "secondary")):
        with pytest.raises(RulesError) as e:
            U.slots([bad], c)
        assert e.value.field == field
    with pytest.raises(RulesError) as e:
        Action("push", "Sword", secondary="Bite")
    assert e.value.field == "secondary"


# --------------------------------------------------------------------------- bracing costs a basic action
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


# --------------------------------------------------------------------------- rank per weapon group
def test_iteratives_follow_the_rank_of_the_weapons_group():
    """Multiple Attacks: "they gain an iterative attack at professional rank and grandmaster+ rank with weapons in
    that weapon group"; Shield Bash: "Shields typically count as close weapons for which skill is used". An
    untrained fighter who is professional with blades and grandmaster with close weapons: All Out Attack with a
    blade makes 2 attacks (0, -4), with an axe 1, with a Tower shield bash 3 (0, -4, -8); no group named: ``rank``."""
    blade = Attack("Blade", "1d8", group="blades")
    axe = Attack("Axe", "1d8", group="axes")
    tower = U.catalog().attack("Tower")
    assert tower.weapon_group == "close"
    c = who("untrained", [blade, axe, tower], group_ranks={"blades": "professional", "close": "grandmaster"})
    assert [m for _, m in mods([Action("all_out", "Blade")], c)] == [0, -4]
    assert [m for _, m in mods([Action("all_out", "Axe")], c)] == [0]
    assert [m for _, m in mods([Action("all_out", "Tower")], c)] == [0, -4, -8]
    assert c.rank_with(axe) == "untrained" and c.iteratives == 3
    # the turn of one All Out Attack with the blade = the blade at 0 plus the blade at -4
    target = Creature("T", 30, 12, 10)
    got = wb.turn_damage(c, target, plan=[Action("all_out", "Blade")])
    want = U.plan_damage(c, target, ["Blade", "Blade"])
    assert got.isclose(want, 1e-12)
    with pytest.raises(RulesError) as e:
        who(group_ranks={"blades": "legendary"})
    assert e.value.field == "group_ranks.blades"
