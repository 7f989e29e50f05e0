"""wb.explain (workbench/explanations.py; issue 18, item 5): how a compare row was computed, and a
Python snippet of wb.* calls that gives its number again."""

from __future__ import annotations

import pytest

import workbench as wb
from workbench.explanations import explanation_markdown

U, A, G = wb.system("unbound"), wb.system("annulus"), wb.system("glass_empires")


def _run(snippet: str) -> float:
    ns: dict = {}
    exec(compile(snippet, "<snippet>", "exec"), ns)  # noqa: S102 - the snippet is ours, that is the test
    return ns["mean_rounds"]


def test_an_exact_row_and_its_working():
    """The Town guard's Longsword on the Veteran duelist: d20 + 2 against his AC hits 30 % of the
    time (a 15 or better), a threat on 19-20 (2/20 = 0.10), confirmed by a second hit:
    0.10 x 0.30 = 0.03."""
    g, d = U.catalog().creature("Town guard"), U.catalog().creature("Veteran duelist")
    info = wb.explain(g, d, g.weapons[0])
    assert info["events"] == pytest.approx({"hit": 0.30, "threat": 0.10, "crit": 0.03}, abs=1e-12)
    assert info["method"] == "exact" and info["fights"] is None and info["forced_by"] == ""
    assert _run(info["python"]) == pytest.approx(info["row"]["mean_rounds"], abs=1e-9)
    text = explanation_markdown(info)
    assert "P(crit) 3.00%" in text and "Longsword × 2" in text and "exact" in text and "```python" in text


def test_a_simulated_row_is_reproduced_to_the_digit(state_too_large):
    """The Zombie Hulk's Miasma acts between rounds (Last Odyssey), its state too large for the chain
    here (``state_too_large``): simulated with compare's fights and the row's own seed, which the
    snippet uses too."""
    L = wb.system("last_odyssey").catalog()
    info = wb.explain(L.creature("Zombie Hulk"), L.creature("Troll"))
    assert info["method"] == "simulated" and info["fights"] == 2000 and info["se"] > 0
    assert "miasma" in info["forced_by"]
    assert _run(info["python"]) == info["row"]["mean_rounds"]
    assert "because of miasma" in explanation_markdown(info)


def test_a_row_with_state_chained_over_it_is_exact():
    """The Ogre's Crushing Blow dazes and knocks down: the fight is chained over its state
    (annulus/round.py), exact, and the snippet gives the number again."""
    ogre, wolf = A.catalog().creature("Ogre"), A.catalog().creature("Wolf")
    info = wb.explain(ogre, wolf)
    assert info["method"] == "exact" and info["fights"] is None
    assert _run(info["python"]) == pytest.approx(info["row"]["mean_rounds"], abs=1e-9)


def test_a_custom_build_travels_as_a_share_code():
    """A creature not in the catalog is written into the snippet as its share code."""
    bear, wolf = G.catalog().creature("Bear"), G.catalog().creature("Wolf")
    tough = wolf.replace(name="Tough wolf", hp=wolf.hp + 10)
    info = wb.explain(bear, tough)
    assert "wb.from_share_code(" in info["python"] and "s.catalog().creature('Bear')" in info["python"]
    assert _run(info["python"]) == pytest.approx(info["row"]["mean_rounds"], abs=1e-9)


def test_other_options_are_in_the_snippet():
    g, d = U.catalog().creature("Town guard"), U.catalog().creature("Veteran duelist")
    o = U.Options(confirm_crits=False)
    info = wb.explain(g, d, g.weapons[0], options=o)
    assert "options = wb.from_share_code(" in info["python"] and "options=options" in info["python"]
    assert _run(info["python"]) == pytest.approx(info["row"]["mean_rounds"], abs=1e-9)


def test_mixed_systems_are_a_rules_error():
    with pytest.raises(wb.RulesError) as e:
        wb.explain(U.catalog().creature("Town guard"), A.catalog().creature("Wolf"))
    assert e.value.field in ("target", "b", "targets")


def test_a_best_plan_with_state_says_its_plan_is_the_first_turns():
    """The Moon Rabbit Operator against itself (Glass Empires): the best plan's first turn is its Fists
    (both weapons deal 0 through the untouched Ray Shield, and the first listed wins the tie), which
    alone never kill (mean rounds inf),
    while the row's fight, choosing by state each turn, kills in the Jade Pestle's 38.2 rounds. The
    explanation says the plan is the first turn's."""
    m = G.catalog().creature("Moon Rabbit Operator")
    info = wb.explain(m, m)
    # exact over the Ray Shield: nothing forced a simulation, but the fight carries the state
    assert info["plan"] == "Fists" and info["forced_by"] == "" and info["state"] == ["ray shield"]
    fists = wb.rounds_to_kill(m, m, plan=[m.weapons[0]])
    assert fists["p_killed_by"][-1] == 0.0  # Fists alone never get through
    assert info["method"] == "exact" and info["row"]["mean_rounds"] == pytest.approx(38.204082, abs=1e-6)
    text = explanation_markdown(info)
    assert "2. One turn: Fists on the first turn (each later turn plays the highest mean damage" in text
    assert "the absorbing chain over the target's pools and the fight's state (ray shield)" in text
