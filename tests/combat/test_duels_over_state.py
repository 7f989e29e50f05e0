"""Exact duels over state (issue 15, item 2 for duels): ``wb.duel`` asks the protocol, never a list of effects.

When a duel's directions carry state (``state_effects``), it is exact when the system says no effect couples the
two directions (``RuleSystem.duel_couplings`` empty) and each direction with state has its chain over the state
(``workbench.fight.chain.state_chain``, derived from the system's round description ``RuleSystem.fight_round``,
which with ``weights`` also returns the weighted alive mass by damage taken); then
P(a wins in round t) = P(T_A = t) P(T_B > t - 1) with a first, the one combination of every exact duel
(combat._duel_of). Otherwise the duel is simulated and ``DuelResult.forced_by`` names the effects that needed it.
The default ``duel_couplings`` is every state effect of both directions (a system that says nothing is simulated).

Here a toy system (tests/widget_toy.py) declares a state effect whose round is the HP chain's own turn (the turn's
damage drawn from ``turn_damage``, no state but the damage taken), so the exact
duel over the "state" must equal the HP-only duel to 1e-12; the coupling and the missing chain switch it to the
simulation. The catalog part checks the sums of Glass Empires and Last Odyssey duels over state.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl
import pytest

import workbench as wb
from tests.widget_toy import TOY, Attack, Creature
from workbench.columns import Columns
from workbench.systems.base import RuleSystem

GOBLIN = Creature("Goblin", hp=9, armor=1, attacks=(Attack("Club", bonus=2),))
OGRE = Creature("Ogre", hp=12, armor=1, attacks=(Attack("Fist", bonus=1),))


@dataclass
class _Ledger(Columns):
    """A toy creature's state in a fight: its damage taken, nothing else."""

    damage_taken: np.ndarray


class _LedgerRound:
    """The toy turn as a round description (workbench.fight.round.FightRound): the turn's damage is drawn
    from ``turn_damage`` of the plan played (None: the toy's best plan), the one random value."""

    key = None

    def __init__(self, attacker, target, options, situation, plan):
        self.args = (attacker, target, options, situation)
        self.plan = plan
        self.hp = (attacker.hp, target.hp)

    def start(self, passive=False):
        return _Ledger(np.zeros(1, np.int64)), _Ledger(np.zeros(1, np.int64))

    def hit_points(self, who):
        return self.hp[who]

    def turn(self, me, foe, draw, plan=None):
        d = wb.turn_damage(*self.args, plan=self.plan if plan is None else plan)
        n = me.size
        table = {"dmg": np.tile(d.offset + np.arange(d.pmf.size), (n, 1)), "probability": np.tile(d.pmf, (n, 1))}
        (me, foe), row = draw.row((me, foe), table)
        return me, foe.replace(damage_taken=foe.damage_taken + row["dmg"])

    def plans(self, me, foe):
        return list(TOY.turn_plans(*self.args))

    def describe(self, me, foe):
        return {}


class StatefulToy(type(TOY)):
    """The toy rules with one declared state effect, "ledger", whose round is the plain HP turn (so the duel
    over it is the HP-only duel). ``couple`` is what duel_couplings answers (None: the protocol's default);
    ``chained`` False: the system describes no round (no chain over the state)."""

    couple: set[str] | None = set()
    chained = True

    def state_effects(self, attacker, target, options=None, situation=None, plan=None):
        return {"ledger"}

    def fight_round(self, attacker, target, options=None, situation=None, plan=None):
        return _LedgerRound(attacker, target, options, situation, plan) if self.chained else None

    def duel_couplings(self, a, b, options=None, situation=None, plan_a=None, plan_b=None):
        if self.couple is None:
            return RuleSystem.duel_couplings(self, a, b, options, situation, plan_a, plan_b)
        return set(self.couple)


@pytest.fixture
def toy():
    sys = StatefulToy()
    wb.register_system(sys, replace=True)
    yield sys
    wb.unregister_system("toy")


def _left(r) -> dict[tuple[str, int], float]:
    return {(s, h): p for s, h, p in r.hp_left.iter_rows()}


