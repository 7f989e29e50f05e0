"""Last Odyssey duels over each side's state, solved exactly (issue 15, item 2 for duels): the MP and the Shell by
the two directions' chains, the phase abilities by the chain over both sides' state (workbench/fight/duel.py, from last_odyssey/round.py).

srd/heroes/numbers.md (HP and MP): "When a character uses an ability that has an MP cost, their MP is reduced by
that amount. Characters may never use an ability that costs more than their current MP". A side's MP pays for its
own abilities only, and a Shell guards its bearer against the foe's damage only (CLARIFICATIONS.md, Last Odyssey:
Shell), so both are one-sided (LastOdyssey.duel_couplings leaves them out) and, between two creatures without a
Shell, the duel is the combination of the two MP chains (derived from last_odyssey/round.py), exact. Phase abilities are
played between rounds, after both turns (srd/combat/round.md: the Action Phase, then the Effect Phase, then the
Paradigm Phase), and Dragonslayer hands its anima to the foe (srd/anima/spending.md): they couple, and the duel is
the chain over both sides' (MP, Shell, Poisoned, anima; HP damage taken), checked against a second enumeration
oracle (``phase_duel_oracle``). The oracle is a plain enumeration over (damage taken and MP left of both
sides) with Fractions, each turn the one test_mp_chain._turn chooses from the rules (the hit-die faces of
test_oracle.oracle_face), to 1e-12. No bundled creature with an MP ability lacks a Shell, so the cases take
catalog creatures with their Shell taken off.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

import workbench as wb
from workbench.systems.last_odyssey import Shell
from workbench.systems.last_odyssey import round as lo_round

from .published import CAT, LO
from .test_mp_chain import _turn
from workbench.fight.chain import state_chain
from workbench.fight.duel import duel_of


def bare(name: str, hp: int):
    """Return the catalog creature ``name`` without its Shell, with ``hp`` HP."""
    return CAT.creature(name).replace(shell=None, hp=hp)


def duel_oracle(a, b, first: str, rounds: int):
    """Return (P(a wins in round r), P(b wins in round r) for r = 1..rounds, {a's HP left: P}, {b's HP left: P}) by
    enumeration over (damage a has taken, a's MP, damage b has taken, b's MP): each turn the side plays the turn its
    MP left pays for (``_turn``: the pmf and the MP it spends), ``first`` acting first."""
    turns: dict[tuple[str, int], tuple[dict[int, Fraction], int]] = {}

    def turn_of(who: str, mp: int):
        if (who, mp) not in turns:
            turns[(who, mp)] = _turn(a, b, mp, None) if who == "a" else _turn(b, a, mp, None)
        return turns[(who, mp)]

    alive = {(0, a.mp, 0, b.mp): Fraction(1)}
    win_a, win_b = [Fraction(0)] * rounds, [Fraction(0)] * rounds
    left_a: dict[int, Fraction] = {}
    left_b: dict[int, Fraction] = {}
    for r in range(rounds):
        for who in ("a", "b") if first == "a" else ("b", "a"):
            nxt: dict[tuple[int, int, int, int], Fraction] = {}
            for (sa, ma, sb, mb), p in alive.items():
                pmf, cost = turn_of(who, ma if who == "a" else mb)
                for d, q in pmf.items():
                    if who == "a" and sb + d >= b.hp:
                        win_a[r] += p * q
                        left_a[a.hp - sa] = left_a.get(a.hp - sa, Fraction(0)) + p * q
                    elif who == "b" and sa + d >= a.hp:
                        win_b[r] += p * q
                        left_b[b.hp - sb] = left_b.get(b.hp - sb, Fraction(0)) + p * q
                    else:
                        key = (sa, ma - cost, sb + d, mb) if who == "a" else (sa + d, ma, sb, mb - cost)
                        nxt[key] = nxt.get(key, Fraction(0)) + p * q
            alive = nxt
    return win_a, win_b, left_a, left_b


def _left(result, side: str) -> dict[int, float]:
    f = result.hp_left.filter(result.hp_left["side"] == side)
    return dict(zip(f["hp_left"].to_list(), f["probability"].to_list()))


def test_mp_and_shell_are_one_sided_and_phase_abilities_couple():
    """MP (both sides) and the Shell are left out of duel_couplings; Miasma (the Zombie Hulk), Dragonslayer (Ser
    Tarbh) and Foretell Doom (the Prophet) are named, in either direction, and the duel is the chain over both
    sides' state (``LastOdyssey.duel_chain``), exact. A Shell is one-sided and chained: a duel against a shelled
    side is exact."""
    wolf, rider = bare("Wolf", 30), bare("Boar Rider", 30)
    assert LO.state_effects(wolf, rider) == {"mp"} == LO.state_effects(rider, wolf)
    assert LO.duel_couplings(wolf, rider) == set()
    assert lo_round.ONE_SIDED == {"mp", "shell"}
    jianna = CAT.creature("Jianna")
    for name, effect in (
        ("Zombie Hulk", "miasma"),
        ("Ser Tarbh of Greenhill, Form 1: War Leader", "dragonslayer"),
        ("Prophet", "foretell doom"),
    ):
        x = CAT.creature(name)
        assert LO.duel_couplings(x, jianna) == {effect} == LO.duel_couplings(jianna, x)
        d = wb.duel(x, jianna)  # coupled: the chain over both sides' state (fight/duel.py)
        assert d.exact and d.forced_by == () and "exact" in d.summary()
    shelled = CAT.creature("Wolf")
    assert LO.duel_couplings(shelled, rider) == set()
    d = wb.duel(rider, shelled, fights=2_000, seed=1)
    assert d.exact and d.forced_by == ()


CASES = [  # (a, its HP, b, its HP): HP raised so that fights last rounds past the MP turns (about 40-90 a turn)
    ("Wolf", 150, "Boar Rider", 180),  # both spend MP: Wolf 15 MP (Gore 3), Boar Rider 10 MP (Gore 3, Charge 5)
    ("Boar Rider", 90, "Jianna", 200),  # one side's MP, the other HP only (Jianna's Attack costs none)
    ("Spitter", 150, "Wolf", 120),  # Spitter 45 MP (Acid Spit 5)
]


@pytest.mark.parametrize("first", ["a", "b", "random"])
@pytest.mark.parametrize("na, ha, nb, hb", CASES)
def test_duel_equals_the_enumeration(na, ha, nb, hb, first):
    """Per-round wins of both sides and each winner's HP left equal the enumeration over both sides' MP to 1e-12
    (first = random: the mean of the two orders), over 6 rounds; p_a_wins + p_b_wins + p_draw = 1."""
    a, b = bare(na, ha), CAT.creature(nb).replace(shell=None, hp=hb)
    assert "mp" in LO.state_effects(a, b)
    d = wb.duel(a, b, first=first, max_rounds=6)
    assert d.exact and d.forced_by == ()
    orders = ["a", "b"] if first == "random" else [first]
    got = [duel_oracle(a, b, o, 6) for o in orders]
    win_a = [float(sum(g[0][r] for g in got) / len(got)) for r in range(6)]
    win_b = [float(sum(g[1][r] for g in got) / len(got)) for r in range(6)]
    np.testing.assert_allclose(d.rounds["p_a_wins"].to_numpy(), win_a, rtol=0, atol=1e-12)
    np.testing.assert_allclose(d.rounds["p_b_wins"].to_numpy(), win_b, rtol=0, atol=1e-12)
    for side, i, hp in ((a.name, 2, ha), (b.name, 3, hb)):
        left = _left(d, side)
        for h in range(1, hp + 1):
            want = float(sum(g[i].get(h, Fraction(0)) for g in got) / len(got))
            assert abs(left.get(h, 0.0) - want) < 1e-12, (side, h)
    assert abs(d.p_a_wins + d.p_b_wins + d.p_draw - 1) < 1e-12
    assert d.p_a_wins > 1e-4 and d.p_b_wins > 1e-4  # both sides win sometimes: both chains matter


def test_state_chain_weighted_alive_mass_is_the_enumeration():
    """state_chain(weights=w) returns sum_t w[t] P(alive after t rounds, damage taken d): the Boar Rider (10 MP:
    Gore + Gore, then Stab + Gore, then Stab + Stab) on Jianna raised to 250 HP, weights 1..9 over rounds 0..8,
    against the enumeration to 1e-12 (lead rounds and the constant turn after them both weighted)."""
    rider, jianna = bare("Boar Rider", 22), CAT.creature("Jianna").replace(hp=250)
    w = np.arange(1.0, 10.0)
    got = state_chain(LO, rider, jianna, max_rounds=8, weights=w)
    by, mean, left = got.by, got.mean, got.weighted
    assert state_chain(LO, rider, jianna, max_rounds=8).weighted is None
    alive, mp = {0: Fraction(1)}, rider.mp
    want = [Fraction(0)] * 250
    for r in range(9):
        for s, p in alive.items():
            want[s] += int(w[r]) * p
        pmf, cost = _turn(rider, jianna, mp, None)
        nxt: dict[int, Fraction] = {}
        for s, p in alive.items():
            for d, q in pmf.items():
                if s + d < 250:
                    nxt[s + d] = nxt.get(s + d, Fraction(0)) + p * q
        alive, mp = nxt, mp - cost
    np.testing.assert_allclose(left, [float(x) for x in want], rtol=0, atol=1e-12)
    assert left.sum() > w[:4].sum()  # alive past the two lead rounds: the constant turn's weights count
    with pytest.raises(wb.RulesError) as err:
        state_chain(LO, rider, jianna, max_rounds=8, weights=np.full(3, np.nan))
    assert err.value.field == "weights"


PAIRS = [("Boar Rider", 120, "Wolf", 100, "a"), ("Wolf", 60, "Boar Rider", 60, "random")]


def phase_duel_oracle(a, b, first: str, rounds: int):
    """Return (P(a wins in round r), P(b wins in round r)), r = 1..rounds, of a duel of two creatures with one
    action ability each and no MP costs, by enumeration over exact fractions from the rules text: each use one of
    the ten hit-die faces (test_oracle.oracle_face, reading the Shell standing and the HP left); srd/combat/round.md:
    the extra Paradigm Phase before round 1 (a's, then b's), then each round both turns (``first`` first) and a's
    phases then b's: Poisoned's damage (a tenth of the base maximum HP, at least 1), the effect-phase sleights
    (Poisoned for the battle), after the third Effect Phase the abilities that wait for it, the first paradigm
    action the anima pays for, its anima handed to the foe (at most 10, srd/anima/spending.md). A Shell takes
    damage first; a kill in a round's phases is that round's (the extra Paradigm Phase's: round 1)."""
    from tests.systems.last_odyssey.test_oracle import oracle_face

    who = (a, b)
    # state: (HP taken, Shell left, foe Poisoned by it, anima) of a, then of b
    alive = {((0, a.shell.points if a.shell else 0, False, a.anima), (0, b.shell.points if b.shell else 0, False,
              b.anima)): Fraction(1)}  # fmt: skip
    wins = [[Fraction(0)] * rounds, [Fraction(0)] * rounds]

    def use(state, x, attack, r, anima=0):
        """One use of ``attack`` by side x on its foe, from every state; the kills go to wins[x]."""
        out: dict = {}
        me_c, foe_c = who[x], who[1 - x]
        for st, p in state.items():
            me, foe = st[x], st[1 - x]
            for die in range(1, 11):
                _, dmg, status = oracle_face(attack, me_c, foe_c, die, shell_points=foe[1], target_hp=foe_c.hp - foe[0])
                ab = min(dmg, foe[1])
                if attack.kind == "sleight":
                    me2, foe2 = (me[0], me[1], me[2] or status, me[3]), foe
                else:
                    me2 = (me[0], me[1], me[2], me[3] - anima)
                    foe2 = (foe[0] + dmg - ab, foe[1] - ab, foe[2], min(10, foe[3] + anima))
                q = p * Fraction(1, 10)
                if foe2[0] >= foe_c.hp:
                    wins[x][r - 1] += q
                    continue
                k = (me2, foe2) if x == 0 else (foe2, me2)
                out[k] = out.get(k, Fraction(0)) + q
        return out

    def phases(state, x, r):
        c = who[x]
        at = max(r, 1)
        if r >= 1:
            out: dict = {}
            for st, p in state.items():
                me, foe = st[x], st[1 - x]
                if me[2]:
                    d = max(1, who[1 - x].hp // 10)
                    ab = min(d, foe[1])
                    foe = (foe[0] + d - ab, foe[1] - ab, foe[2], foe[3])
                    if foe[0] >= who[1 - x].hp:
                        wins[x][at - 1] += p
                        continue
                k = (me, foe) if x == 0 else (foe, me)
                out[k] = out.get(k, Fraction(0)) + p
            state = out
            for ab in (a_ for a_ in c.phase_abilities if a_.timing == "effect_phase"):
                done = {k: v for k, v in state.items() if k[x][2]}
                state = use({k: v for k, v in state.items() if not k[x][2]}, x, ab, at)
                for k, v in done.items():
                    state[k] = state.get(k, Fraction(0)) + v
            if r == 3:
                for ab in (a_ for a_ in c.phase_abilities if a_.timing == "after_third_effect_phase"):
                    state = use(state, x, ab, at)
        paradigm = [a_ for a_ in c.phase_abilities if a_.timing == "paradigm_phase"]
        if paradigm:
            out = {}
            for st, p in state.items():
                ab = next((a_ for a_ in paradigm if st[x][3] >= a_.anima_cost), None)
                got = {st: p} if ab is None else use({st: p}, x, ab, at, anima=ab.anima_cost)
                for k, v in got.items():
                    out[k] = out.get(k, Fraction(0)) + v
            state = out
        return state

    for x in (0, 1):
        alive = phases(alive, x, 0)
    for r in range(1, rounds + 1):
        for x in (0, 1) if first == "a" else (1, 0):
            alive = use(alive, x, who[x].abilities[0], r)
        for x in (0, 1):
            alive = phases(alive, x, r)
    return wins


@pytest.mark.parametrize("first", ["a", "b"])
def test_phase_duel_equals_the_enumeration(first):
    """Two Leaders each with Dragonslayer (the first holds 1 anima, the second none: the anima spent passes to the
    foe, so they take turns using it, "Antagonists can only use one paradigm action per round"), the first also with
    Miasma, the second with Foretell Doom and a Shell of 5, one Cut a turn each: the chain over both sides' state
    (derived from last_odyssey/round.py by workbench/fight/duel.py) equals the enumeration oracle (exact fractions) to 1e-12 in each of 6 rounds, for
    both win chances."""
    hulk, tarbh, prophet = (CAT.creature(n) for n in ("Zombie Hulk", "Ser Tarbh of Greenhill, Form 1: War Leader",
                                                        "Prophet"))  # fmt: skip
    ds = tarbh.ability("Dragonslayer")
    cut = LO.Attack("Cut", ap_cost=2)
    a = LO.Creature("Poisoner", 45, physical_accuracy=3, physical_attack=0, physical_defense=4, status_accuracy=3,
                    anima=1, evasion=1, abilities=(cut,), phase_abilities=(hulk.ability("Miasma"), ds))  # fmt: skip
    b = LO.Creature("Seer", 40, physical_accuracy=2, physical_attack=1, magical_accuracy=4, magical_attack=1,
                    physical_defense=4, resistance=1, abilities=(cut,), shell=Shell(5),
                    phase_abilities=(ds, prophet.ability("Foretell Doom")))  # fmt: skip
    assert LO.duel_couplings(a, b) == {"miasma", "dragonslayer", "foretell doom"}
    want_a, want_b = phase_duel_oracle(a, b, first, 6)
    assert 0 < float(sum(want_a)) < 1 and 0 < float(sum(want_b)) < 1 and float(want_a[0] + want_b[0]) < 0.9
    got = duel_of(LO, a, b, first=first, max_rounds=6)
    assert got is not None
    np.testing.assert_allclose(got.win_a, [float(x) for x in want_a], rtol=0, atol=1e-12)
    np.testing.assert_allclose(got.win_b, [float(x) for x in want_b], rtol=0, atol=1e-12)
    d = wb.duel(a, b, first=first, max_rounds=6)
    assert d.exact and abs(d.p_a_wins - float(sum(want_a))) <= 1e-12
