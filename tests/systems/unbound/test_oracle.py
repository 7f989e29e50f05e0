"""Unbound against an independent icepool model of the d20 attack (to 1e-12), and properties.

The oracle is written from the rules, not from the implementation: unbound-d20-attacking.txt
('equal to or higher than the targets AC'; 'a natural 1 ... automatic miss and a natural 20 ...
automatic hit') and CLARIFICATIONS.md, Unbound (threat range x multiplier, confirmation roll,
2d20 keep higher / lower, crit rolls the weapon damage multiplier times, melee adds Strength).
"""

import icepool
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import workbench as wb
from tests.oracles import assert_dist_close, from_icepool

U = wb.system("unbound")


def icepool_attack(terms, static, bonus, ac, mode, threat_low, mult, confirm, minimum=0):
    """Return the icepool damage Die of one attack; ``terms`` is a list of (count, sides, sign)."""
    one = icepool.Die([static])
    for n, k, sign in terms:
        one = one + (n @ icepool.d(k) if sign > 0 else -(n @ icepool.d(k)))
    normal = one.map(lambda x: max(x, minimum))
    crit = (mult @ one).map(lambda x: max(x, minimum))
    d20 = icepool.d20
    nat = {0: d20, 1: icepool.highest(d20, d20), -1: icepool.lowest(d20, d20)}[mode]

    def hits(n):
        return n == 20 or (n != 1 and n + bonus >= ac)

    confirm_die = nat.map(lambda n: 1 if hits(n) else 0)

    def outcome(n):
        if not hits(n):
            return icepool.Die([0])
        if n >= threat_low:
            return confirm_die.if_else(crit, normal) if confirm else crit
        return normal

    return nat.map(outcome)


def text_of(terms, static):
    s = "".join(f"{'-' if sg < 0 else '+'}{n}d{k}" for n, k, sg in terms).lstrip("+")
    return s + (f"{static:+d}" if static else "")


terms_st = st.lists(st.tuples(st.integers(1, 3), st.sampled_from([2, 3, 4, 6, 8, 10, 12]), st.just(1)),
                    min_size=1, max_size=2)


@settings(max_examples=60, deadline=None)
@given(terms=terms_st, static=st.integers(-4, 6), str_mod=st.integers(-3, 6), bonus=st.integers(-6, 25),
       ac=st.integers(0, 40), mode=st.sampled_from([-1, 0, 1]), low=st.integers(15, 20), mult=st.integers(2, 4),
       confirm=st.booleans(), minimum=st.sampled_from([0, 1]))
def test_single_attack_matches_icepool(terms, static, str_mod, bonus, ac, mode, low, mult, confirm, minimum):
    crit = f"{low}-20x{mult}" if low < 20 else f"20x{mult}"
    a = U.Attack("W", text_of(terms, static), crit=crit, attack_bonus=bonus)
    me = U.Creature("A", 10, 10, 10, str_mod=str_mod)
    tgt = U.Creature("T", 10, ac, 0)
    sit = U.Situation(advantage=mode > 0, disadvantage=mode < 0)
    opts = U.Options(confirm_crits=confirm, minimum_damage=minimum)
    ours = U.damage(a, me, tgt, opts, sit)
    oracle = from_icepool(icepool_attack(terms, static + str_mod, bonus, ac, mode, low, mult, confirm, minimum))
    assert_dist_close(ours, oracle)


@settings(max_examples=25, deadline=None)
@given(bonuses=st.lists(st.integers(-2, 15), min_size=1, max_size=8), acs=st.lists(st.integers(5, 30), min_size=8,
       max_size=8), sides=st.lists(st.sampled_from([4, 6, 8, 10, 12]), min_size=8, max_size=8))
def test_vectorised_grid_matches_icepool_per_matchup(bonuses, acs, sides):
    """Many matchups in one call: each matchup's table equals its own icepool model."""
    n = len(bonuses)
    attacks = [U.Attack(f"W{i}", f"1d{sides[i]}+1", crit="19-20x2", attack_bonus=b) for i, b in enumerate(bonuses)]
    targets = [U.Creature("T", 10, acs[i], 0) for i in range(n)]
    me = U.Creature("A", 10, 10, 10)
    dists = U.damage_dists(attacks, [me] * n, targets)
    for i in range(n):
        oracle = icepool_attack([(1, sides[i], 1)], 1, bonuses[i], acs[i], 0, 19, 2, True)
        assert_dist_close(dists[i], from_icepool(oracle))


