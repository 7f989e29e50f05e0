"""The exact rounds-to-kill fight of an Annulus attacker over the fight's state (annulus/round.py, derived by workbench/fight/chain.py):
one hand-worked case per effect, an independent Fraction enumeration of small chains written from the
rules text (annulus-attacks.txt; docs/combat.md, "Rounds to kill in the simulation"), agreement with
the seeded simulation on catalog pairs, and the fights it leaves to the simulation.

Baseline: 4 dice succeeding on 4+ (p = 1/2): P(k successes) = 1, 4, 6, 4, 1 out of 16; 2 actions a
turn; a target with Endurance 0 and Vitality = its level (mk(level=..., endurance=0)).
"""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import polars as pl
import pytest

import workbench as wb
from tests.systems.annulus.builders import A, mk
from workbench.fight.chain import state_chain
from workbench.simulate import simulate_rounds_to_kill


def _attacker(*sets):
    return mk("Me", level=1, endurance=1, attack_sets=list(sets))


def _by(attacker, target, rounds=60):
    got = state_chain(A, attacker, target, max_rounds=rounds)
    assert got is not None
    return got.by, got.mean


# ---------------------------------------------------------------- one hand-worked case per effect


def test_an_area_set_waits_for_its_recharge():
    """annulus-attacks.txt: an area set must recharge, "If the result is a 5 or a 6, the set is
    recharged" (1/3 at the start of each turn), and it is used once a turn. Against Vitality 1 a use
    kills on any success, 15/16. Round 1: 15/16. Every later round: recharged (1/3) and a kill
    (15/16) = 5/16. P(by 2) = 15/16 + 1/16 * 5/16 = 245/256; mean = 1 + (1/16) / (5/16) = 6/5
    (a set without the area, two uses a turn, would give 1 / (1 - 1/256))."""
    me = _attacker(A.Attack("Sweep", "agility", {"Arc": 1}))
    by, mean = _by(me, mk("Foe", level=1, endurance=0))
    assert by[0] == pytest.approx(15 / 16, abs=1e-12)
    assert by[1] == pytest.approx(245 / 256, abs=1e-12)
    assert mean == pytest.approx(6 / 5, abs=1e-12)
    frame = wb.rounds_to_kill(me, mk("Foe", level=1, endurance=0))
    assert frame["exact"].all() and frame["p_killed_by"][1] == pytest.approx(245 / 256, abs=1e-12)


def test_a_telegraphed_strike_lands_next_turn():
    """Telegraphed: "used at the beginning of your next turn for free before you make any actions"
    (6 dice here: 63/64 to deal 1 or more). Its only set announced in turn 1 deals nothing that turn;
    from turn 2 on each turn strikes (63/64) and announces again. P(by 1) = 0, P(by 2) = 63/64, mean
    = 1 + 64/63 = 127/63."""
    me = _attacker(A.Attack("Wind-up", "agility", {"Telegraphed": 1}))
    foe = mk("Foe", level=1, endurance=0)
    assert wb.damage(me.attack_sets[0], me, foe).probability(0) == pytest.approx(1 / 64, abs=1e-15)
    by, mean = _by(me, foe)
    assert by[0] == pytest.approx(0.0, abs=1e-15)
    assert by[1] == pytest.approx(63 / 64, abs=1e-12)
    assert mean == pytest.approx(127 / 63, abs=1e-12)


def test_only_the_first_strike_on_a_clueless_target_is_an_assassination():
    """Awareness: a Clueless target is Alert once struck. Against a Clueless target the first use
    deals 0 (1/16) or 5 to 8 (the assassination bonus, 15/16); the second, against an Alert target,
    at most 4. Against Vitality 5, P(by 1) = 15/16 (were every strike an assassination it would be
    1 - (1/16)^2 = 255/256)."""
    me = _attacker(A.Attack("Stab", "agility", {}))
    foe = mk("Foe", level=5, endurance=0, awareness="clueless")
    clueless = wb.damage(me.attack_sets[0], me, foe)
    assert clueless.probability(0) == pytest.approx(1 / 16, abs=1e-15)
    assert all(clueless.probability(k) == 0 for k in range(1, 5))
    by, _ = _by(me, foe)
    assert by[0] == pytest.approx(15 / 16, abs=1e-12)