@pytest.mark.parametrize("first", ["a", "b", "random"])
def test_a_duel_over_state_is_the_combination_of_the_two_chains(toy, first):
    """The toy's "ledger" chain is the HP chain, so the exact duel over it equals the HP-only duel (simulate=False:
    duel_chains of the two turns) to 1e-12 round by round and in the winner's HP left, and says exact."""
    d = wb.duel(GOBLIN, OGRE, first=first, max_rounds=30)
    plain = wb.duel(GOBLIN, OGRE, first=first, max_rounds=30, simulate=False)
    assert d.exact and d.forced_by == () and d.fights is None
    np.testing.assert_allclose(d.rounds["p_a_wins"].to_numpy(), plain.rounds["p_a_wins"].to_numpy(), atol=1e-12)
    np.testing.assert_allclose(d.rounds["p_b_wins"].to_numpy(), plain.rounds["p_b_wins"].to_numpy(), atol=1e-12)
    got, want = _left(d), _left(plain)
    assert set(got) == set(want) and all(abs(got[k] - want[k]) < 1e-12 for k in want)
    assert abs(d.p_a_wins + d.p_b_wins + d.p_draw - 1) < 1e-12
    assert abs(d.hp_left["probability"].sum() - (d.p_a_wins + d.p_b_wins)) < 1e-12


def test_a_coupled_duel_is_the_duel_over_both_sides_state_else_simulated(toy, monkeypatch):
    """A system that names a coupling effect, or says nothing (the default: every state effect of both
    directions), gets the duel over both sides' state derived from its round (workbench.fight.duel.duel_of):
    exact, and here the HP-only duel again; past that duel's bound, or with no round for the state, it is
    simulated and forced_by names why. simulate=True forces the simulation with nothing forcing it;
    simulate=False is the HP-only duel."""
    import importlib

    plain = wb.duel(GOBLIN, OGRE, simulate=False)
    for couple in ({"bond"}, None):
        toy.couple = couple
        d = wb.duel(GOBLIN, OGRE, fights=2_000, seed=1)
        assert d.exact and d.forced_by == () and abs(d.p_a_wins - plain.p_a_wins) < 1e-12
    toy.couple = {"bond"}
    with monkeypatch.context() as m:
        m.setattr(importlib.import_module("workbench.fight.duel"), "MAX_CELLS", 0)
        d = wb.duel(GOBLIN, OGRE, fights=2_000, seed=1)
        assert not d.exact and d.fights == 2_000 and d.forced_by == ("bond",)
    toy.couple, toy.chained = set(), False
    assert wb.duel(GOBLIN, OGRE, fights=2_000, seed=1).forced_by == ("ledger",)
    toy.chained = True
    forced = wb.duel(GOBLIN, OGRE, fights=2_000, seed=1, simulate=True)
    assert not forced.exact and forced.forced_by == ()
    assert wb.duel(GOBLIN, OGRE, simulate=False).exact


# A hand-worked pair for the objectives over state (toy rules, tests/widget_toy.py: one die + bonus - armor, two
# uses a turn). Club d8+1 deals 2..9 a use, 11 a turn on average; Dagger d4+2 deals 3..6, 9 a turn. The Mark has
# 6 HP and no armor. "Dagger + Dagger" deals at least 6: always a kill in round 1. "Club + Club" leaves the Mark
# standing only on d8 + d8 <= 3 (1+1, 1+2, 2+1: 3/64), and kills in round 2 then (at least 4 a turn, 1 or 2 HP
# left): P(kill in round 1) = 61/64, mean rounds 1 + 3/64.
DUELIST = Creature("Duelist", hp=10, armor=0, attacks=(Attack("Club", bonus=1, sides=8), Attack("Dagger", bonus=2, sides=4)))
MARK = Creature("Mark", hp=6, armor=0, attacks=(Attack("Fist", bonus=0, sides=4),))


def _mean(frame) -> float:
    return float((frame["round"] * frame["p_killed_at"]).sum())


