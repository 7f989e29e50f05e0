"""The exact Annulus duel over both sides' state (derived from annulus/round.py by workbench/fight/duel.py,
``duel_of``; its numbers equal the hand-written chain it replaced on all 121 catalog pairs, recorded in
tests/fight/before/annulus.parquet and checked by tests/fight/test_before.py): hand-worked rounds for the
effects that couple the two sides, an independent Fraction enumeration of small duels written from the
rules text (annulus-attacks.txt; docs/combat.md, "Duels"), agreement with the stateless chains where no
state is carried and with the seeded simulation on catalog pairs, and what it leaves to the simulation.

Baseline: 4 dice succeeding on 4+ (p = 1/2): P(k successes) = 1, 4, 6, 4, 1 out of 16, damage = the
successes against defense 0; creatures with Endurance 0 and Vitality = their level.
"""

from __future__ import annotations

import importlib
from fractions import Fraction as F

import numpy as np
import pytest

import workbench as wb
from tests.systems.annulus.builders import A, mk
from workbench.simulate import state_effects
from workbench.systems.annulus.round import AnnulusRound

fight_duel = importlib.import_module("workbench.fight.duel")
ONE_ACTION = A.Options(actions=1)


def _wins(a, b, options=None, first="a", rounds=100):
    """The duel derived from the Annulus round (annulus/round.py) by the fight's generic duel
    (``workbench.fight.duel.duel_of``), as (win_a, win_b, left_a, left_b)."""
    got = fight_duel.duel_of(A, a, b, options, first=first, max_rounds=rounds)
    assert got is not None
    return got.win_a, got.win_b, got.left_a, got.left_b


# ---------------------------------------------------------------- hand-worked rounds


def test_a_choked_side_spends_its_only_action_on_recovery_and_chokes_at_its_turns_end():
    """One action a turn. a (Vitality 2) bites with Choke ("Trigger Die 9+", 1/3, only when the bite
    deals damage) the plain b (Vitality 2). Round 1: a kills b outright on 2+ successes (11/16). On
    exactly 1 (4/16) b is left at Vitality 1, choked with 1/3: its turn goes on the recovery check ("A
    recovery check is made by spending 1 action": 5/16 to recover), so it never strikes; failing
    (11/16) it takes "the successes on one die at the end of each of their turns" (1/2) and falls.
    P(a wins in round 1) = 11/16 + 4/16 * 1/3 * 11/16 * 1/2 = 275/384. b strikes only when not choked
    (1/16 + 4/16 * 2/3 = 11/48) and kills a on 2+ (11/16): P(b wins in round 1) = 121/768."""
    a = mk("A", level=2, endurance=0, attack_sets=[A.Attack("Bite", "agility", {"Choke": 1})])
    b = mk("B", level=2, endurance=0, attack_sets=[A.Attack("Jab", "agility", {})])
    win_a, win_b, _, _ = _wins(a, b, ONE_ACTION)
    assert win_a[0] == pytest.approx(275 / 384, abs=1e-12)
    assert win_b[0] == pytest.approx(121 / 768, abs=1e-12)
    assert state_effects(a, b, ONE_ACTION) == {"choke"}
    r = wb.duel(a, b, options=ONE_ACTION)
    assert r.exact and r.forced_by == ()
    assert r.rounds["p_a_wins"][0] == pytest.approx(275 / 384, abs=1e-12)


def test_a_counter_strikes_back_inside_the_attackers_turn():
    """Counter: "when damaged by an attack on the chosen defense, strike back", once a round. One
    action; a (Vitality 1) jabs b (Vitality 2, a Counter set on agility). a kills b on 2+ (11/16);
    on exactly 1 (4/16) b counters at once and kills a on 1+ (15/16): 4/16 * 15/16 = 60/256 of b's
    wins come inside a's turn. Otherwise a stands (1/16 * 4/16 + 1/16 = 20/256) and b's own turn
    kills on 1+: P(b wins in round 1) = 60/256 + 20/256 * 15/16 = 1260/4096."""
    a = mk("A", level=1, endurance=0, attack_sets=[A.Attack("Jab", "agility", {})])
    riposte = A.Attack("Riposte", "agility", {"Counter": 1}, counter_type="agility")
    b = mk("B", level=2, endurance=0, attack_sets=[riposte])
    win_a, win_b, _, _ = _wins(a, b, ONE_ACTION)
    assert win_a[0] == pytest.approx(11 / 16, abs=1e-12)
    assert win_b[0] == pytest.approx(1260 / 4096, abs=1e-12)
    assert state_effects(b, a, ONE_ACTION) == {"counter"}
    # b acting first: its Riposte strikes on its own turn, and a's jab in reply is countered again
    win_a, win_b, _, _ = _wins(a, b, ONE_ACTION, first="b")
    assert win_b[0] == pytest.approx(15 / 16 + 1 / 16 * 4 / 16 * 15 / 16, abs=1e-12)