def test_design_reference_scenario_against_icepool():
    """The reference attack (benchmarks/README.md): +7 vs AC 16 with advantage, natural 1 misses, 19-20 threatens and crits
    without confirmation, crit 2d6+3 twice (4d6+6), other hits 2d6+3."""
    cat = U.catalog()
    a = cat.attack("Reference greatsword")
    bruiser = cat.creature("Reference bruiser")
    opts = U.Options(confirm_crits=False)
    sit = U.Situation(advantage=True)
    ours = U.damage(a, bruiser, bruiser, opts, sit)

    d20 = icepool.d20
    nat = icepool.highest(d20, d20)
    hit_dmg = 2 @ icepool.d6 + 3
    crit_dmg = 4 @ icepool.d6 + 6
    oracle = nat.map(lambda n: icepool.Die([0]) if n == 1 or (n != 20 and n + 7 < 16)
                     else (crit_dmg if n >= 19 else hit_dmg))
    assert_dist_close(ours, from_icepool(oracle))
    # mean derived from the parts: P(hit) = 1 - (8/20)^2, P(threat) = 1 - (18/20)^2
    p_hit, p_crit = 1 - (8 / 20) ** 2, 1 - (18 / 20) ** 2
    assert ours.mean() == pytest.approx((p_hit - p_crit) * hit_dmg.mean() + p_crit * crit_dmg.mean(), abs=1e-12)
    # four such attacks in a turn (the reference turn of benchmarks/README.md; no penalties): 4 independent copies
    assert_dist_close(4 @ ours, from_icepool(4 @ oracle))


def test_action_sum_matches_icepool():
    """All Out Attack at grandmaster, 0/-4/-8 (text: 'stacking -4 penalty'): sum of three independent attacks."""
    w = U.Attack("Sword", "1d8", crit="19-20x2")
    me = U.Creature("A", 10, 10, 10, str_mod=3, rank="grandmaster", weapons=[w])
    tgt = U.Creature("T", 10, 15, 10)
    ours = U.plan_damage(me, tgt, [U.Action("all_out", "Sword")])
    oracle = sum((icepool_attack([(1, 8, 1)], 3, 3 - 4 * k, 15, 0, 19, 2, True) for k in range(3)), icepool.Die([0]))
    assert_dist_close(ours, from_icepool(oracle))
    table = U.action_outcomes(U.Action("all_out", "Sword"), me, tgt)
    assert (table["probability"] * table["damage"]).sum() == pytest.approx(float(oracle.mean()), abs=1e-12)


# --------------------------------------------------------------------------- properties
@settings(max_examples=60, deadline=None)
@given(bonus=st.integers(-10, 30), ac=st.integers(0, 40), mode=st.sampled_from([-1, 0, 1]),
       crit=st.sampled_from(["20x2", "19-20x2", "18-20x3", "15-20x4"]), dmg=st.sampled_from(["1d8", "2d6-1", "1d4+1d6"]))
def test_properties_sum_to_one_and_monotone(bonus, ac, mode, crit, dmg):
    me = U.Creature("A", 10, 10, 10)
    sit = U.Situation(advantage=mode > 0, disadvantage=mode < 0)
    rows = [U.Attack("W", dmg, crit=crit, attack_bonus=b) for b in (bonus, bonus + 1)]
    tgts = [U.Creature("T", 10, ac, 0), U.Creature("T", 10, ac, 0)]
    t = U.outcome_tables(rows, [me, me], tgts, None, sit)
    sums = t.group_by("matchup").agg(pl.col("probability").sum())["probability"]
    assert all(abs(s - 1) < 1e-12 for s in sums)
    ph = t.filter(pl.col("hit")).group_by("matchup").agg(pl.col("probability").sum()).sort("matchup")["probability"]
    assert ph[1] >= ph[0] - 1e-15  # more accuracy never lowers the hit chance
    d = U.damage_dists(rows, [me, me], tgts, None, sit)
    assert d[1].mean() >= d[0].mean() - 1e-12
    normal = U.damage(rows[0], me, tgts[0])
    adv = U.damage(rows[0], me, tgts[0], None, U.Situation(advantage=True))
    dis = U.damage(rows[0], me, tgts[0], None, U.Situation(disadvantage=True))
    assert dis.mean() <= normal.mean() + 1e-12 <= adv.mean() + 2e-12
