"""BudgetSearchPanel (widgets/budget.py; issue 17, "the Build tab has no chart and no budget search";
issue 18, item 4, cost fronts in a panel): wb.explore within a budget, its top builds and cost front."""

from __future__ import annotations

import pytest

import workbench as wb
from workbench.widgets import Workbench
from workbench.widgets.budget import BudgetSearchPanel, has_build_space
from workbench.errors import RulesError
from workbench.exploration import cost_front, explore

A = wb.system("annulus").catalog()
RAT, WOLF, OGRE = A.creature("Rat"), A.creature("Wolf"), A.creature("Ogre")


def test_the_panel_is_explore_and_its_cost_front():
    p = BudgetSearchPanel("annulus", RAT, WOLF, budget=3)
    want = explore("annulus", targets=[WOLF], base=RAT, budget=3, top_k=10, progress=False, say=False)
    assert p.value["name"].to_list() == want["name"].to_list()
    assert p.value["mean_turn_damage"].to_list() == pytest.approx(want["mean_turn_damage"].to_list(), abs=1e-12)
    top = want.sort("rank").row(0, named=True)
    assert top["name"] in p.table.value and f"{top['mean_turn_damage']:.4f}" in p.table.value
    spec = p.chart.chart.to_dict()
    assert "cost" in str(spec) and "Builds within 3 against Wolf" in str(spec)
    assert list(p.results.children) == [p.table, p.chart]  # on screen, under the list
    front = cost_front(want, "mean_turn_damage")
    assert front.height >= 1 and front["cost"].is_sorted()
    assert "budget 3: " in p.estimate_line.value and "upgrade combinations" in p.estimate_line.value


def test_the_ranking_says_which_rows_leave_out_their_fights_state():
    """Numbers that mean less than they seem are said: a Reckless build ranks by its turn's damage,
    not by its fight (which the Reckless damage to itself changes, annulus-attacks.txt: "take 1
    damage that cannot be avoided"); under the table, explore's method line for the rows shown, the
    effects in words."""
    from workbench.exploration import method_line

    p = BudgetSearchPanel("annulus", RAT, WOLF, budget=3)
    top = p.value.filter(p.value["rank"] <= p.top_k).sort("rank").head(p.top_k)
    assert top["state_ignored"].any() and "reckless" in "; ".join(top["forced_by"].drop_nulls())
    line = method_line(top)
    assert "rank without the state their fight carries" in line and "reckless" in line
    assert f"<div class='wb-budget-method' style='color:#57606a'>{line}</div>" in p.table.value


def test_a_new_budget_is_estimated_first_and_searched_on_request():
    p = BudgetSearchPanel("annulus", RAT, WOLF, budget=2)
    before = p.value
    p.controls["budget"].value = 12
    assert "past them a search is refused" in p.estimate_line.value and p.value is before  # nothing runs until Search
    p.search()
    p.background.wait(30)
    assert "budget" in p.error and p.value is before  # refused with its estimate, the last result stays
    p.controls["budget"].value = 3
    p.controls["by"].value = "p_kill_within_3"
    p.search()
    p.background.wait(60)
    assert p.error == "" and p.value is not before and set(p.value["cost"].to_list()) <= {1, 2, 3}
    assert "p kill within 3" in p.table.value and p.value.sort("rank")["p_kill_within_3"].is_sorted(descending=True)


def test_a_system_without_a_build_space_has_no_budget_search():
    from tests.widget_toy import TOY

    assert has_build_space(wb.system("annulus")) and not has_build_space(TOY)
    with pytest.raises(RulesError) as err:
        BudgetSearchPanel(TOY)
    assert err.value.field == "budget" and "Compare or Sweep" in err.value.message


@pytest.mark.parametrize("name", ["unbound", "last_odyssey", "glass_empires"])
def test_a_choice_space_is_searched_from_one_change(name):
    """The three systems without a build economy declare build choices (workbench/systems/builds.py:
    a catalog attack with at most ``budget`` changes, each costing 1): the panel starts at budget 1
    and shows the engine's explore of that budget, top builds and their cost front."""
    s = wb.system(name)
    cs = list(s.catalog().creatures.values())
    p = BudgetSearchPanel(name, cs[0], cs[1])
    assert has_build_space(s) and p.budget == 1 and "choice combinations" in p.estimate_line.value
    want = explore(name, targets=[cs[1]], base=cs[0], budget=1, top_k=10, progress=False, say=False)
    best = want.sort("rank").row(0, named=True)
    assert p.value.sort("rank").row(0, named=True)["mean_turn_damage"] == pytest.approx(best["mean_turn_damage"], abs=1e-12)
    assert str(best["name"]) in p.table.value and p.chart is not None


def test_the_build_tab_searches_for_the_damage_attacker_and_target():
    app = Workbench("annulus")
    build = app.build_tab("Build")
    assert build.search is not None and build.search.attacker == app.damage.attacker
    app.damage.target = OGRE
    assert build.search.target == OGRE and "budget 3" in build.search.estimate_line.value
    other = Workbench("unbound")  # the levers around the build on screen (tests/widgets/test_build_search_panel.py)
    search = other.build_tab("Build").search
    assert search is not None and search.budget == 2 and search.attacker == other.damage.attacker
    assert search.attack == other.damage.attack


def test_copies_search_against_a_group():
    """copies of the target = 3: the search is wb.explore against "3 x Wolf" (200 fights a build,
    seeded), ranked by the fewest mean rounds to fell every copy; the table and the cost front say
    so, and the estimate line names the group. Back to 1, the search is against one Wolf again."""
    p = BudgetSearchPanel("annulus", RAT, WOLF, budget=2, search=False)
    p.controls["copies"].value = 3
    assert "against 3 x Wolf" in p.estimate_line.value and p.value is None  # nothing runs until Search
    p.search()
    p.background.wait(600)
    want = explore("annulus", targets=["3 x annulus:Wolf"], base=RAT, budget=2, top_k=10, fights=200,
                   progress=False, say=False)
    assert p.value["name"].to_list() == want["name"].to_list()
    assert p.value["mean_rounds"].to_list() == want["mean_rounds"].to_list()
    assert (p.value["target"] == "3 x Wolf").all()
    assert "mean rounds to fell every copy (fewest first)" in p.table.value
    assert "Builds within 2 against 3 x Wolf" in str(p.chart.chart.to_dict())
    front = cost_front(want, "mean_rounds")
    assert set(front["name"]) == set(want.filter(want["pareto"])["name"])  # the front explore marks
    best = want.sort("rank").row(0, named=True)
    assert p.pick.value == best["name"]
    p.controls["copies"].value = 1
    p.search()
    p.background.wait(120)
    assert (p.value["target"] == "Wolf").all() and "mean_turn_damage" in p.value.columns