def test_the_winners_damage_taken_is_kept():
    """left_a: a's damage taken when a wins. a (Vitality 2) and b (Vitality 1), one action, a first:
    a kills b on 1+ (15/16, a untouched); else b strikes: 1 success (4/16) leaves a at 1 taken, 2+
    kills a. So P(a wins with 0 taken) >= 15/16 and the mass at 1 taken starts with 1/16 * 4/16 *
    15/16 in round 2."""
    a = mk("A", level=2, endurance=0, attack_sets=[A.Attack("Bite", "agility", {"Choke": 1})])
    b = mk("B", level=1, endurance=0, attack_sets=[A.Attack("Jab", "agility", {})])
    win_a, win_b, left_a, left_b = _wins(a, b, ONE_ACTION, rounds=2)
    assert win_a[0] == pytest.approx(15 / 16, abs=1e-12)
    assert left_a.sum() == pytest.approx(win_a.sum(), abs=1e-12)
    assert left_b.sum() == pytest.approx(win_b.sum(), abs=1e-12)
    assert left_a[1] == pytest.approx(1 / 16 * 4 / 16 * 15 / 16, abs=1e-12)


# ---------------------------------------------------------------- an independent oracle

P_RECOVER = F(5, 16)  # 4 dice, 3 or more successes at 1/2
CONDITIONS = ("burn", "choke", "sap")  # the recovery order (Tactics().recover_from)
DOT = {"burn": [F(1, 4), F(1, 2), F(1, 4)], "choke": [F(1, 2), F(1, 2)], "sap": [F(0), F(1)]}


def _rows(attack, me, foe, prone):
    """One use's rows (A.outcomes) against a target Prone or not: (damage, vital, conditions laid,
    knockdown, daze, probability)."""
    t = A.outcomes(attack, me, foe, situation=A.Situation(target_prone=prone, target_awareness="alert"))
    out = []
    for r in t.iter_rows(named=True):
        laid = frozenset(c for c in CONDITIONS if r[c])
        out.append(
            (
                r["damage"],
                r["vitality_damage"],
                laid,
                r["knockdown"],
                r["daze"],
                F(r["probability"]).limit_denominator(10**9),
            )
        )
    assert sum(r[-1] for r in out) == 1
    return out


def _oracle(a, b, rounds, first=0):
    """(P(a wins in round t), P(b wins in round t)), t = 1..rounds, by plain enumeration with Fractions
    of the rules text. A side: (Endurance, Vitality, conditions, Prone, Dazed next turn). Its turn: 2
    actions, 1 when Dazed ("only 1 action instead of the normal 2"); one recovery check (1 action,
    5/16, the first of its conditions in order) while it has Burn, Choke or Sap; each action left one
    use of its only set on the foe (Endurance first, then Vitality, vital damage to Vitality; the
    row's conditions, Knockdown (Prone) and Daze land on the foe); the fight stops when a side falls;
    then Burn 2 dice, Choke 1 die, Sap 1 on the side "at the end of each of their turns". A fight
    ends after the turn a side falls in (both: a draw)."""
    creatures = (a, b)
    start = tuple((c.endurance, c.vitality, frozenset(), False, False) for c in creatures)
    dist = {start: F(1)}
    wins = [[F(0)] * rounds, [F(0)] * rounds]

    def hurt(side, k, vit=0):
        e, v, *rest = side
        soak = min(e, k)
        return (e - soak, v - (k - soak) - vit, *rest)

    for r in range(rounds):
        for x in (first, 1 - first):
            nxt: dict = {}
            for state, p in dist.items():
                me, foe = state[x], state[1 - x]
                actions = 1 if me[4] else 2
                me = (*me[:4], False)
                branches = [(me, foe, actions, p)]
                if me[2]:  # one recovery check
                    gone = next(c for c in CONDITIONS if c in me[2])
                    cured = (me[0], me[1], me[2] - {gone}, me[3], me[4])
                    branches = [(cured, foe, actions - 1, p * P_RECOVER), (me, foe, actions - 1, p * (1 - P_RECOVER))]
                ends: list = []
                for me, foe, acts, q in branches:
                    work = [(me, foe, q)]
                    for _ in range(acts):
                        after = []
                        for m2, f2, q2 in work:
                            if f2[1] <= 0:
                                after.append((m2, f2, q2))
                                continue
                            for dmg, vit, laid, knock, daze, w in _rows(
                                creatures[x].attack_sets[0], creatures[x], creatures[1 - x], f2[3]
                            ):
                                f3 = hurt(f2, dmg - vit, vit)
                                f3 = (f3[0], f3[1], f3[2] | laid, f3[3] or knock, f3[4] or daze)
                                after.append((m2, f3, q2 * w))
                        work = after
                    ends += work
                for me, foe, q in ends:
                    dots = [F(1)]
                    for name in CONDITIONS:
                        if name in me[2]:
                            dots = list(np.convolve(np.array(dots, dtype=object), np.array(DOT[name], dtype=object)))
                    for k, w in enumerate(dots):
                        if not w:
                            continue
                        m2 = hurt(me, k)
                        pair = (m2, foe) if x == 0 else (foe, m2)
                        dead = [pair[0][1] <= 0, pair[1][1] <= 0]
                        if dead[0] and not dead[1]:
                            wins[1][r] += q * w
                        elif dead[1] and not dead[0]:
                            wins[0][r] += q * w
                        elif not any(dead):
                            nxt[pair] = nxt.get(pair, 0) + q * w
            dist = nxt
    return [float(v) for v in wins[0]], [float(v) for v in wins[1]]


