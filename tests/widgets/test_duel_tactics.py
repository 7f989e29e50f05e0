"""DuelPanel's tactics forms (issue 16: "the Tactics controls for recovery checks are in no panel
today: add them"): a form per side for a system with a ``tactics_class`` (Annulus), none otherwise."""

from __future__ import annotations

import pytest

import workbench as wb
from workbench.errors import RulesError
from workbench.systems.annulus import Tactics
from workbench.widgets.duel import DuelPanel

A = wb.system("annulus")
FIGHTS = 4_000


def _creature(name, sets, endurance=6, vitality=3, defense=1):
    return A.Creature(
        name,
        level=vitality,
        endurance=endurance,
        vitality=vitality,
        agility=defense,
        toughness=defense,
        insight=defense,
        attack_sets=sets,
    )


@pytest.fixture(scope="module")
def choker():
    """A Choke biter (annulus-attacks.txt, Choke: damage each of the target's turns until a
    recovery check removes it) against a plain puncher: a simulated duel, where tactics act."""
    a = _creature("Strangler", [A.Attack("Bite", "agility", {"Choke": 1})])
    b = _creature("Brawler", [A.Attack("Punch", "toughness", {})])
    return a, b


def test_annulus_duel_has_a_tactics_form_per_side_declared_from_the_model(choker):
    p = DuelPanel("annulus", *choker, fights=FIGHTS)
    titles = [p.tabs.get_title(i) for i in range(len(p.tabs.children))]
    assert titles[-2:] == ["tactics A", "tactics B"]
    assert p.tactics_a == Tactics() and p.tactics_b == Tactics()
    form = p.editors["tactics_b"]
    # the tooltip is the field's declared help and rule, not hand-written in the panel
    assert "recovery check" in form.controls["recover_from"].tooltip
    assert "annulus-attacks.txt" in form.controls["recovery_actions"].tooltip


def test_tactics_edited_in_the_form_reach_the_duel(choker):
    """The panel's duel equals wb.duel with the same tactics (same seed, same fights), and the
    Brawler's tactics move the result: "A recovery check is made by spending 1 action", one of its
    two Punches, while Choke costs it only the successes of 1 die a turn, so a Brawler that never
    recovers punches twice as often and wins more."""
    a, b = choker
    p = DuelPanel("annulus", a, b, fights=FIGHTS)
    # Choke carries state from turn to turn: exact over both sides' state with the default tactics
    assert p.value.exact
    direct = wb.duel(a, b, fights=FIGHTS, progress=False)
    assert p.value.p_a_wins == direct.p_a_wins
    recovering = p.value.p_a_wins
    p.editors["tactics_b"].controls["recover_from"].value = ""
    p.background.wait()  # (a simulated duel may outlast the panel's inline wait: its result comes after)
    assert p.tactics_b == Tactics(recover_from=())
    stuck = wb.duel(a, b, fights=FIGHTS, tactics_b=Tactics(recover_from=()), progress=False)
    # other tactics than the chain's are simulated, and say so
    assert not p.value.exact and p.value.forced_by == ("tactics",) and "forced by tactics" in p.badge.value
    assert p.value.p_a_wins == stuck.p_a_wins
    assert stuck.p_a_wins < recovering - 4 * stuck.standard_error


def test_a_bad_tactics_value_is_explained_beside_its_field(choker):
    p = DuelPanel("annulus", *choker, fights=FIGHTS)
    before = p.value
    form = p.editors["tactics_a"]
    form.controls["recovery_actions"].value = 99
    assert form.error.startswith("recovery actions: ") and "20" in form.error  # in words (issue 36, item 4)
    assert p.value is before and p.tactics_a == Tactics()
    form.controls["recover_from"].value = "burn, frostbite"
    assert "frostbite" in form.error


def test_changed_tactics_in_an_exact_duel_say_they_change_nothing():
    """Two plain punchers: no condition and no Blood Price, so the duel is exact and tactics are idle."""
    a = _creature("Left", [A.Attack("Punch", "toughness", {})])
    b = _creature("Right", [A.Attack("Punch", "toughness", {})])
    p = DuelPanel("annulus", a, b)
    assert p.value.exact and p.tactics_note.value == ""
    p.editors["tactics_a"].controls["recovery_actions"].value = 2
    assert p.tactics_a.recovery_actions == 2
    assert "side A" in p.tactics_note.value and "change nothing" in p.tactics_note.value


def test_a_system_without_tactics_has_no_tactics_form():
    p = DuelPanel("unbound")
    assert "tactics_a" not in p.editors and p.tactics_a is None
    with pytest.raises(RulesError) as e:
        DuelPanel("unbound", tactics_a=Tactics())
    assert e.value.field == "tactics"


def test_tactics_bounds_are_rules_errors():
    with pytest.raises(RulesError) as e:
        Tactics(recovery_actions=10**9)
    assert e.value.field == "recovery_actions"
    with pytest.raises(RulesError) as e:
        Tactics(blood_price_uses=-1)
    assert e.value.field == "blood_price_uses"