def test_an_objective_over_state_plays_the_plan_best_in_the_fight(toy):
    """Issue 15 item 4: over state, objective="rounds" / "kill_within_K" plays the plan whose own fight (the chain
    over the state, here the toy's "ledger" chain) is best, not a refusal and not the highest-mean plan: by hand,
    the highest-mean "Club + Club" kills in round 1 with P 61/64 and takes 1 + 3/64 rounds; "Dagger + Dagger" always
    kills in round 1. rounds_to_kill, compare and duel all play it, exact."""
    from workbench.combat import fight_plan

    greedy = wb.rounds_to_kill(DUELIST, MARK)
    assert abs(greedy["p_killed_by"][0] - 61 / 64) < 1e-12 and abs(_mean(greedy) - (1 + 3 / 64)) < 1e-12
    for objective in ("rounds", "kill_within_1"):
        plan, frame = fight_plan(DUELIST, MARK, None, None, objective)
        assert plan == "Dagger + Dagger" and frame["exact"].all()
        f = wb.rounds_to_kill(DUELIST, MARK, objective=objective)
        assert abs(f["p_killed_by"][0] - 1.0) < 1e-12 and abs(_mean(f) - 1.0) < 1e-12
    rows = wb.compare([DUELIST], [MARK], objective="rounds", progress=False).filter(pl.col("attack") == "best plan")
    assert rows["plan"].to_list() == ["Dagger + Dagger"] and rows["method"].to_list() == ["exact"]
    assert abs(rows["mean_rounds"][0] - 1.0) < 1e-12 and abs(rows["mean_turn_damage"][0] - 9.0) < 1e-12
    plain = wb.compare([DUELIST], [MARK], progress=False).filter(pl.col("attack") == "best plan")
    assert plain["plan"].to_list() == ["Club + Club"] and abs(plain["mean_rounds"][0] - (1 + 3 / 64)) < 1e-12
    assert abs(plain["mean_turn_damage"][0] - 11.0) < 1e-12
    # the Duelist acting first kills in round 1 for sure with the dagger; with the club 3/64 of fights go on
    d = wb.duel(DUELIST, MARK, objective="rounds")
    assert d.exact and abs(d.p_a_wins - 1.0) < 1e-12 and abs(d.rounds["p_a_wins"][0] - 1.0) < 1e-12
    assert abs(wb.duel(DUELIST, MARK).rounds["p_a_wins"][0] - 61 / 64) < 1e-12


GE = wb.system("glass_empires")
LO = wb.system("last_odyssey")


def _sample(sys, n: int, seed: int):
    cr = list(sys.catalog().creatures.values())
    if sys is LO:  # no bundled Last Odyssey creature with an MP ability lacks a Shell: take the Shells off
        cr = [c.replace(shell=None, hp=c.hp * 4) for c in cr if any(a.mp_cost for a in c.abilities)]
    pairs = [(a, b) for a in cr for b in cr if sys.state_effects(a, b) | sys.state_effects(b, a)]
    pick = np.random.default_rng(seed).choice(len(pairs), n, replace=False)
    return [pairs[i] for i in pick]


@pytest.mark.parametrize(
    "a, b", _sample(GE, 6, 0) + _sample(LO, 6, 1), ids=lambda c: getattr(c, "name", "?")[:16]
)
def test_duels_over_state_add_up(a, b):
    """Catalog pairs whose duel carries state (Glass Empires armor points; Last Odyssey MP, Shells taken off):
    exact, and for each first p_a_wins + p_b_wins + p_draw = 1, the rounds frame sums to the win chances, the
    winners' HP left sums to the decided share and lies in 1..HP; acting first never hurts; the coin is the mean."""
    res = {f: wb.duel(a, b, first=f) for f in ("a", "b", "random")}
    for r in res.values():
        assert r.exact and r.forced_by == ()
        assert abs(r.p_a_wins + r.p_b_wins + r.p_draw - 1) < 1e-12 and r.p_draw >= 0
        assert abs(r.rounds["p_a_wins"].sum() - r.p_a_wins) < 1e-12
        assert abs(r.rounds["p_b_wins"].sum() - r.p_b_wins) < 1e-12
        assert abs(r.hp_left["probability"].sum() - (r.p_a_wins + r.p_b_wins)) < 1e-12
        assert (r.hp_left["hp_left"] >= 1).all()
    assert res["a"].p_a_wins >= res["b"].p_a_wins - 1e-12
    assert abs(res["random"].p_a_wins - (res["a"].p_a_wins + res["b"].p_a_wins) / 2) < 1e-12