@pytest.mark.parametrize(
    "ups_a,ups_b,level_a,level_b,endurance_a,first",
    [
        ({"Choke": 1}, {}, 2, 3, 0, 0),
        ({"Burn": 1, "Knockdown": 1}, {"Sap": 1}, 3, 2, 1, 1),
        ({"Daze": 1, "Choke": 1}, {"Vital": 1, "Burn": 1}, 2, 3, 1, 0),
    ],
)
def test_the_duel_matches_a_fraction_enumeration_of_the_rules(ups_a, ups_b, level_a, level_b, endurance_a, first):
    a = mk("A", level=level_a, endurance=endurance_a, attack_sets=[A.Attack("S", "agility", ups_a)])
    b = mk("B", level=level_b, endurance=0, attack_sets=[A.Attack("T", "agility", ups_b)])
    rounds = 5
    want_a, want_b = _oracle(a, b, rounds, first)
    win_a, win_b, _, _ = _wins(a, b, first="ab"[first], rounds=rounds)
    assert np.abs(win_a - want_a).max() < 1e-12
    assert np.abs(win_b - want_b).max() < 1e-12


# ---------------------------------------------------------------- the stateless chains, the simulation


def test_without_state_the_duel_is_the_two_independent_chains():
    """A duel with no state effect on either side (wb.duel combines the two directions' kill chains,
    combat._duel_of, over Endurance and Vitality) equals the chain over both sides' state, both orders
    and the fair coin: plain sets, vital damage against Endurance, two sets to choose from."""
    creatures = [
        mk("Plain", level=3, endurance=2, attack_sets=[A.Attack("Jab", "agility", {})]),
        mk("Stabber", level=2, endurance=3, attack_sets=[A.Attack("Stab", "agility", {"Vital": 1})]),
        mk(
            "Brawler",
            level=4,
            endurance=1,
            to=1,
            attack_sets=[A.Attack("Jab", "agility", {}), A.Attack("Kick", "toughness", {"Critical": 1})],
        ),
    ]
    pairs = [(a, b) for a in creatures for b in creatures]
    assert not any(state_effects(a, b) for a, b in pairs)
    for a, b in pairs:
        for first in ("a", "b", "random"):
            r = wb.duel(a, b, first=first)
            win_a, win_b, left_a, _ = _wins(a, b, first=first)
            assert np.abs(win_a - r.rounds["p_a_wins"].to_numpy()).max() < 1e-12
            assert np.abs(win_b - r.rounds["p_b_wins"].to_numpy()).max() < 1e-12
            if a is b:  # (the frame's sides share the name)
                continue
            hp = A.hit_points(a)
            frame = r.hp_left.filter(r.hp_left["side"] == a.name)
            got = np.zeros(hp)
            got[hp - frame["hp_left"].to_numpy()] = frame["probability"].to_numpy()
            assert np.abs(left_a - got).max() < 1e-12


