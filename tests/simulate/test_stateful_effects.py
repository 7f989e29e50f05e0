"""The simulation's stateful effects against independent exact chains over the extra state (4 standard
errors): Choke and recovery, assassination of a clueless target, Glass Empires armor points, Last
Odyssey Shells, the Unbound Wild Attack.
"""

from __future__ import annotations

from math import comb

import numpy as np
import pytest

import workbench as wb
from tests.simulate.agreement import A, _annulus, _mean_and_se
from workbench.simulate import simulate_rounds_to_kill
from workbench.systems.annulus import Tactics

N = 20_000


def _use_pmf(attack, attacker, target, **sit):
    """Return (damage pmf, P(damage >= 1 and effect) per damage) of one use, from the outcome table."""
    t = A.outcome_tables([attack], [attacker], [target], None, A.Situation(**sit))
    return t


def test_choke_and_recovery_match_an_exact_chain():
    """Choke 9+ (annulus-attacks.txt): successes on 1 die at the end of each of the target's turns,
    until a recovery check (1 action, 4 dice, 3+ successes) removes it. The target recovers at the
    start of each of its turns while choked (the default Tactics). Oracle: exact chain over
    (damage taken, choked)."""
    bite = A.Attack("Bite", "agility", {"Choke": 1})
    a = _annulus("A", [bite])
    b = _annulus("B", [], endurance=6, vitality=3, defense=2)
    H = b.endurance + b.vitality
    t = _use_pmf(bite, a, b)
    use = {}
    for r in t.iter_rows(named=True):
        use[(r["damage"], r["choke"])] = use.get((r["damage"], r["choke"]), 0.0) + r["probability"]
    p_rec = sum(comb(4, k) for k in (3, 4)) / 16
    state = {(0, False): 1.0}  # (damage taken, choked) while alive
    killed_by, dead = [], 0.0
    for _ in range(60):
        for _strike in range(2):  # the attacker's two 1-action strikes
            new = {}
            for (d, c), p in state.items():
                for (x, ch), q in use.items():
                    nd = d + x
                    if nd >= H:
                        dead += p * q
                    else:
                        key = (nd, c or ch)
                        new[key] = new.get(key, 0.0) + p * q
            state = new
        new = {}
        for (d, c), p in state.items():  # the target's turn: recover, then end-of-turn Choke
            branches = [(c, 1.0)] if not c else [(False, p_rec), (True, 1 - p_rec)]
            for still, q in branches:
                for x, r in ([(0, 1.0)] if not still else [(0, 0.5), (1, 0.5)]):
                    if d + x >= H:
                        dead += p * q * r
                    else:
                        new[(d + x, still)] = new.get((d + x, still), 0.0) + p * q * r
        state = new
        killed_by.append(dead)
    by = simulate_rounds_to_kill(a, b, fights=N, seed=3)
    m_sim, se = _mean_and_se(by, N)
    m_exact, _ = _mean_and_se(np.array(killed_by), 1)
    assert abs(m_sim - m_exact) < 4 * se
    # without recovery the choke stays: the fight is shorter
    by_stay = simulate_rounds_to_kill(a, b, fights=N, seed=3, tactics=Tactics(recover_from=()))
    assert _mean_and_se(by_stay, N)[0] < m_sim


def test_clueless_target_first_strike_is_an_assassination():
    """annulus-attacks.txt: +4 damage on a Clueless target; after the first attack everyone is Alert.
    One Charged strike per turn: P(killed in round 1) = P(clueless strike deals >= HP)."""
    blow = A.Attack("Blow", "toughness", {"Charged": 1})
    a = _annulus("A", [blow])
    b = _annulus("B", [], endurance=4, vitality=2, defense=2, awareness="clueless")
    t = A.outcome_tables([blow], [a], [b], None, A.Situation(target_awareness="clueless"))
    p1 = float(t.filter(t["damage"] >= 6)["probability"].sum())
    frame = wb.rounds_to_kill(a, b, fights=N, seed=4, simulate=True)
    assert not frame["exact"][0]
    assert abs(frame["p_killed_by"][0] - p1) < 4 * (p1 * (1 - p1) / N) ** 0.5 + 1e-9
    # by default the chain over the state answers it exactly (annulus/round.py)
    chain = wb.rounds_to_kill(a, b)
    assert chain["exact"][0] and abs(chain["p_killed_by"][0] - p1) < 1e-12
    alert = wb.rounds_to_kill(a, b.replace(awareness="alert"))
    assert alert["exact"][0] and alert["p_killed_by"][0] < p1


def test_glass_empires_armor_points_deplete_across_turns():
    """Armor points absorb physical damage, 1 AP per 2 damage or fraction, and stay spent
    (CLARIFICATIONS.md, Glass Empires). Oracle: exact chain over (HP left, AP left) from the
    system's per-turn table at each AP level."""
    G = wb.system("glass_empires")
    sword = G.Attack("Sword", damage=5)
    a = G.Creature("A", power=2, weapons=[sword])
    b = G.Creature("B", power=3, armor=1, weapons=[sword])
    hp, ap = b.hp, G.armor_points(b)
    tables = {x: G.plan_table(a, b, [sword], situation=G.Situation(target_ap=x)) for x in range(ap + 1)}
    state, dead, killed_by = {(hp, ap): 1.0}, 0.0, []
    for _ in range(80):
        new = {}
        for (h, x), p in state.items():
            for r in tables[x].iter_rows(named=True):
                h2, x2 = h - r["damage"], max(0, x - r["ap_damage"])
                if h2 <= 0:
                    dead += p * r["probability"]
                else:
                    new[(h2, x2)] = new.get((h2, x2), 0.0) + p * r["probability"]
        state = new
        killed_by.append(dead)
    frame = wb.rounds_to_kill(a, b, fights=N, seed=5, simulate=True)
    assert not frame["exact"][0]
    m_sim, se = _mean_and_se(frame["p_killed_by"].to_numpy(), N)
    m_exact, _ = _mean_and_se(np.array(killed_by), 1)
    assert abs(m_sim - m_exact) < 4 * se
    # by default the chain over (AP left, HP) answers it exactly (glass_empires/state_chain.py)
    chain = wb.rounds_to_kill(a, b)
    assert chain["exact"][0]
    by = chain["p_killed_by"].to_numpy()
    assert np.allclose(np.concatenate([by, np.full(80, by[-1])])[:80], killed_by, atol=1e-12, rtol=0)
    m_hp_only, _ = _mean_and_se(wb.rounds_to_kill(a, b, simulate=False)["p_killed_by"].to_numpy(), 1)
    assert m_exact < m_hp_only  # full armor every turn (the HP-only chain) overstates the rounds


