"""The seeded simulation against the exact chains where both apply (4 standard errors), reproducible
seeds, bad inputs, and pairs that never hurt each other.
"""

from __future__ import annotations

import pytest

import workbench as wb
from tests.simulate.agreement import A, _annulus, _mean_and_se
from workbench import RulesError
from workbench.systems.annulus import Tactics

N = 20_000


def _agree_duel(a, b, **kw):
    exact = wb.duel(a, b, simulate=False, **kw)
    sim = wb.duel(a, b, simulate=True, fights=N, seed=1, **kw)
    assert exact.exact and not sim.exact
    se = max(sim.standard_error, 1e-4)
    assert abs(sim.p_a_wins - exact.p_a_wins) < 4 * se
    ex_rounds = exact.rounds.with_columns(p=exact.rounds["p_a_wins"] + exact.rounds["p_b_wins"])
    m_exact = float((ex_rounds["round"] * ex_rounds["p"]).sum())
    p = (sim.rounds["p_a_wins"] + sim.rounds["p_b_wins"]).to_numpy()
    t = sim.rounds["round"].to_numpy()
    m_sim, sd = float((t * p).sum()), float(((t * t * p).sum() - (t * p).sum() ** 2) ** 0.5)
    assert abs(m_sim - m_exact) < 4 * sd / N**0.5 + 1e-9


def _agree_rounds(a, b, **kw):
    exact = wb.rounds_to_kill(a, b, simulate=False, **kw)
    sim = wb.rounds_to_kill(a, b, simulate=True, fights=N, seed=2, **kw)
    m_exact, _ = _mean_and_se(exact["p_killed_by"].to_numpy(), 1)
    m_sim, se = _mean_and_se(sim["p_killed_by"].to_numpy(), N)
    assert abs(m_sim - m_exact) < 4 * se


def test_annulus_stateless_simulation_matches_the_two_pool_chain():
    """Vital and Critical only (no stateful effect): the simulation agrees with the exact two-pool chain."""
    stab = A.Attack("Stab", "agility", {"Vital": 1, "Critical": 1, "Reroll": 1})
    a = _annulus("A", [stab], endurance=5, vitality=3)
    b = _annulus("B", [A.Attack("Punch", "agility", {})], endurance=7, vitality=2, defense=0)
    _agree_duel(a, b)
    _agree_duel(a, b, first="random")
    _agree_rounds(a, b)


def test_unbound_stateless_simulation_matches_exact():
    cat = wb.system("unbound").catalog().creatures
    # (the Town guard bashes with its Heater, which carries state: Shield Bash)
    _agree_duel(cat["Blademaster"], cat["Veteran duelist"])
    _agree_rounds(cat["Berserker"], cat["Owlbear"])


def test_glass_empires_without_armor_matches_exact():
    cat = wb.system("glass_empires").catalog().creatures
    _agree_duel(cat["Boar"], cat["Wolf"])
    _agree_rounds(cat["Monkey"], cat["Commoner"])


def test_last_odyssey_without_shell_matches_exact():
    cat = wb.system("last_odyssey").catalog().creatures
    _agree_duel(cat["Malachi"], cat["Robert \"Gemini\" Sandford"])
    _agree_rounds(cat["Mariana de la Luna"], cat["Malachi"])


def test_seeded_runs_are_reproducible():
    cat = wb.system("annulus").catalog().creatures
    one = wb.duel(cat["Ogre"], cat["Wolf"], fights=3000, seed=7, simulate=True)
    two = wb.duel(cat["Ogre"], cat["Wolf"], fights=3000, seed=7, simulate=True)
    other = wb.duel(cat["Ogre"], cat["Wolf"], fights=3000, seed=8, simulate=True)
    assert not one.exact
    assert one.p_a_wins == two.p_a_wins and one.rounds.equals(two.rounds) and one.hp_left.equals(two.hp_left)
    assert (one.p_a_wins, one.rounds["p_a_wins"].to_list()) != (other.p_a_wins, other.rounds["p_a_wins"].to_list())


def test_bad_simulation_inputs_are_rejected():
    cat = wb.system("annulus").catalog().creatures
    with pytest.raises(RulesError) as err:
        wb.duel(cat["Ogre"], cat["Wolf"], fights=0)
    assert err.value.field == "fights"
    with pytest.raises(RulesError) as err:
        wb.duel(cat["Ogre"], cat["Wolf"], seed="x")
    assert err.value.field == "seed"
    with pytest.raises(RulesError) as err:
        Tactics(recover_from=("bleeding",))
    assert err.value.field == "recover_from"
    with pytest.raises(RulesError) as err:
        Tactics(recovery_actions=-1)
    assert err.value.field == "recovery_actions"


def test_a_pair_that_can_never_hurt_each_other_is_answered_at_once():
    """Issue: the Drake and the Rat cannot damage each other (every usable set of each deals 0 to the
    other). rounds_to_kill says "never" without playing fights, and the duel is an exact 100 % draw
    in words, not NaN."""
    from workbench.simulate import can_damage

    A = wb.system("annulus")
    drake, rat = A.catalog().creature("Drake"), A.catalog().creature("Rat")
    assert not can_damage(drake, rat) and not can_damage(rat, drake)
    with pytest.raises(RulesError, match="never"):
        wb.rounds_to_kill(drake, rat)
    duel = wb.duel(drake, rat)
    assert duel.p_draw == 1.0 and duel.exact and "no fight is decided within 100 rounds" in duel.summary()