@pytest.mark.parametrize(
    "a,b",
    [
        ("Town Guard", "Cutpurse"),  # counter, disarm, pacify, setup, vital damage
        ("Hill Giant", "Storm Priest"),  # devour, drain, daze, knockdown against telegraphed, blind, weaken
        ("Berserker", "Basilisk"),  # berserk, burn, reckless, swansong, terrorize against petrify, choke
        ("Giant Centipede", "Giant Centipede"),  # recharge, fatigue, sap, choke on both sides
    ],
)
def test_the_duel_agrees_with_the_seeded_simulation(a, b):
    cat = A.catalog()
    a, b = cat.creature(a), cat.creature(b)
    fights = 40_000
    win_a, win_b, _, _ = _wins(a, b)
    sim = wb.duel(a, b, simulate=True, fights=fights, seed=3, progress=False)
    for exact, simulated in ((win_a, sim.rounds["p_a_wins"]), (win_b, sim.rounds["p_b_wins"])):
        simulated = simulated.to_numpy()
        for k in (1, 2, 3, 100):
            p, s = float(exact[:k].sum()), float(simulated[:k].sum())
            se = np.sqrt(max(p * (1 - p), 1 / fights) / fights)
            assert abs(p - s) < 4 * se
    r = wb.duel(a, b)
    assert r.exact and r.forced_by == () and r.p_a_wins == pytest.approx(float(win_a.sum()), abs=1e-12)


def test_every_catalog_duel_is_exact():
    """The chain over both sides' state solves every ordered catalog pair (121): none simulated."""
    cat = A.catalog()
    creatures = list(cat.creatures.values())
    for a in creatures:
        for b in creatures:
            win_a, win_b, _, _ = _wins(a, b, rounds=20)
            assert 0.0 <= win_a.sum() + win_b.sum() <= 1.0 + 1e-12


# ---------------------------------------------------------------- what is left to the simulation


def test_a_state_past_the_bound_is_simulated_and_says_why(monkeypatch):
    a = mk("A", level=2, endurance=0, attack_sets=[A.Attack("Bite", "agility", {"Choke": 1})])
    b = mk("B", level=2, endurance=0, attack_sets=[A.Attack("Jab", "agility", {})])
    monkeypatch.setattr(fight_duel, "MAX_CELLS", 0)
    assert fight_duel.duel_of(A, a, b) is None
    r = wb.duel(a, b, fights=2_000, progress=False)
    assert not r.exact and r.forced_by == ("choke",) and r.standard_error is not None


def test_sides_too_large_for_the_grid_are_simulated(monkeypatch):
    """Endurance 900 + Vitality 100 on each side (one pool: nothing deals vital damage): the grid of
    both sides' damage taken alone is 1,000 x 1,000 = 1 M cells; with the bound just under 1 M alive
    cells that is past it, counted before any work, so the duel is left to the simulation at once."""
    a = mk("A", level=100, endurance=900, attack_sets=[A.Attack("Bite", "agility", {"Choke": 1})])
    monkeypatch.setattr(fight_duel, "MAX_CELLS", 999_999)
    assert fight_duel.duel_of(A, a, a) is None


def test_other_tactics_are_simulated():
    """The chain plays the default Tactics; a side given others is simulated, forced by "tactics"."""
    cat = A.catalog()
    a, b = cat.creature("Giant Centipede"), cat.creature("Wolf")
    r = wb.duel(a, b, tactics_a=A.tactics_class(recovery_actions=2), fights=2_000, progress=False)
    assert not r.exact and r.forced_by == ("tactics",)
    r = wb.duel(a, b, tactics_a=A.tactics_class(), fights=2_000, progress=False)  # the default: exact
    assert r.exact


# ---------------------------------------------------------------- Disarm during a turn (issue 42)