def test_last_odyssey_shell_breaks_between_abilities():
    """The Shell takes damage before HP; once broken, strikes deal x2 (CLARIFICATIONS.md, Last
    Odyssey). Oracle: exact chain over (HP, Shell) with each ability drawn as the Shell stands."""
    L = wb.system("last_odyssey")
    cat = L.catalog().creatures
    a, b = cat["Malachi"], cat["Cop"]
    plans_on = L.turn_plans(a, b, None, L.Situation(target_shell_points=b.shell_points))
    plans_off = L.turn_plans(a, b, None, L.Situation(target_shell_points=0))
    best = {True: max(plans_on, key=lambda k: plans_on[k].mean()), False: max(plans_off, key=lambda k: plans_off[k].mean())}
    use = {}
    for on in (True, False):
        for name in set(best[True].split(" + ")) | set(best[False].split(" + ")):
            t = L.outcome_tables([a.ability(name)], [a], [b], None,
                                 L.Situation(target_shell_points=b.shell_points if on else 0))
            use[(name, on)] = list(zip(t["damage"].to_list(), t["probability"].to_list()))
    state, dead, killed_by = {(b.hp, b.shell_points): 1.0}, 0.0, []
    for _ in range(60):
        new = {}
        for (h, s), p in state.items():
            branch = {(h, s): p}
            for name in best[s > 0].split(" + "):
                nxt = {}
                for (h1, s1), q in branch.items():
                    for d, r in use[(name, s1 > 0)]:
                        soak = min(d, s1)
                        h2 = h1 - (d - soak)
                        if h2 <= 0:
                            dead += q * r
                        else:
                            nxt[(h2, s1 - soak)] = nxt.get((h2, s1 - soak), 0.0) + q * r
                branch = nxt
            for k, q in branch.items():
                new[k] = new.get(k, 0.0) + q
        state = new
        killed_by.append(dead)
    # the fight is chained exactly (the chain derived from last_odyssey/round.py): equal to the oracle
    exact = wb.rounds_to_kill(a, b)
    assert exact["exact"][0]
    got = exact["p_killed_by"].to_numpy()
    n = min(got.size, 20)
    np.testing.assert_allclose(got[:n], np.array(killed_by[:n]), rtol=0, atol=1e-12)
    # and the simulation of the same side agrees with it
    frame = wb.rounds_to_kill(a, b, fights=N, seed=6, simulate=True)
    assert not frame["exact"][0]
    m_sim, se = _mean_and_se(frame["p_killed_by"].to_numpy(), N)
    m_exact, _ = _mean_and_se(np.array(killed_by), 1)
    assert abs(m_sim - m_exact) < 4 * se


def test_unbound_wild_attack_lowers_the_attackers_own_ac():
    """Wild Attack: "the attacker's AC drops by half the highest such penalty until its next turn"
    (CLARIFICATIONS.md, Unbound). With a acting first and attacking Wild every turn, every turn of b
    meets the lowered AC: the duel equals an exact duel where b's attacks get +penalty to hit."""
    from workbench.simulate import state_effects
    from workbench.systems.unbound.actions import self_ac_penalty

    U = wb.system("unbound")
    cat = U.catalog().creatures
    a, b = cat["Berserker"], cat["Owlbear"]
    opts = U.Options(wild_plans=True)
    plans = U.turn_plans(a, b, opts)
    wild = max((k for k in plans if "Wild" in k), key=lambda k: plans[k].mean())
    k = self_ac_penalty(U.slots(U.turn_actions(a, opts)[wild], a, opts))
    assert k > 0
    assert "wild attack" in state_effects(a, b, opts, plan=wild)

    def plain(ps):
        return max((x for x in ps if "Wild" not in x), key=lambda x: ps[x].mean())

    turn_b = wb.turn_damage(b, a, opts, U.Situation(bonus=k), plan=plain)
    exact = wb.duel(plans[wild], turn_b, hp_a=a.hp, hp_b=b.hp, first="a", max_rounds=100)
    # wb.duel is exact over both sides' state (UnboundSystem.duel_chain) and equals that duel; the
    # seeded simulation agrees with both
    joint = wb.duel(a, b, opts, plan_a=wild, plan_b=plain)
    assert joint.exact and joint.p_a_wins == pytest.approx(exact.p_a_wins, abs=1e-12)
    sim = wb.duel(a, b, opts, plan_a=wild, plan_b=plain, fights=N, seed=9, simulate=True)
    assert not sim.exact
    assert abs(sim.p_a_wins - exact.p_a_wins) < 4 * sim.standard_error
    naive = wb.duel(a, b, opts, plan_a=wild, plan_b=plain, simulate=False)  # ignores the AC drop
    assert naive.p_a_wins > exact.p_a_wins