@pytest.mark.parametrize(
    "trigger,expected",
    [
        # Burn (11+ on the d12: 1/6): 2 dice at the end of the target's turns, 3/4 to deal 1 or more
        ("Burn", F(247, 256) + 2 * F(1, 16) * F(4, 16) * F(1, 6) * F(11, 16) * F(3, 4)),
        # Choke (9+: 1/3): 1 die, 1/2
        ("Choke", F(247, 256) + 2 * F(1, 16) * F(4, 16) * F(1, 3) * F(11, 16) * F(1, 2)),
        # Sap (11+: 1/6): 1 damage
        ("Sap", F(247, 256) + 2 * F(1, 16) * F(4, 16) * F(1, 6) * F(11, 16)),
    ],
)
def test_a_condition_deals_its_damage_at_the_end_of_the_targets_turn(trigger, expected):
    """Burn, Choke, Sap: damage "ignoring defense ... at the end of each of their turns", after the
    target's recovery check ("spending 1 action and rolling 4 dice ... 3 or more successes": 5/16, so
    the condition stays 11/16). Against Vitality 2, two uses of one set: the hits kill unless they
    total 0 or 1 (1/256 + 2 * 4/256 = 9/256: 247/256). The condition lands only on a use that deals
    damage, so it counts when one use deals 1 and triggers (4/16 * the trigger chance) and the other
    deals 0 (1/16), in either order; then the target keeps it (11/16) and it deals 1 or more:
    Burn 247/256 + 2/16 * 4/16 * 1/6 * 11/16 * 3/4 = 3963/4096, Choke 2975/3072, Sap 2975/3072
    (without the condition: 247/256)."""
    assert expected in (F(3963, 4096), F(2975, 3072))
    me = _attacker(A.Attack("Hex", "agility", {trigger: 1}))
    by, _ = _by(me, mk("Foe", level=2, endurance=0))
    assert by[0] == pytest.approx(float(expected), abs=1e-12)


# ---------------------------------------------------------------- an independent oracle

P_RECOVER = F(5, 16)  # 4 dice, 3 or more successes at 1/2: (4 + 1) / 16
CONDITIONS = ("burn", "choke", "sap")  # the target's recovery order (Tactics().recover_from)
DOT = {"burn": [F(1, 4), F(1, 2), F(1, 4)], "choke": [F(1, 2), F(1, 2)], "sap": [F(0), F(1)]}


def _use_rows(attack, me, foe, prone, aware):
    """The outcome rows of one use (A.outcomes, the rules' resolution of one strike) against a target
    Prone or not, of awareness ``aware``, as (damage, vital, burn, choke, sap, knockdown, probability)."""
    t = A.outcomes(attack, me, foe, situation=A.Situation(target_prone=prone, target_awareness=aware))
    rows = []
    for r in t.iter_rows(named=True):
        p = F(r["probability"]).limit_denominator(10**9)
        rows.append((r["damage"], r["vitality_damage"], r["burn"], r["choke"], r["sap"], r["knockdown"], p))
    assert sum(r[-1] for r in rows) == 1
    return rows


def _oracle(attack, me, foe, rounds):
    """P(killed by round t), t = 1..rounds, by plain enumeration with Fractions of the rules text: each
    round the attacker's turn (an area set recharges on 5-6 and is used once; any other set twice;
    each use: Endurance first, then Vitality, vital damage to Vitality; the target is Alert once struck;
    Burn, Choke, Sap, Knockdown land with the use's row), then the target's: one recovery check while it
    has Burn, Choke or Sap (5/16, the first of them in order), then Burn 2 dice, Choke 1 die, Sap 1."""
    area = bool(attack.area)
    uses = 1 if area else 2
    dist = {(foe.endurance, foe.vitality, (), False, foe.awareness, True): F(1)}
    killed, out = F(0), []
    for _ in range(rounds):
        nxt: dict = {}

        def add(state, p):
            nonlocal killed
            if state[1] <= 0:
                killed += p
            else:
                nxt[state] = nxt.get(state, 0) + p

        turn = {}
        for (e, v, cond, prone, aware, charged), p in dist.items():
            if area and not charged:
                turn[(e, v, cond, prone, aware, True)] = turn.get((e, v, cond, prone, aware, True), 0) + p / 3
                turn[(e, v, cond, prone, aware, False)] = turn.get((e, v, cond, prone, aware, False), 0) + 2 * p / 3
            else:
                turn[(e, v, cond, prone, aware, charged)] = turn.get((e, v, cond, prone, aware, charged), 0) + p
        for _u in range(uses):
            after: dict = {}
            for (e, v, cond, prone, aware, charged), p in turn.items():
                if v <= 0 or (area and not charged):
                    key = (e, v, cond, prone, aware, charged)
                    after[key] = after.get(key, 0) + p
                    continue
                for dmg, vit, burn, choke, sap, knock, q in _use_rows(attack, me, foe, prone, aware):
                    reg = dmg - vit
                    e2 = max(0, e - reg)
                    v2 = v - (reg - (e - e2)) - vit
                    c2 = tuple(sorted(set(cond) | {n for n, on in zip(CONDITIONS, (burn, choke, sap)) if on}))
                    key = (e2, v2, c2, prone or knock, "alert", not area)
                    after[key] = after.get(key, 0) + p * q
            turn = after
        for (e, v, cond, prone, aware, charged), p in turn.items():
            if v <= 0:
                killed += p
                continue
            checks = [(cond, p)]
            if cond:
                first = next(c for c in CONDITIONS if c in cond)
                checks = [(tuple(c for c in cond if c != first), p * P_RECOVER), (cond, p * (1 - P_RECOVER))]
            for c2, q in checks:
                dots = [F(1)]
                for name in c2:
                    dots = list(np.convolve(np.array(dots, dtype=object), np.array(DOT[name], dtype=object)))
                for k, r in enumerate(dots):
                    if r:
                        e2 = max(0, e - k)
                        add((e2, v - (k - (e - e2)), c2, prone, aware, charged), q * r)
        dist = nxt
        out.append(killed)
    return out


