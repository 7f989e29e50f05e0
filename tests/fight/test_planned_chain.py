"""Optimal play's chain (workbench/fight/chain.py, ``planned_chain``): its work is counted as the keys
are found, with the same count the policy solver makes (``solve_keyed_policy``), so a fight too large
for optimal play is refused before the solve, and the same call is refused or answered the same way
on every machine (docs/limits.md: bounded work)."""

from __future__ import annotations

import pytest

import workbench as wb
from workbench.fight.chain import planned_chain
from workbench.state_chain import Branch, solve_keyed_policy

LO = wb.system("last_odyssey")
CAT = LO.catalog()


def _transitions(chain) -> int:
    """The solver's count, walked by hand: the rows of every plan of every branch of every key reached
    from the start, times HP."""
    keys, seen, rows, i = [chain.start], {chain.start}, 0, 0
    while i < len(keys):
        got = chain.turn(keys[i])
        for branch in [Branch(1.0, 0, got, {})] if isinstance(got, dict) else got:
            for t in branch.plans.values():
                rows += len(t.keys)
                for k in t.keys:
                    if k not in seen:
                        seen.add(k)
                        keys.append(k)
        i += 1
    return rows * chain.hp


def test_the_transitions_are_counted_as_the_solver_counts_them():
    """The Raider against the Troll (MP and Shell keys): at its own count the chain is built and solved;
    one transition fewer, the chain is refused (RulesError, field target, naming the transitions) and
    the solver, given the same bound, gives up too."""
    rnd = LO.fight_round(CAT.creature("Raider"), CAT.creature("Troll"))
    chain = planned_chain(rnd, max_transitions=10**9)
    n = _transitions(chain)
    assert n > 1_000
    assert planned_chain(rnd, max_transitions=n).hp == chain.hp
    with pytest.raises(wb.RulesError, match="transitions") as err:
        planned_chain(rnd, max_transitions=n - 1)
    assert err.value.field == "target"
    assert solve_keyed_policy(chain, 100, max_transitions=n - 1) is None
    assert solve_keyed_policy(chain, 100, max_transitions=n) is not None


def test_a_fight_past_the_bound_is_refused_before_the_solve():
    """The Destroyer (105 MP) against the Warrior: past the 16,000,000 transitions optimal play
    takes (MAX_POLICY_TRANSITIONS): ``wb.optimal_play`` refuses it from the chain's count, as the
    keys are found."""
    with pytest.raises(wb.RulesError, match="over 16,000,000 transitions") as err:
        wb.optimal_play(CAT.creature("Destroyer"), CAT.creature("Warrior"))
    assert err.value.field == "target"


def test_a_fight_once_too_large_is_solved_in_bands():
    """The Paladin against the Warrior: 5,504,328 transitions (1,581 keys x 102 HP), refused while the
    solver built one matrix over every damage level (past 4,000,000), now solved by backward
    induction over bands of damage taken: never slower than the damage play (its exact chain), and
    its P(killed by t) reaches 1."""
    a, t = CAT.creature("Paladin"), CAT.creature("Warrior")
    policy, frame = wb.optimal_play(a, t)
    damage_play = wb.rounds_to_kill(a, t)
    assert bool(damage_play["exact"][0])
    mean = float((damage_play["round"] * damage_play["p_killed_at"]).sum())
    assert policy.mean <= mean * (1 + 1e-12)
    assert frame.height > 100_000 and frame["plan"].null_count() < frame.height