def test_a_set_disarmed_mid_turn_makes_no_further_use_that_turn():
    """CLARIFICATIONS.md, Annulus, "Disarm during a turn": a set disarmed while its user's turn is under way
    (by a Counter) "cannot be used for the rest of that turn either" (annulus-attacks.txt, Disarm: "For as
    long as the condition lasts, they cannot use that set"). a (Vitality 10) plans Jab + Jab, its only set; b
    (Vitality 5) answers damage on agility with Riposte (Counter, Disarm 11+). Worked by hand, a first:
    J1, J2 ~ successes of 4 dice at 1/2 (1, 4, 6, 4, 1 out of 16); a kills b in its turn only with both Jabs,
    J1 + J2 >= 5. After a first Jab of 1+, b's Riposte deals 1+ (15/16) and its Trigger Die rolls 11+ (2/12):
    a's Jab is disarmed with probability 15/16 x 1/6 = 5/32, and the second Jab is not thrown (no set left:
    the action is lost). P(a wins in round 1) = 27/32 x sum P(J1 = j) P(J2 >= 5 - j)
    = 27/32 x (4 x 1 + 6 x 5 + 4 x 11 + 1 x 15) / 256 = 27/32 x 93/256 = 2511/8192; were the second Jab still
    thrown, 93/256."""
    a = mk("A", level=10, endurance=0, attack_sets=[A.Attack("Jab", "agility", {})])
    riposte = A.Attack("Riposte", "agility", {"Counter": 1, "Disarm": 1}, counter_type="agility")
    b = mk("B", level=5, endurance=0, attack_sets=[riposte])
    assert "disarm" in state_effects(a, b)
    win_a, _, _, _ = _wins(a, b, rounds=1)
    assert win_a[0] == pytest.approx(2511 / 8192, abs=1e-12)
    sim = wb.duel(a, b, simulate=True, fights=40_000, seed=5, max_rounds=1)
    assert abs(sim.p_a_wins - 2511 / 8192) < 4 * np.sqrt(2511 / 8192 * (1 - 2511 / 8192) / 40_000)


def test_the_actions_of_a_disarmed_set_go_to_the_best_plan_still_legal():
    """ "The actions its later uses would have spent go to the best plan still legal with the actions left, if
    there is one, and are lost otherwise" (CLARIFICATIONS.md, Annulus). Three actions (Options(actions=3)); a
    (Vitality 10) holds Jab (1 action) and Big (Charged: 2 actions; mean 3 against Jab's 2) and plans
    Jab + Jab + Jab (mean 6 against Jab + Big's 5). b (Vitality 7) answers the first Jab that deals damage with
    its Riposte (Counter, once a round; Disarm 11+), which takes a's least valued set, the Jab, with
    probability 15/16 x 2/12 = 5/32. The enumeration below plays a's turn from the rule: Jab by Jab; once the
    Jab is disarmed, Big if 2 actions are left, else nothing. P(a wins in round 1, a first) equals it to 1e-12
    (b cannot fall in its own turn, and a cannot fall before its turn ends: the Riposte deals at most 4)."""
    jab, big = A.Attack("Jab", "agility", {}), A.Attack("Big", "agility", {"Charged": 1})
    a = mk("A", level=10, endurance=0, attack_sets=[jab, big])
    riposte = A.Attack("Riposte", "agility", {"Counter": 1, "Disarm": 1}, counter_type="agility")
    b = mk("B", level=7, endurance=0, attack_sets=[riposte])
    three = A.Options(actions=3)
    side = AnnulusRound(A, a, b, three).a  # the attacker's part of the round (annulus/round.py)
    assert [side.sets[i].name for i in side.disarm_order] == ["Jab", "Big"]
    jab_pmf = {k: F(w, 16) for k, w in enumerate((1, 4, 6, 4, 1))}
    big_pmf = {k: F(float(p)).limit_denominator(10**6) for k, p in enumerate(A.damage(big, a, b).pmf) if p > 0}
    assert sum(big_pmf.values()) == 1
    disarm = F(15, 16) * F(2, 12)

    def p_kill(dealt: int, acts: int, used: bool, disarmed: bool) -> F:
        """P(b falls in the rest of a's turn), with ``dealt`` damage so far and ``acts`` actions left."""
        if dealt >= 7:
            return F(1)
        if disarmed:  # the best plan still legal: Big if two actions are left
            return sum((q for k, q in big_pmf.items() if dealt + k >= 7), F(0)) if acts >= 2 else F(0)
        if acts == 0:
            return F(0)
        total = F(0)
        for k, q in jab_pmf.items():
            if k >= 1 and not used and dealt + k < 7:  # b counters: "when damaged", once a round
                total += q * (
                    disarm * p_kill(dealt + k, acts - 1, True, True)
                    + (1 - disarm) * p_kill(dealt + k, acts - 1, True, False)
                )
            else:
                total += q * p_kill(dealt + k, acts - 1, used, False)
        return total

    want = p_kill(0, 3, False, False)
    win_a, _, _, _ = _wins(a, b, three, rounds=1)
    assert win_a[0] == pytest.approx(float(want), abs=1e-12)
    sim = wb.duel(a, b, options=three, simulate=True, fights=40_000, seed=9, max_rounds=1)
    assert abs(sim.p_a_wins - float(want)) < 4 * np.sqrt(float(want) * (1 - float(want)) / 40_000)