@pytest.mark.parametrize(
    "ups,endurance,level,awareness",
    [
        ({"Burn": 1, "Choke": 1, "Knockdown": 1}, 1, 3, "clueless"),
        ({"Arc": 1, "Sap": 1, "Burn": 1}, 2, 2, "alert"),
        ({"Choke": 1, "Sap": 1, "Vital": 1}, 2, 3, "suspicious"),
    ],
)
def test_the_chain_matches_a_fraction_enumeration_of_the_rules(ups, endurance, level, awareness):
    attack = A.Attack("Set", "agility", ups)
    me = _attacker(attack)
    foe = mk("Foe", level=level, endurance=endurance, awareness=awareness)
    rounds = 8
    want = [float(x) for x in _oracle(attack, me, foe, rounds)]
    by, _ = _by(me, foe, rounds)
    got = np.concatenate([by, np.full(rounds - by.size, by[-1])])[:rounds]
    assert np.abs(got - np.array(want)).max() < 1e-12


# ---------------------------------------------------------------- the simulation, the catalog


@pytest.mark.parametrize(
    "attacker,target",
    [
        ("Storm Priest", "Ogre"),  # blind, pacify, recharge, sap, setup, telegraphed
        ("Hill Giant", "Cutpurse"),  # awareness, daze, devour, drain, first blood, knockdown, recharge
        ("Berserker", "Basilisk"),  # berserk, burn, reckless, swansong, terrorize
        ("Basilisk", "Basilisk"),  # choke, petrify
        ("Giant Centipede", "Wolf"),  # choke, fatigue, recharge, sap
    ],
)
def test_the_chain_agrees_with_the_seeded_simulation(attacker, target):
    cat = A.catalog()
    a, t = cat.creature(attacker), cat.creature(target)
    fights = 20_000
    by, mean = _by(a, t, 500)
    sim = simulate_rounds_to_kill(a, t, fights=fights, seed=7, max_rounds=500)
    assert sim[-1] == 1.0  # every simulated fight ended: the mean below is the whole distribution
    for k in range(3):
        p = by[min(k, by.size - 1)]
        se = max(np.sqrt(p * (1 - p) / fights), 1e-12)
        assert abs(sim[min(k, sim.size - 1)] - p) < 4 * se
    killed_at = np.diff(sim, prepend=0.0)
    rounds = np.arange(1, sim.size + 1)
    sim_mean = float((killed_at * rounds).sum())
    se = float(np.sqrt((killed_at * (rounds - sim_mean) ** 2).sum() / fights))
    assert abs(sim_mean - mean) < 4 * se
    frame = wb.rounds_to_kill(a, t)
    assert frame["exact"].all() and np.allclose(frame["p_killed_by"].to_numpy()[:3], by[:3], atol=1e-12)


