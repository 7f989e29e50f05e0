"""Budget search about the build on screen (workbench/build_levers.py): the levers of each system,
costs within the budget, identical builds merged, every row's numbers those of the engine for its
build, the cost front, the Annulus attack sets read back from their names.

Oracles: the system's own damage and wb.turn_damage on each row's models; wb.explore's figures for
the Annulus names."""

from __future__ import annotations

import numpy as np
import pytest

import workbench as wb
from workbench.build_levers import FIGURES, MAX_BUILDS, annulus_attack, levers, search_builds, with_attack
from workbench.errors import RulesError

CASES = {
    "unbound": ("Town guard", "Veteran duelist"),
    "glass_empires": ("Wolf", "Bear"),
    "last_odyssey": ("Cop", "Skirmisher"),
}


def _setup(name):
    s = wb.system(name)
    a, t = CASES[name]
    attacker, target = s.catalog().creature(a), s.catalog().creature(t)
    return s, attacker, s.attacks_of(attacker)[0], target


@pytest.mark.parametrize(
    ("name", "expected", "absent"),
    [
        ("unbound", {"damage dice", "critical range", "Strength", "weapon"}, {"touch"}),
        ("glass_empires", {"weapon damage", "Power", "damage type", "weapon"}, set()),
        ("last_odyssey", {"multiplier", "element", "physical attack", "physical accuracy"}, set()),
    ],
)
def test_levers_are_the_designers(name, expected, absent):
    s, attacker, attack, _ = _setup(name)
    names = {lv.name for lv in levers(s, attacker, attack)}
    assert expected <= names and not (absent & names)
    if name == "unbound":  # no stat block's weapon with its own fixed bonus ("Reference greatsword")
        weapons = next(lv for lv in levers(s, attacker, attack) if lv.name == "weapon").alternatives
        assert not [w for w in weapons if "Reference" in w[0]] and len(weapons) >= 5
    assert levers(wb.system("annulus"), *list(wb.system("annulus").catalog().creatures.values())[:1], None) == []


@pytest.mark.parametrize("name", list(CASES))
def test_rows_are_the_engines_numbers_merged_ranked_and_within_budget(name):
    s, attacker, attack, target = _setup(name)
    frame, builds = search_builds(s, attacker, attack, target, budget=2, by="mean_damage")
    assert frame.height >= 5 and frame["rank"].to_list() == list(range(1, frame.height + 1))
    assert frame["cost"].max() <= 2 and (frame["cost"] >= frame["changes"].list.len()).all()
    base = frame.filter(frame["name"] == "as on screen")
    assert base.height == 1 and base["cost"][0] == 0
    assert base["mean_damage"][0] == pytest.approx(s.damage(attack, attacker, target).mean(), abs=1e-12)
    assert frame["mean_damage"][0] > base["mean_damage"][0]  # the search finds a better build
    keys = set()
    for row in frame.iter_rows(named=True):
        att, atk = builds[row["build"]]
        per_use = s.damage(atk, att, target)
        turn = wb.turn_damage(att, target)
        assert row["mean_damage"] == pytest.approx(per_use.mean(), abs=1e-12)
        assert row["mean_turn_damage"] == pytest.approx(turn.mean(), abs=1e-12)
        key = (per_use.offset, tuple(np.round(per_use.pmf, 12)), turn.offset, tuple(np.round(turn.pmf, 12)))
        assert key not in keys, row["name"]  # identical builds are one row
        keys.add(key)
    assert frame["same_as"].sum() >= frame.height
    by = frame["mean_damage"].to_list()
    assert by == sorted(by, reverse=True)
    front = frame.filter(frame["pareto"]).sort("cost")
    assert front["cost"].to_list() == sorted(set(front["cost"].to_list()))
    assert front["mean_damage"].to_list() == sorted(front["mean_damage"].to_list())


@pytest.mark.parametrize("by", list(FIGURES))
def test_rank_by_each_figure(by):
    s, attacker, attack, target = _setup("unbound")
    frame, _ = search_builds(s, attacker, attack, target, budget=1, by=by)
    values = frame[by].to_list()
    assert values == sorted(values, reverse=True)


def test_bad_inputs_are_refused():
    s, attacker, attack, target = _setup("unbound")
    with pytest.raises(RulesError, match="by"):
        search_builds(s, attacker, attack, target, by="speed")
    with pytest.raises(RulesError, match="budget"):
        search_builds(s, attacker, attack, target, budget=-1)
    with pytest.raises(RulesError, match="build space"):
        a = wb.system("annulus")
        c = list(a.catalog().creatures.values())
        search_builds(a, c[0], a.attacks_of(c[0])[0], c[1])
    assert MAX_BUILDS >= 1000


