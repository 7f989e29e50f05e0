"""turn_damage plans and duels between catalog creatures of every system (docs/combat.md)."""

from __future__ import annotations

import numpy as np
import pytest

import workbench as wb
from workbench import Dist, RulesError

PAIRS = {
    "glass_empires": ("Bear", "Wolf"),
    # a pair whose duel carries no state (the Musketeer braces its Musket, which holds: simulated)
    "unbound": ("Reference bruiser", "Ranger"),
    "last_odyssey": None,
    "annulus": None,
}


def pair(system: str):
    cat = wb.system(system).catalog()
    names = PAIRS.get(system) or (list(cat.creatures)[-1], list(cat.creatures)[len(cat.creatures) // 2])
    return cat.creature(names[0]), cat.creature(names[1])


@pytest.mark.parametrize("system", wb.systems())
def test_default_plan_is_the_highest_expected_damage(system):
    a, b = pair(system)
    plans = wb.turn_plans(a, b)
    best = max(plans.values(), key=Dist.mean)
    assert wb.turn_damage(a, b) == best
    for label, dist in plans.items():
        assert wb.turn_damage(a, b, plan=label) == dist
        assert wb.turn_damage(a, b, plan=lambda p, label=label: label) == dist


def test_plan_as_a_list_of_attacks_matches_the_system():
    """Glass Empires: one Attack action per turn by default (glass-empires-attack.txt)."""
    a, b = pair("glass_empires")
    weapon = a.weapons[0]
    assert wb.turn_damage(a, b, plan=[weapon]) == wb.system("glass_empires").plan_damage(a, b, [weapon])


def test_bad_plans_are_rules_errors():
    a, b = pair("glass_empires")
    with pytest.raises(RulesError) as err:
        wb.turn_damage(a, b, plan="Dance")
    assert err.value.field == "plan"
    with pytest.raises(RulesError) as err:
        wb.turn_damage(a, b, plan=lambda plans: "nothing")
    assert err.value.field == "plan"


@pytest.mark.parametrize("system", ["glass_empires", "unbound", "last_odyssey"])
def test_duel_probabilities_are_consistent(system):
    a, b = pair(system)
    first_a = wb.duel(a, b, first="a")
    first_b = wb.duel(a, b, first="b")
    coin = wb.duel(a, b, first="random")
    for r in (first_a, first_b, coin):
        assert abs(r.p_a_wins + r.p_b_wins + r.p_draw - 1) < 1e-12
        assert abs(r.rounds["p_a_wins"].sum() - r.p_a_wins) < 1e-12
        left = r.hp_left
        assert abs(left["probability"].sum() - (r.p_a_wins + r.p_b_wins)) < 1e-12
        assert (left["hp_left"] >= 1).all()
    # Acting first can only help (the same fights, with a's blows landing earlier).
    assert first_a.p_a_wins >= first_b.p_a_wins - 1e-12
    assert abs(coin.p_a_wins - (first_a.p_a_wins + first_b.p_a_wins) / 2) < 1e-12
    assert a.name in first_a.summary() and "exact" in first_a.summary()


def test_duel_round_limit_leaves_a_draw():
    """Two Glass Empires wolves limited to one round: whoever survives round 1 is a draw."""
    a, b = pair("glass_empires")
    one = wb.duel(b, b, max_rounds=1)
    turn = wb.turn_damage(b, b)
    hp = wb.system("glass_empires").hit_points(b)
    assert abs(one.p_a_wins - turn.sf(hp)) < 1e-12  # a kills in its first turn
    assert abs(one.p_b_wins - turn.cdf(hp - 1) * turn.sf(hp)) < 1e-12
    assert abs(one.p_draw - turn.cdf(hp - 1) ** 2) < 1e-12


def test_duel_rejects_bad_arguments():
    a, b = pair("glass_empires")
    with pytest.raises(RulesError) as err:
        wb.duel(a, b, first="c")
    assert err.value.field == "first"
    with pytest.raises(RulesError) as err:
        wb.duel(a, b, max_rounds=0)
    assert err.value.field == "max_rounds"
    x, _ = pair("unbound")
    with pytest.raises(RulesError):
        wb.duel(a, x)


def test_rounds_to_kill_for_creatures_uses_the_targets_hit_points():
    a, b = pair("unbound")
    frame = wb.rounds_to_kill(a, b)
    turn = wb.turn_damage(a, b)
    direct = wb.rounds_to_kill(turn, hp=b.hp)
    assert np.allclose(frame["p_killed_by"].to_numpy(), direct["p_killed_by"].to_numpy(), atol=1e-15)


def test_plan_objectives_hand_worked():
    """The one plan chooser, by a named objective. Plan A always deals 2; plan B deals 0 or 5 (1/2
    each), mean 2.5. Against 2 HP: the highest mean damage is B; the fewest expected rounds is A
    (A kills in round 1 surely, E[T] = 1; B kills each round with probability 1/2, E[T] = 2); the
    highest P(kill within 1) is A (1 against 1/2) and within 2 also A (1 against 3/4)."""
    import numpy as np

    from workbench.turn_table import TurnTable
    from workbench.turns import best_plans, objective_score

    t = TurnTable.build(np.array([0, 0]), ["A", "B"], [np.array([0, 0, 1.0]), np.array([0.5, 0, 0, 0, 0, 0.5])],
                        1, 1, [None])
    pools = np.array([[2]])
    assert [t.label[best_plans(t, o, pools)[0]] for o in ("damage", "rounds", "kill_within_1", "kill_within_2")] \
        == ["B", "A", "A", "A"]
    assert np.allclose(objective_score("rounds", t, pools), [-1.0, -2.0], atol=1e-12)
    assert np.allclose(objective_score("kill_within_2", t, pools), [1.0, 0.75], atol=1e-12)
    with pytest.raises(wb.RulesError) as err:
        best_plans(t, "kill_within_0", pools)
    assert err.value.field == "objective"


def test_fewest_rounds_objective_is_the_best_plan_by_its_own_chain():
    """For Unbound catalog pairs, turn_damage(objective="rounds") picks the plan whose exact mean
    rounds to kill (rounds_to_kill with that plan) is the smallest; where that differs from the
    highest-mean plan (the Veteran duelist against the Town guard), it is a different plan."""
    U = wb.system("unbound")
    cs = list(U.catalog().creatures.values())
    duelist, guard = U.catalog().creature("Veteran duelist"), U.catalog().creature("Town guard")
    differ = 0
    for a, t in [(duelist, guard)] + [(a, t) for a in cs[:5] for t in cs[:5]]:
        plans = wb.turn_plans(a, t)
        rounds = {}
        for label, d in plans.items():
            if d.max() > 0:
                f = wb.rounds_to_kill(a, t, plan=label, simulate=False)
                rounds[label] = float((f["round"] * f["p_killed_at"]).sum())
        if not rounds:
            continue
        got = wb.turn_damage(a, t, objective="rounds")
        best = min(rounds.values())
        assert any(abs(got.mean() - plans[k].mean()) < 1e-12 for k in rounds if abs(rounds[k] - best) < 1e-9)
        differ += abs(wb.turn_damage(a, t).mean() - got.mean()) > 1e-12
    assert differ >= 1  # a steadier plan kills sooner than the highest-mean one


def test_a_simulated_duel_plays_the_plans_its_objective_chooses():
    """Over state each side plays the plan combat.fight_plan finds best by the objective in its own fight
    (issue 15 item 4), so a forced simulation with objective="rounds" is the same fights (one seed) as the
    duel with those plans given; an unknown objective is refused everywhere."""
    from workbench.combat import fight_plan

    A = wb.system("annulus")
    ogre, drake = A.catalog().creature("Ogre"), A.catalog().creature("Drake")
    run = dict(fights=1000, seed=3, simulate=True)
    got = wb.duel(ogre, drake, objective="rounds", **run)
    pa = fight_plan(ogre, drake, None, None, "rounds", simulate=True, fights=1000, seed=3)[0]
    pb = fight_plan(drake, ogre, None, None, "rounds", simulate=True, fights=1000, seed=3)[0]
    want = wb.duel(ogre, drake, plan_a=pa, plan_b=pb, **run)
    assert not got.exact and (got.p_a_wins, got.p_b_wins) == (want.p_a_wins, want.p_b_wins)
    assert wb.duel(ogre, drake, objective="rounds", simulate=False).exact
    for call in (lambda: wb.compare([ogre], [drake], objective="fastest"),
                 lambda: wb.turn_damage(ogre, drake, objective="kill_within_0"),
                 lambda: wb.rounds_to_kill(ogre, drake, objective=3)):
        with pytest.raises(wb.RulesError) as err:
            call()
        assert err.value.field == "objective"


def test_one_tie_rule_for_every_plan_choice():
    """The plan choosers of the engine share one tie rule (workbench.turns.first_best): scores within 1e-12
    (relative) of the best tie, and the first listed plan wins. Two plans of mean 0.3 exactly: B = 1 at 0.3
    gives 0.3, A = 3 at 0.1 gives 0.30000000000000004 in floats. Listed B first, both choosers pick B:
    best_plan (a dict of Dists: the simulation's and the round descriptions' chooser) and best_plans (a
    TurnTable: compare's); before, max() took A, 5.6e-17 higher, and the two disagreed. A score 1e-9 better
    (relative) still wins."""
    from workbench.turn_table import TurnTable
    from workbench.turns import best_plan, best_plans, first_best

    a, b = Dist.from_mapping({0: 0.9, 3: 0.1}), Dist.from_mapping({0: 0.7, 1: 0.3})
    assert 0 < a.mean() - b.mean() < 1e-16
    assert best_plan({"B": b, "A": a}) == "B"
    assert best_plan({"A": a, "B": b}) == "A"
    table = TurnTable.build(np.zeros(2, np.int64), ["B", "A"], [b.pmf, a.pmf], 1, 1, [None])
    assert table.label[best_plans(table)[0]] == "B"
    assert first_best(np.array([2.5, 2.5 * (1 + 1e-9)]), np.zeros(2, np.int64), 1).tolist() == [1]
    assert first_best(np.array([2.5, 2.5 * (1 + 1e-13)]), np.zeros(2, np.int64), 1).tolist() == [0]
    # per group, with an empty group and -inf scores (the rounds objective of a turn that never kills)
    got = first_best(np.array([-np.inf, -np.inf, 1.0, 3.0, 3.0]), np.array([0, 0, 2, 2, 2]), 3)
    assert got.tolist() == [0, -1, 3]