@pytest.mark.parametrize(
    "attacker,attack,target",
    [
        ("Cutpurse", "Sneak Stab", "Ogre"),
        ("Hill Giant", "Maw", "Wolf"),  # Devour and First Blood: three quarters are never killed
        ("Storm Priest", "Grave Pulse", "Giant Centipede"),  # an area set, recharging
    ],
)
def test_a_given_plan_agrees_with_the_seeded_simulation(attacker, attack, target):
    """compare's attack rows: the set alone, as many uses as a turn allows (a given plan)."""
    cat = A.catalog()
    a, t = cat.creature(attacker), cat.creature(target)
    s = A.attack_named(a, attack)
    plan = [s] * A.uses_per_turn(a, s)
    fights = 20_000
    got = state_chain(A, a, t, plan=plan, max_rounds=300)
    assert got is not None
    by = got.by
    sim = simulate_rounds_to_kill(a, t, plan=plan, fights=fights, seed=11, max_rounds=300, progress=False)
    for k in (0, 1, 2, 299):
        p = by[min(k, by.size - 1)]
        se = max(np.sqrt(p * (1 - p) / fights), 1e-12)
        assert abs(sim[min(k, sim.size - 1)] - p) < 4 * se


def test_a_passive_target_never_counters(monkeypatch):
    """docs/combat.md: a rounds-to-kill target "does not attack or counter" (before: the simulation let
    it counter in round 1, before its first passive turn). The Town Guard's Riposte answers its own
    attacks on agility; in rounds to kill no Counter is ever made, and the chain, in which the
    target's Counter changes nothing, agrees with the simulation."""
    from workbench.systems.annulus.round import AnnulusRound

    guard = A.catalog().creature("Town Guard")
    assert "counter" in A.state_effects(guard, guard)
    made = []
    real = AnnulusRound._use

    def spy(self, x, states, sets, go, draw, own_turn, counter, blood_price=False):
        if not counter and np.any(go):  # a Counter: the use made inside the foe's use
            made.append(1)
        return real(self, x, states, sets, go, draw, own_turn, counter, blood_price)

    monkeypatch.setattr(AnnulusRound, "_use", spy)
    fights = 20_000
    sim = simulate_rounds_to_kill(guard, guard, fights=fights, seed=5, max_rounds=500)
    assert made == []
    by, _ = _by(guard, guard, 500)
    for k in range(3):
        se = max(np.sqrt(by[k] * (1 - by[k]) / fights), 1e-12)
        assert abs(sim[k] - by[k]) < 4 * se
    # a simulated duel still counters (both sides attack): the spy sees it
    wb.duel(guard, guard, fights=500, seed=1, simulate=True)
    assert made


HEX = A.Attack("Hex", "agility", {"Burn": 1, "Choke": 1, "Sap": 1, "Knockdown": 1, "Arc": 1})
JAB = A.Attack("Jab", "agility", {"Setup": 1, "Blind": 1})


def test_without_vital_damage_endurance_and_vitality_are_one_pool():
    """ "Endurance is removed first, then Vitality": with no vital damage the target dies when the
    damage taken reaches E + V, so the chain carries no Endurance in its key (AnnulusRound.pooled).
    Both readings give the same fight; with a Vital set only the two-pool one applies."""
    from workbench.fight.chain import passive_chain

    me = mk("Me", attack_sets=[HEX, JAB])
    foe = mk("Foe", level=3, endurance=4, awareness="clueless")
    by, mean = _by(me, foe, 40)
    two = A.fight_round(me, foe)
    assert two.pooled[1]
    two.pooled = (two.pooled[0], False)  # the two-pool reading: Endurance lost a field of the key

    apart = passive_chain(two, 40)
    assert two.hit_points(1) == 3 and apart is not None
    assert np.abs(apart.by[: by.size] - by).max() < 1e-12 and abs(apart.mean - mean) < 1e-9
    # a large target is cheap when pooled: Endurance 100 and Vitality 100 in well under a second
    assert state_chain(A, me, mk("Foe", level=100, endurance=100)) is not None


def test_a_state_past_the_bounds_is_left_to_the_simulation(monkeypatch):
    """Past the chain's bounds (Vitality 1 behind Endurance 900: 901 damage states times the keys)
    or past its MAX_STATES keys x HP, None: rounds_to_kill simulates the fight."""
    me = mk("Me", attack_sets=[HEX, JAB])
    assert state_chain(A, me, mk("Foe", level=1, endurance=900)) is None
    small = mk("Foe", level=3, endurance=2, awareness="clueless")
    assert state_chain(A, me, small) is not None
    monkeypatch.setattr("workbench.fight.chain.MAX_STATES", 3 * A.hit_points(small))
    assert state_chain(A, me, small) is None
    frame = wb.rounds_to_kill(me, small, fights=2000)
    assert not frame["exact"][0] and frame["fights"][0] == 2000