def test_with_attack_replaces_the_attack_in_its_list():
    s, attacker, attack, _ = _setup("unbound")
    new = attack.replace(damage="2d8")
    changed = with_attack(s, attacker, attack, new)
    assert new in s.attacks_of(changed) and attack not in s.attacks_of(changed)
    assert len(s.attacks_of(changed)) == len(s.attacks_of(attacker))


def test_annulus_names_read_back_to_the_searched_attack_sets():
    a = wb.system("annulus")
    cs = list(a.catalog().creatures.values())
    frame = wb.explore(a, targets=[cs[1]], budget=3, base=cs[0], progress=False, say=False, top_k=12)
    for row in frame.iter_rows(named=True):
        attack = annulus_attack(a, row["name"])
        attacker = with_attack(a, cs[0], a.attacks_of(cs[0])[0], attack)
        assert a.damage(attack, attacker, cs[1]).mean() == pytest.approx(row["mean_damage"], abs=1e-12)
    with pytest.raises(RulesError):
        annulus_attack(a, "Nonsense: Fly 9")


@pytest.mark.parametrize("name", list(CASES))
def test_against_a_group_each_row_is_compares_group_row(name):
    """Against "2 x target" every build plays compare's group fight (the same fight and seed), ranked
    by the fewest mean rounds until both copies are down; the front gets strictly faster with cost."""
    from workbench.encounters import Group

    s, attacker, attack, target = _setup(name)
    crowd = Group(target, 2)
    frame, builds = search_builds(s, attacker, attack, crowd, budget=1, fights=200, seed=3)
    assert frame["target"].unique().to_list() == ["2 x " + target.name]
    assert {"mean_rounds", "p_kill_one_turn", "method"} <= set(frame.columns) and "mean_damage" not in frame.columns
    assert frame.filter(frame["name"] == "as on screen").height == 1
    for row in frame.iter_rows(named=True):
        att, atk = builds[row["build"]]
        want = wb.compare([(att, atk)], [crowd], best_plan=False, fights=200, seed=3).row(0, named=True)
        assert row["mean_rounds"] == pytest.approx(want["mean_rounds"], abs=1e-12), row["name"]
        assert row["p_kill_one_turn"] == pytest.approx(want["p_kill_one_turn"], abs=1e-12)
        assert row["method"] == want["method"]
    rounds = frame["mean_rounds"].to_list()
    assert rounds == sorted(rounds)
    front = frame.filter(frame["pareto"]).sort("cost")["mean_rounds"].to_list()
    assert all(a > b for a, b in zip(front, front[1:]))
    by_kill, _ = search_builds(s, attacker, attack, crowd, budget=1, by="p_kill_one_turn", fights=200, seed=3)
    kills = by_kill["p_kill_one_turn"].to_list()
    assert kills == sorted(kills, reverse=True)


def test_against_a_group_is_counted_and_refuses_figures_of_one_copy(monkeypatch):
    """builds x copies x fights group row-fights, refused past MAX_GROUP_ROW_FIGHTS (naming budget)
    unless confirmed; a figure of one copy (mean_damage) is refused naming by."""
    from workbench import limits
    from workbench.encounters import Group

    s, attacker, attack, target = _setup("unbound")
    crowd = Group(target, 2)
    n = search_builds(s, attacker, attack, target, budget=1)[0]["same_as"].sum()  # the builds it walks
    monkeypatch.setattr(limits, "MAX_GROUP_ROW_FIGHTS", int(n) * 2 * 10 - 1)
    with pytest.raises(RulesError, match="group row-fights") as err:
        search_builds(s, attacker, attack, crowd, budget=1, fights=10)
    assert err.value.field == "budget"
    assert search_builds(s, attacker, attack, crowd, budget=1, fights=10, confirm=True)[0].height >= 1
    monkeypatch.setattr(limits, "MAX_GROUP_ROW_FIGHTS", int(n) * 2 * 10)
    assert search_builds(s, attacker, attack, crowd, budget=1, fights=10)[0].height >= 1
    with pytest.raises(RulesError) as err:
        search_builds(s, attacker, attack, crowd, budget=1, by="mean_damage")
    assert err.value.field == "by"
