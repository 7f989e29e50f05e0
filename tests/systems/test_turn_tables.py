"""turn_tables over many pairs == turn_tables of each pair alone (the 1 x 1 case): batching never
changes a result. Same labels in order, same Dists (1e-12).

Every system resolves every pair's attacks in one outcome_tables call; ``turn_plans`` (one pair at
a time, the 1 x 1 table) is the reference. Rules of plan
legality: annulus-attacks.txt (Reroll once per round, Gaze/Swansong free, Telegraphed and area sets
once), last-odyssey-attacks.txt (action points, melee reach), glass-empires-attack.txt (reach, armor
points carried from Attack to Attack; CLARIFICATIONS.md).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import workbench as wb
from workbench.dist import Dist
from workbench.errors import RulesError
from workbench.memo import MEMO

AN = wb.system("annulus")
LO = wb.system("last_odyssey")
GE = wb.system("glass_empires")
UB = wb.system("unbound")


def turn_plans_many(sys, pairs, options=None, situation=None) -> list[dict[str, Dist]]:
    """Return each pair's {label: total damage Dist} from ONE batched ``turn_tables`` call (built
    afresh: the memo of earlier pairs is cleared first, so no pair is read back)."""
    MEMO.clear()
    table = sys.turn_tables(list(pairs), options, situation)
    out: list[dict[str, Dist]] = [{} for _ in range(table.n_pairs)]
    for j, i in enumerate(table.pair):
        out[i][table.label[j]] = table.dist(j)
    for i, err in enumerate(table.errors):
        if err is not None and not getattr(err, "no_plan", False):
            raise err  # the rules refused this pair's input: as turn_plans raises it
    return out


def _creatures(sys) -> list:
    return list(sys.catalog().creatures.values())


def assert_same(sys, pairs, options=None, situation=None) -> list[dict[str, Dist]]:
    """Assert the batched turn tables equal the per-pair turn_plans (labels in order, Dists within 1e-12)."""
    sits = situation if isinstance(situation, list) else [situation] * len(pairs)
    many = turn_plans_many(sys, pairs, options, situation)
    assert len(many) == len(pairs)
    for (a, t), s, got in zip(pairs, sits, many):
        MEMO.clear()  # the pair alone, built afresh (not the batch's entry read back)
        want = sys.turn_plans(a, t, options, s)
        assert list(got) == list(want), (a.name, t.name)
        for label, d in want.items():
            e = got[label]
            lo = min(d.offset, e.offset)
            hi = max(d.max(), e.max())
            x, y = np.zeros(hi - lo + 1), np.zeros(hi - lo + 1)
            x[d.offset - lo: d.offset - lo + d.pmf.size] = d.pmf
            y[e.offset - lo: e.offset - lo + e.pmf.size] = e.pmf
            assert np.abs(x - y).max() <= 1e-12, (a.name, t.name, label)
            assert abs(e.pmf.sum() - 1.0) <= 1e-12
    return many


# ---------------------------------------------------------------- every catalog pair
@pytest.mark.parametrize("sys", [AN, LO, GE, UB], ids=lambda s: s.name)
def test_every_catalog_pair_matches_turn_plans(sys):
    cr = _creatures(sys)
    assert_same(sys, [(a, t) for a in cr for t in cr])


def test_empty_batch():
    for sys in (AN, LO, GE, UB):
        assert turn_plans_many(sys, []) == []


# ---------------------------------------------------------------- Annulus
def test_annulus_unusable_sets_left_out_per_pair():
    """annulus-attacks.txt / CLARIFICATIONS.md Range ranks: Harpoon (rank 2) reaches 10-20 m only;
    Swansong only at half Vitality or less. A mixed batch: each pair keeps its own usable sets."""
    cat = AN.catalog()
    guard, berserker, wolf = cat.creature("Town Guard"), cat.creature("Berserker"), cat.creature("Wolf")
    near, far = AN.Situation(distance=1), AN.Situation(distance=15)
    low = AN.Situation(attacker_vitality=berserker.vitality // 2)
    pairs = [(guard, wolf), (guard, wolf), (berserker, wolf), (berserker, wolf)]
    many = assert_same(AN, pairs, situation=[near, far, near, low])
    assert not any("Harpoon" in k for k in many[0]) and list(many[1]) == ["Harpoon + Harpoon"]
    assert not any("Death Rattle" in k for k in many[2])
    # usable at half Vitality: every plan is offered with the free Swansong set and without it
    with_it = [k for k in many[3] if k.startswith("Death Rattle + ")]
    assert with_it and sorted(many[3]) == sorted(with_it + [k.removeprefix("Death Rattle + ") for k in with_it])
    # at 15 m only Harpoon reaches: two uses, the Reroll at most once, as plan_damage composes them
    assert many[1]["Harpoon + Harpoon"] == AN.plan_damage(guard, wolf, ["Harpoon", "Harpoon"], situation=far)


def test_annulus_reroll_once_per_round_and_spent_reroll():
    """annulus-attacks.txt: 'You cannot reroll more than one attack check per round' -- the two-use
    plan differs from two independent uses, and a spent Reroll (reroll_available=False) changes it."""
    cat = AN.catalog()
    pairs = [(a, t) for a in (cat.creature("Wolf"), cat.creature("Drake")) for t in (cat.creature("Ogre"),)]
    fresh = assert_same(AN, pairs)
    spent = assert_same(AN, pairs, situation=AN.Situation(reroll_available=False))
    mixed = assert_same(AN, pairs, situation=[AN.Situation(), AN.Situation(reroll_available=False)])
    assert mixed[0]["Bite + Bite"] == fresh[0]["Bite + Bite"]
    assert mixed[1]["Claw + Claw"] == spent[1]["Claw + Claw"]


def test_annulus_three_actions_option():
    cr = _creatures(AN)[::3]
    many = assert_same(AN, [(a, t) for a in cr for t in cr[:2]], options=AN.Options(actions=3))
    assert any(k.count(" + ") == 2 for plans in many for k in plans)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, 10), st.integers(0, 10), st.sampled_from([1.0, 3.0, 8.0, 15.0]),
                          st.booleans(), st.booleans(), st.integers(0, 2)), min_size=1, max_size=6))
def test_annulus_hypothesis_sample(rows):
    cr = _creatures(AN)
    pairs = [(cr[i], cr[j]) for i, j, *_ in rows]
    sits = [AN.Situation(distance=d, reroll_available=r, target_prone=p, extra_advantages=x)
            for _, _, d, r, p, x in rows]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_same(AN, pairs, situation=sits)


# ---------------------------------------------------------------- Last Odyssey
def test_last_odyssey_back_row_leaves_melee_out_per_pair():
    """last-odyssey-attacks.txt, Ability Types: melee only from the front row, into the front row."""
    cat = LO.catalog()
    gunner, cop = cat.creature("Gunner"), cat.creature("Cop")
    back = LO.Situation(attacker_row="back")
    pairs = [(gunner, cop), (gunner, cop), (cop, gunner)]
    many = assert_same(LO, pairs, situation=[LO.Situation(), back, back])
    assert any("Saber" in k for k in many[0])
    assert not any("Saber" in k for k in many[1]) and many[1]
    assert many[2] == {}   # the Cop has only a melee Truncheon


def test_last_odyssey_plans_fill_the_action_points():
    """CLARIFICATIONS.md: 2 action points at tiers 1-5; a plan is a full turn (no ability still fits)."""
    cat = LO.catalog()
    paladin, wolf = cat.creature("Paladin"), cat.creature("Wolf")
    plans = assert_same(LO, [(paladin, wolf)])[0]
    assert "Swipe + Swipe" in plans and "Falcon Dive" in plans and "Swipe" not in plans
    assert plans["Swipe + Swipe"] == LO.plan_damage(paladin, wolf, ["Swipe", "Swipe"])


# ---------------------------------------------------------------- Glass Empires
def _ge_pair():
    bow, sword = GE.catalog().attack("Bow"), GE.catalog().attack("Medium melee")
    archer = GE.Creature("Archer", power=3, weapons=[bow, sword])
    knight = GE.Creature("Knight", power=3, armor=2)
    return archer, knight


def test_glass_empires_two_attacks_carry_armor_points():
    """CLARIFICATIONS.md: with attack_is_save_action=False a turn holds two Attacks and the target's
    armor points carry from the first to the second (not two independent Attacks)."""
    archer, knight = _ge_pair()
    opt = GE.Options(attack_is_save_action=False)
    many = assert_same(GE, [(archer, knight), (knight, archer)], options=opt)
    two = many[0]["Medium melee + Medium melee"]
    one = GE.damage(archer.weapons[1], archer, knight, opt)
    assert not two.isclose(one + one)   # armor spent by the first Attack
    assert two == GE.plan_damage(archer, knight, ["Medium melee", "Medium melee"], opt)
    assert many[1] == {"No attack": Dist.constant(0)}


def test_glass_empires_out_of_reach_left_out_per_pair():
    """glass-empires-attack.txt: ranged up to twice the listed range; melee within reach (+ Angry Step)."""
    archer, knight = _ge_pair()
    opt = GE.Options(attack_is_save_action=False)
    sits = [GE.Situation(distance=1), GE.Situation(distance=200), GE.Situation(distance=1, target_ap=1)]
    many = assert_same(GE, [(archer, knight)] * 3, options=opt, situation=sits)
    assert "Bow + Medium melee" in many[0]
    assert list(many[1]) == ["Bow", "Bow + Bow"]
    assert many[2]["Medium melee"] != many[0]["Medium melee"]   # target starts with 1 AP


def test_glass_empires_errors_as_turn_plans():
    archer, knight = _ge_pair()
    with pytest.raises(RulesError) as many_err:
        turn_plans_many(GE, [(archer, knight)], situation=GE.Situation(distance=400))
    with pytest.raises(RulesError) as one_err:
        GE.turn_plans(archer, knight, situation=GE.Situation(distance=400))
    assert many_err.value.field == one_err.value.field == "distance"
    with pytest.raises(RulesError, match="armor points") as exc:
        turn_plans_many(GE, [(archer, knight)], situation=GE.Situation(target_ap=99))
    assert exc.value.field == "target_ap"


# ---------------------------------------------------------------- compare uses the batch
def test_compare_best_rows_equal_best_of_turn_plans():
    from workbench.turns import best_plan

    cr = _creatures(LO)[:8]
    df = wb.compare(cr, cr, progress=False).filter(wb.comparison.pl.col("attack") == "best plan")
    for row in df.iter_rows(named=True):
        a = next(c for c in cr if c.name == row["attacker"])
        t = next(c for c in cr if c.name == row["target"])
        plans = LO.turn_plans(a, t)
        label = best_plan(plans) if plans else "(no usable attack)"
        assert row["plan"] == label
        if plans:
            assert row["mean_turn_damage"] == pytest.approx(plans[label].mean(), abs=1e-9)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, 39), st.integers(0, 39), st.sampled_from(["front", "back"]),
                          st.sampled_from(["front", "back"]), st.booleans(), st.booleans()),
                min_size=1, max_size=6))
def test_last_odyssey_hypothesis_sample(rows):
    cr = _creatures(LO)
    pairs = [(cr[i], cr[j]) for i, j, *_ in rows]
    sits = [LO.Situation(attacker_row=a, target_row=t, target_front_row_standing=f, lean_in=lean)
            for _, _, a, t, f, lean in rows]
    assert_same(LO, pairs, situation=sits)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, 29), st.integers(0, 29), st.sampled_from([None, 1.0, 5.0, 12.0]),
                          st.sampled_from(["none", "low", "high"]), st.booleans()), min_size=1, max_size=5),
       st.booleans())
def test_glass_empires_hypothesis_sample(rows, save_action):
    cr = _creatures(GE)
    archer, _ = _ge_pair()
    cr = cr + [archer]
    pairs = [(cr[i if k % 2 else -1], cr[j]) for k, (i, j, *_) in enumerate(rows)]
    sits = [GE.Situation(distance=d, cover=c, angry_step=s) for _, _, d, c, s in rows]
    opt = GE.Options(attack_is_save_action=save_action)
    try:
        [GE.turn_plans(a, t, opt, s) for (a, t), s in zip(pairs, sits)]
    except RulesError as exc:   # no weapon reaches for some pair: the batch refuses the same way
        with pytest.raises(RulesError) as got:
            turn_plans_many(GE, pairs, opt, sits)
        assert (got.value.field, str(got.value)) == (exc.field, str(exc))
        return
    assert_same(GE, pairs, options=opt, situation=sits)


# ---------------------------------------------------------------- kept across calls (issue 38 item 1)
def test_a_pair_met_before_is_read_back_and_a_new_one_built(monkeypatch):
    """Each pair's plans are kept in the bounded memo under its models, options and situation: a
    repeated call builds no plan, an overlapping one only its new pairs, a changed model its own."""
    cr = _creatures(UB)[:4]
    MEMO.clear()
    first = UB.turn_tables([(a, t) for a in cr[:2] for t in cr])
    asked: list[tuple[str, str]] = []
    legal = type(UB).legal_plans
    monkeypatch.setattr(
        type(UB), "legal_plans", lambda self, a, t, *rest: asked.append((a.name, t.name)) or legal(self, a, t, *rest)
    )
    again = UB.turn_tables([(a, t) for a in cr[:2] for t in cr])
    assert asked == []  # nothing built
    assert again.label == first.label and np.array_equal(again.pair, first.pair)
    assert np.array_equal(again.pmf, first.pmf)
    UB.turn_tables([(a, t) for a in cr[1:3] for t in cr[:2]])
    assert asked == [(cr[2].name, cr[0].name), (cr[2].name, cr[1].name)]  # only the pairs not met
    tougher = cr[0].model_copy(update={"ac": cr[0].ac + 5})
    UB.turn_tables([(cr[1], tougher)])
    assert asked[-1] == (cr[1].name, tougher.name)  # a changed model is its own entry
    assert UB.turn_tables([(cr[1], tougher)]).means()[0] < first.means()[int(np.flatnonzero(first.pair == 4)[0])]