def test_duel_weights_only_where_the_pool_is_whole():
    """A duel's HP left is over Endurance + Vitality. When vital damage can fall the chain keeps
    Endurance lost apart from the damage taken: None (simulated). When nothing deals vital damage nor
    heals, the two pools are one ("Endurance is removed first, then Vitality") and the weighted mass
    is over that pool: with weights 1, 1, 1 it is P(alive after 0, 1, 2 rounds) summed by damage
    taken, so its total is 1 + P(T > 1) + P(T > 2)."""
    foe = mk("Foe", level=2, endurance=1)
    vital = _attacker(A.Attack("Hex", "agility", {"Burn": 1, "Vital": 1}))
    assert state_chain(A, vital, foe, weights=np.ones(3)) is None
    me = _attacker(A.Attack("Hex", "agility", {"Burn": 1}))
    got = state_chain(A, me, foe, weights=np.ones(3))
    assert got is not None and got.weighted is not None and got.weighted.size == 3  # Endurance 1 + Vitality 2
    assert got.weighted.sum() == pytest.approx(1 + (1 - got.by[0]) + (1 - got.by[1]), abs=1e-12)


# ---------------------------------------------------------------- the use tables it shares


def test_a_use_table_is_built_once_for_every_matchup_that_resolves_alike(monkeypatch):
    """Steps 2-5 of the order of resolution read only the resolved dice parameters (pool, defense,
    bonus, triggers, ...), so two targets that differ in Endurance and Vitality alone share every
    use table: the second fight builds none (its rounds are its own, from its own pools), while a
    target with another Agility resolves to other parameters and builds its own."""
    from importlib import import_module

    from workbench.simulate.engine import MEMO

    resolve = import_module("workbench.systems.annulus.resolve")
    me = _attacker(A.Attack("S", "agility", {"First Blood": 1}))
    small, big, agile = mk("T", level=2, endurance=3), mk("U", level=8, endurance=20), mk("V", ag=1)
    opts, sit = A.defaults(None, None)
    rows = [
        resolve.parameter_rows(resolve.strike_parameters(me.attack_sets, [me], [t], opts, sit))[0]
        for t in (small, big, agile)
    ]
    assert rows[0] == rows[1] != rows[2]

    striker = import_module("workbench.systems.annulus.round")._Striker
    calls = []
    real = striker._merged
    monkeypatch.setattr(striker, "_merged", staticmethod(lambda t: calls.append(1) or real(t)))
    MEMO.clear()
    first = _by(me, small)[0]
    built = len(calls)
    second = _by(me, big)[0]
    assert built > 0 and len(calls) == built  # no table built for the second target
    assert first[0] > second[0]  # yet its own fight: 3 + 2 pools fall sooner than 20 + 8
    _by(me, agile)
    assert len(calls) > built


def test_outcome_tables_resolve_each_distinct_parameter_row_once(monkeypatch):
    """resolve.outcome_tables builds steps 3-5 once per distinct row of resolved parameters and reads
    every later matchup that resolves alike from the memo: a Punch against two targets that differ in
    Endurance only is one build, and the two tables are equal row for row (1, 4, 6, 4, 1 / 16 over
    damage 0..4 on defense 0, Trigger Die classes apart)."""
    from importlib import import_module

    from workbench.memo import MEMO

    resolve = import_module("workbench.systems.annulus.resolve")
    builds = []
    real = resolve._tables
    monkeypatch.setattr(resolve, "_tables", lambda P, o: builds.append(int(P["n"])) or real(P, o))
    MEMO.clear()
    punch = A.Attack("Punch", "agility", {})
    me, t1, t2 = mk("Me"), mk("T", endurance=3), mk("U", endurance=30)
    got = A.outcome_tables([punch, punch], [me, me], [t1, t2])
    assert builds == [1]
    one, two = (got.filter(got["matchup"] == m).drop("matchup") for m in (0, 1))
    assert one.equals(two)
    by_damage = one.group_by("damage").agg(pl.col("probability").sum()).sort("damage")
    assert np.allclose(by_damage["probability"].to_numpy(), np.array([1, 4, 6, 4, 1]) / 16, atol=1e-15, rtol=0)
    A.outcome_tables([punch], [me], [mk("V", ag=1)])  # Agility 1: another defense, another build
    assert builds == [1, 1]
