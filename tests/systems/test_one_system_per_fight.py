"""One check at the entry of every fight call (issue 35): all models of one rule system and of the
right kind (``workbench.systems.fight_system``), else RulesError naming the role and citing "one
fight, one rule system", never AttributeError or TypeError from deep inside a system."""

from __future__ import annotations

import pytest

import workbench as wb
from workbench import RulesError
from workbench.systems import ONE_SYSTEM

A, L, G, U = (wb.system(s) for s in ("annulus", "last_odyssey", "glass_empires", "unbound"))
OGRE, COP = A.catalog().creature("Ogre"), L.catalog().creature("Cop")
WOLF = G.catalog().creature("Wolf")


def refused(call, field):
    with pytest.raises(RulesError) as e:
        call()
    assert e.value.field == field and e.value.rule == ONE_SYSTEM, e.value
    return e.value


# every public fight call over (attacker, target, options, situation)
FIGHTS = {
    "rounds_to_kill": lambda a, t, o=None, s=None: wb.rounds_to_kill(a, t, options=o, situation=s),
    "optimal_play": lambda a, t, o=None, s=None: wb.optimal_play(a, t, o, s),
    "duel": lambda a, t, o=None, s=None: wb.duel(a, t, o, s),
    "turn_damage": lambda a, t, o=None, s=None: wb.turn_damage(a, t, o, s),
    "turn_plans": lambda a, t, o=None, s=None: wb.turn_plans(a, t, o, s),
    "head_to_head": lambda a, t, o=None, s=None: wb.head_to_head(a, a, t, options=o, situation=s),
    "explain": lambda a, t, o=None, s=None: wb.explain(a, t, options=o, situation=s),
    "objective_rounds": lambda a, t, o=None, s=None: wb.rounds_to_kill(
        a, t, options=o, situation=s, objective="rounds"
    ),
}
TARGET_ROLE = {"duel": "b"}


@pytest.mark.parametrize("entry", list(FIGHTS))
def test_mixed_systems_are_refused_naming_the_target(entry):
    # issue 35: wb.rounds_to_kill(annulus Ogre, last_odyssey Cop) raised AttributeError, optimal_play too
    err = refused(lambda: FIGHTS[entry](OGRE, COP), TARGET_ROLE.get(entry, "target"))
    assert "Annulus" in err.message and "Last Odyssey" in err.message


@pytest.mark.parametrize("entry", list(FIGHTS))
@pytest.mark.parametrize("bad", [True, None, 3, "Cop"])
def test_a_target_that_is_no_creature_is_refused(entry, bad):
    # issue 35: wb.rounds_to_kill(cop, True) raised AttributeError
    if bad is None and entry in ("rounds_to_kill", "objective_rounds", "head_to_head"):
        with pytest.raises(RulesError) as e:  # their own "give a target creature"
            FIGHTS[entry](COP, bad)
        assert e.value.field == "target"
        return
    refused(lambda: FIGHTS[entry](COP, bad), TARGET_ROLE.get(entry, "target"))


@pytest.mark.parametrize("entry", list(FIGHTS))
@pytest.mark.parametrize("situation", [" 3 ", 3, A.Situation(), L.Options()])
def test_a_situation_of_another_kind_or_system_is_refused(entry, situation):
    # issue 35: Last Odyssey situation=' 3 ' gave TypeError in duel and optimal_play
    refused(lambda: FIGHTS[entry](COP, COP, None, situation), "situation")


@pytest.mark.parametrize("entry", list(FIGHTS))
@pytest.mark.parametrize("options", ["fast", A.Options(), L.Situation()])
def test_options_of_another_kind_or_system_are_refused(entry, options):
    refused(lambda: FIGHTS[entry](COP, COP, options), "options")


def test_damage_and_outcomes_check_every_role():
    bite = WOLF.weapons[0]
    # issue 35: wb.damage(bite, None, None) raised AttributeError
    refused(lambda: wb.damage(bite, None, None), "attacker")
    refused(lambda: wb.damage(bite, WOLF, None), "target")
    refused(lambda: wb.outcomes(bite, WOLF, COP), "target")
    refused(lambda: wb.damage(WOLF, WOLF, WOLF), "attack")
    refused(lambda: wb.damage(None, WOLF, WOLF), "attack")
    refused(lambda: wb.damage(bite, WOLF, WOLF, G.Situation()), "options")
    assert wb.damage(bite, WOLF, WOLF, G.Options(), G.Situation()).mean() > 0


def test_one_system_still_fights():
    assert wb.rounds_to_kill(COP, COP, situation=L.Situation())["p_killed_by"][-1] == pytest.approx(1.0)
    assert wb.duel(COP, COP, L.Options(), L.Situation()).p_a_wins > 0


def test_head_to_head_names_the_build_of_another_system():
    err = refused(lambda: wb.head_to_head(COP, OGRE, COP), "b")
    assert "Annulus" in err.message
    refused(lambda: wb.head_to_head(COP, COP, OGRE), "target")
